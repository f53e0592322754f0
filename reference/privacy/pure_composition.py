"""Optimal composition of pure ε_j-DP mechanisms, exactly (certified with Arb balls).

The k-fold adaptive composition of mechanisms that are ε_1-, ..., ε_k-DP is (ε, δ)-DP for every ε >= 0 iff
``δ >= δ_opt(ε)`` with (Kairouz, Oh, Viswanath 2015 for equal ε_j; Murtagh & Vadhan 2016, Theorem 1.5, in
general)

    δ_opt(ε) = Π_j (1 + e^ε_j)^-1 · Σ_{S ⊆ [k]} max(0, e^(Σ_{j∈S} ε_j) - e^ε · e^(Σ_{j∉S} ε_j)),

the privacy profile of the product of randomized responses, which attain the bound. With equal ε_j grouped
(multiplicity m_g, r_g of them in S) a subset contributes through ``E = Σ_g r_g ε_g`` only:
``δ_opt(ε) = Π_g (1 + e^ε_g)^-m_g Σ_{E: 2E - M > ε} N_E (e^E - e^(ε + M - E))`` with ``M = Σ_j ε_j`` and
``N_E = Σ Π_g C(m_g, r_g)`` (exact integers). Every term is positive (no cancellation); the condition
``2E - M > ε`` is decided in exact rationals, and ``e^E - e^(ε + M - E) = -e^E expm1(ε + M - 2E)`` is evaluated
in Arb balls, whose enclosures are rigorous. ``log`` is natural.

This is the benchmark for the KARY paper's Lemma 5.4 (:func:`reference.kary.privacy.
heterogeneous_composition_epsilon`): its ε~ must satisfy ``δ_opt(ε~) <= δ``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb

from flint import arb

from reference.core.bisection import bisect
from reference.core.certified import TARGET_ACCURACY_BITS, CertifiedReal, working_precision
from reference.core.certified import ball as _ball
from reference.core.validate import RationalLike, fraction_text, open_unit_fraction, to_fraction, tolerance_fraction

START_PRECISION = 128
MAX_PRECISION = 1 << 14
#: Largest number of subset classes Π_g (m_g + 1) enumerated (equal ε_j are grouped).
MAX_COMBINATIONS = 200_000
FINE_TOLERANCE = Fraction(1, 10**22)


def _grouped(epsilons: object) -> tuple[tuple[Fraction, int], ...]:
    if isinstance(epsilons, (str, bytes)) or not isinstance(epsilons, Sequence):
        raise TypeError(f"epsilons must be a sequence of exact rationals, got {type(epsilons).__name__}")
    if len(epsilons) == 0:
        raise ValueError("epsilons must contain at least one epsilon_j")
    counts: dict[Fraction, int] = {}
    for index, entry in enumerate(epsilons):
        value = to_fraction(entry, f"epsilons[{index}]")
        if value <= 0:
            raise ValueError(f"epsilons[{index}] must be > 0, got {fraction_text(value)}")
        counts[value] = counts.get(value, 0) + 1
    combinations = 1
    for multiplicity in counts.values():
        combinations *= multiplicity + 1
    if combinations > MAX_COMBINATIONS:
        raise ValueError(
            f"epsilons: {combinations} subset classes (product of (multiplicity + 1) over distinct values) "
            f"exceed MAX_COMBINATIONS = {MAX_COMBINATIONS}; use fewer distinct epsilon_j"
        )
    return tuple(sorted(counts.items()))


def _exponent_counts(groups: tuple[tuple[Fraction, int], ...]) -> dict[Fraction, int]:
    """N_E for every attainable E = Σ_g r_g ε_g."""
    counts: dict[Fraction, int] = {Fraction(0): 1}
    for value, multiplicity in groups:
        merged: dict[Fraction, int] = {}
        for r in range(multiplicity + 1):
            weight = comb(multiplicity, r)
            for exponent, count in counts.items():
                key = exponent + r * value
                merged[key] = merged.get(key, 0) + count * weight
        counts = merged
    return counts


def _delta_ball(groups: tuple[tuple[Fraction, int], ...], counts: dict[Fraction, int], epsilon: Fraction) -> arb:
    total = _total(groups)
    accumulated = arb(0)
    for exponent, count in counts.items():
        if 2 * exponent - total > epsilon:
            accumulated += count * -(_ball(exponent).exp() * _ball(epsilon + total - 2 * exponent).expm1())
    normaliser = arb(1)
    for value, multiplicity in groups:
        normaliser *= (1 + _ball(value).exp()) ** multiplicity
    return accumulated / normaliser


def _total(groups: tuple[tuple[Fraction, int], ...]) -> Fraction:
    return sum((value * multiplicity for value, multiplicity in groups), Fraction(0))


def _enclose(
    groups: tuple[tuple[Fraction, int], ...], epsilon: Fraction, target: Fraction | None = None
) -> CertifiedReal:
    """δ_opt(ε) to TARGET_ACCURACY_BITS relative bits; with ``target``, until the enclosure also lies on one
    side of it (a ball containing the target never decides)."""
    if epsilon >= _total(groups):
        return CertifiedReal(Fraction(0), Fraction(0))  # no subset has privacy loss > ε
    counts = _exponent_counts(groups)
    precision = START_PRECISION
    while precision <= MAX_PRECISION:
        with working_precision(precision):
            ball = _delta_ball(groups, counts, epsilon)
        if ball.is_finite() and ball.rel_accuracy_bits() >= TARGET_ACCURACY_BITS:
            enclosure = CertifiedReal.from_arb(ball)
            if target is None or enclosure.certainly_le(target) or enclosure.certainly_gt(target):
                return enclosure
        precision *= 2
    raise ArithmeticError("could not enclose (or separate from the target) the optimal composition delta")


def optimal_composition_delta(*, epsilon: RationalLike, epsilons: Sequence[RationalLike]) -> CertifiedReal:
    """Certified enclosure of δ_opt(ε), the smallest δ for which every adaptive composition of ε_j-DP
    mechanisms (``epsilons``, exact rationals > 0) is (ε, δ)-DP. ``epsilon >= 0`` exact; exactly 0 for
    ``epsilon >= Σ ε_j``.

    Args:
        epsilon: the composed ε >= 0, an exact rational: int, Fraction or a string such as ``"1/2"``; a float is
            refused.
        epsilons: the ε_j > 0 of the composed pure-DP mechanisms, a non-empty sequence (not a string) of exact
            rationals as ``epsilon``; the product of (multiplicity + 1) over their distinct values is at most
            ``MAX_COMBINATIONS``.
    """
    eps = to_fraction(epsilon, "epsilon")
    if eps < 0:
        raise ValueError(f"epsilon must be >= 0, got {fraction_text(eps)}")
    return _enclose(_grouped(epsilons), eps)


def optimal_composition_epsilon(
    *,
    epsilons: Sequence[RationalLike],
    delta: RationalLike,
    tolerance: RationalLike = FINE_TOLERANCE,
) -> CertifiedReal:
    """Certified ``[lower, upper]`` around the smallest ε >= 0 with ``δ_opt(ε) <= delta``.

    ``upper`` is certified sufficient, ``lower`` certified insufficient (or ``[0, 0]`` when ε = 0 suffices);
    bisection on [0, Σ ε_j] to relative width ``tolerance`` (a rational in (0, 1)).

    Args:
        epsilons: the ε_j > 0 of the composed pure-DP mechanisms, a non-empty sequence (not a string) of exact
            rationals (int, Fraction or str; not float); the product of (multiplicity + 1) over their distinct
            values is at most ``MAX_COMBINATIONS``.
        delta: the target δ in the open interval (0, 1), an exact rational (e.g. ``"1e-6"``; not float).
        tolerance: the bisection's relative width at which it stops, an exact rational in [1e-100, 1) (default
            1e-22).
    """
    target = open_unit_fraction(delta, "delta")
    tol = tolerance_fraction(tolerance)
    groups = _grouped(epsilons)

    def sufficient(epsilon: Fraction) -> bool:
        return _enclose(groups, epsilon, target).certainly_le(target)

    if sufficient(Fraction(0)):
        return CertifiedReal(Fraction(0), Fraction(0))
    # ε = Σ ε_j is sufficient (basic composition), ε = 0 is not
    return CertifiedReal(*bisect(sufficient, Fraction(0), _total(groups), tolerance=tol))


__all__ = ["MAX_COMBINATIONS", "optimal_composition_delta", "optimal_composition_epsilon"]
