"""A binary64 estimate of the smallest Gaussian σ: where the certified calibration looks first.

Nothing here is a result. :func:`reference.privacy.gaussian.sigma_exact` uses the estimate only to place a
narrow bracket, whose two ends it then certifies in Arb; a poor estimate (or none) costs time, never safety.

Model (Balle & Wang 2018, Theorem 8), in units of the sensitivity: with ``s = σ/Δ``, ``a = 1/(2s)`` and
``b = εs``,

    δ(s) = Φ(a - b) - e^ε Φ(-a - b).

Since ``(a + b)² - (a - b)² = 4ab = 2ε``, ``e^ε φ(a + b) = φ(a - b)``, and differentiating gives

    dδ/ds = -φ(a - b)/s²,   so   d log δ / d log s = -2a φ(a - b) / δ(s) < 0.

The estimate solves ``log δ(s) = log delta`` for ``u = log s`` by Newton's method on that derivative,
safeguarded by a bracket (a step leaving the bracket is replaced by its midpoint), in ``math`` floats: no
numpy or scipy call, because the whole point is speed. It gives up (``None``) whenever a float would not
represent the problem (δ below the float range, e^ε overflowing, a non-finite intermediate).
"""

from __future__ import annotations

import math
from fractions import Fraction

_ROOT_TWO = math.sqrt(2.0)
_ROOT_TWO_PI = math.sqrt(2.0 * math.pi)
#: Newton steps before giving up (quadratic convergence needs about 6 from the starting bracket).
_MAX_STEPS = 200
#: Stop once a step in log s is below this (a few units in the last place of s).
_STEP_FLOOR = 4e-16


def _log_delta(epsilon: float, s: float) -> tuple[float, float]:
    """``(log δ(s), d log δ / d log s)`` in floats; ``log δ = -inf`` where the float difference is <= 0."""
    a = 0.5 / s
    b = epsilon * s
    head = 0.5 * math.erfc((b - a) / _ROOT_TWO)
    tail = math.exp(epsilon) * 0.5 * math.erfc((a + b) / _ROOT_TWO)
    delta = head - tail
    if not delta > 0.0:
        return -math.inf, -math.inf
    density = math.exp(-0.5 * (a - b) ** 2) / _ROOT_TWO_PI
    return math.log(delta), -2.0 * a * density / delta


def sigma_estimate(*, epsilon: Fraction, delta: Fraction, sensitivity_squared: Fraction) -> float | None:
    """A float near the smallest σ with δ(ε) <= ``delta`` at sensitivity² ``sensitivity_squared``, or None.

    Inputs are the exact rationals of the caller (converted to floats here). On the grid ε in [0.01, 20],
    δ in [1e-15, 1e-3] it was within 1.1e-13 (relative) of the certified optimum — the float difference of the
    two normal tails cancels at small ε — which the caller does not rely on.
    """
    try:
        eps = float(epsilon)
        target = math.log(float(delta))
        scale = math.sqrt(float(sensitivity_squared))
        if eps > 700.0 or not (math.isfinite(target) and 0.0 < scale < math.inf and eps > 0.0):
            return None
        s = _solve(eps, target)
    except (OverflowError, ValueError, ZeroDivisionError):
        return None
    if s is None:
        return None
    sigma = s * scale
    return sigma if 0.0 < sigma < math.inf else None


def _solve(epsilon: float, target: float) -> float | None:
    """The root in ``u = log s`` of ``log δ(e^u) = target`` (δ decreases in s), safeguarded Newton."""
    # start at the classical formula (a fine guess for moderate ε) and bracket by doubling steps in u
    u = math.log(math.sqrt(2.0 * max(math.log(1.25) - target, 1e-3)) / epsilon)
    low = high = None  # low: log δ above target (s too small); high: below target
    width = 1.0
    for _ in range(_MAX_STEPS):
        value, slope = _log_delta(epsilon, math.exp(u))
        if value > target:
            low = u
            if high is None:
                u, width = u + width, 2 * width
                continue
        else:
            high = u
            if low is None:
                u, width = u - width, 2 * width
                continue
        assert low is not None and high is not None
        if value == target or high - low <= _STEP_FLOOR * max(1.0, abs(u)):
            return math.exp(u)
        step = (value - target) / slope if math.isfinite(slope) and slope < 0 else math.nan
        candidate = u - step
        if not (low < candidate < high):
            candidate = 0.5 * (low + high)
        if abs(candidate - u) <= _STEP_FLOOR * max(1.0, abs(u)):
            return math.exp(candidate)
        u = candidate
    return None


__all__ = ["sigma_estimate"]
