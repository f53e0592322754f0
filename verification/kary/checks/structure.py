"""Exhaustive checks of the KARY tree structure (:mod:`reference.kary.tree`) for small parameters.

Arities 2..7 (odd ones with Definition 3.8's digits, even ones with Appendix C's Definition C.1) and heights
1..4, limited to trees whose capacity fits a dense exact matrix. Each function returns a frozen dataclass with
``holds`` and ``summary()``:

* :func:`factorization_check` — L·R = A exactly, with and without subtraction (integer matrices; numpy int64
  is exact at these sizes, and the pure-Python check of the module is run on the smaller trees);
* :func:`algorithm_3_vs_2_check` — for every t, Algorithm 3's signed vertices are the vertices of Algorithm 2's
  noise indices (Proof 4.4), and Algorithm 2's unsigned noise has the same covariance (one sign per vertex);
* :func:`sensitivity_check` — the ℓ1 and ℓ2² sensitivity of R against the paper's Δ1 = h (Proofs 3.4, 4.6),
  at the capacity and for every horizon T up to a bound with the algorithm's own height;
* :func:`mse_check` — Algorithm 1's ε²·MSE by enumeration and by the digit programme against Lemma 3.5 at
  T = k^h − 1, and Algorithm 2's against Lemma 4.7 at T = (k^h − 1)/2 (odd arity);
* :func:`live_noise_check` — simulated live noise against Proof 4.13's bound h(k − 1)/2 (h·k/2 for even arity)
  and Proposition 4.10's contiguity, for every horizon up to a bound.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from reference.core.verdict import Decided
from reference.kary import mse as kary_mse
from reference.kary import noise_indices
from reference.kary import tree as kt
from reference.kary.digits import algorithm_2_noise_indices, height_for_horizon
from reference.kary.mse import algorithm_2_mse, algorithm_2_mse_digit_programme, lemma_4_7_closed_form

ARITIES: tuple[int, ...] = (2, 3, 4, 5, 6, 7)
HEIGHTS: tuple[int, ...] = (1, 2, 3, 4)
#: Largest capacity for which the dense matrices are built.
MATRIX_LIMIT = 400


def _trees(subtraction: bool, limit: int = MATRIX_LIMIT) -> list[tuple[int, int]]:
    return [
        (arity, height)
        for arity in ARITIES
        for height in HEIGHTS
        if kt.capacity(arity, height, subtraction=subtraction) <= limit
    ]


# ----------------------------------------------------------------------------------------------- L·R = A


@dataclass(frozen=True)
class FactorizationCheck(Decided):
    """L·R = A for every small tree, with (Algorithm 3) and without (Algorithm 1) subtraction."""

    cases: tuple[tuple[int, int, bool, bool], ...]  # (arity, height, subtraction, holds)

    @property
    def holds(self) -> bool:
        return all(holds for *_, holds in self.cases)

    def summary(self) -> str:
        failed = [case[:3] for case in self.cases if not case[3]]
        verdict = "PASS" if self.holds else f"FAIL at {failed}"
        return f"L·R = A exactly for {len(self.cases)} (arity, height, subtraction) trees: {verdict}"


def factorization_check() -> FactorizationCheck:
    """L·R = A for arities 2..7, heights 1..4, capacity <= :data:`MATRIX_LIMIT`."""
    cases = []
    for subtraction in (False, True):
        for arity, height in _trees(subtraction):
            left = np.array(kt.reconstruction_matrix(arity, height, subtraction=subtraction), dtype=np.int64)
            right = np.array(kt.strategy_matrix(arity, height, subtraction=subtraction), dtype=np.int64)
            steps = left.shape[0]
            holds = bool(np.array_equal(left @ right, np.tril(np.ones((steps, steps), dtype=np.int64))))
            if steps <= 60:
                holds = holds and kt.check_factorization(arity, height, subtraction=subtraction)
            cases.append((arity, height, subtraction, holds))
    return FactorizationCheck(tuple(cases))


# ------------------------------------------------------------------------------------ Algorithm 3 vs 2


@dataclass(frozen=True)
class Algorithm3Check(Decided):
    """Algorithm 3's signed vertices vs Algorithm 2's noise indices, every t at every small capacity."""

    cases: tuple[tuple[int, int, int, bool, bool], ...]  # (arity, height, outputs, vertices agree, covariance agrees)

    @property
    def holds(self) -> bool:
        return all(vertices and covariance for *_, vertices, covariance in self.cases)

    def summary(self) -> str:
        outputs = sum(case[2] for case in self.cases)
        verdict = "PASS" if self.holds else "FAIL"
        return (
            f"Algorithm 3's signed vertices = vertices of Algorithm 2's noise indices for {outputs} outputs over "
            f"{len(self.cases)} trees, and L·Lᵀ = shared-index counts: {verdict}"
        )


def algorithm_3_vs_2_check(limit: int = 2000) -> Algorithm3Check:
    """Arities 3..7, heights 1..4 (capacity <= ``limit``; the covariance for capacity <= 200)."""
    cases = []
    for arity, height in _trees(True, limit):
        if arity < 3:
            continue
        top = kt.capacity(arity, height, subtraction=True)
        vertices = all(
            tuple(kt.vertex_of_noise_index(p, arity, height) for p in algorithm_2_noise_indices(t, arity, height))
            == kt.algorithm_3_signed_vertices(t, arity, height)
            for t in range(1, top + 1)
        )
        covariance = kt.check_algorithm_2_covariance(arity, height) if top <= 200 else True
        cases.append((arity, height, top, vertices, covariance))
    return Algorithm3Check(tuple(cases))


# ----------------------------------------------------------------------------------------- sensitivity


@dataclass(frozen=True)
class SensitivityCheck(Decided):
    """ℓ1 and ℓ2² sensitivity of R vs the paper's Δ1 = h."""

    at_capacity: tuple[tuple[int, int, bool, int, int], ...]  # (arity, height, subtraction, ℓ1, ℓ2²)
    horizons_checked: int
    horizon_mismatches: tuple[tuple[int, int, bool, int, int], ...]  # (arity, T, subtraction, h, ℓ1) with ℓ1 != h

    @property
    def holds(self) -> bool:
        return not self.horizon_mismatches and all(
            l1 == height and l2 == height for _, height, _, l1, l2 in self.at_capacity
        )

    def summary(self) -> str:
        verdict = "PASS" if self.holds else "FAIL"
        return (
            f"ℓ1 = ℓ2² = h for {len(self.at_capacity)} trees at capacity and for {self.horizons_checked} "
            f"(arity, T, subtraction) with the algorithm's height: {verdict} (every level 1..h has a used vertex "
            "containing input 1; the root is never used) — the paper's Δ1 = h is exact, not just an upper bound"
        )


