"""Exact mean squared error of the KARY paper's Algorithms 1 and 2 for every horizon T, and Lemmas 3.5 and 4.7's
closed forms.

Algorithm 2 (k-ary tree mechanism with subtraction, odd arity k >= 3) sets h = ⌈log_k(2T)⌉ (computed by
:func:`reference.kary.digits.height_for_horizon`), draws i.i.d. Laplace(h/ε) noise values z_p (the scale
Lemma 4.5's privacy proof uses: ℓ1 sensitivity h) and adds to output t the noise values whose indices
:func:`~reference.kary.digits.algorithm_2_noise_indices` lists. Those indices are distinct, so the
output's variance is ‖rep(t, h)‖₁ · 2h²/ε² (Laplace(b) has variance 2b²), and the mean squared error over
t = 1..T is

    MSE = (2h²/ε²) · (1/T) Σ_{t=1}^{T} ‖rep(t, h)‖₁.

Every function returns ε²·MSE (or ε²·Var), an exact ``Fraction`` (ε cancels).

Two independent computations of the sum:

* :func:`algorithm_2_mse` enumerates t = 1..T and counts each t's offset digits by balanced division
  (up to :data:`MAX_ENUMERATION_HORIZON`);
* :func:`algorithm_2_mse_digit_programme` uses the shift identity: with c = ⌊(k − 1)/2⌋ and M = c(k^h − 1)/(k − 1),
  offset digit ℓ of t equals standard digit ℓ of t + M minus c, so the sum is G(M + T) − G(M) with
  G(N) = Σ_{n=0}^{N} Σ_ℓ |d_ℓ(n) − c| over the h standard digits (leading zeros included: they are offset
  digits −c). G is a count over the base-k digits of N: at level ℓ (weight w = k^(ℓ−1)) the digit of n runs
  through 0..k−1 in blocks of w, so ⌊(N+1)/(kw)⌋ full cycles contribute w Σ_d |d − c| each and the partial
  cycle contributes w Σ_{d<a} |d − c| + b |a − c|, where (N + 1) mod kw = a w + b. O(h) integer operations,
  so T = 10^12 takes microseconds (:mod:`reference.kary.digit_mass` sums the levels without a division each,
  several digits at a time, with G(M) in closed form).

Even arity: the same formulas with Definition C.1's digits (−k/2 + 1..k/2) and the height that fits T are
Appendix C's variant; :func:`appendix_c_recursion` is Proof C.2's recursion and :func:`claim_1_leading_term`
Claim 1's main term, for comparison.

:func:`lemma_4_7_closed_form` is the printed Lemma 4.7, k(1 − 1/k²) h³ / (2(1 − 1/k^h)) (times ε²), which the
paper states for T = (k^h − 1)/2 only.

Algorithm 1 sets h = ⌈log_k(T + 1)⌉ and scale b = h/ε, so ε²·MSE = (2h²/T) Σ_{t=1}^{T} ‖digits(t)‖₁
(:func:`algorithm_1_mse` by enumeration, :func:`algorithm_1_mse_digit_programme` by a digit programme for any T,
:func:`lemma_3_5_closed_form` the printed Lemma 3.5 at T = k^h − 1).
"""

from __future__ import annotations

from fractions import Fraction

from reference.core.exact_text import message_value
from reference.core.validate import check_positive_int
from reference.kary.digit_mass import total_noise_count
from reference.kary.digits import check_arity, check_width, height_for_horizon, offset_capacity

#: What needs odd arity here (the text of the error).
LEMMA_4_7 = "Lemma 4.7 (stated for odd arity >= 3)"

#: Largest horizon :func:`algorithm_2_mse` enumerates (use :func:`algorithm_2_mse_digit_programme` beyond).
MAX_ENUMERATION_HORIZON = 2_000_000


# ------------------------------------------------------------------------------------------ enumeration


