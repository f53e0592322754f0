"""Samplers written as a user hands them to ``audit sampler-function``: ``f(generator, runs)`` returns ``runs × n``.

Each wraps one of the project's batched samplers with fixed parameters (the audit is told the claimed parameters
separately, on the command line), plus one *one-run* function ``f(generator)``, which the audit adapts. The
variance-for-σ mutant is in ``verification/planted/variance_for_std_cascade.py``.
"""

from __future__ import annotations

import numpy as np

from reference.cip.numeric.cascade import cascade_leaves
from reference.cip.numeric.cascade_batch import cascade_leaves_batch
from reference.kary.counters_batch import algorithm_1_runs, algorithm_2_runs
from reference.samplers.fast_batch import discrete_gaussian_batch, discrete_laplace_batch

#: The cascade examples: depth 6, σ = 2 (σ² = 4 ≠ σ, so passing the variance for σ changes the law).
DEPTH, SIGMA = 6, 2.0
#: The KARY examples: horizon 20, ε = 1, Laplace noise, all-zero stream (the outputs are the noise).
HORIZON, EPSILON = 20, 1.0


def cascade_depth_6(generator: np.random.Generator, runs: int) -> np.ndarray:
    """Cascade Sampling, depth 6, σ = 2: runs × 64 leaves."""
    return cascade_leaves_batch(DEPTH, SIGMA, runs, generator)


def cascade_depth_6_one_run(generator: np.random.Generator) -> np.ndarray:
    """The same law, one run per call (the audit's adapter calls it once per run)."""
    return cascade_leaves(DEPTH, SIGMA, generator)


def cascade_depth_20(generator: np.random.Generator, runs: int) -> np.ndarray:
    """Cascade Sampling, depth 20, σ = 1: runs × 2^20 leaves (the benchmark's target)."""
    return cascade_leaves_batch(20, 1.0, runs, generator)


def kary_algorithm_2_arity_3(generator: np.random.Generator, runs: int) -> np.ndarray:
    """KARY Algorithm 2, arity 3, Laplace noise: runs × 20 output noises."""
    return algorithm_2_runs(np.zeros(HORIZON, dtype=np.int64), 3, EPSILON, runs, generator)


def kary_algorithm_1_arity_4(generator: np.random.Generator, runs: int) -> np.ndarray:
    """KARY Algorithm 1, arity 4, Laplace noise: runs × 20 output noises."""
    return algorithm_1_runs(np.zeros(HORIZON, dtype=np.int64), 4, EPSILON, runs, generator)


def discrete_gaussian_9_over_2(generator: np.random.Generator, runs: int) -> np.ndarray:
    """N_Z(0, 9/2): runs × 100 values."""
    return discrete_gaussian_batch(4.5, 100, runs, generator)


def discrete_laplace_scale_3(generator: np.random.Generator, runs: int) -> np.ndarray:
    """Discrete Laplace with scale 3: runs × 100 values."""
    return discrete_laplace_batch(3, 100, runs, generator)


def my_cascade_batch(generator: np.random.Generator, runs: int) -> np.ndarray:
    """The hand-written depth-2 cascade of ``verification/planted/my_cascade.py`` (σ = 1) as a batched sampler: runs × 4. Its
    law is ``B z`` with ``B`` the exact matrix of the depth-2 split written with draw variances 1, 3/4, 3/4, 3/4
    (the √3/2 factors moved into the draws' variances, so ``B`` is rational)."""
    from reference_verification.planted.my_cascade import my_cascade

    draws = generator.standard_normal((runs, 4))
    return np.array([my_cascade(row) for row in draws])


def broken_sampler(generator: np.random.Generator, runs: int) -> np.ndarray:
    """A sampler that crashes (for the audit's error handling)."""
    raise RuntimeError("out of entropy")
