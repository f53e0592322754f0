"""The finite-horizon δ below which Algorithm 2 (pure ε-DP, Laplace) beats the HUU bound, certified.

KARY §1 and §5.1 compare Algorithm 2's mean squared error with the Henzinger–Upadhyay–Upadhyay (HUU) bound

    HUU(ε, δ, T) = C_{ε,δ}² (1 + ln(4T/5)/π)²,   C_{ε,δ} = (2/ε) sqrt(4/9 + ln((1/δ) sqrt(2/π))).

Write m(T) = ε²·MSE of Algorithm 2 (exact rational, :func:`reference.kary.mse.algorithm_2_mse_digit_programme`) and
F(T) = 1 + ln(4T/5)/π (> 0 for every T >= 1). Both sides scale as 1/ε², so

    HUU(ε, δ, T) >= MSE(ε, T)  <=>  4 (4/9 + ln(1/δ) + ln(2/π)/2) F² >= m
                               <=>  ln(1/δ) >= L*(T) = m/(4F²) − 4/9 − ln(2/π)/2,

and the largest such δ is δ*(T) = exp(−L*(T)) = sqrt(2/π) e^(4/9) exp(−m/(4F²)). The pure mechanism's exact
error is at most the HUU bound exactly when δ <= δ*(T). (HUU state C_{ε,δ} for ε, δ in (0, 1); a δ* >= 1
means the pure mechanism is no worse for every admissible δ.)

Lemma 5.1 / Theorem 1.2 predict the threshold from leading terms only: δ = T^(−r) with r = B_ε/B_{ε,δ}
(:func:`asymptotic_exponent`: Corollary 4.9's constant for odd arity, Corollary C.3's for even arity, over
:func:`reference.kary.constants.huu_leading_constant`); Theorem 1.2 rounds r(19) up to 0.92.

All irrational values are Arb enclosures (:class:`~reference.core.certified.CertifiedReal`).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from flint import arb

from reference.core.certified import CertifiedReal, ball, enclose
from reference.core.validate import RationalLike, check_positive_int, open_unit_fraction, positive_fraction
from reference.kary.constants import (
    huu_leading_constant,
    leading_constant_corollary_4_9,
    leading_constant_corollary_c3,
    lemma_5_1_exponent,
)
from reference.kary.digits import check_arity
from reference.kary.mse import algorithm_2_mse_digit_programme

#: Relative accuracy (bits) every enclosure below reaches; precision doubles from START_BITS up to MAX_BITS.
TARGET_BITS = 80
START_BITS = 128
MAX_BITS = 1 << 12


def _inputs(arity: int, horizon: int) -> tuple[int, int, Fraction]:
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    return k, steps, algorithm_2_mse_digit_programme(k, steps)


def _log_inverse_ball(mse: Fraction, steps: int) -> arb:
    """L* = m/(4F²) − 4/9 − ln(2/π)/2 at the current precision."""
    factor = 1 + ball(Fraction(4 * steps, 5)).log() / arb.pi()
    return ball(mse) / (4 * factor**2) - ball(Fraction(4, 9)) - (2 / arb.pi()).log() / 2


def _enclose(compute: Callable[[], arb], label: str) -> CertifiedReal:
    return enclose(compute, label, start_bits=START_BITS, target_bits=TARGET_BITS, max_bits=MAX_BITS)


def huu_log_inverse_delta_threshold(arity: int, horizon: int) -> CertifiedReal:
    """L*(T) = ln(1/δ*(T)) = m/(4F²) − 4/9 − ln(2/π)/2 (module docstring), certified.

    The pure mechanism's exact MSE is <= the HUU bound iff ln(1/δ) >= L*. ``arity`` >= 2 (odd: Algorithm 2;
    even: Appendix C's variant), ``horizon`` >= 1.

    Args:
        arity: k, an integer >= 2 (odd: Algorithm 2; even: Appendix C's variant).
        horizon: T, an integer >= 1.
    """
    _, steps, mse = _inputs(arity, horizon)
    return _enclose(lambda: _log_inverse_ball(mse, steps), "ln(1/δ*)")


def huu_delta_threshold(arity: int, horizon: int) -> CertifiedReal:
    """δ*(T): the largest δ with HUU(ε, δ, T) >= Algorithm 2's exact MSE at (ε, T), for every ε > 0.

    δ*(T) = exp(−L*(T)) (:func:`huu_log_inverse_delta_threshold`); certified. It may exceed 1 for small T
    (then the pure mechanism is no worse for every δ in (0, 1)).

    Args:
        arity: k, an integer >= 2 (odd: Algorithm 2; even: Appendix C's variant).
        horizon: T, an integer >= 1.
    """
    _, steps, mse = _inputs(arity, horizon)
    return _enclose(lambda: (-_log_inverse_ball(mse, steps)).exp(), "δ*")


def asymptotic_exponent(arity: int) -> CertifiedReal:
    """r = B_ε/B_{ε,δ} of Lemma 5.1 at ``arity``: Corollary 4.9 (odd) or Corollary C.3 (even) over B_{ε,δ}.

    Args:
        arity: k, an integer >= 2 (odd: Corollary 4.9; even: Corollary C.3).
    """
    k = check_arity(arity)
    pure = leading_constant_corollary_4_9(k) if k % 2 else leading_constant_corollary_c3(k)
    return lemma_5_1_exponent(pure, huu_leading_constant())


def horizon_power(horizon: int, exponent: RationalLike | CertifiedReal) -> CertifiedReal:
    """T^(−exponent) for an exact rational exponent > 0 or a certainly positive enclosure of one, certified.

    For an enclosure [r_lo, r_hi] the result encloses T^(−r) for every r in it: [T^(−r_hi), T^(−r_lo)].

    Args:
        horizon: T, an integer >= 1.
        exponent: r > 0: an exact rational (int, Fraction or str) or a certainly positive :class:`CertifiedReal`.
    """
    steps = check_positive_int(horizon, "horizon")
    if isinstance(exponent, CertifiedReal):
        low, high = exponent.lower, exponent.upper
        if low <= 0:
            raise ValueError(f"exponent must be certainly positive, got [{low}, {high}]")
    else:
        low = high = positive_fraction(exponent, "exponent")

    def power(value: Fraction) -> CertifiedReal:
        return _enclose(lambda: (-ball(value) * arb(steps).log()).exp(), "T^(−r)")

    return CertifiedReal(power(high).lower, power(low).upper)


def asymptotic_delta_threshold(arity: int, horizon: int) -> CertifiedReal:
    """Lemma 5.1's prediction T^(−r), r = :func:`asymptotic_exponent` (``arity``), certified.

    Args:
        arity: k, an integer >= 2 (odd: Algorithm 2; even: Appendix C's variant).
        horizon: T, an integer >= 1.
    """
    k = check_arity(arity)
    return horizon_power(horizon, asymptotic_exponent(k))


def pure_beats_huu(arity: int, horizon: int, delta: RationalLike) -> bool:
    """Whether Algorithm 2's exact MSE is <= HUU(ε, δ, T) (for every ε), decided on certified endpoints.

    Equivalent to δ <= δ*(T). ``delta`` is an exact rational in (0, 1); raises ``ArithmeticError`` if the
    enclosure of δ* contains ``delta``.

    Args:
        arity: k, an integer >= 2 (odd: Algorithm 2; even: Appendix C's variant).
        horizon: T, an integer >= 1.
        delta: δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    target = open_unit_fraction(delta, "delta")
    threshold = huu_delta_threshold(arity, horizon)
    if threshold.certainly_ge(target):
        return True
    if threshold.certainly_lt(target):
        return False
    raise ArithmeticError(f"δ* = [{threshold.lower}, {threshold.upper}] contains delta = {target}: undecided")
