"""Verification of TDA's IntOpt by exhaustive enumeration on small inputs.

These are *verification* (finite checks), not proofs. Each function returns an :class:`IntOptCheck`:

1. :func:`check_optimality` — on every integer vector of length ``<= max_dim`` with entries in
   ``[low, high]`` and every total ``0..max_total``, the output of :func:`reference.tda.intopt.intopt` is a
   vector of non-negative integers summing to the total whose Chebyshev distance to the input equals the
   minimum over *all* such vectors (enumerated: every composition of the total).
2. :func:`check_literal_equals_fast` — the printed loop and the fast version give the same output and the
   same iteration count on the same small grid, and on seeded random long vectors.
3. :func:`check_error_lemma` — the deterministic step of the paper's Appendix A (equations (5)-(6)): for true
   counts ``x`` (non-negative integers), noisy counts ``y`` and the parent's released total ``c``,
   ``max_j |x_j - IntOpt(y, c)_j| <= 2 ||y - x||_inf + |c - sum(x)|``; also its two ingredients, the optimality
   step ``||y - IntOpt(y, c)||_inf <= ||y - x||_inf + ||xi||_inf`` with the offset bound
   ``min ||xi||_inf <= |c - sum(x)|`` (the minimum over integer offsets with ``x + xi >= 0`` and
   ``sum(xi) = c - sum(x)``, enumerated).
4. :func:`check_complexity_claim` — the paper says the printed loop "runs in O(c) steps". The loop's iteration
   count is compared with ``c``: on ``x = (M, 0, ..., 0)`` with ``c = 0`` it grows linearly in ``M`` (it is
   ``(d - 1) * M + O(d)``), so no bound ``K * max(c, 1)`` holds. The check reports the family and verifies the
   bound this module derives instead: ``iterations <= d * (max(0, alpha - t0) + 1)`` where ``alpha`` is the
   optimal Chebyshev distance and ``t0`` line 3's initial ``t``.
5. :func:`check_initialisation_claims` — section 3's statements about line 2 (footnote 4, the initial norm,
   the lower bound on the optimal distance).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from reference.core.validate import check_positive_int
from reference.core.verdict import Decided
from reference.tda.intopt import intopt, intopt_literal_with_count, intopt_with_count


@dataclass(frozen=True)
class IntOptCheck(Decided):
    """The verdict of one exhaustive or seeded check: ``holds`` iff ``failures == 0`` (``cases`` checked)."""

    name: str
    holds: bool
    cases: int
    failures: int
    detail: str
    first_failure: str = ""

    def summary(self) -> str:
        """One line: name, verdict, counts and what was found."""
        verdict = "PASS" if self.holds else "FAIL"
        text = f"[{verdict}] {self.name}: {self.cases} cases, {self.failures} failures; {self.detail}"
        if self.first_failure:
            text += f"; first failure: {self.first_failure}"
        return text


def compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every vector of ``parts`` non-negative integers summing to ``total`` (brute-force feasible set)."""
    total = check_positive_int(total, "total", minimum=0)
    parts = check_positive_int(parts, "parts")
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in compositions(total - first, parts - 1):
            yield (first, *rest)


