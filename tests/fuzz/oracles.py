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

import signal
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


def _root_increasing(function: Callable[[mpf], mpf]) -> mpf:
    """The root t > 0 of a function increasing in t, found on u = log t: galloping on u (so a root near
    e**±1e10000 costs a few dozen steps), then bisection of u to 120 relative digits."""
    def above(u: mpf) -> bool:
        return bool(function(mpmath.exp(u)) > 0)

    if above(mpf(0)):
        high, step = mpf(0), mpf(1)
        while above(-step):
            high, step = -step, 2 * step
        low = -step
    else:
        low, step = mpf(0), mpf(1)
        while not above(step):
            low, step = step, 2 * step
        high = step
    for _ in range(4000):
        if high - low <= max(abs(low), abs(high), mpf(1)) * mpf(10) ** -120:
            break
        middle = (low + high) / 2
        if above(middle):
            high = middle
        else:
            low = middle
    return mpmath.exp((low + high) / 2)


# ------------------------------------------------------------------------------------------- true values


def zcdp_epsilon_tight(rho: Fraction, delta: Fraction) -> mpf:
    """inf_{α>1} αρ + (log(1/δ) + (α-1) log(1-1/α) - log α)/(α-1), clipped at 0 (CKS 2020, Corollary 13)."""
    budget, log_inverse = _mp(rho), -mpmath.log(_mp(delta))

    def slope(t: mpf) -> mpf:  # the derivative's sign: ρt² + log(1+t) - log(1/δ)
        return budget * t * t + mpmath.log1p(t) - log_inverse

    t = _root_increasing(slope)
    alpha = 1 + t
    # log(1 - 1/α) = -log1p(1/t): t/α rounds to 1 at any fixed precision once t exceeds 10**digits
    value = alpha * budget + (log_inverse - t * mpmath.log1p(1 / t) - mpmath.log(alpha)) / t
    return max(value, mpf(0))


def zcdp_log_delta(rho: Fraction, epsilon: Fraction) -> mpf:
    """inf_{α>1} (α-1)(αρ-ε) + α log(1-1/α) - log(α-1)."""
    budget, eps = _mp(rho), _mp(epsilon)

    def slope(t: mpf) -> mpf:  # (2α-1)ρ - ε + log(1-1/α)
        return (2 * t + 1) * budget - eps - mpmath.log1p(1 / t)

    t = _root_increasing(slope)
    alpha = 1 + t
    return t * (alpha * budget - eps) - alpha * mpmath.log1p(1 / t) - mpmath.log(t)


class BelowRange(Exception):
    """The true value is below exp(-FLOOR_EXPONENT), far under the exact range 2**-2**20 (about e**-726817):
    its digits are neither computable quickly (mpmath's exp of -1e4990 never ends) nor needed."""


FLOOR_EXPONENT = 2_000_000


def _log_ncdf(x: mpf) -> mpf:
    """log Φ(x); below x = -30 from the asymptotic series Φ(x) = φ(x)/|x| Σ_k (-1)^k (2k-1)!!/x^(2k) (the
    series is used only while its first dropped term is below 1e-(digits + 20) relative)."""
    if x >= -30:
        return mpmath.log(mpmath.ncdf(x))
    z = -x
    term, total = mpf(1), mpf(1)
    for k in range(1, 400):
        term *= -(2 * k - 1) / (z * z)
        total += term
        if abs(term) < mpf(10) ** -(mp.dps + 20):
            return -z * z / 2 - mpmath.log(z) - mpmath.log(2 * mpmath.pi) / 2 + mpmath.log(total)
    return mpmath.log(mpmath.ncdf(x))  # moderate z: mpmath's own erfc is accurate there


def _exp(log_value: mpf) -> mpf:
    if log_value < -FLOOR_EXPONENT:
        raise BelowRange
    return mpmath.exp(log_value)


