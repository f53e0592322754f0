"""Cross-checks of the numeric KARY mechanisms (:mod:`reference.kary.counters`) against the exact layer.

* **Deterministic** (:func:`check_agreement`): for every horizon T = 1..``max_horizon`` and each arity, the
  online counter, the batch Algorithm 2 and Algorithm 3 return exactly the true prefix counts when all noise
  is zero; with integer-valued noise injected as a function of the index (exact in binary64), the online
  counter and the batch equal the walk of :func:`reference.kary.digits.algorithm_2_noise_indices`,
  Algorithm 3 with vertex noise ν equals Algorithm 2 with z_p = sign · ν(vertex(p)) (Proposition 4.3's sign
  argument), and Algorithm 1 equals a direct standard-digit walk (Definition 3.2).
* **Live noise** (:func:`check_live_noise`): the online counter's live count after each step and its peak
  equal the counts computed from the exact index lists (intervals of use found by enumeration), its number of
  draws equals the number of distinct indices, and the peak is <= h (k − 1)/2 (Lemma 4.12).
* **Statistical** (seeded, false-alarm probability stated and rigorous):
  :func:`check_step_variance` — per-step output variance of the batch Algorithm 2 against
  :func:`reference.kary.mse.algorithm_2_step_variance` by a median of group means with Chebyshev's
  inequality per group (the exact fourth moment of a sum of m Laplace(b) is known) and an exact binomial tail
  for the median; :func:`check_algorithm_2_vs_3` — the output distributions of Algorithms 2 and 3 at a few
  times by the two-sample Dvoretzky–Kiefer–Wolfowitz–Massart bound.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy import stats

from reference.core.statistical_check import StatisticalCheck
from reference.core.verdict import Decided
from reference.kary.counters import OnlineCounter, algorithm_1, algorithm_2_batch, algorithm_3
from reference.kary.digits import algorithm_2_noise_indices, digits, height_for_horizon
from reference.kary.mse import algorithm_2_step_variance
from reference.kary.noise_indices import algorithm_2_vertex

#: Default false-alarm probability of one statistical check.
DEFAULT_ALPHA = 1e-9


@dataclass(frozen=True)
class AgreementCheck(Decided):
    """Exact agreement of the numeric algorithms over all horizons 1..max_horizon (no randomness)."""

    name: str
    arities: tuple[int, ...]
    max_horizon: int
    cases: int
    mismatches: tuple[str, ...]

    @property
    def holds(self) -> bool:
        """True iff no case differed."""
        return not self.mismatches

    def summary(self) -> str:
        """How many cases were compared and the first mismatches."""
        head = f"{self.name}: {self.cases} cases, arities {self.arities}, T = 1..{self.max_horizon}"
        if self.holds:
            return head + ": all equal"
        return head + f": {len(self.mismatches)} mismatches, first: " + "; ".join(self.mismatches[:3])


@dataclass(frozen=True)
class LiveNoiseCheck(Decided):
    """The online counter's live-noise bookkeeping against counts from the exact index lists."""

    arity: int
    horizon: int
    height: int
    observed_peak: int
    exact_peak: int
    lemma_4_12_bound: int
    draws: int
    distinct_indices: int
    live_mismatches: int

    @property
    def holds(self) -> bool:
        """Peak and draws equal the exact counts, every live count matched, and the peak is within the bound."""
        return (
            self.observed_peak == self.exact_peak
            and self.draws == self.distinct_indices
            and self.live_mismatches == 0
            and self.exact_peak <= self.lemma_4_12_bound
        )

    def summary(self) -> str:
        """Observed and exact counts."""
        return (
            f"arity {self.arity}, T = {self.horizon} (h = {self.height}): peak live {self.observed_peak} "
            f"(exact {self.exact_peak}, Lemma 4.12 bound h·⌊k/2⌋ = {self.lemma_4_12_bound}); draws {self.draws} "
            f"(distinct indices {self.distinct_indices}); steps whose live count differed: {self.live_mismatches}"
        )


# ------------------------------------------------------------------------------------------ agreement


def _injected(index: int) -> int:
    """A deterministic integer noise value for index p (|value| <= 504, so float sums are exact)."""
    return (index * 7919) % 1009 - 504


def _injected_vertex(level: int, j: int) -> float:
    return float((level * 100_003 + j * 31) % 997 - 498)


def _injected_array(indices: np.ndarray) -> np.ndarray:
    return (np.asarray(indices, dtype=np.int64) * 7919) % 1009 - 504