def _distance(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return max(abs(p - q) for p, q in zip(a, b))


def brute_force_distance(values: tuple[int, ...], total: int) -> int:
    """Minimum Chebyshev distance from ``values`` to a non-negative integer vector summing to ``total``."""
    return min(_distance(values, y) for y in compositions(total, len(values)))


def brute_force_distances(dim: int, low: int, high: int, total: int) -> dict[tuple[int, ...], int]:
    """:func:`brute_force_distance` of every vector of length ``dim`` with entries in ``[low, high]``, at once.

    The same enumeration (every composition of ``total``), as one numpy array per grid: the Chebyshev distances
    of all vectors to all compositions in int64, minimised over the compositions. The grid is at most
    ``(high - low + 1) ** dim`` vectors, so the caller keeps it small (the checks use at most 11^4)."""
    dim = check_positive_int(dim, "dim")
    total = check_positive_int(total, "total", minimum=0)
    vectors = list(itertools.product(range(low, high + 1), repeat=dim))
    grid = np.array(vectors, dtype=np.int64).reshape(len(vectors), dim)
    feasible = np.array(list(compositions(total, dim)), dtype=np.int64).reshape(-1, dim)
    best = np.full(len(vectors), np.iinfo(np.int64).max, dtype=np.int64)
    for composition in feasible:  # one composition at a time: memory stays one grid's size
        np.minimum(best, np.abs(grid - composition).max(axis=1), out=best)
    return {vector: int(distance) for vector, distance in zip(vectors, best)}


def _grid(max_dim: int, low: int, high: int) -> Iterator[tuple[int, ...]]:
    for dim in range(1, max_dim + 1):
        yield from itertools.product(range(low, high + 1), repeat=dim)


def _check_grid(max_dim: int, low: int, high: int, max_total: int) -> tuple[int, int, int, int]:
    max_dim = check_positive_int(max_dim, "max_dim")
    max_total = check_positive_int(max_total, "max_total", minimum=0)
    if isinstance(low, bool) or not isinstance(low, int):
        raise TypeError(f"low must be an integer, got {low!r}")
    if isinstance(high, bool) or not isinstance(high, int):
        raise TypeError(f"high must be an integer, got {high!r}")
    if high < low:
        raise ValueError(f"high must be >= low, got low={low}, high={high}")
    return max_dim, low, high, max_total


def check_optimality(max_dim: int = 4, low: int = -3, high: int = 3, max_total: int = 6) -> IntOptCheck:
    """IntOpt is feasible and attains the brute-force minimum distance on every small input."""
    max_dim, low, high, max_total = _check_grid(max_dim, low, high, max_total)
    cases = failures = 0
    first = ""
    optimum = {(dim, total): brute_force_distances(dim, low, high, total)
               for dim in range(1, max_dim + 1) for total in range(max_total + 1)}
    for values in _grid(max_dim, low, high):
        for total in range(max_total + 1):
            cases += 1
            out = intopt(values, total)
            ok = sum(out) == total and min(out) >= 0 and _distance(values, out) == optimum[len(values), total][values]
            if not ok:
                failures += 1
                first = first or f"values={values}, total={total}, output={out}"
    detail = f"dims 1..{max_dim}, entries {low}..{high}, totals 0..{max_total}; distance == brute-force minimum"
    return IntOptCheck("IntOpt optimality (brute force)", failures == 0, cases, failures, detail, first)


def check_literal_equals_fast(
    max_dim: int = 4,
    low: int = -4,
    high: int = 4,
    max_total: int = 8,
    random_cases: int = 200,
    random_dim: int = 300,
    seed: int = 20260503,
) -> IntOptCheck:
    """Literal loop and fast version agree (output and iteration count) on a grid and on seeded random input.

    The random inputs are true counts plus integer noise (the InfTDA use) and, to exercise many passes, wide
    uniform vectors with a total far from their sum.
    """
    max_dim, low, high, max_total = _check_grid(max_dim, low, high, max_total)
    random_cases = check_positive_int(random_cases, "random_cases", minimum=0)
    random_dim = check_positive_int(random_dim, "random_dim")
    cases = failures = 0
    first = ""

    def compare(values: tuple[int, ...], total: int) -> None:
        nonlocal cases, failures, first
        cases += 1
        slow = intopt_literal_with_count(values, total)
        fast = intopt_with_count(values, total)
        if slow != fast:
            failures += 1
            first = first or f"values={values[:8]}..., total={total}: literal {slow.iterations}, fast {fast.iterations}"

    for values in _grid(max_dim, low, high):
        for total in range(max_total + 1):
            compare(values, total)
    rng = random.Random(seed)
    for case in range(random_cases):
        dim = rng.randint(1, random_dim)
        if case % 2 == 0:
            true = [rng.randint(0, 20) for _ in range(dim)]
            noisy = tuple(v + rng.randint(-6, 6) for v in true)
            total = max(0, sum(true) + rng.randint(-10, 10))
        else:
            noisy = tuple(rng.randint(-50, 200) for _ in range(dim))
            total = rng.randint(0, 100 * dim)
        compare(noisy, total)
    detail = (
        f"grid dims 1..{max_dim}, entries {low}..{high}, totals 0..{max_total}, plus {random_cases} seeded "
        f"random vectors of length <= {random_dim} (seed {seed}); equal outputs and iteration counts"
    )
    return IntOptCheck("IntOpt literal == fast", failures == 0, cases, failures, detail, first)


def min_offset_norm(true: tuple[int, ...], total: int) -> int:
    """``min ||xi||_inf`` over integer ``xi`` with ``true + xi >= 0`` and ``sum(true + xi) == total`` (brute force)."""
    return brute_force_distance(true, total)


def check_error_lemma(max_dim: int = 3, true_high: int = 3, noise: int = 3, max_total: int = 7) -> IntOptCheck:
    """Appendix A, equations (5)-(6), verified on every small case.

    For every ``x`` in ``{0..true_high}^dim`` (true child counts), every ``y`` with ``||y - x||_inf <= noise``
    (noisy counts), and every total ``c`` in ``0..max_total`` (the parent's released count), with
    ``e = ||y - x||_inf`` and ``err = |c - sum(x)|``:

    * offset bound: ``min ||xi||_inf <= err`` (enumerated over all feasible offsets);
    * optimality step: ``||y - IntOpt(y, c)||_inf <= e + err``;
    * the lemma (6): ``max_j |x_j - IntOpt(y, c)_j| <= 2 e + err``.

    The detail reports the largest ratio ``lhs / (2 e + err)`` seen and how often (6) holds with equality.
    """
    max_dim = check_positive_int(max_dim, "max_dim")
    true_high = check_positive_int(true_high, "true_high", minimum=0)
    noise = check_positive_int(noise, "noise", minimum=0)
    max_total = check_positive_int(max_total, "max_total", minimum=0)
    cases = failures = 0
    equalities = both_positive = 0
    equality_example = ""
    best_ratio = (0, 1)
    first = ""
    for dim in range(1, max_dim + 1):
        for true in itertools.product(range(true_high + 1), repeat=dim):
            # the offset bound depends on x and c only: enumerated once per pair, not once per noisy y
            offsets = [min_offset_norm(true, total) for total in range(max_total + 1)]
            for shift in itertools.product(range(-noise, noise + 1), repeat=dim):
                noisy = tuple(t + s for t, s in zip(true, shift))
                e = max(abs(s) for s in shift)
                for total in range(max_total + 1):
                    cases += 1
                    err = abs(total - sum(true))
                    out = intopt(noisy, total)
                    lhs = _distance(true, out)
                    bound = 2 * e + err
                    offset_ok = offsets[total] <= err
                    step_ok = _distance(noisy, out) <= e + err
                    if not (offset_ok and step_ok and lhs <= bound):
                        failures += 1
                        first = first or f"x={true}, y={noisy}, c={total}, output={out}"
                    if bound > 0:
                        if lhs * best_ratio[1] > best_ratio[0] * bound:
                            best_ratio = (lhs, bound)
                        if lhs == bound:
                            equalities += 1
                            both_positive += e > 0 and err > 0
                            if not equality_example and e > 0:
                                equality_example = f"x={true}, y={noisy}, c={total} -> {out}"
    detail = (
        f"dims 1..{max_dim}, x in 0..{true_high}, ||y-x|| <= {noise}, c in 0..{max_total}; "
        f"largest lhs/(2e+err) = {best_ratio[0]}/{best_ratio[1]}; equality in (6) in {equalities} cases, "
        f"{both_positive} of them with e > 0 and err > 0"
        + (f"; with e > 0, e.g. {equality_example}" if equality_example else "; none with e > 0")
    )
    return IntOptCheck("Appendix A error step (5)-(6) for IntOpt", failures == 0, cases, failures, detail, first)


def complexity_family(magnitude: int, dim: int) -> int:
    """Iterations of the printed loop on ``x = (magnitude, 0, ..., 0)`` (length ``dim``) with ``c = 0``."""
    magnitude = check_positive_int(magnitude, "magnitude", minimum=0)
    dim = check_positive_int(dim, "dim")
    values = (magnitude,) + (0,) * (dim - 1)
    return intopt_literal_with_count(values, 0).iterations


def check_complexity_claim(max_dim: int = 4, low: int = -4, high: int = 6, max_total: int = 8) -> IntOptCheck:
    """The claim "Algorithm 1 [IntOpt] runs in O(c) steps" against the printed loop's iteration count.

    ``holds`` refers to the bound derived here, ``iterations <= d * (max(0, alpha - t0) + 1)`` (``alpha`` the
    optimal distance, ``t0`` the initial ``t``), checked on the whole grid. The detail records the paper's claim
    as refuted: for ``x = (M, 0, ..., 0)``, ``c = 0`` the count is ``(d - 1) * M + O(d)`` while ``c = 0``
    (for ``d = 2``: ``M + 2`` iterations for even ``M``).
    """
    max_dim, low, high, max_total = _check_grid(max_dim, low, high, max_total)
    cases = failures = 0
    first = ""
    worst: tuple[int, tuple[int, ...], int] = (0, (0,), 0)
    for values in _grid(max_dim, low, high):
        for total in range(max_total + 1):
            cases += 1
            trace = intopt_literal_with_count(values, total)
            alpha = _distance(values, trace.output)
            if trace.iterations > len(values) * (max(0, alpha - trace.t_initial) + 1):
                failures += 1
                first = first or f"values={values}, total={total}, iterations={trace.iterations}"
            ratio_key = trace.iterations // max(total, 1)
            if ratio_key > worst[0]:
                worst = (ratio_key, values, total)
    family = []
    for magnitude in (10, 100, 1000, 10000):
        iterations = complexity_family(magnitude, 2)
        family.append(f"M={magnitude}: {iterations}")
    detail = (
        f"derived bound iterations <= d*(max(0, alpha - t0) + 1) on dims 1..{max_dim}, entries {low}..{high}, "
        f"totals 0..{max_total}. Paper's O(c) claim REFUTED: x=(M,0), c=0 gives iterations "
        + ", ".join(family)
        + f"; largest iterations/max(c,1) on the grid {worst[0]} at values={worst[1]}, c={worst[2]}"
    )
    return IntOptCheck("IntOpt iteration count vs the O(c) claim", failures == 0, cases, failures, detail, first)


def check_initialisation_claims(max_dim: int = 4, low: int = -4, high: int = 6, max_total: int = 8) -> IntOptCheck:
    """Section 3's statements about line 2 of IntOpt, on every small input.

    * footnote 4: ``sum_i z_i >= c - sum(x)`` for the initial ``z`` (so only reductions are needed);
    * ``||z||_inf <= max(ceil(|c - sum(x)| / d), -min x)`` for the initial ``z``;
    * ``alpha >= max(|c - sum(x)| / d, -min x)``: the stated lower bound on the optimal distance ``alpha``
      (brute force). The detail reports how often it is attained and a family where it is not:
      ``x = (M, 0)``, ``c = 0`` has lower bound ``M / 2`` and optimum ``M``.
    """
    max_dim, low, high, max_total = _check_grid(max_dim, low, high, max_total)
    cases = failures = attained = 0
    first = ""
    # the smallest input where the bound is not attained: fewest cells, then smallest Σ|x_i|, then c, then x
    smallest: tuple[int, int, int, tuple[int, ...]] | None = None
    smallest_text = ""
    optimum = {(dim, total): brute_force_distances(dim, low, high, total)
               for dim in range(1, max_dim + 1) for total in range(max_total + 1)}
    for values in _grid(max_dim, low, high):
        dim = len(values)
        for total in range(max_total + 1):
            cases += 1
            deficit = total - sum(values)
            base = -((-deficit) // dim)
            z = [max(base, -v) for v in values]
            norm_bound = max(-((-abs(deficit)) // dim), -min(values))
            alpha = optimum[dim, total][values]
            # alpha >= |D|/d and alpha >= -min x, in exact integers: alpha * d >= |D|
            lower_ok = alpha * dim >= abs(deficit) and alpha >= -min(values)
            ok = sum(z) >= deficit and max(abs(v) for v in z) <= norm_bound and lower_ok
            bound = max(-((-abs(deficit)) // dim), -min(values), 0)
            if alpha == bound:
                attained += 1
            else:
                key = (dim, sum(abs(v) for v in values), total, values)
                if smallest is None or key < smallest:
                    smallest = key
                    smallest_text = f"x = {values}, c = {total}: bound {bound}, optimum {alpha}"
            if not ok:
                failures += 1
                first = first or f"values={values}, total={total}, z={z}"
    detail = (
        f"dims 1..{max_dim}, entries {low}..{high}, totals 0..{max_total}; integer lower bound "
        f"max(ceil(|D|/d), -min x, 0) attained in {attained}/{cases} cases; not tight: the smallest input where it "
        f"is not attained (fewest cells, then smallest Σ|x_i|, then c) is {smallest_text or 'none'}; the family "
        f"x = (M, 0), c = 0 has bound ceil(M/2) and optimum M"
    )
    return IntOptCheck(
        "IntOpt line 2 claims (footnote 4, initial norm, lower bound)", failures == 0, cases, failures, detail, first
    )


def run_all() -> list[IntOptCheck]:
    """Every check with its default (small, exhaustive) parameters."""
    return [
        check_optimality(),
        check_literal_equals_fast(),
        check_error_lemma(),
        check_complexity_claim(),
        check_initialisation_claims(),
    ]


if __name__ == "__main__":
    for check in run_all():
        print(check.summary())