def sensitivity_check(max_horizon: int = 120) -> SensitivityCheck:
    """At capacity for every small tree; and for every T <= ``max_horizon`` with h = the algorithm's height."""
    at_capacity = []
    for subtraction in (False, True):
        for arity, height in _trees(subtraction):
            sens = kt.sensitivities(arity, height, subtraction=subtraction)
            at_capacity.append((arity, height, subtraction, sens.l1, sens.l2_squared))
    mismatches = []
    count = 0
    for arity in ARITIES:
        for subtraction in (False, True):
            for steps in range(1, max_horizon + 1):
                height = height_for_horizon(arity, steps, offset=subtraction)
                sens = kt.sensitivities(arity, height, subtraction=subtraction, horizon=steps)
                count += 1
                if sens.l1 != height or sens.l2_squared != height:
                    mismatches.append((arity, steps, subtraction, height, sens.l1))
    return SensitivityCheck(tuple(at_capacity), count, tuple(mismatches))


# ------------------------------------------------------------------------------------------------- MSE


@dataclass(frozen=True)
class MseCheck(Decided):
    """Exact ε²·MSE vs the printed closed forms (Lemma 3.5, Lemma 4.7) and enumeration vs digit programme."""

    lemma_3_5_cases: int
    lemma_3_5_failures: tuple[tuple[int, int], ...]
    lemma_4_7_cases: int
    lemma_4_7_failures: tuple[tuple[int, int], ...]
    dp_cases: int
    dp_failures: tuple[tuple[int, int], ...]

    @property
    def holds(self) -> bool:
        return not (self.lemma_3_5_failures or self.lemma_4_7_failures or self.dp_failures)

    def summary(self) -> str:
        verdict = "PASS" if self.holds else "FAIL"
        return (
            f"Lemma 3.5 at T = k^h − 1 ({self.lemma_3_5_cases} cases), Lemma 4.7 at T = (k^h − 1)/2 "
            f"({self.lemma_4_7_cases} cases), Algorithm 1 enumeration = digit programme for every T <= bound "
            f"({self.dp_cases} cases): {verdict}"
        )