def algorithm_2_total_noise_count(arity: int, horizon: int) -> int:
    """Σ_{t=1}^{T} ‖rep(t, h)‖₁ by enumerating t (balanced division per t), h = Algorithm 2's height.

    Odd arity: Definition 3.8's digits; even arity: Definition C.1's (Appendix C). T <= 2·10^6.

    Args:
        arity: k, an integer >= 2.
        horizon: T, an integer in [1, 2·10^6] (enumerated).
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    if steps > MAX_ENUMERATION_HORIZON:
        raise ValueError(
            f"horizon must be <= {MAX_ENUMERATION_HORIZON} for enumeration, got {message_value(steps)}; use algorithm_2_mse_digit_programme"
        )
    top = k // 2
    total = 0
    for time in range(1, steps + 1):
        number = time
        while number:
            digit = number % k
            if digit > top:
                digit -= k
            total += abs(digit)
            number = (number - digit) // k
    return total


def algorithm_2_mse(arity: int, horizon: int) -> Fraction:
    """ε² · MSE of Algorithm 2 over t = 1..``horizon``, by direct enumeration (T <= 2·10^6).

    (2h²/T) Σ_t ‖rep(t, h)‖₁ with h = ⌈log_k(2T)⌉ (odd arity; Appendix C's variant for even arity).

    Args:
        arity: k, the tree's arity, an integer >= 2.
        horizon: T, an integer in [1, 2·10^6].
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    if steps > MAX_ENUMERATION_HORIZON:  # before the height, whose digit-width limit would name "width"
        raise ValueError(f"horizon must be <= {MAX_ENUMERATION_HORIZON} for enumeration, got "
                         f"{message_value(steps)}; use algorithm_2_mse_digit_programme")
    height = height_for_horizon(k, steps, offset=True)
    return Fraction(2 * height**2 * algorithm_2_total_noise_count(k, steps), steps)


def algorithm_2_step_variance(time: int, arity: int, horizon: int) -> int:
    """ε² · Var of Algorithm 2's output at ``time`` (1 <= time <= horizon): 2h² ‖rep(t, h)‖₁ (an integer).

    Args:
        time: t, an integer in [1, horizon].
        arity: k, an integer >= 2.
        horizon: T, an integer >= 1.
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    t = check_positive_int(time, "time")
    if t > steps:
        raise ValueError(f"time must be in [1, horizon = {steps}], got {message_value(t)}")
    height = height_for_horizon(k, steps, offset=True)
    number, count = t, 0
    while number:
        digit = number % k
        if digit > k // 2:
            digit -= k
        count += abs(digit)
        number = (number - digit) // k
    return 2 * height**2 * count


# ---------------------------------------------------------------------------------- digit programme


def algorithm_2_total_noise_count_digit_programme(arity: int, horizon: int) -> int:
    """Σ_{t=1}^{T} ‖rep(t, h)‖₁ by the digit programme (module docstring); exact for any T, O(h) steps.

    Args:
        arity: k, an integer >= 2.
        horizon: T, an integer >= 1.
    """
    return total_noise_count(arity, horizon)[1]


def algorithm_2_mse_digit_programme(arity: int, horizon: int) -> Fraction:
    """ε² · MSE of Algorithm 2 over t = 1..``horizon`` by the digit programme (any T; 10^12 in microseconds).

    Args:
        arity: k, the tree's arity, an integer >= 2.
        horizon: T, an integer >= 1.
    """
    height, total = total_noise_count(arity, horizon)  # checks both, with the one-line refusals of check_arity
    return Fraction(2 * height * height * total, int(horizon))


# ----------------------------------------------------------------------------------- printed forms


def lemma_4_7_closed_form(arity: int, height: int) -> Fraction:
    """Lemma 4.7 as printed, times ε²: k (1 − 1/k²) h³ / (2 (1 − 1/k^h)), stated for T = (k^h − 1)/2.

    Args:
        arity: k, an odd integer >= 3.
        height: h, an integer in [1, 4096].
    """
    k = check_arity(arity, parity="odd", needed_by=LEMMA_4_7)
    h = check_width(height, "height")
    return Fraction(k) * (1 - Fraction(1, k * k)) * h**3 / (2 * (1 - Fraction(1, k**h)))


def lemma_4_7_horizon(arity: int, height: int) -> int:
    """The horizon T = (k^h − 1)/2 at which Lemma 4.7 is stated (odd arity).

    Args:
        arity: k, an odd integer >= 3.
        height: h, an integer in [1, 4096].
    """
    k = check_arity(arity, parity="odd", needed_by=LEMMA_4_7)
    h = check_width(height, "height")
    return int((k**h - 1) // 2)


def appendix_c_horizon(arity: int, height: int) -> int:
    """The horizon T = k(k^h − 1)/(2(k − 1)) of Claim 1 (even arity): the capacity of Definition C.1.

    Args:
        arity: k, an even integer >= 2.
        height: h, an integer in [1, 4096].
    """
    k = check_arity(arity, parity="even", needed_by="Appendix C")
    h = check_width(height, "height")
    return offset_capacity(k, h)


def appendix_c_recursion(arity: int, height: int) -> Fraction:
    """Proof C.2's recursion as printed: c_h = ((k + 2)/4 + k(h − 1)/4)(k/2) k^(h−1) + c_(h−1), c_0 = 0.

    c_h is meant to be the total number of noise values over all t in 1..k(k^h − 1)/(2(k − 1)).

    Args:
        arity: k, an even integer >= 2.
        height: h, an integer in [1, 4096].
    """
    k = check_arity(arity, parity="even", needed_by="Appendix C")
    h = check_width(height, "height")
    total = Fraction(0)
    for level in range(1, h + 1):
        total += (Fraction(k + 2, 4) + Fraction(k * (level - 1), 4)) * Fraction(k, 2) * k ** (level - 1)
    return total


def claim_1_leading_term(arity: int, height: int) -> Fraction:
    """Claim 1's main term, times ε²: k h³ / (2 (1 − 1/k^h)) (the claim adds o(h²)).

    Args:
        arity: k, an even integer >= 2.
        height: h, an integer in [1, 4096].
    """
    k = check_arity(arity, parity="even", needed_by="Appendix C")
    h = check_width(height, "height")
    return Fraction(k * h**3) / (2 * (1 - Fraction(1, k**h)))


# ------------------------------------------------------------------------------------------- Algorithm 1 MSE


def algorithm_1_total_vertex_count(arity: int, horizon: int) -> int:
    """Σ_{t=1}^{T} ‖digits(t)‖₁ by enumeration (T <= :data:`MAX_ENUMERATION_HORIZON`).

    Args:
        arity: k, an integer >= 2.
        horizon: T, an integer in [1, 2·10^6] (enumerated).
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    if steps > MAX_ENUMERATION_HORIZON:
        raise ValueError(f"horizon must be <= {MAX_ENUMERATION_HORIZON} for enumeration, got {message_value(steps)}; use the DP")
    total = 0
    for time in range(1, steps + 1):
        number = time
        while number:
            number, digit = divmod(number, k)
            total += digit
    return total


def algorithm_1_total_vertex_count_digit_programme(arity: int, horizon: int) -> int:
    """Σ_{t=1}^{T} ‖digits(t)‖₁ by a digit programme over the digits of N = T + 1 (any T, O(log T) steps).

    Σ_{n<N} s(n): scanning N's digits a_i from the most significant, with σ the digit sum of the prefix, each
    d < a_i at a position with i positions below contributes k^i numbers with digit sum (σ + d)·k^i plus the
    i free low digits' total i·k^i·(k − 1)/2.

    Args:
        arity: k, an integer >= 2.
        horizon: T, an integer >= 1.
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    bound = steps + 1
    high_first: list[int] = []
    while bound:
        bound, digit = divmod(bound, k)
        high_first.append(digit)
    high_first.reverse()
    total = 0
    prefix = 0
    length = len(high_first)
    for position, digit in enumerate(high_first):
        below = length - 1 - position
        block = k**below
        free = below * (k - 1) * block // 2
        total += digit * (prefix * block + free) + block * (digit * (digit - 1) // 2)
        prefix += digit
    return total


def algorithm_1_mse(arity: int, horizon: int) -> Fraction:
    """ε²·MSE of Algorithm 1 over t = 1..T by enumeration: (2h²/T) Σ_t ‖rep_k(t, h)‖₁, h = ⌈log_k(T + 1)⌉.

    Args:
        arity: k, an integer >= 2.
        horizon: T, an integer in [1, 2·10^6] (enumerated).
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    height = height_for_horizon(k, steps, offset=False)
    return Fraction(2 * height**2 * algorithm_1_total_vertex_count(k, steps), steps)


def algorithm_1_mse_digit_programme(arity: int, horizon: int) -> Fraction:
    """ε²·MSE of Algorithm 1 over t = 1..T by the digit programme (any T; 10^12 is immediate).

    Args:
        arity: k, the tree's arity, an integer >= 2.
        horizon: T, an integer >= 1.
    """
    k = check_arity(arity)
    steps = check_positive_int(horizon, "horizon")
    height = height_for_horizon(k, steps, offset=False)
    return Fraction(2 * height**2 * algorithm_1_total_vertex_count_digit_programme(k, steps), steps)


def lemma_3_5_closed_form(arity: int, height: int) -> Fraction:
    """Lemma 3.5 as printed, times ε²: (k − 1) h³ / (1 − 1/k^h), stated for T = k^h − 1.

    Args:
        arity: k, an integer >= 2.
        height: h, an integer in [1, 4096].
    """
    k = check_arity(arity)
    h = check_width(height, "height")
    return Fraction((k - 1) * h**3) / (1 - Fraction(1, k**h))
