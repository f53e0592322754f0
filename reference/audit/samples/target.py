"""A user's sampler as the audit's target: load it, call it chunk by chunk, fold its draws into the statistics.

The target is ``package.module:function``. A *batched* target takes a ``numpy.random.Generator`` and a run count
and returns a ``runs × n`` array; a *one-run* target takes only the Generator and returns one run (``n`` values),
and :func:`batched` adapts it (calling it once per run, with the same generator). What the audit tests is fixed by
a :class:`Mechanism`: Cascade Sampling (``n = 2**depth`` leaves, the streamed node-variance and
sibling-covariance tests), KARY Algorithm 1 or 2 output noise (``n = horizon``; the median-of-means design audit
with the exact fourth moments), or a discrete Laplace / Gaussian sampler (any ``n``; the goodness-of-fit tests on
the histogram of all values).

**Seeds.** The runs are cut into *chunks* of ``chunk_runs`` consecutive runs; chunk ``c`` is drawn by one call of
the target with ``Generator(PCG64(s_c))``, ``s_c`` child ``c`` of ``SeedSequence(seed)`` (the children
``SeedSequence.spawn`` gives). The chunk is the unit of randomness and of memory (one chunk's draws are held at
a time); *blocks*, the units of work handed to workers, are runs of whole chunks. So the draws depend only on
``seed`` and ``chunk_runs`` — not on the block size, the number of workers or the order blocks finish in — and the
statistics are exact sums (:mod:`reference.audit.samples.sufficient`), so neither do they.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal

import numpy as np

from reference.core.rng import run_seeds
from reference.core.user_code import UNLIMITED, call_user, load_function

#: Values per chunk when the chunk size is not given (32 MiB of float64): bounds one worker's sample memory.
CHUNK_VALUES = 1 << 22

#: What a target can claim to sample (the command line's ``tda-level`` is a discrete Gaussian of its σ²).
MechanismKind = Literal["cascade", "kary", "design", "discrete-gaussian", "discrete-laplace"]


Target = Callable[[np.random.Generator, int], Any]


def load_target(spec: str) -> Target:
    """The function named ``package.module:function`` (``ValueError`` naming ``target`` if it cannot be loaded or
    called as a sampler), adapted to the batched form (:func:`batched`).

    Args:
        spec: the target as ``"package.module:function"`` (the command line's ``--target``); a module in the
            working folder is found as ``python -m`` finds it.

    Returns:
        The function, taking (Generator, runs) and returning a ``runs × n`` array.

    Raises:
        ValueError: ``spec`` is not of that form, its module cannot be imported, it names no function, or the
            function takes neither (generator, runs) nor (generator).
    """
    function = load_function(spec, "target")
    return batched(function)


def batched(function: Callable[..., Any]) -> Target:
    """``function`` as a batched sampler: unchanged if it takes (Generator, runs); a one-run function (taking
    only the Generator) is called once per run with the same generator and its runs stacked as rows.

    Args:
        function: the user's sampler: ``function(generator, runs)`` returning a ``runs × n`` array, or
            ``function(generator)`` returning one run of ``n`` values (parameters with defaults are not counted;
            a callable whose signature cannot be read is taken as batched).

    Returns:
        A function of (Generator, runs) returning the runs as rows.

    Raises:
        ValueError: ``function`` takes neither one nor two parameters without defaults.
    """
    try:
        parameters = [p for p in inspect.signature(function).parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty]
    except (TypeError, ValueError):
        return function
    if len(parameters) == 1:

        @functools.wraps(function)  # its name, not this adapter's, in a message about the target
        def one_run_each(generator: np.random.Generator, runs: int) -> np.ndarray:
            return np.stack([np.asarray(function(generator)).reshape(-1) for _ in range(runs)])

        return one_run_each
    if len(parameters) != 2:
        raise ValueError("target must take (generator, runs) and return runs × n, or (generator) and return one run")
    return function


@dataclass(frozen=True)
class Mechanism:
    """What the target claims to sample, and how its draws are tested."""

    kind: MechanismKind
    depth: int = 0  # cascade
    sigma: float = 1.0  # cascade σ
    arity: int = 0  # kary
    algorithm: int = 2  # kary: 1, 2 or 3
    horizon: int = 0  # kary: n = T
    epsilon: Fraction = Fraction(1)  # kary
    parameter: Fraction = Fraction(1)  # discrete: the scale (Laplace) or σ² (Gaussian); design: σ or b
    noise_matrix: tuple[tuple[Fraction, ...], ...] = ()  # design: B (outputs × draws), exact
    noise: str = "gaussian"  # design: the law of the draws, "gaussian" or "laplace"
    draw_variances: tuple[Fraction, ...] | None = None  # design, gaussian: relative variances of the draws
    alpha: float = 1e-6

    def columns(self, observed: int | None = None) -> int | None:
        """The values per run the target must return (``None``: any, for the discrete samplers).

        Args:
            observed: the values per run the target returned (the width of its draws), or ``None`` if not known;
                returned as is by the discrete samplers, which accept any width, and ignored by the others.

        Returns:
            ``2**depth`` (cascade), the horizon (KARY), the rows of the noise matrix (design), else ``observed``.
        """
        if self.kind == "cascade":
            return 1 << self.depth
        if self.kind == "kary":
            return self.horizon
        if self.kind == "design":
            return len(self.noise_matrix)
        return observed

    def design(self) -> Any:
        """The exact design the median-of-means audit tests (KARY or the user's noise matrix), built once per
        process."""
        return _design(self)

    def law(self) -> Any:
        """The law (:mod:`reference.audit.samples.laws`) of a design or KARY mechanism, for the whole-law audit."""
        from reference.audit.samples.laws import KaryNoise, LinearDesign, noise_law

        if self.kind == "kary":
            return KaryNoise(self.arity, self.epsilon, self.algorithm)
        return LinearDesign(self.noise_matrix, noise_law(self.noise, self.parameter), self.draw_variances)

    def new_moments(self, runs: int) -> Any:
        """An empty accumulator for an audit of ``runs`` runs.

        Args:
            runs: the audit's total number of runs (an integer >= 1; the accumulators built here do not depend on it).

        Returns:
            A :class:`~reference.audit.samples.cascade_stream.CascadeMoments` (cascade), a
            :class:`~reference.audit.samples.drawn_runs.DrawnRuns` (KARY, design) or an
            :class:`~reference.audit.samples.sufficient.IntegerHistogram` (the discrete samplers).

        Raises:
            TooFewRunsError: a cascade audit of fewer than 2 runs (it cannot decide: inconclusive).
        """
        if self.kind == "cascade":
            from reference.audit.samples.cascade_stream import CascadeMoments
            from reference.audit.samples.report import TooFewRunsError

            if runs < 2:  # a node's variance test needs two runs: decided before anything is drawn
                raise TooFewRunsError(f"runs: the cascade audit needs at least 2 runs, got {runs}")
            return CascadeMoments(self.depth, self.sigma)
        if self.kind in ("kary", "design"):  # the runs themselves: the whole-law audit reads them
            from reference.audit.samples.drawn_runs import DrawnRuns

            return DrawnRuns()
        from reference.audit.samples.sufficient import IntegerHistogram

        return IntegerHistogram()


@lru_cache(maxsize=4)
def _design(mechanism: Mechanism) -> Any:
    from reference.audit.samples.design_audit import kary_design, linear_design

    if mechanism.kind == "kary":
        return kary_design(mechanism.arity, mechanism.horizon, mechanism.algorithm, mechanism.epsilon)
    return linear_design(mechanism.noise_matrix, mechanism.noise, mechanism.parameter, mechanism.draw_variances)


def call_target(function: Target, generator: np.random.Generator, runs: int) -> np.ndarray:
    """The target's draws as an array. Whatever the user's function raises — ``SystemExit`` and
    ``KeyboardInterrupt`` included, also in a worker process — becomes one ``ValueError`` line naming it (the
    command line's bad-input exit), never a verdict or a traceback (:mod:`reference.core.user_code`).

    Args:
        function: the batched target (from :func:`load_target` or :func:`batched`).
        generator: the generator the target draws from (one chunk's: :func:`chunk_seed`).
        runs: the number of runs to ask for, an integer >= 1.

    Returns:
        What the target returned, as a numpy array (its shape is checked by the caller).

    Raises:
        ValueError: the target raised; the line names it and its error.
    """
    return np.asarray(call_user(function, generator, runs, role="target", limits=UNLIMITED))


def chunk_seed(seed: int, chunk: int) -> np.random.Generator:
    """The generator of chunk ``chunk``: ``default_rng`` of child ``chunk`` of ``SeedSequence(seed)``.

    Args:
        seed: the audit's root seed, an integer >= 0.
        chunk: the chunk's index, an integer >= 0 (chunk ``c`` holds runs ``c × chunk_runs`` onwards).

    Returns:
        A fresh ``numpy.random.Generator`` for that chunk.
    """
    return np.random.default_rng(run_seeds(seed, 1, chunk)[0])


def run_block(target: str, mechanism: Mechanism, runs: int, chunk_runs: int, seed: int,
              chunks: tuple[int, int]) -> Any:
    """The statistics of chunks ``chunks[0] .. chunks[1] - 1`` (one block): each chunk drawn by the target with
    its own generator, checked for shape, folded in (a cascade's small chunks gathered first into one buffer of at
    most :data:`CHUNK_VALUES` values: ``_cascade_gather``), and dropped before the next is drawn.

    Args:
        target: the sampler as ``"package.module:function"`` (loaded here, so that a worker process can run it).
        mechanism: what the target claims to sample (fixes the values per run and the statistics kept).
        runs: the audit's total number of runs, an integer >= 1 (the last chunk stops there).
        chunk_runs: the runs per chunk, an integer >= 1 (the unit of seeds: chunk ``c`` holds runs
            ``c × chunk_runs .. (c + 1) × chunk_runs - 1``).
        seed: the audit's root seed, an integer >= 0 (:func:`chunk_seed`).
        chunks: the block as a half-open range ``(first chunk, end chunk)`` of chunk indices.

    Returns:
        The block's accumulator (:meth:`Mechanism.new_moments`) with every chunk's draws folded in.

    Raises:
        ValueError: the target raised, or returned an array not of shape (runs, n), not real, or not finite.
    """
    function = load_target(target)
    moments = mechanism.new_moments(runs)
    gathered = _cascade_gather(mechanism, chunk_runs, min(runs, chunks[1] * chunk_runs) - chunks[0] * chunk_runs)
    filled = 0
    for chunk in range(*chunks):
        first = chunk * chunk_runs
        count = min(chunk_runs, runs - first)
        draws = call_target(function, chunk_seed(seed, chunk), count)
        expected = mechanism.columns(draws.shape[-1] if draws.ndim == 2 else None)
        if draws.ndim != 2 or draws.shape != (count, expected):
            raise ValueError(f"target must return an array of shape (runs, n) = ({count}, {expected or 'n'}) "
                             f"for {count} runs, got shape {draws.shape}")
        if not (np.issubdtype(draws.dtype, np.floating) or np.issubdtype(draws.dtype, np.integer)):
            raise ValueError(f"target must return real numbers, got dtype {draws.dtype}")
        if draws.dtype.kind == "f" and not np.isfinite(draws).all():  # checked at the boundary, not folded in
            run, column = (int(index) for index in np.argwhere(~np.isfinite(draws))[0])
            raise ValueError(f"target returned {float(draws[run, column])!r} at run {first + run}, value {column}: "
                             "draws must be finite")
        if gathered is not None:
            if filled + count > len(gathered):
                moments.add(gathered[:filled])
                filled = 0
            gathered[filled:filled + count] = draws  # a copy: the target may reuse the array it returned
            filled += count
        elif mechanism.kind in ("kary", "design"):
            moments.add(draws, first)
        else:
            moments.add(draws)
    if gathered is not None and filled:
        moments.add(gathered[:filled])
    return moments


def _cascade_gather(mechanism: Mechanism, chunk_runs: int, block_runs: int) -> np.ndarray | None:
    """A buffer of up to :data:`CHUNK_VALUES` values in which a cascade's small chunks (a quarter of that or less:
    one run each at depth 20) are gathered and then folded together, or None. Why: the streamed sums touch three
    totals per leaf for every block they are given, in memory; a block of several runs is summed over its runs in
    cache first, which at depth 20 costs about a quarter less than one run at a time, the copy included. The
    statistics are exact integer sums, the same for any split of the runs into blocks. ``block_runs``: the runs
    of the block (the buffer holds no more)."""
    columns = mechanism.columns()
    if mechanism.kind != "cascade" or columns is None or 4 * chunk_runs * columns > CHUNK_VALUES:
        return None
    return np.empty((max(1, min(CHUNK_VALUES // columns, block_runs)), columns), dtype=np.float64)