def mse_check(max_horizon: int = 400) -> MseCheck:
    """Closed forms at their horizons (k <= 7, h <= 4; more heights for the programme) and every T <= bound."""
    failures_3_5 = []
    cases_3_5 = 0
    for arity in ARITIES:
        for height in range(1, 9):
            steps = arity**height - 1
            closed = kary_mse.lemma_3_5_closed_form(arity, height)
            ok = kary_mse.algorithm_1_mse_digit_programme(arity, steps) == closed
            if steps <= 20_000:
                ok = ok and kary_mse.algorithm_1_mse(arity, steps) == closed
            cases_3_5 += 1
            if not ok:
                failures_3_5.append((arity, height))
    failures_4_7 = []
    cases_4_7 = 0
    for arity in (3, 5, 7):
        for height in range(1, 9):
            steps = (arity**height - 1) // 2
            closed = lemma_4_7_closed_form(arity, height)
            ok = algorithm_2_mse_digit_programme(arity, steps) == closed
            if steps <= 20_000:
                ok = ok and algorithm_2_mse(arity, steps) == closed
            cases_4_7 += 1
            if not ok:
                failures_4_7.append((arity, height))
    dp_failures = []
    dp_cases = 0
    for arity in ARITIES:
        for steps in range(1, max_horizon + 1):
            dp_cases += 1
            if kary_mse.algorithm_1_total_vertex_count(arity, steps) != kary_mse.algorithm_1_total_vertex_count_digit_programme(arity, steps):
                dp_failures.append((arity, steps))
    return MseCheck(cases_3_5, tuple(failures_3_5), cases_4_7, tuple(failures_4_7), dp_cases, tuple(dp_failures))


# ------------------------------------------------------------------------------------------ live noise


@dataclass(frozen=True)
class LiveNoiseCheck(Decided):
    """Simulated live noise of Algorithm 2 vs Proof 4.13's bound, for every horizon up to a bound."""

    horizons_checked: int
    over_bound: tuple[tuple[int, int], ...]  # (arity, T) with more live values than h·max|digit|
    not_contiguous: tuple[tuple[int, int], ...]  # (arity, T) violating Proposition 4.10
    live_exceeds_used: tuple[tuple[int, int], ...]  # (arity, T) where live > max per-step count
    bound_attained_at_capacity: bool

    @property
    def holds(self) -> bool:
        return (
            not (self.over_bound or self.not_contiguous or self.live_exceeds_used) and self.bound_attained_at_capacity
        )

    def summary(self) -> str:
        verdict = "PASS" if self.holds else "FAIL"
        return (
            f"live noise <= h(k − 1)/2 (odd; h·k/2 even), every z_p used on an interval (Prop. 4.10), live = max "
            f"per-step count, for {self.horizons_checked} (arity, T); bound attained at T = capacity: {verdict}"
        )


def live_noise_check(max_horizon: int = 300) -> LiveNoiseCheck:
    """Arities 3..7 and every T <= ``max_horizon``; the bound's attainment at capacity for h <= 4."""
    over, gaps, exceeds = [], [], []
    count = 0
    for arity in (3, 4, 5, 6, 7):
        for steps in range(1, max_horizon + 1):
            live = noise_indices.live_noise_count(arity, steps)
            count += 1
            if not live.within_bound:
                over.append((arity, steps))
            if not live.contiguous:
                gaps.append((arity, steps))
            if live.maximum_live > live.maximum_used:
                exceeds.append((arity, steps))
    attained = all(
        noise_indices.live_noise_count(arity, kt.capacity(arity, height, subtraction=True)).maximum_live == height * (arity // 2)
        for arity in (3, 4, 5, 6, 7)
        for height in (1, 2, 3)
    )
    return LiveNoiseCheck(count, tuple(over), tuple(gaps), tuple(exceeds), attained)


ALL_CHECKS = (factorization_check, algorithm_3_vs_2_check, sensitivity_check, mse_check, live_noise_check)


if __name__ == "__main__":
    for check in ALL_CHECKS:
        print(check().summary())