def gaussian_delta(epsilon: Fraction, sigma: Fraction, sensitivity_squared: Fraction) -> mpf:
    """Balle & Wang (2018) Theorem 8: Φ(Δ/(2σ) - εσ/Δ) - e^ε Φ(-Δ/(2σ) - εσ/Δ), as
    Φ(a) (-expm1(ε + log Φ(b) - log Φ(a))): the difference of two nearly equal numbers never formed."""
    delta_, sig, eps = mpmath.sqrt(_mp(sensitivity_squared)), _mp(sigma), _mp(epsilon)
    first = delta_ / (2 * sig) - eps * sig / delta_
    second = -delta_ / (2 * sig) - eps * sig / delta_
    log_first = _log_ncdf(first)
    return _exp(log_first) * -mpmath.expm1(eps + _log_ncdf(second) - log_first)


def discrete_gaussian_delta(epsilon: Fraction, sigma_squared: Fraction, sensitivity: int) -> mpf:
    """Σ_y max(0, p(y) - e^ε p(y-Δ)) summed over the lattice (p ∝ exp(-y²/(2σ²))), directly; a term below
    exp(-FLOOR_EXPONENT) is left out (BelowRange when every positive term is)."""
    scale, eps = _mp(sigma_squared), _mp(epsilon)
    # the positive terms sit where the privacy loss exceeds ε, y < Δ/2 - εσ²/Δ: reach past that point by 60σ
    reach = int(60 * mpmath.sqrt(scale) + 60) + sensitivity + int(mpmath.ceil(eps * scale / sensitivity))

    def log_weight(y: int) -> mpf:
        return -mpf(y * y) / (2 * scale)

    total = mpmath.fsum(mpmath.exp(log_weight(y)) for y in range(-reach, reach + 1)
                        if log_weight(y) > -FLOOR_EXPONENT)
    kept = []
    for y in range(-reach, reach + 1):
        here, there = log_weight(y), eps + log_weight(y - sensitivity)
        if here > there and here > -FLOOR_EXPONENT:  # p(y) - e^ε p(y-Δ) = p(y) (-expm1(there - here)) > 0
            kept.append(mpmath.exp(here) * -mpmath.expm1(there - here))
    if not kept:
        raise BelowRange
    return mpmath.fsum(kept) / total


def laplace_delta_1d(epsilon: Fraction, scale: Fraction, sensitivity: Fraction) -> mpf:
    """Laplace(b) at shift s in one dimension: δ(ε) = 1 - exp((ε - s/b)/2) for ε < s/b, else 0."""
    gap = _mp(epsilon) - _mp(abs(sensitivity)) / _mp(scale)
    if gap < -FLOOR_EXPONENT:
        return mpf(1)  # 1 - e**(gap/2) is 1 to far more digits than any precision used here
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


#: Magnitude below which the package keeps no exact endpoint (2**-2**20, about 1e-315653): an enclosure of a
#: smaller value is [0 or -2**-2**20, 2**-2**20] by design, a certified bound rather than digits.
EXACT_RANGE = mpf(2) ** -(1 << 20)


def _true_value(truth: Callable[[], mpf]) -> mpf | None:
    """The oracle's value at DIGITS, 2 DIGITS, 4 DIGITS, ... until two agree to 60 digits (None if never)."""
    digits = DIGITS
    with mp.workdps(digits):
        previous = truth()
    while digits < 8 * DIGITS:
        digits *= 2
        with mp.workdps(digits):
            value = truth()
            if value == previous or abs(value - previous) <= abs(value) * mpf(10) ** -60:
                return value
            previous = value
    return None


def _show(value: Fraction | mpf) -> str:
    with mp.workdps(30):
        return mpmath.nstr(_mp(value) if isinstance(value, Fraction) else value, 12)


