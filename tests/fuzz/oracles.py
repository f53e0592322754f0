"""Oracle layer: every certified output checked against an independent mpmath computation at >= 600 digits.

Each case names a public certified routine and its exact arguments. The oracle recomputes the true value from
the definition (not from the package's formulas: a different algorithm, a different library, at 600 digits
and again at 1,200 to confirm the digits kept), then classifies the routine's answer:

* ``ok`` — the enclosure contains the true value (up to 10**-100 relative: the oracle's own error, far below
  any enclosure's width) and is narrow (relative width at most ``width_bound``);
* ``refused`` — a ``ValueError``/``TypeError``/undecided comparison: a one-line refusal, allowed at the corners;
* ``unsafe`` — the enclosure misses the true value (a certified value on the wrong side);
* ``wide`` — it contains the value but is wider than ``width_bound`` (useless, as ``[0, 1.36e-126]`` was);
* ``traceback`` — any other exception.

Routines defined as "the smallest ε (σ) with δ <= target" are checked by their defining property at the two
ends: ``upper`` achieves the target (oracle δ(upper) <= target), ``lower`` does not (oracle δ(lower) > target).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
from mpmath import mp, mpf

#: Digits of the oracle (a second evaluation at twice as many confirms the first).
DIGITS = 600
#: Relative slack of a containment check: the oracle's error, far below any enclosure's width.
SLACK = mpf(10) ** -100
#: Relative width an enclosure may have (the package targets 2**-80; its bisections 10**-22 or 10**-12).
WIDTH_BOUND = Fraction(1, 10**11)


def _mp(value: Fraction) -> mpf:
    return mpf(value.numerator) / mpf(value.denominator)


def _root_increasing(function: Callable[[mpf], mpf], low: mpf, high: mpf, steps: int = 400) -> mpf:
    """The root of an increasing function in [low, high] by bisection in log-space (positive arguments)."""
    lo, hi = mpmath.log(low), mpmath.log(high)
    for _ in range(steps):
        middle = (lo + hi) / 2
        if function(mpmath.exp(middle)) > 0:
            hi = middle
        else:
            lo = middle
    return mpmath.exp((lo + hi) / 2)


def _bracket(function: Callable[[mpf], mpf]) -> tuple[mpf, mpf]:
    low, high = mpf(1), mpf(1)
    while function(low) > 0:
        low /= mpf(2) ** 64
    while function(high) <= 0:
        high *= mpf(2) ** 64
    return low, high


# ------------------------------------------------------------------------------------------- true values


def zcdp_epsilon_tight(rho: Fraction, delta: Fraction) -> mpf:
    """inf_{α>1} αρ + (log(1/δ) + (α-1) log(1-1/α) - log α)/(α-1), clipped at 0 (CKS 2020, Corollary 13)."""
    budget, log_inverse = _mp(rho), -mpmath.log(_mp(delta))

    def slope(t: mpf) -> mpf:  # the derivative's sign: ρt² + log(1+t) - log(1/δ)
        return budget * t * t + mpmath.log1p(t) - log_inverse

    t = _root_increasing(slope, *_bracket(slope))
    alpha = 1 + t
    value = alpha * budget + (log_inverse + t * mpmath.log(t / alpha) - mpmath.log(alpha)) / t
    return max(value, mpf(0))


def zcdp_log_delta(rho: Fraction, epsilon: Fraction) -> mpf:
    """inf_{α>1} (α-1)(αρ-ε) + α log(1-1/α) - log(α-1)."""
    budget, eps = _mp(rho), _mp(epsilon)

    def slope(t: mpf) -> mpf:  # (2α-1)ρ - ε + log(1-1/α)
        return (2 * t + 1) * budget - eps + mpmath.log(t / (1 + t))

    t = _root_increasing(slope, *_bracket(slope))
    alpha = 1 + t
    return t * (alpha * budget - eps) + alpha * mpmath.log(t / alpha) - mpmath.log(t)


def gaussian_delta(epsilon: Fraction, sigma: Fraction, sensitivity_squared: Fraction) -> mpf:
    """Balle & Wang (2018) Theorem 8: Φ(Δ/(2σ) - εσ/Δ) - e^ε Φ(-Δ/(2σ) - εσ/Δ)."""
    delta_, sig, eps = mpmath.sqrt(_mp(sensitivity_squared)), _mp(sigma), _mp(epsilon)
    first = delta_ / (2 * sig) - eps * sig / delta_
    second = -delta_ / (2 * sig) - eps * sig / delta_
    return mpmath.ncdf(first) - mpmath.exp(eps) * mpmath.ncdf(second)


def discrete_gaussian_delta(epsilon: Fraction, sigma_squared: Fraction, sensitivity: int) -> mpf:
    """Σ_y max(0, p(y) - e^ε p(y-Δ)) summed over the lattice (p ∝ exp(-y²/(2σ²))), directly."""
    scale, eps = _mp(sigma_squared), _mp(epsilon)
    reach = int(60 * mpmath.sqrt(scale) + 60) + sensitivity
    weight = [mpmath.exp(-mpf(y * y) / (2 * scale)) for y in range(-reach - sensitivity, reach + 1)]
    offset = reach + sensitivity

    def p(y: int) -> mpf:
        return weight[y + offset]

    total = mpmath.fsum(weight)
    factor = mpmath.exp(eps)
    return mpmath.fsum(max(mpf(0), p(y) - factor * p(y - sensitivity)) for y in range(-reach, reach + 1)) / total


def laplace_delta_1d(epsilon: Fraction, scale: Fraction, sensitivity: Fraction) -> mpf:
    """Laplace(b) at shift s in one dimension: δ(ε) = 1 - exp((ε - s/b)/2) for ε < s/b, else 0."""
    gap = _mp(epsilon) - _mp(abs(sensitivity)) / _mp(scale)
    return -mpmath.expm1(gap / 2) if gap < 0 else mpf(0)


# ------------------------------------------------------------------------------------------- the cases


@dataclass(frozen=True)
class OracleCase:
    """A certified routine, its keyword arguments (exact), and how the answer is checked."""

    routine: str
    arguments: tuple[tuple[str, Any], ...]

    def describe(self) -> str:
        shown = ", ".join(f"{name}={_short(value)}" for name, value in self.arguments)
        return f"{self.routine}({shown})"


def _short(value: Any) -> str:
    if isinstance(value, Fraction):
        if max(value.numerator.bit_length(), value.denominator.bit_length()) < 100:
            return str(value)
        return f"~1e{value.numerator.bit_length() * 0.30103 - value.denominator.bit_length() * 0.30103:+.0f}"
    if isinstance(value, int) and value.bit_length() > 100:
        return f"2**{value.bit_length() - 1}" if value == 1 << (value.bit_length() - 1) else f"<{value.bit_length()} bits>"
    return repr(value)


def _check_value(found: Any, truth: Callable[[], mpf]) -> tuple[str, str]:
    """Containment and width of the enclosure ``found`` around the oracle's value."""
    lower, upper = found.lower, found.upper
    with mp.workdps(DIGITS):
        value = truth()
    with mp.workdps(2 * DIGITS):
        again = truth()
    if value != 0 and abs(again - value) > abs(value) * mpf(10) ** -(DIGITS // 2):
        return "oracle", f"the oracle's two precisions disagree: {mpmath.nstr(value, 8)} vs {mpmath.nstr(again, 8)}"
    with mp.workdps(2 * DIGITS):
        slack = abs(again) * SLACK
        if not (_mp(lower) - slack <= again <= _mp(upper) + slack):
            return "unsafe", (f"true value {mpmath.nstr(again, 12)} outside [{mpmath.nstr(_mp(lower), 12)}, "
                              f"{mpmath.nstr(_mp(upper), 12)}]")
    return _width(lower, upper, again)


def _width(lower: Fraction, upper: Fraction, truth: mpf) -> tuple[str, str]:
    if upper == lower:
        return "ok", ""
    if truth == 0 and lower <= 0 <= upper:  # an exact 0 (ε clipped): a tiny upper end is narrow enough
        return ("ok", "") if upper <= Fraction(1, 10**30) else ("wide", f"[{float(lower)}, {float(upper)}] around 0")
    reference = min(abs(lower), abs(upper))
    if lower <= 0 <= upper or (upper - lower) > WIDTH_BOUND * reference:
        return "wide", f"[{float(lower):.6g}, {float(upper):.6g}] around {mpmath.nstr(truth, 12)}"
    return "ok", ""


def _check_threshold(found: Any, achieved: Callable[[Fraction], mpf], target: Fraction,
                     decreasing: bool = True) -> tuple[str, str]:
    """``[lower, upper]`` around the smallest x with achieved(x) <= target (achieved decreasing in x)."""
    lower, upper = found.lower, found.upper
    with mp.workdps(DIGITS):
        goal = _mp(target)
        at_upper = achieved(upper)
        if at_upper > goal * (1 + SLACK):
            return "unsafe", f"upper end {float(upper):.6g} achieves {mpmath.nstr(at_upper, 10)} > target"
        if lower > 0:
            at_lower = achieved(lower)
            if at_lower < goal * (1 - SLACK):
                return "unsafe", f"lower end {float(lower):.6g} already achieves {mpmath.nstr(at_lower, 10)}"
    if lower == upper or lower == 0 and upper == 0:
        return "ok", ""
    if lower <= 0 or upper - lower > WIDTH_BOUND * lower:
        return "wide", f"[{float(lower):.6g}, {float(upper):.6g}]"
    return "ok", ""


def run_oracle_case(case: OracleCase) -> tuple[str, str]:
    """Call the routine and classify the answer with the oracle (module docstring)."""
    import reference
    from reference.core.certified import UndecidedComparisonError
    from reference.privacy import zcdp

    arguments = dict(case.arguments)
    routine = getattr(reference, case.routine, None) or getattr(zcdp, case.routine)
    try:
        found = routine(**arguments)
    except (ValueError, TypeError, UndecidedComparisonError) as refusal:
        return "refused", str(refusal).splitlines()[0] if str(refusal) else type(refusal).__name__
    a = {name: Fraction(value) if isinstance(value, (int, str, Fraction)) else value
         for name, value in arguments.items()}
    name = case.routine
    if name == "epsilon_from_rho_tight":
        return _check_value(found, lambda: zcdp_epsilon_tight(a["rho"], a["delta"]))
    if name == "epsilon_from_rho_simple":
        return _check_value(found, lambda: _mp(a["rho"]) + 2 * mpmath.sqrt(-_mp(a["rho"]) * mpmath.log(
            _mp(a["delta"]))))
    if name == "rho_from_epsilon_delta":
        def rho() -> mpf:
            log_inverse = -mpmath.log(_mp(a["delta"]))
            return (mpmath.sqrt(_mp(a["epsilon"]) + log_inverse) - mpmath.sqrt(log_inverse)) ** 2
        return _check_value(found, rho)
    if name == "log_delta_from_rho":
        return _check_value(found, lambda: zcdp_log_delta(a["rho"], a["epsilon"]))
    if name == "delta_from_rho":
        return _check_value(found, lambda: min(mpf(1), mpmath.exp(zcdp_log_delta(a["rho"], a["epsilon"]))))
    if name == "delta_from_rho_simple":
        def simple() -> mpf:
            gap = max(_mp(a["epsilon"]) - _mp(a["rho"]), mpf(0))
            return mpmath.exp(-gap * gap / (4 * _mp(a["rho"])))
        return _check_value(found, simple)
    if name == "gaussian_delta":
        return _check_value(found, lambda: gaussian_delta(a["epsilon"], a["sigma"], a["sensitivity_squared"]))
    if name == "gaussian_epsilon":
        return _check_threshold(found, lambda eps: gaussian_delta(eps, a["sigma"], a["sensitivity_squared"])
                                if eps > 0 else mpmath.erf(mpmath.sqrt(_mp(a["sensitivity_squared"])) / (
                                    2 * mpmath.sqrt(2) * _mp(a["sigma"]))), a["delta"])
    if name == "sigma_exact":
        return _check_threshold(found, lambda sig: gaussian_delta(a["epsilon"], sig, a["sensitivity_squared"]),
                                a["delta"])
    if name == "sigma_classical":
        return _check_value(found, lambda: mpmath.sqrt(_mp(a["sensitivity_squared"]) * 2 * mpmath.log(
            mpf(5) / 4 / _mp(a["delta"]))) / _mp(a["epsilon"]))
    if name == "discrete_gaussian_delta":
        return _check_value(found, lambda: discrete_gaussian_delta(a["epsilon"], a["sigma_squared"],
                                                                   int(a["sensitivity"])))
    if name == "discrete_gaussian_epsilon":
        return _check_threshold(found, lambda eps: discrete_gaussian_delta(eps, a["sigma_squared"],
                                                                           int(a["sensitivity"])), a["delta"])
    if name == "laplace_delta":
        (shift,) = a["sensitivities"]
        return _check_value(found, lambda: laplace_delta_1d(a["epsilon"], a["scale"], Fraction(shift)))
    if name == "laplace_epsilon":
        (shift,) = a["sensitivities"]
        return _check_threshold(found, lambda eps: laplace_delta_1d(eps, a["scale"], Fraction(shift)), a["delta"])
    raise AssertionError(f"no oracle for {name}")


#: Decimal exponents spanning what the input reader accepts (±10,000), densest near the ordinary range.
EXPONENTS = (-10000, -5000, -1000, -316, -300, -255, -196, -100, -30, -12, -6, -3, -1, 0, 1, 2, 3, 5, 9, 12, 30,
             100, 300, 1000, 5000, 10000)
MANTISSAS = (1, 3, 7)


def power(mantissa: int, exponent: int) -> Fraction:
    return Fraction(mantissa) * Fraction(10) ** exponent


def positive_values(draw: Callable[[list[Any]], Any]) -> Fraction:
    return power(draw(list(MANTISSAS)), draw(list(EXPONENTS)))


def unit_values(draw: Callable[[list[Any]], Any]) -> Fraction:
    """A δ in (0, 1): 10**-e for e over the accepted range, and values near 1."""
    return draw([power(draw(list(MANTISSAS)), -draw([e for e in EXPONENTS if e > 0])), Fraction(1, 2),
                 Fraction(99, 100), 1 - Fraction(1, 10**draw([3, 30, 300]))])


def draw_case(draw: Callable[[list[Any]], Any]) -> OracleCase:
    """One oracle case: ``draw(options)`` picks one of the options (random or hypothesis-driven)."""
    routine = draw(["epsilon_from_rho_tight", "epsilon_from_rho_simple", "rho_from_epsilon_delta",
                    "log_delta_from_rho", "delta_from_rho", "delta_from_rho_simple", "gaussian_delta",
                    "gaussian_epsilon", "sigma_exact", "sigma_classical", "discrete_gaussian_delta",
                    "discrete_gaussian_epsilon", "laplace_delta", "laplace_epsilon"])
    positive = positive_values(draw)
    if routine in ("epsilon_from_rho_tight", "epsilon_from_rho_simple"):
        arguments: dict[str, Any] = {"rho": positive, "delta": unit_values(draw)}
    elif routine == "rho_from_epsilon_delta":
        arguments = {"epsilon": positive, "delta": unit_values(draw)}
    elif routine in ("log_delta_from_rho", "delta_from_rho", "delta_from_rho_simple"):
        arguments = {"rho": positive, "epsilon": positive_values(draw)}
    elif routine == "gaussian_delta":
        arguments = {"epsilon": positive, "sigma": positive_values(draw), "sensitivity_squared": draw(
            [Fraction(1), Fraction(13, 3), positive_values(draw)])}
    elif routine == "gaussian_epsilon":
        arguments = {"delta": unit_values(draw), "sigma": positive, "sensitivity_squared": draw(
            [Fraction(1), positive_values(draw)])}
    elif routine in ("sigma_exact", "sigma_classical"):
        arguments = {"epsilon": positive, "delta": unit_values(draw), "sensitivity_squared": draw(
            [Fraction(1), positive_values(draw)])}
    elif routine == "discrete_gaussian_delta":  # the oracle sums ~120σ terms: σ² kept below 1e4 here
        arguments = {"epsilon": draw([Fraction(0), positive]), "sigma_squared": draw(
            [Fraction(1, 10**6), Fraction(1, 3), Fraction(1) + Fraction(1, 10**draw([7, 30])), Fraction(50, 7),
             Fraction(10**4)]), "sensitivity": draw([1, 2, 5, 100, 10**6, 2**64])}
    elif routine == "discrete_gaussian_epsilon":
        arguments = {"delta": unit_values(draw), "sigma_squared": draw([Fraction(1, 3), Fraction(50, 7),
                                                                        Fraction(100)]),
                     "sensitivity": draw([1, 2, 5])}
    else:
        shift = draw(["1", "3/2", "1000"])
        first = "epsilon" if routine == "laplace_delta" else "delta"
        arguments = {first: positive if first == "epsilon" else unit_values(draw), "scale": positive_values(draw),
                     "sensitivities": [shift]}
    return OracleCase(routine, tuple(arguments.items()))
