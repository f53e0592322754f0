"""Cross-checks of numeric Cascade Sampling (CIP Algorithm 1, Remark 3.6) against the exact ``C_depth``.

Three kinds of check, each returning a small frozen dataclass:

* **Deterministic** (:class:`DeterministicCheck`): structure of the sampled tree with a proved rounding bound
  (:func:`check_tree_structure`), and the covariance of the sampler's *linear map* (:func:`check_linear_map`,
  :func:`check_streaming_linear_map`): the samplers are linear in the standard normals they draw, so feeding
  them unit vectors through a scripted generator reads off the matrix ``A`` with ``x = A z``; then
  ``A A^T`` must equal ``sigma**2 * C`` up to a stated rounding bound.
* **Statistical** (:class:`StatisticalCheck`), seeded: draws are whitened with a whitening matrix built from
  the *exact* covariance, and the whitened coordinates are tested to be i.i.d. ``N(0, 1)`` by
  :func:`whitened_normal_test` (a battery of exact or rigorously bounded tests, combined by a union bound, so
  the stated false-alarm probability is a true upper bound, not an asymptotic one).

Every function takes its sample size and seed as parameters, so the claims registry can run them with a
larger budget than the tests.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from reference.cip.exact import matrix as cip_matrix
from reference.cip.numeric.cascade import cascade_leaves, cascade_tree, level_view
from reference.cip.numeric.streaming import StreamingCascade
from reference.cip.whitening import (
    DEFAULT_ALPHA,
    haar_whitening,
    ldl_whitening,
    two_sided_chi2,
    whitened_normal_test,
)
from reference.core.certified import format_directed
from reference.core.linalg import Matrix
from reference.core.statistical_check import StatisticalCheck
from reference.core.validate import check_depth, check_positive_int, positive_real
from reference.core.verdict import Decided

#: Unit roundoff of IEEE binary64 with round to nearest.
UNIT_ROUNDOFF = Fraction(1, 2**53)
#: Smallest positive subnormal binary64.
SMALLEST_SUBNORMAL = Fraction(1, 2**1074)


@dataclass(frozen=True)
class DeterministicCheck(Decided):
    """A check with no randomness in its verdict: ``holds`` iff ``statistic <= threshold``."""

    name: str
    statistic: float
    threshold: float
    holds: bool
    cases: int
    detail: str

    def summary(self) -> str:
        """One line: the check, its verdict and its detail."""
        return f"{self.name}: {self.verdict} ({self.detail})"




# --------------------------------------------------------------------------------------------------------
# Deterministic checks
# --------------------------------------------------------------------------------------------------------


def split_rounding_bound(left: float, right: float) -> Fraction:
    """Bound on ``|left + right - parent|`` (exact arithmetic) for one split of the cascade.

    The children are ``left = fl(h + y)`` and ``right = fl(h - y)`` with ``h = fl(parent * 0.5)`` and the same
    ``y`` in both. Halving is exact unless ``parent`` is subnormal, where it errs by at most half the smallest
    subnormal, so ``|2h - parent| <= 2**-1074``. Round to nearest gives ``|fl(a) - a| <= u |fl(a)|`` with
    ``u = 2**-53`` in the normal range (and is exact for a sum landing in the subnormal range). As
    ``(h + y) + (h - y) = 2h``, ``|left + right - parent| <= u (|left| + |right|) + 2**-1074``.
    """
    return UNIT_ROUNDOFF * (abs(Fraction(left)) + abs(Fraction(right))) + SMALLEST_SUBNORMAL


def check_tree_structure(max_depth: int = 12, sigma: float = 1.0, seed: int = 0) -> DeterministicCheck:
    """For every depth ``0..max_depth``: every internal node of ``cascade_tree`` equals the sum of its two
    children within :func:`split_rounding_bound` (the residual is computed exactly with ``Fraction``), and
    the leaves of ``cascade_tree`` equal ``cascade_leaves`` bit for bit for the same seed.

    ``statistic`` is the largest ratio residual / bound (``threshold`` 1), or infinity if some leaves differ.
    """
    max_depth = check_depth(max_depth, "max_depth", maximum=cip_matrix.MAX_DENSE_DEPTH + 4)
    sigma = positive_real(sigma, "sigma")
    seed = check_positive_int(seed, "seed", minimum=0)
    worst = Fraction(0)
    worst_where = "none"
    nodes = 0
    mismatched: list[int] = []
    for depth in range(max_depth + 1):
        tree = cascade_tree(depth, sigma, seed + depth)
        leaves = cascade_leaves(depth, sigma, seed + depth)
        if not np.array_equal(level_view(tree, depth, depth), leaves):
            mismatched.append(depth)
        values = tree.tolist()
        for index in range((1 << depth) - 1):
            left, right = values[2 * index + 1], values[2 * index + 2]
            residual = abs(Fraction(left) + Fraction(right) - Fraction(values[index]))
            ratio = residual / split_rounding_bound(left, right)
            nodes += 1
            if ratio > worst:
                worst, worst_where = ratio, f"depth {depth}, level-order index {index}"
    statistic = math.inf if mismatched else float(worst)
    passed = not mismatched and worst <= 1
    detail = (
        f"{nodes} internal nodes over depths 0..{max_depth}; largest residual/bound {format_directed(worst, 3, upward=True)} at "
        f"{worst_where}; leaves of cascade_tree == cascade_leaves: "
        + ("all depths" if not mismatched else f"NO at depths {mismatched}")
    )
    return DeterministicCheck("cascade tree structure", statistic, 1.0, passed, nodes, detail)


class ScriptedGenerator(np.random.Generator):
    """A ``Generator`` whose ``standard_normal`` replays a given sequence (to read off a linear map).

    Only ``standard_normal`` is scripted (scalar, ``size=int`` and ``out=`` forms); it raises ``IndexError``
    when the script runs out, so a sampler that draws more than documented is caught.
    """

    def __init__(self, values: Sequence[float] | np.ndarray) -> None:
        super().__init__(np.random.PCG64(0))
        self._values = np.asarray(values, dtype=np.float64)
        self.used = 0

    def _next(self, count: int) -> np.ndarray:
        if self.used + count > self._values.size:
            raise IndexError(f"the sampler drew more than the {self._values.size} scripted normals")
        chunk = self._values[self.used : self.used + count]
        self.used += count
        return chunk

    def standard_normal(  # type: ignore[override]
        self, size: object = None, dtype: object = np.float64, out: object = None
    ) -> object:
        if isinstance(out, np.ndarray):
            out[...] = self._next(out.size).reshape(out.shape)
            return out
        if size is None:
            return float(self._next(1)[0])
        if not isinstance(size, int):
            raise TypeError("ScriptedGenerator supports an int size only")
        return self._next(size).copy()


def _covariance_bound(sigma: float, inputs: int, path: int) -> float:
    """Bound on ``|(A A^T)_{ij} - sigma**2 C_{ij}|`` for a linear map read off a cascade sampler.

    Each entry of ``A`` is a product along a root-to-leaf path of at most ``path`` factors among ``0.5``,
    ``-0.5``, ``1`` and ``+-fl(sqrt(3)/2 * sigma)``, plus ``sigma`` at the root, computed with at most
    ``2 path + 2`` roundings; one more relative error ``u`` comes from rounding ``sqrt(3)/2`` and one from the
    product with sigma. So ``|A_ij - exact| <= (2 path + 4) u |exact| (1 + o(1))``. A dot product of
    ``inputs`` terms adds ``gamma_inputs``; by Cauchy–Schwarz ``sum_k |A_ik A_jk| <= sigma**2`` (rows have
    norm ``sigma``). A factor 2 covers the second-order terms for every size used here.
    """
    return 2.0 * sigma * sigma * float(UNIT_ROUNDOFF) * (2 * (2 * path + 4) + inputs)


def _linear_map_check(name: str, outputs: np.ndarray, target: Matrix, sigma: float, path: int) -> DeterministicCheck:
    """Compare ``A A^T`` (``A`` = ``outputs``, a column per scripted unit normal) with ``sigma**2 target``."""
    gram = outputs @ outputs.T
    size = len(target)
    expected = np.array([[float(sigma * sigma * target[i][j]) for j in range(size)] for i in range(size)])
    error = float(np.max(np.abs(gram - expected))) if size else 0.0
    bound = _covariance_bound(sigma, outputs.shape[1], path)
    return DeterministicCheck(
        name,
        error,
        bound,
        error <= bound,
        size * size,
        f"max |A A^T - sigma^2 C| = {error:.3g} over {size}x{size} entries (bound {bound:.3g}); "
        f"{outputs.shape[1]} normals drawn",
    )


def check_linear_map(depth: int, sigma: float = 1.0) -> DeterministicCheck:
    """``cascade_leaves`` as a linear map ``x = A z`` of its ``n`` normals: ``A A^T == sigma**2 C_depth`` up
    to rounding (Proposition 3.5 without sampling error), and exactly ``n`` normals are drawn
    (``depth <= 8``)."""
    depth = check_depth(depth, "depth", maximum=8)
    sigma = positive_real(sigma, "sigma")
    n = 1 << depth
    columns = []
    for j in range(n):
        unit = np.zeros(n)
        unit[j] = 1.0
        script = ScriptedGenerator(unit)
        columns.append(cascade_leaves(depth, sigma, script))
        if script.used != n:
            detail = f"drew {script.used} normals, documented {n}"
            return DeterministicCheck("cascade linear map", math.inf, 0.0, False, 0, detail)
    target = cip_matrix.covariance(depth)
    return _linear_map_check(f"cascade linear map, depth {depth}", np.column_stack(columns), target, sigma, depth)


def check_streaming_linear_map(length: int, sigma: float = 1.0) -> DeterministicCheck:
    """The first ``length`` outputs of :class:`StreamingCascade` as a linear map of the normals drawn:
    ``A A^T`` equals ``sigma**2`` times the top-left ``length x length`` block of ``C_depth`` (``2**depth >= length``)
    up to rounding (``length <= 256``)."""
    length = check_positive_int(length, "length")
    if length > 256:
        raise ValueError(f"length must be an integer in [1, 256], got {length}")
    sigma = positive_real(sigma, "sigma")
    depth = (length - 1).bit_length()
    # How many normals the first `length` elements draw: run once with a long zero script.
    probe = ScriptedGenerator(np.zeros(4 * length + 4))
    StreamingCascade(sigma, probe).take(length)
    draws = probe.used
    columns = []
    for j in range(draws):
        unit = np.zeros(draws)
        unit[j] = 1.0
        columns.append(StreamingCascade(sigma, ScriptedGenerator(unit)).take(length))
    block = tuple(row[:length] for row in cip_matrix.covariance(depth)[:length])
    # A streamed leaf's path has at most depth splits plus one growth step.
    return _linear_map_check(
        f"streaming linear map, length {length}", np.column_stack(columns), block, sigma, depth + 1
    )


# --------------------------------------------------------------------------------------------------------
# Whitening from the exact covariance
# --------------------------------------------------------------------------------------------------------






# --------------------------------------------------------------------------------------------------------
# The i.i.d. N(0, 1) battery
# --------------------------------------------------------------------------------------------------------






# --------------------------------------------------------------------------------------------------------
# Statistical checks of the samplers
# --------------------------------------------------------------------------------------------------------


def check_leaf_covariance(
    depth: int, sigma: float = 1.0, samples: int = 20_000, seed: int = 0, alpha: float = DEFAULT_ALPHA
) -> StatisticalCheck:
    """Proposition 3.5: ``samples`` independent ``cascade_leaves(depth, sigma)`` draws (one generator seeded
    with ``seed``) whitened by :func:`haar_whitening` pass :func:`whitened_normal_test` (``depth <= 8``)."""
    depth = check_depth(depth, "depth", maximum=8)
    sigma = positive_real(sigma, "sigma")
    samples = check_positive_int(samples, "samples", minimum=2)
    gen = np.random.default_rng(check_positive_int(seed, "seed", minimum=0))
    draws = np.empty((samples, 1 << depth))
    for s in range(samples):
        draws[s] = cascade_leaves(depth, sigma, gen)
    white = draws @ haar_whitening(depth, sigma).T
    return whitened_normal_test(white, alpha, f"leaf covariance sigma^2 C_{depth}")


def check_node_variances(
    depth: int, sigma: float = 1.0, samples: int = 20_000, seed: int = 0, alpha: float = DEFAULT_ALPHA
) -> StatisticalCheck:
    """Theorem 3.3: every one of the ``2n - 1`` nodes of ``cascade_tree`` is ``N(0, sigma**2)``.

    Per node, ``sum x**2 / sigma**2`` over ``samples`` independent trees is chi-square with ``samples`` dof
    (two-sided); p-values combined by the union bound over the nodes (``depth <= 10``).
    """
    depth = check_depth(depth, "depth", maximum=10)
    sigma = positive_real(sigma, "sigma")
    samples = check_positive_int(samples, "samples", minimum=2)
    gen = np.random.default_rng(check_positive_int(seed, "seed", minimum=0))
    nodes = (2 << depth) - 1
    squares = np.zeros(nodes)
    for _ in range(samples):
        tree = cascade_tree(depth, sigma, gen)
        squares += (tree / sigma) ** 2
    p_values = [two_sided_chi2(float(v), samples) for v in squares]
    index = int(np.argmin(p_values))
    combined = min(1.0, nodes * p_values[index])
    level = (index + 1).bit_length() - 1
    detail = (
        f"{nodes} nodes; most significant: node (level {level}, position {index + 1 - (1 << level)}) with "
        f"sum of squares / sigma^2 = {squares[index]:.6g} for {samples} dof (p = {p_values[index]:.3g})"
    )
    name = f"node variances, depth {depth}"
    statistic = float(squares[index])
    return StatisticalCheck.by_p_value(name=name, statistic=statistic, p_value=combined, false_alarm=alpha,
                                       samples=samples, detail=detail, subtests=nodes)


def check_streaming_covariance(
    length: int,
    depth: int | None = None,
    sigma: float = 1.0,
    samples: int = 20_000,
    seed: int = 0,
    alpha: float = DEFAULT_ALPHA,
) -> StatisticalCheck:
    """Remark 3.6: the first ``length`` outputs of :class:`StreamingCascade` have covariance ``sigma**2``
    times the top-left ``length x length`` block of ``C_depth`` (default: the smallest depth with
    ``2**depth >= length``; any larger depth has the same block). Whitened by :func:`ldl_whitening` of the
    exact block and tested with :func:`whitened_normal_test`. ``length <= 64``.
    """
    length = check_positive_int(length, "length")
    if length > 64:
        raise ValueError(f"length must be an integer in [1, 64], got {length}")
    minimal = (length - 1).bit_length()
    depth = minimal if depth is None else check_depth(depth, "depth", minimum=minimal, maximum=8)
    sigma = positive_real(sigma, "sigma")
    samples = check_positive_int(samples, "samples", minimum=2)
    gen = np.random.default_rng(check_positive_int(seed, "seed", minimum=0))
    block = tuple(row[:length] for row in cip_matrix.covariance(depth)[:length])
    draws = np.empty((samples, length))
    for s in range(samples):
        draws[s] = StreamingCascade(sigma, gen).take(length)
    white = draws @ ldl_whitening(block, sigma).T
    return whitened_normal_test(white, alpha, f"streaming covariance, first {length} of C_{depth}")