def _check_value(found: Any, truth: Callable[[], mpf]) -> tuple[str, str]:
    """Containment and width of the enclosure ``found`` around the oracle's value."""
    lower, upper = found.lower, found.upper
    try:
        value = _true_value(truth)
    except BelowRange:  # a positive value far below 2**-2**20: the enclosure must be [<= 0, > 0]
        if lower <= 0 < upper:
            return "ok", "below the exact range: a certified bound"
        return "unsafe", f"a positive value below e**-{FLOOR_EXPONENT} outside [{_show(lower)}, {_show(upper)}]"
    if value is None:
        return "oracle", "the oracle's precisions never agreed"
    with mp.workdps(4 * DIGITS):
        slack = abs(value) * SLACK
        if not (_mp(lower) - slack <= value <= _mp(upper) + slack):
            return "unsafe", f"true value {_show(value)} outside [{_show(lower)}, {_show(upper)}]"
        if abs(value) < EXACT_RANGE and max(abs(_mp(lower)), abs(_mp(upper))) <= 2 * EXACT_RANGE:
            return "ok", "below the exact range: a certified bound"
    return _width(lower, upper, value)


def _width(lower: Fraction, upper: Fraction, truth: mpf) -> tuple[str, str]:
    if upper == lower:
        return "ok", ""
    if truth == 0 and lower <= 0 <= upper:  # an exact 0 (ε clipped): a tiny upper end is narrow enough
        return ("ok", "") if upper <= Fraction(1, 10**30) else ("wide", f"[{_show(lower)}, {_show(upper)}] around 0")
    reference = min(abs(lower), abs(upper))
    if lower <= 0 <= upper or (upper - lower) > WIDTH_BOUND * reference:
        return "wide", f"[{_show(lower)}, {_show(upper)}] around {_show(truth)}"
    return "ok", ""


def _check_threshold(found: Any, achieved: Callable[[Fraction], mpf], target: Fraction,
                     decreasing: bool = True) -> tuple[str, str]:
    """``[lower, upper]`` around the smallest x with achieved(x) <= target (achieved decreasing in x)."""
    lower, upper = found.lower, found.upper

    def value_at(point: Fraction) -> mpf | None:
        try:
            return _true_value(lambda: achieved(point))
        except BelowRange:  # achieved far below any target this harness draws (>= 1e-10000)
            return mpf(0)

    at_upper = value_at(upper)
    at_lower = value_at(lower) if lower > 0 else None
    if at_upper is None or (lower > 0 and at_lower is None):
        return "oracle", "the oracle's precisions never agreed"
    with mp.workdps(4 * DIGITS):
        goal = _mp(target)
        if at_upper > goal * (1 + SLACK):
            return "unsafe", f"upper end {_show(upper)} achieves {_show(at_upper)} > target"
        if at_lower is not None and at_lower < goal * (1 - SLACK):
            return "unsafe", f"lower end {_show(lower)} already achieves {_show(at_lower)}"
    if lower == upper:
        return "ok", ""
    if lower <= 0 or upper - lower > WIDTH_BOUND * lower:
        return "wide", f"[{_show(lower)}, {_show(upper)}]"
    return "ok", ""


#: Time limit of the routine itself (the oracle's computation is timed apart, by the campaign's isolation).
PACKAGE_SECONDS = 20.0


class PackageTimeout(Exception):
    """The certified routine ran past PACKAGE_SECONDS."""


