"""Samples against any linear design: a user's noise matrix B, or KARY Algorithms 1, 2 and 3 at any supported arity.

The oracle is ``X = B z`` with independent zero-mean draws ``z_j`` of variance ``v_j`` and fourth moment
``μ4_j`` (Gaussian: ``μ4 = 3 v²``; Laplace(b): ``v = 2b²``, ``μ4 = 24 b⁴ = 6 v²``). Every second moment is exact:
``M = E X Xᵀ = B diag(v) Bᵀ``, and expanding ``E[X_s² X_t²]`` over the pairings of four draws,

    Var(X_s X_t) = Σ_j a_j² c_j² (μ4_j − 3 v_j²) + M_ss M_tt + M_st²      (a = B[s, :], c = B[t, :]),

so ``K = (B∘B) diag(μ4 − 3v²) (B∘B)ᵀ`` gives it exactly (Isserlis' formula when K = 0). Each entry of M is tested
by median of means as in :mod:`reference.audit.samples.audit` (rigorous, distribution-free: Chebyshev per group,
Hoeffding over ``g = ⌈8 log(1/a)⌉`` groups), the marginals with ``alpha/2`` and the covariance entries with
``alpha/2``, each split evenly over its entries.

**Power.** The same two inequalities bound the power: if the true second moment differs from the claimed one by
more than ``d + d'`` (the allowed deviations under the claimed and the true law), the median of means lands
outside the claimed band with probability at least ``1 − exp(−g/8) >= 1 − alpha/…``, which is far above 99%. For a
marginal with claimed ``M`` and allowed deviation ``d``, noise scaled by ``1 + r`` scales both ``M`` and ``d``
(``d' = (1 + r)² d``), so the test detects the scale error once ``(1 + r)² >= (M + d)/(M − d)``, and a scale
``1 − r`` once ``(1 − r)² <= (M − d)/(M + d)``: :func:`detectable_scale_error` is the larger of the two
``r``, over every output. For a covariance entry the detectable error in correlation units is ``≈ 2d/√(M_ss M_tt)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np

from reference.audit.samples.design import (
    Design,
    allowed_deviation,
    output_label,
    pair_label,
    whitening_of,
)
from reference.audit.samples.design_moments import DesignMoments
from reference.audit.samples.report import (
    SamplerAuditReport,
    check_samples,
    chi_square_scale_power,
    median_groups,
)
from reference.core.exact_text import exact_text, message_value
from reference.core.linalg import Matrix, from_flint, to_flint
from reference.core.validate import RationalLike, positive_fraction

#: Largest number of outputs a design audit accepts (its covariance test has outputs² / 2 entries).
MAX_DESIGN_OUTPUTS = 512
#: Sample counts of the power table.
POWER_RUNS = (1_000, 3_000, 10_000, 100_000, 1_000_000)


def linear_design(noise_matrix: Matrix, noise: str, scale: RationalLike,
                  draw_variances: Sequence[Fraction] | None = None, name: str = "") -> Design:
    """The design of ``B z`` with i.i.d. ``gaussian`` (``scale`` = σ, optional per-draw variance factors) or
    ``laplace`` (``scale`` = b) draws. ``noise_matrix`` is an exact rational matrix (outputs × draws).

    Args:
        noise_matrix: B, outputs × draws, exact rationals (1 to :data:`MAX_DESIGN_OUTPUTS` rows).
        noise: the law of the draws: ``"gaussian"`` or ``"laplace"``.
        scale: σ > 0 for ``"gaussian"`` (standard deviation, not σ²), b > 0 for ``"laplace"``; exact (int,
            Fraction or str such as ``"1/3"``; not float).
        draw_variances: the relative variance of each draw (one per column of B, exact), gaussian only; ``None``:
            all 1.
        name: the design's name in a report (``""``: one made of its shape, noise and scale).

    Returns:
        The design with its exact M and K, and its law for the whole-law audit.

    Raises:
        ValueError: ``noise`` is neither name, B has too many rows, ``draw_variances`` has the wrong length or is
            given for Laplace noise, or ``scale`` is not positive.
    """
    if noise not in ("gaussian", "laplace"):
        raise ValueError(f"noise must be 'gaussian' or 'laplace', got {noise!r}")
    value = positive_fraction(scale, "scale")
    outputs, draws = len(noise_matrix), len(noise_matrix[0])
    if not 1 <= outputs <= MAX_DESIGN_OUTPUTS:
        raise ValueError(f"noise_matrix must have 1..{MAX_DESIGN_OUTPUTS} rows (outputs), got {message_value(outputs)}")
    factors = list(draw_variances) if draw_variances is not None else [Fraction(1)] * draws
    if len(factors) != draws:
        raise ValueError(f"draw_variances must have one entry per draw ({draws}), got {len(factors)}")
    if noise == "laplace" and draw_variances is not None:
        raise ValueError("draw_variances is supported for gaussian noise only")
    base = value * value if noise == "gaussian" else 2 * value * value
    variances = [base * factor for factor in factors]
    excess = [Fraction(0) if noise == "gaussian" else 3 * v * v for v in variances]  # μ4 − 3v²
    b = to_flint(noise_matrix)
    squared = to_flint(tuple(tuple(entry * entry for entry in row) for row in noise_matrix))
    weighted = to_flint(tuple(tuple(entry * v for entry, v in zip(row, variances)) for row in noise_matrix))
    moment = weighted * b.transpose()
    kurtosis = to_flint(tuple(tuple(entry * k for entry, k in zip(row, excess))
                               for row in (tuple(e * e for e in r) for r in noise_matrix))) * squared.transpose()
    label = name or f"linear design ({outputs} outputs, {draws} draws, {noise} scale {exact_text(value)})"
    from reference.audit.samples.laws import LinearDesign, noise_law

    law = LinearDesign(noise_matrix, noise_law(noise, value), draw_variances)
    return Design(label, from_flint(moment), from_flint(kurtosis), noise, law)


def kary_noise_matrix(arity: int, horizon: int, algorithm: int) -> Matrix:
    """The 0/±1 noise matrix (outputs × used draws) of KARY Algorithm 1, 2 or 3, read off the project's own
    vectorised noise maps by feeding them unit draws.

    Args:
        arity: the KARY tree's arity k, an integer >= 2 (odd for Algorithms 2 and 3).
        horizon: T, the number of outputs (time steps), an integer >= 1.
        algorithm: KARY Algorithm 1, 2 or 3.

    Returns:
        The matrix as exact integers (``Fraction``), outputs × the draws that reach an output.

    Raises:
        ValueError: ``algorithm`` is not 1, 2 or 3.
    """
    return tuple(tuple(Fraction(int(v)) for v in row) for row in kary_noise_array(arity, horizon, algorithm).tolist())


def kary_noise_array(arity: int, horizon: int, algorithm: int) -> np.ndarray:
    """:func:`kary_noise_matrix` as an int64 numpy array (no exact object per entry).

    Args:
        arity: the KARY tree's arity k, an integer >= 2 (odd for Algorithms 2 and 3).
        horizon: T, the number of outputs (time steps), an integer >= 1.
        algorithm: KARY Algorithm 1, 2 or 3.

    Returns:
        The 0/±1 matrix, shape (horizon, used draws), dtype int64.

    Raises:
        ValueError: ``algorithm`` is not 1, 2 or 3.
    """
    from reference.kary import noise_indices, walk_sums

    if algorithm == 1:
        unit = np.eye(horizon + 1)
        matrix = walk_sums.algorithm_1_noise_from_values(unit, arity, horizon)[:, 1:]
    elif algorithm == 2:
        used = noise_indices.algorithm_2_used_indices(arity, horizon)
        unit = np.eye(used.size)
        matrix = walk_sums.algorithm_2_noise_from_values(unit, arity, horizon)[:, used]
    elif algorithm == 3:
        matrix = _algorithm_3_matrix(arity, horizon)
    else:
        raise ValueError(f"algorithm must be 1, 2 or 3, got {algorithm!r}")
    rounded = np.rint(matrix)
    if not np.array_equal(rounded, matrix):
        raise ArithmeticError("the noise map is not integral")  # it is a sum of ±draws
    keep = np.any(rounded != 0, axis=0)
    result: np.ndarray = rounded[:, keep].astype(np.int64)
    return result


def _algorithm_3_matrix(arity: int, horizon: int) -> np.ndarray:
    from reference.kary import counters
    from reference.kary.digits import height_for_horizon

    height = height_for_horizon(arity, horizon, offset=True)
    vertices = [(level, j) for level in range(1, height + 1) for j in range(arity ** (height - level + 1))]
    stream = np.zeros(horizon, dtype=np.int64)
    columns = []
    for vertex in vertices:

        def unit(level: int, j: int, chosen: tuple[int, int] = vertex) -> float:
            return float((level, j) == chosen)  # the noise map at the unit draw of this vertex

        columns.append(np.asarray(counters.algorithm_3(stream, arity, 1, noise_function=unit), dtype=np.float64))
    return np.stack(columns, axis=1)


def kary_design(arity: int, horizon: int, algorithm: int, epsilon: RationalLike) -> Design:
    """Laplace(h/ε) draws through Algorithm ``algorithm``'s noise matrix (h the height of that algorithm).

    Args:
        arity: the KARY tree's arity k, an integer >= 2 (odd for Algorithms 2 and 3).
        horizon: T, the number of outputs, an integer in 1..:data:`MAX_DESIGN_OUTPUTS`.
        algorithm: KARY Algorithm 1, 2 or 3.
        epsilon: ε > 0, exact (int, Fraction or str such as ``"1/3"``; not float).

    Returns:
        The design of the algorithm's output noise.

    Raises:
        ValueError: ``horizon`` or ``epsilon`` is out of range, or ``algorithm`` is not 1, 2 or 3.
    """
    from reference.kary.digits import height_for_horizon

    eps = positive_fraction(epsilon, "epsilon")
    if not 1 <= horizon <= MAX_DESIGN_OUTPUTS:
        raise ValueError(f"horizon must be in 1..{MAX_DESIGN_OUTPUTS}, got {message_value(horizon)}")
    height = height_for_horizon(arity, horizon, offset=algorithm != 1)
    matrix = kary_noise_matrix(arity, horizon, algorithm)
    return linear_design(matrix, "laplace", Fraction(height) / eps,
                         name=f"KARY Algorithm {algorithm}, arity {arity}, horizon {horizon}, epsilon {eps}")


def detectable_scale_error(design: Design, runs: int, alpha: float) -> float:
    """The smallest relative error r of the noise scale that the marginal tests detect with probability at least
    1 − exp(−g/8) (> 99%) at ``runs`` runs (module docstring), or the whitened chi-square tests of a Gaussian
    design with probability 99% (exact chi-square quantiles), whichever is smaller; ``inf`` when ``runs`` is too
    small for both.

    Args:
        design: the claimed design.
        runs: the number of runs, an integer >= 1.
        alpha: the audit's total false-alarm probability, in (0, 1) (split as in :func:`audit_design_samples`).

    Returns:
        The relative scale error r detected (``inf`` when the runs are too few).
    """
    whitened = whitening_of(design) is not None
    share = alpha / 3.0 if whitened else alpha / 2.0
    chi_square = chi_square_scale_power(runs, design.outputs, share) if whitened else math.inf
    groups = median_groups(share / design.outputs)
    per_group = runs // groups
    if per_group < 1:
        return chi_square
    worst = 0.0
    for t in range(design.outputs):
        moment = float(design.second_moment[t][t])
        if moment == 0:
            continue
        d = allowed_deviation(design, t, t, per_group)
        if d >= moment:
            return chi_square
        up = math.sqrt((moment + d) / (moment - d)) - 1.0
        down = 1.0 - math.sqrt((moment - d) / (moment + d))
        worst = max(worst, up, down)
    return min(worst, chi_square)


def detectable_correlation_error(design: Design, runs: int, alpha: float) -> float:
    """The smallest covariance-entry error, in correlation units, the covariance tests detect with probability
    > 99% at ``runs`` runs (twice the allowed deviation, the worst entry).

    Args:
        design: the claimed design.
        runs: the number of runs, an integer >= 1.
        alpha: the audit's total false-alarm probability, in (0, 1) (half of it for the covariance entries).

    Returns:
        The correlation error detected (0 for one output, ``inf`` when the runs are too few).
    """
    outputs = design.outputs
    pairs = outputs * (outputs - 1) // 2
    if not pairs:
        return 0.0
    groups = median_groups(alpha / 2.0 / pairs)
    per_group = runs // groups
    if per_group < 1:
        return math.inf
    worst = 0.0
    for s in range(outputs):
        for t in range(s + 1, outputs):
            scale = math.sqrt(float(design.second_moment[s][s] * design.second_moment[t][t]))
            if scale > 0:
                worst = max(worst, 2.0 * allowed_deviation(design, s, t, per_group) / scale)
    return worst


def power_table(design: Design, alpha: float, runs: Sequence[int] = POWER_RUNS) -> list[dict[str, object]]:
    """For each sample count: the scale error and the correlation error detected with > 99% power.

    Args:
        design: the claimed design.
        alpha: the audit's total false-alarm probability, in (0, 1).
        runs: the run counts to tabulate (default :data:`POWER_RUNS`).

    Returns:
        One row per run count: ``{"runs", "scale_error", "correlation_error"}``.
    """
    return [{"runs": n, "scale_error": detectable_scale_error(design, n, alpha),
             "correlation_error": detectable_correlation_error(design, n, alpha)} for n in runs]


#: The most runs a "runs needed" answer may name (a larger need is refused in one line).
MAX_RUNS_NEEDED = 10**13


def smallest_detecting_runs(detected: Callable[[int], bool], start: int, what: str) -> int:
    """The fewest runs (to within 1%) for which ``detected(runs)`` holds, ``detected`` monotone in the runs:
    doubling from ``start`` to a bracket, then bisection (refused past 10^13 runs).

    Args:
        detected: whether the audit detects the deviation at a run count; monotone (once true, true for more runs).
        start: the first run count tried, an integer >= 1.
        what: the deviation, for the refusal (e.g. ``"a scale error of 0.02"``).

    Returns:
        A run count at most 1% above the fewest at which ``detected`` holds.

    Raises:
        ValueError: ``detected`` fails even at :data:`MAX_RUNS_NEEDED` runs.
    """
    if not detected(MAX_RUNS_NEEDED):  # one evaluation, not forty doublings, for a deviation out of reach
        raise ValueError(f"{what} needs more than 10^13 runs")
    high = start
    while not detected(high):
        high *= 2
    low = high // 2
    while high - low > max(1, low // 100):
        middle = (low + high) // 2
        low, high = (low, middle) if detected(middle) else (middle, high)
    return high


def runs_needed(design: Design, scale_error: float, alpha: float) -> int:
    """The fewest runs (to within 1%) at which a relative scale error ``scale_error`` is detected with > 99% power.

    Args:
        design: the claimed design.
        scale_error: the relative error of the noise scale to detect, > 0 (e.g. ``0.02`` for 2%).
        alpha: the audit's total false-alarm probability, in (0, 1).

    Returns:
        The run count (:func:`smallest_detecting_runs`).

    Raises:
        ValueError: ``scale_error`` is not positive, or needs more than 10^13 runs.
    """
    if not scale_error > 0:
        raise ValueError(f"scale_error must be positive, got {scale_error!r}")
    return smallest_detecting_runs(
        lambda runs: detectable_scale_error(design, runs, alpha) <= scale_error, 1_000, f"a scale error of {scale_error}"
    )


def audit_design_samples(samples: np.ndarray, design: Design, alpha: float = 1e-6, *,
                         marginal: Callable[[int], str] = output_label,
                         pair: Callable[[int, int], str] = pair_label) -> SamplerAuditReport:
    """Audit ``samples`` (runs × outputs) against ``design``: every second moment by median of means (module
    docstring); ``alpha/2`` for the marginals and ``alpha/2`` for the covariance entries. ``marginal`` and
    ``pair`` name an output and a pair of outputs in the failures. The runs are folded into the exact group sums
    of :class:`reference.audit.samples.design_moments.DesignMoments`, which blocks of runs feed in the same way.

    Args:
        samples: the samples, shape (runs, outputs), real and finite, one run per row.
        design: the claimed design.
        alpha: the total false-alarm probability, in (0, 1) (default 1e-6).
        marginal: names output t's variance in the failures (default :func:`output_label`).
        pair: names the covariance of outputs s and t in the failures (default :func:`pair_label`).

    Returns:
        The report: marginals, covariance and (Gaussian designs) whitened variances.

    Raises:
        TypeError: ``samples`` is not a numpy array.
        ValueError: ``samples`` is not of shape (runs, outputs) or not finite.
        TooFewRunsError: the runs are fewer than twice the median-of-means groups ``alpha`` needs.
    """
    if not isinstance(samples, np.ndarray):
        raise TypeError(f"samples must be a numpy array of shape (runs, {design.outputs}), got {type(samples).__name__}")
    if samples.ndim != 2 or samples.shape[1] != design.outputs:  # the shape first: too few runs of the wrong
        # width is a wrong file, not an inconclusive audit
        raise ValueError(f"samples must have shape (runs, {design.outputs}) (one column per output), "
                         f"got {samples.shape}")
    moments = DesignMoments(design, samples.shape[0], alpha)
    x = check_samples(samples, design.outputs, "one column per output",
                       min_runs=2 * max(moments.var_groups, moments.cov_groups))
    moments.add(x, 0)
    return moments.report(marginal, pair)
