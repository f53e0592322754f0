"""Lemmas 3.5 and 4.7 away from the full tree: the printed closed form against the exact MSE at every horizon.

Both lemmas are stated (and proved, verification/kary/proofs/) at the largest horizon of a height: T = k^h − 1
(Algorithm 1) and T = (k^h − 1)/2 (Algorithm 2). Read at another horizon T, with h = the algorithm's height at
T, the closed form f(h) compares with the exact ε²·MSE(T) = 2h² S(T)/T (S(T) = Σ_(t<=T) ‖rep(t, h)‖₁) through

    ratio(T) = ε²·MSE(T) / f(h(T)) = S(T)·T_h / (T·S(T_h)),  T_h = the height's capacity,

since f(h) = 2h² S(T_h)/T_h. :func:`horizon_ratio_check` computes ratio(T) exactly for *every* T of every
complete height up to a bound (the weights by vectorised balanced division, their prefix sums S as int64, the
comparisons ratio <= 1 and ratio = 1 as exact integer cross-products; the extremes are then re-evaluated as
Fractions from the digit programmes of :mod:`reference.kary.tree` and :mod:`reference.kary.mse`, an independent
route). It reports, per height and overall, the range of the ratio and the horizons that attain it: the closed form
is an upper bound at every T checked, attained at the capacities (and at a few other horizons, e.g. T = 2 for
Algorithm 2 with k = 3), and far from tight just past a height change (at T = 1 for large k the MSE is a fraction
2/k of it). This is verification up to the bound, not a proof.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import numpy as np

from reference.core.certified import format_directed
from reference.core.validate import check_positive_int
from reference.core.verdict import Decided
from reference.kary.digits import check_arity, height_for_horizon, offset_capacity

from ...core.claims import Outcome, Status

Algorithm = Literal["algorithm_1", "algorithm_2"]


@dataclass(frozen=True)
class HeightRange:
    """The ratio exact/closed form over the horizons of one height (exact Fractions)."""

    height: int
    first: int  # the smallest horizon of this height
    capacity: int  # the largest (where the lemma is stated)
    smallest: Fraction
    smallest_at: int
    largest: Fraction
    largest_at: tuple[int, ...]  # every horizon where the largest is attained


@dataclass(frozen=True)
class HorizonRatio(Decided):
    """The ratio over every horizon of the complete heights 1..``heights[-1].height`` at one arity."""

    algorithm: Algorithm
    arity: int
    heights: tuple[HeightRange, ...]

    @property
    def horizons(self) -> int:
        """How many horizons were checked (1..the last capacity)."""
        return self.heights[-1].capacity

    @property
    def smallest(self) -> HeightRange:
        """The height whose smallest ratio is the smallest overall (the first such)."""
        return min(self.heights, key=lambda part: part.smallest)

    @property
    def holds(self) -> bool:
        """The closed form bounds the exact MSE at every horizon checked (the ratio never exceeds 1)."""
        return all(part.largest == 1 and part.capacity in part.largest_at for part in self.heights)

    @property
    def other_equalities(self) -> tuple[int, ...]:
        """Horizons other than the capacities where the closed form is exact."""
        return tuple(t for part in self.heights for t in part.largest_at if t != part.capacity)

    def summary(self) -> str:
        """The overall range, where it is attained, and the range of each height."""
        low = self.smallest
        lemma = "Lemma 3.5 (Algorithm 1)" if self.algorithm == "algorithm_1" else "Lemma 4.7 (Algorithm 2)"
        parts = ", ".join(
            f"h={part.height}: [{format_directed(part.smallest, 4, upward=False)} at T={part.smallest_at}, "
            f"{format_directed(part.largest, 4, upward=True)}]"
            for part in self.heights
        )
        others = self.other_equalities
        exact_at = f"equal at the capacities and at T = {list(others)}" if others else "equal only at the capacities"
        bounded = f"an upper bound at every T, {exact_at}" if self.holds else "NOT an upper bound"
        return (
            f"{lemma}, k = {self.arity}, every T = 1..{self.horizons}: exact ε²·MSE(T)/closed form(h(T)) lies in "
            f"[{low.smallest} ≈ {format_directed(low.smallest, 4, upward=False)} (at T = {low.smallest_at}), 1]; the closed form is {bounded}. "
            f"Per height: {parts}."
        )


def _weights(arity: int, horizon: int, offset: bool) -> np.ndarray:
    """‖rep(t)‖₁ for t = 0..horizon (offset: balanced digits −c..k − 1 − c; else standard digits)."""
    values = np.arange(horizon + 1, dtype=np.int64)
    total = np.zeros_like(values)
    top = arity // 2
    while values.any():
        digit = values % arity
        if offset:
            digit = np.where(digit > top, digit - arity, digit)
        total += np.abs(digit)
        values = (values - digit) // arity
    return total


def _exact_ratio(algorithm: Algorithm, arity: int, horizon: int) -> Fraction:
    """ε²·MSE(T)/f(h(T)) from the digit programmes (independent of the vectorised sums)."""
    from reference.kary import mse as kary_mse

    if algorithm == "algorithm_1":
        height = height_for_horizon(arity, horizon, offset=False)
        return kary_mse.algorithm_1_mse_digit_programme(arity, horizon) / kary_mse.lemma_3_5_closed_form(arity, height)
    height = height_for_horizon(arity, horizon, offset=True)
    return kary_mse.algorithm_2_mse_digit_programme(arity, horizon) / kary_mse.lemma_4_7_closed_form(arity, height)


def horizon_ratio_check(algorithm: Algorithm, arity: int, max_horizon: int = 2_000_000) -> HorizonRatio:
    """ratio(T) at every T of every complete height whose capacity is at most ``max_horizon``."""
    if algorithm not in ("algorithm_1", "algorithm_2"):
        raise ValueError(f"algorithm must be 'algorithm_1' or 'algorithm_2', got {algorithm!r}")
    offset = algorithm == "algorithm_2"
    k = check_arity(arity, parity="odd" if offset else "any", needed_by="Lemma 4.7")
    limit = check_positive_int(max_horizon, "max_horizon")

    def capacity(height: int) -> int:
        return offset_capacity(k, height) if offset else int(k**height - 1)

    top = 1
    while capacity(top + 1) <= limit:
        top += 1
    if capacity(top) > limit:
        raise ValueError(f"max_horizon must hold at least one complete height (>= {capacity(1)}), got {limit}")
    horizon = capacity(top)
    prefix = np.cumsum(_weights(k, horizon, offset))  # prefix[T] = S(T) (t = 0 weighs 0)
    times = np.arange(horizon + 1, dtype=np.int64)
    parts = []
    first = 1
    for height in range(1, top + 1):
        last = capacity(height)
        span = slice(first, last + 1)
        full = int(prefix[last])
        # ratio(T) = S(T)·T_h / (T·S(T_h)); compare with 1 exactly as int64 cross-products (no overflow below 2^63)
        left, right = prefix[span] * last, times[span] * full
        equal = tuple(int(t) for t in times[span][left == right])
        above = bool((left > right).any())
        approximate = prefix[span].astype(np.float64) / times[span].astype(np.float64)
        candidates = np.flatnonzero(approximate <= approximate.min() * (1 + 1e-9)) + first
        smallest_at = min((int(t) for t in candidates), key=lambda t: (_exact_ratio(algorithm, k, t), t))
        largest_at = equal if not above else tuple(int(t) for t in times[span][left > right])
        parts.append(
            HeightRange(
                height,
                first,
                last,
                _exact_ratio(algorithm, k, smallest_at),
                smallest_at,
                _exact_ratio(algorithm, k, largest_at[0]) if largest_at else Fraction(0),
                largest_at,
            )
        )
        first = last + 1
    return HorizonRatio(algorithm, k, tuple(parts))


def every_horizon_outcome(algorithm: Algorithm, arities: tuple[int, ...], max_horizon: int) -> Outcome:
    """The registry outcome of :func:`horizon_ratio_check` over ``arities``: verified where the closed form
    bounds the exact MSE at every horizon checked, refuted (with the first failure) otherwise."""
    results = [horizon_ratio_check(algorithm, arity, max_horizon) for arity in arities]
    failed = [r for r in results if not r.holds]
    return Outcome(
        Status.VERIFIED if not failed else Status.REFUTED,
        " ".join(r.summary() for r in results),
        counterexample=failed[0].summary() if failed else None,
        corrected="the closed form is not an upper bound at every horizon" if failed else None,
    )