def check_agreement(arities: tuple[int, ...] = (3, 5), max_horizon: int = 200, seed: int = 0) -> AgreementCheck:
    """Exhaustive over T = 1..``max_horizon``: zero noise gives the prefix counts exactly in all algorithms;
    injected noise gives equal outputs (see the module docstring). Streams: seeded random 0/1."""
    rng = np.random.default_rng(seed)
    mismatches: list[str] = []
    cases = 0

    def compare(label: str, got: object, want: np.ndarray) -> None:
        if not np.array_equal(np.asarray(got, dtype=np.float64), want.astype(np.float64)):
            mismatches.append(label)

    for arity in arities:
        for horizon in range(1, max_horizon + 1):
            stream = rng.integers(0, 2, horizon)
            prefix = np.cumsum(stream)
            height = height_for_horizon(arity, horizon, offset=True)
            tag = f"arity {arity}, T {horizon}"
            # zero noise
            online = OnlineCounter(arity, 1, horizon, noise_function=lambda _p: 0).run(stream)
            compare(f"{tag}: online, zero noise", online, prefix)
            compare(f"{tag}: batch, zero noise", algorithm_2_batch(stream, arity, 1, noise_function=np.zeros_like), prefix)
            compare(f"{tag}: Algorithm 3, zero noise", algorithm_3(stream, arity, 1, noise_function=lambda _l, _j: 0.0), prefix)
            # injected noise against the exact walk
            walk = np.array(
                [prefix[t - 1] + sum(_injected(p) for p in algorithm_2_noise_indices(t, arity, height)) for t in range(1, horizon + 1)]
            )
            compare(f"{tag}: online, injected", OnlineCounter(arity, 1, horizon, noise_function=_injected).run(stream), walk)
            compare(f"{tag}: batch, injected", algorithm_2_batch(stream, arity, 1, noise_function=_injected_array), walk)
            # Algorithm 3 with vertex noise vs Algorithm 2 with signed vertex noise
            signed = np.array(
                [
                    prefix[t - 1]
                    + sum(s * _injected_vertex(lv, j) for lv, j, s in (algorithm_2_vertex(p, arity) for p in algorithm_2_noise_indices(t, arity, height)))
                    for t in range(1, horizon + 1)
                ]
            )
            compare(f"{tag}: Algorithm 3 vs signed walk", algorithm_3(stream, arity, 1, noise_function=_injected_vertex), signed)

            def signed_values(indices: np.ndarray, arity: int = arity) -> np.ndarray:
                out = []
                for p in indices:
                    level, j, sign = algorithm_2_vertex(int(p), arity)
                    out.append(sign * _injected_vertex(level, j))
                return np.array(out, dtype=np.float64)

            compare(f"{tag}: batch with signed vertex noise vs Algorithm 3", algorithm_2_batch(stream, arity, 1, noise_function=signed_values), signed)
            # Algorithm 1 against a standard-digit walk
            height_1 = height_for_horizon(arity, horizon, offset=False)
            direct = []
            for t in range(1, horizon + 1):
                position, total = 0, int(prefix[t - 1])
                digit_vector = digits(t, arity, height_1)
                for level in range(height_1, 0, -1):
                    for _ in range(digit_vector[level - 1]):
                        position += arity ** (level - 1)
                        total += _injected(position)
                direct.append(total)
            compare(f"{tag}: Algorithm 1, injected", algorithm_1(stream, arity, 1, noise_function=_injected_array), np.array(direct))
            compare(f"{tag}: Algorithm 1, zero noise", algorithm_1(stream, arity, 1, noise_function=np.zeros_like), prefix)
            cases += 9
    return AgreementCheck("online / batch / Algorithm 3 / Algorithm 1 agreement", tuple(arities), max_horizon, cases, tuple(mismatches))


# ------------------------------------------------------------------------------------------ live noise


