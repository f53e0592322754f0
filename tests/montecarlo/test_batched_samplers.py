"""Batched samplers: every run equals the single-run sampler with that run's spawned seed, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from reference.cip.numeric.cascade import cascade_leaves
from reference.cip.numeric.cascade_runs import cascade_leaves_runs
from reference.core.rng import run_seeds
from reference.kary import counters
from reference.kary.counters_runs import algorithm_1_runs, algorithm_2_runs
from reference.samplers import numeric
from reference.samplers.numeric_runs import discrete_gaussian_runs, discrete_laplace_runs, laplace_runs


def _spawned(seed: int, runs: int) -> list[np.random.Generator]:
    """The reference per-run generators: numpy's own SeedSequence.spawn of a fresh root."""
    return [np.random.default_rng(child) for child in np.random.SeedSequence(seed).spawn(runs)]


def test_run_seeds_are_the_spawned_children() -> None:
    spawned = np.random.SeedSequence(99).spawn(7)
    for first in (0, 3):
        for ours, theirs in zip(run_seeds(99, 7 - first, first), spawned[first:]):
            assert ours.spawn_key == theirs.spawn_key
            assert np.array_equal(ours.generate_state(4), theirs.generate_state(4))


def test_run_seeds_from_a_generator_advance_it() -> None:
    rng = np.random.default_rng(5)
    first, second = run_seeds(rng, 2), run_seeds(rng, 2)
    assert {s.spawn_key for s in first}.isdisjoint({s.spawn_key for s in second})


@pytest.mark.parametrize("depth", [0, 1, 2, 5, 9, 13])
@pytest.mark.parametrize("sigma", [1.0, 0.3, 7.25])
def test_cascade_batch_equals_single_runs(depth: int, sigma: float) -> None:
    runs = 6
    batch = cascade_leaves_runs(depth, sigma, runs, 2026)
    single = np.stack([cascade_leaves(depth, sigma, rng) for rng in _spawned(2026, runs)])
    assert batch.shape == (runs, 1 << depth)
    assert np.array_equal(batch, single)


def test_cascade_batch_blocks_concatenate_to_the_whole() -> None:
    whole = cascade_leaves_runs(8, 1.5, 10, 11)
    parts = [cascade_leaves_runs(8, 1.5, 4, 11, 0), cascade_leaves_runs(8, 1.5, 6, 11, 4)]
    assert np.array_equal(whole, np.concatenate(parts))


def test_cascade_batch_spans_tiles() -> None:
    depth = 15  # 2**15 leaves: 4 runs per tile, so 9 runs cross two tile boundaries
    batch = cascade_leaves_runs(depth, 2.0, 9, 3)
    single = np.stack([cascade_leaves(depth, 2.0, rng) for rng in _spawned(3, 9)])
    assert np.array_equal(batch, single)


@pytest.mark.parametrize("arity", [2, 3, 4, 5, 8])
@pytest.mark.parametrize("noise", ["laplace", "discrete-laplace"])
def test_algorithm_1_runs_equal_single_runs(arity: int, noise: str) -> None:
    stream = np.random.default_rng(arity).integers(0, 2, 37)
    batch = algorithm_1_runs(stream, arity, 0.7, 5, 17, noise)
    single = np.stack([counters.algorithm_1(stream, arity, 0.7, rng, noise) for rng in _spawned(17, 5)])
    assert batch.dtype == single.dtype
    assert np.array_equal(batch, single)


@pytest.mark.parametrize("arity", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("noise", ["laplace", "discrete-laplace"])
@pytest.mark.parametrize("horizon", [1, 13, 100])
def test_algorithm_2_runs_equal_single_runs(arity: int, noise: str, horizon: int) -> None:
    stream = np.random.default_rng(horizon).integers(0, 2, horizon)
    batch = algorithm_2_runs(stream, arity, 1.25, 4, 8, noise, first_run=3)
    single = np.stack([counters.algorithm_2_batch(stream, arity, 1.25, rng, noise) for rng in _spawned(8, 7)[3:]])
    assert batch.dtype == single.dtype
    assert np.array_equal(batch, single)


def test_algorithm_2_runs_rejects_arity_one() -> None:
    with pytest.raises(ValueError, match="arity"):
        algorithm_2_runs([0, 1], 1, 1.0, 2, 0)


@pytest.mark.parametrize("parameter", [0.4, 3.0, 250.5])
def test_discrete_batches_equal_single_runs(parameter: float) -> None:
    runs, size = 5, 301
    cases = [
        (discrete_laplace_runs, numeric.discrete_laplace),
        (discrete_gaussian_runs, numeric.discrete_gaussian),
        (laplace_runs, numeric.laplace),
    ]
    for batched, single_run in cases:
        batch = batched(parameter, size, runs, 123)
        single = np.stack([single_run(parameter, size=size, rng=rng) for rng in _spawned(123, runs)])
        assert batch.dtype == single.dtype
        assert np.array_equal(batch, single)


def test_batches_reject_bad_runs() -> None:
    with pytest.raises((TypeError, ValueError), match="runs"):
        cascade_leaves_runs(3, 1.0, -1, 0)
    with pytest.raises((TypeError, ValueError), match="seed"):
        discrete_laplace_runs(1.0, 3, 2, "seed")