def run_oracle_case(case: OracleCase) -> tuple[str, str]:
    """Call the routine and classify the answer with the oracle (module docstring)."""
    import reference
    from reference.core.certified import UndecidedComparisonError
    from reference.privacy import zcdp

    arguments = dict(case.arguments)
    routine = getattr(reference, case.routine, None) or getattr(zcdp, case.routine)

    def expired(number: int, frame: object) -> None:
        raise PackageTimeout

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, PACKAGE_SECONDS)  # the routine's own time: the oracle's is apart
    try:
        found = routine(**arguments)
    except (ValueError, TypeError, UndecidedComparisonError) as refusal:
        return "refused", str(refusal).splitlines()[0] if str(refusal) else type(refusal).__name__
    except PackageTimeout:
        return "hang", f"the routine ran past {PACKAGE_SECONDS} s"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    a = {name: Fraction(value) if isinstance(value, (int, str, Fraction)) else value
         for name, value in arguments.items()}
    name = case.routine
    if name == "epsilon_from_rho_tight":
        return _check_value(found, lambda: zcdp_epsilon_tight(a["rho"], a["delta"]))
    if name == "epsilon_from_rho_simple":
        return _check_value(found, lambda: _mp(a["rho"]) + 2 * mpmath.sqrt(-_mp(a["rho"]) * mpmath.log(
            _mp(a["delta"]))))
    if name == "rho_from_epsilon_delta":
        def rho() -> mpf:  # the definition: the root of ρ + 2 sqrt(ρ log(1/δ)) = ε, found by bisection
            log_inverse, eps = -mpmath.log(_mp(a["delta"])), _mp(a["epsilon"])
            return _root_increasing(lambda r: r + 2 * mpmath.sqrt(r * log_inverse) - eps)
        return _check_value(found, rho)
    if name == "log_delta_from_rho":
        return _check_value(found, lambda: zcdp_log_delta(a["rho"], a["epsilon"]))
    if name == "delta_from_rho":
        return _check_value(found, lambda: min(mpf(1), _exp(zcdp_log_delta(a["rho"], a["epsilon"]))))
    if name == "delta_from_rho_simple":
        def simple() -> mpf:
            gap = max(_mp(a["epsilon"]) - _mp(a["rho"]), mpf(0))
            return _exp(-gap * gap / (4 * _mp(a["rho"])))
        return _check_value(found, simple)
    if name == "gaussian_delta":
        return _check_value(found, lambda: gaussian_delta(epsilon=a["epsilon"], sigma=a["sigma"], sensitivity_squared=a["sensitivity_squared"]))
    if name == "gaussian_epsilon":
        return _check_threshold(found, lambda eps: gaussian_delta(epsilon=eps, sigma=a["sigma"], sensitivity_squared=a["sensitivity_squared"])
                                if eps > 0 else mpmath.erf(mpmath.sqrt(_mp(a["sensitivity_squared"])) / (
                                    2 * mpmath.sqrt(2) * _mp(a["sigma"]))), a["delta"])
    if name == "sigma_exact":
        return _check_threshold(found, lambda sig: gaussian_delta(epsilon=a["epsilon"], sigma=sig, sensitivity_squared=a["sensitivity_squared"]),
                                a["delta"])
    if name == "sigma_classical":
        return _check_value(found, lambda: mpmath.sqrt(_mp(a["sensitivity_squared"]) * 2 * mpmath.log(
            mpf(5) / 4 / _mp(a["delta"]))) / _mp(a["epsilon"]))
    if name == "discrete_gaussian_delta":
        return _check_value(found, lambda: discrete_gaussian_delta(epsilon=a["epsilon"], sigma_squared=a["sigma_squared"],
                                                                   sensitivity=int(a["sensitivity"])))
    if name == "discrete_gaussian_epsilon":
        return _check_threshold(found, lambda eps: discrete_gaussian_delta(epsilon=eps, sigma_squared=a["sigma_squared"],
                                                                           sensitivity=int(a["sensitivity"])), a["delta"])
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
    elif routine == "discrete_gaussian_delta":  # the oracle sums ~120σ terms: σ² kept small
        arguments = {"epsilon": draw([Fraction(0), positive]), "sigma_squared": draw(
            [Fraction(1, 10**6), Fraction(1, 3), Fraction(1) + Fraction(1, 10**draw([7, 30])), Fraction(50, 7),
             Fraction(100)]), "sensitivity": draw([1, 2, 5, 100, 10**6, 2**64])}
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