def check_live_noise(arity: int, horizon: int, seed: int = 0) -> LiveNoiseCheck:
    """Run the online counter over ``horizon`` steps and compare its live counts with the exact ones.

    Exact: the interval of use [first, last] of every index is found by enumerating
    :func:`algorithm_2_noise_indices` for t = 1..T; the live count after step t is #{p : first <= t < last}
    and the peak is max_t #{p : first <= t <= last}.
    """
    height = height_for_horizon(arity, horizon, offset=True)
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for t in range(1, horizon + 1):
        for p in algorithm_2_noise_indices(t, arity, height):
            first.setdefault(p, t)
            last[p] = t
    starts = np.zeros(horizon + 2, dtype=np.int64)
    ends = np.zeros(horizon + 2, dtype=np.int64)
    for p, t in first.items():
        starts[t] += 1
        ends[last[p]] += 1
    in_use = np.cumsum(starts) - np.concatenate(([0], np.cumsum(ends)[:-1]))  # first <= t <= last
    after = np.cumsum(starts) - np.cumsum(ends)  # first <= t < last
    counter = OnlineCounter(arity, 1.0, horizon, rng=seed)
    stream = np.random.default_rng(seed).integers(0, 2, horizon)
    mismatches = 0
    for t in range(1, horizon + 1):
        counter.step(int(stream[t - 1]))
        mismatches += int(counter.live_count != after[t])
    return LiveNoiseCheck(
        arity=arity,
        horizon=horizon,
        height=height,
        observed_peak=counter.max_live_count,
        exact_peak=int(in_use[1 : horizon + 1].max()),
        lemma_4_12_bound=height * (arity // 2),  # h(k − 1)/2 (odd, Proof 4.13); h·k/2 for even (largest digit k/2)
        draws=counter.draws,
        distinct_indices=len(first),
        live_mismatches=mismatches,
    )


# ------------------------------------------------------------------------------------------ statistics


def _groups_for(alpha: float) -> int:
    """Smallest g with P(Binomial(g, 1/4) >= g/2) <= alpha (a median of g groups fails only then)."""
    groups = 8
    while stats.binom.sf(math.ceil(groups / 2) - 1, groups, 0.25) > alpha:
        groups += 8
    return groups


def check_step_variance(
    arity: int = 3,
    horizon: int = 40,
    epsilon: float = 1.0,
    group_size: int = 400,
    alpha: float = DEFAULT_ALPHA,
    seed: int = 1,
) -> StatisticalCheck:
    """Per-step variance of the batch Algorithm 2 (Laplace noise) at every t = 1..T against the exact
    2h² ‖rep(t, h)‖₁ / ε² (``algorithm_2_step_variance``).

    For each t the squared errors (output − prefix)² of R independent runs are split into g groups of
    ``group_size``; under the null each group mean is within a = 2 sqrt(Var[N²] / n) of V with probability
    >= 3/4 (Chebyshev; Var[N²] = b⁴ (8m² + 12m) for a sum N of m i.i.d. Laplace(b)), so the median misses
    only if >= g/2 groups do: probability <= P(Bin(g, 1/4) >= g/2) <= alpha / T (g chosen so). Statistic: the
    largest |median − V| / a over t (threshold 1).
    """
    height = height_for_horizon(arity, horizon, offset=True)
    scale = height / epsilon
    groups = _groups_for(alpha / horizon)
    runs = groups * group_size
    rng = np.random.default_rng(seed)
    stream = rng.integers(0, 2, horizon)
    prefix = np.cumsum(stream)
    errors = np.empty((runs, horizon))
    for run in range(runs):
        errors[run] = algorithm_2_batch(stream, arity, epsilon, rng=rng) - prefix
    worst, worst_t = 0.0, 0
    for t in range(1, horizon + 1):
        variance = float(Fraction(algorithm_2_step_variance(t, arity, horizon)) / Fraction(epsilon) ** 2)
        count = round(variance / (2 * scale * scale))
        fourth = scale**4 * (8 * count * count + 12 * count)
        tolerance = 2 * math.sqrt(fourth / group_size)
        means = (errors[:, t - 1] ** 2).reshape(groups, group_size).mean(axis=1)
        ratio = abs(float(np.median(means)) - variance) / tolerance
        if ratio > worst:
            worst, worst_t = ratio, t
    return StatisticalCheck.by_threshold(
        name=f"Algorithm 2 per-step variance (arity {arity}, T = {horizon})",
        statistic=worst,
        threshold=1.0,
        false_alarm=alpha,
        samples=runs,
        detail=f"median of {groups} group means of {group_size}; worst at t = {worst_t}",
    )


def _dkw_radius(samples: int, alpha: float) -> float:
    """P(sup |F_n − F| > r) <= 2 exp(−2 n r²) = alpha (Massart)."""
    return math.sqrt(math.log(2 / alpha) / (2 * samples))


def check_algorithm_2_vs_3(
    arity: int = 5,
    horizon: int = 12,
    times: tuple[int, ...] = (1, 3, 7, 12),
    runs: int = 4000,
    alpha: float = DEFAULT_ALPHA,
    seed: int = 2,
) -> StatisticalCheck:
    """Proposition 4.3: Algorithms 2 and 3 have the same output distribution (Laplace noise), at ``times``.

    For each time the Kolmogorov distance D between the two empirical distributions (``runs`` each) is at
    most r2 + r3 with r the Massart DKW radius at level alpha / (2 |times|) for each sample (union bound).
    Statistic: the largest D / (2 r) (threshold 1).
    """
    rng = np.random.default_rng(seed)
    stream = rng.integers(0, 2, horizon)
    second = np.array([algorithm_2_batch(stream, arity, 1.0, rng=rng) for _ in range(runs)])
    third = np.array([algorithm_3(stream, arity, 1.0, rng=rng) for _ in range(runs)])
    radius = _dkw_radius(runs, alpha / (2 * len(times)))
    worst, worst_t = 0.0, times[0]
    for t in times:
        distance = float(stats.ks_2samp(second[:, t - 1], third[:, t - 1]).statistic)
        if distance / (2 * radius) > worst:
            worst, worst_t = distance / (2 * radius), t
    return StatisticalCheck.by_threshold(
        name=f"Algorithm 2 vs Algorithm 3 distributions (arity {arity}, T = {horizon})",
        statistic=worst,
        threshold=1.0,
        false_alarm=alpha,
        samples=2 * runs,
        detail=(f"two-sample Kolmogorov distance at t in {times}; DKW radius {radius:.4f} per sample; worst at "
                f"t = {worst_t}"),
    )
