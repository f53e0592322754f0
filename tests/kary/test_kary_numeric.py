"""Tests of the numeric KARY mechanisms (reference.kary.counters) and their verification checks.

Expected values come from the exact layer (reference.kary.digits walks) or from direct enumeration,
never from the code under test. Statistical tests: 2 seeded checks at false-alarm probability 1e-9 each.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from reference_verification.kary.checks import counters as checks

from reference.core.randomness import SeededRandomBits
from reference.kary import exact
from reference.kary import walk_sums as kary
from reference.kary.counters import (
    OnlineCounter,
    algorithm_1,
    algorithm_2_batch,
    algorithm_3,
)
from reference.kary.digits import algorithm_2_noise_indices, height_for_horizon
from reference.kary.noise_indices import algorithm_2_used_indices, noise_lifetime
from reference.samplers import numeric


class _PositiveSigns(np.random.PCG64):
    """A bit generator whose raw words are all zero: the fast samplers' random signs are then all +."""

    def random_raw(self, size: object = None, output: bool = True) -> object:  # type: ignore[override]
        return np.zeros(size, dtype=np.uint64)  # type: ignore[call-overload]


class ScriptedLaplace(np.random.Generator):
    """A Generator whose exponentials are 1, 2, 3, ... in call order and whose signs are +, so that the fast
    Laplace sampler with scale 1 returns 1, 2, 3, ... (to read off the draw order)."""

    def __init__(self) -> None:
        super().__init__(_PositiveSigns(0))
        self.next = 1

    def standard_exponential(  # type: ignore[override]
        self, size: object = None, dtype: object = np.float64, method: str = "zig", out: np.ndarray | None = None
    ) -> np.ndarray:
        count = out.size if out is not None else size
        assert isinstance(count, int)
        values = np.arange(self.next, self.next + count, dtype=np.float64)
        self.next += count
        if out is not None:
            out[...] = values
            return out
        return values


def _unit_epsilon(arity: int, horizon: int, offset: bool = True) -> int:
    """The epsilon for which the noise scale h/ε is 1."""
    return height_for_horizon(arity, horizon, offset=offset)


def _walks(arity: int, horizon: int) -> list[tuple[int, ...]]:
    height = height_for_horizon(arity, horizon, offset=True)
    return [algorithm_2_noise_indices(t, arity, height) for t in range(1, horizon + 1)]


# ------------------------------------------------------------------------------------------- exactness


def test_agreement_small() -> None:
    result = checks.check_agreement(arities=(3, 5), max_horizon=30)
    assert result.holds, result.summary()


@pytest.mark.parametrize("arity", [2, 3, 4])
def test_algorithm_1_zero_noise_is_prefix(arity: int) -> None:
    stream = np.random.default_rng(arity).integers(0, 2, 50)
    out = algorithm_1(stream, arity, 1.0, noise_function=np.zeros_like)
    assert np.array_equal(out, np.cumsum(stream))


@pytest.mark.parametrize("arity", [3, 5, 7])
def test_noise_lifetime_matches_enumeration(arity: int) -> None:
    for horizon in (1, 2, 5, 13, 40, 77):
        first: dict[int, int] = {}
        last: dict[int, int] = {}
        for t, walk in enumerate(_walks(arity, horizon), start=1):
            for p in walk:
                first.setdefault(p, t)
                last[p] = t
        for p in first:
            assert noise_lifetime(p, arity, horizon) == (first[p], last[p])
        mask = algorithm_2_used_indices(arity, horizon)
        assert set(np.flatnonzero(mask).tolist()) == set(first)


@pytest.mark.parametrize(("arity", "height"), [(3, 1), (3, 3), (5, 2), (7, 2)])
def test_full_horizon_uses_exactly_one_to_horizon(arity: int, height: int) -> None:
    # Proof 4.15: for T = (k^h - 1)/2 the indices p used are exactly 1..T.
    horizon = (arity**height - 1) // 2
    used = {p for walk in _walks(arity, horizon) for p in walk}
    assert used == set(range(1, horizon + 1))
    assert np.flatnonzero(algorithm_2_used_indices(arity, horizon)).tolist() == list(range(1, horizon + 1))


def test_online_and_batch_bit_identical_for_float_noise() -> None:
    stream = np.random.default_rng(5).integers(0, 2, 90)

    def values(indices: np.ndarray) -> np.ndarray:
        return np.sqrt(np.asarray(indices, dtype=np.float64)) / 3

    batch = algorithm_2_batch(stream, 5, 1.0, noise_function=values)
    online = OnlineCounter(5, 1.0, 90, noise_function=lambda p: float(np.sqrt(float(p)) / 3)).run(stream)
    assert np.array_equal(batch, np.array(online))


# ------------------------------------------------------------------------------------------- draw order


def test_batch_draw_order_is_increasing_index() -> None:
    arity, horizon = 3, 20
    stream = np.zeros(horizon, dtype=np.int64)
    walks = _walks(arity, horizon)
    rank = {p: i + 1 for i, p in enumerate(sorted({p for walk in walks for p in walk}))}
    out = algorithm_2_batch(stream, arity, _unit_epsilon(arity, horizon), rng=ScriptedLaplace())
    assert out.tolist() == [float(sum(rank[p] for p in walk)) for walk in walks]


def test_online_draw_order_is_first_use() -> None:
    arity, horizon = 5, 40
    walks = _walks(arity, horizon)
    rank: dict[int, int] = {}
    for walk in walks:
        for p in walk:
            rank.setdefault(p, len(rank) + 1)
    counter = OnlineCounter(arity, _unit_epsilon(arity, horizon), horizon, rng=ScriptedLaplace())
    out = [counter.step(0) for _ in range(horizon)]
    assert out == [float(sum(rank[p] for p in walk)) for walk in walks]


def test_algorithm_3_draw_order_levels_then_left_to_right() -> None:
    # arity 3, T = 4: h = 2, 9 level-1 vertices drawn first (values 1..9), then 3 level-2 vertices (10..12).
    out = algorithm_3([0, 0, 0, 0], 3, _unit_epsilon(3, 4), rng=ScriptedLaplace())
    # t=1: +[1,1]; t=2: +[1,3] -[3,3]; t=3: +[1,3]; t=4: +[1,3] +[4,4]
    assert out.tolist() == [1.0, 10.0 - 3.0, 10.0, 10.0 + 4.0]


def test_algorithm_1_draw_order() -> None:
    # arity 2, T = 3: h = 2; z_r = r; t=1: z_1; t=2: z_2; t=3: z_2 + z_3.
    out = algorithm_1([1, 0, 1], 2, _unit_epsilon(2, 3, offset=False), rng=ScriptedLaplace())
    assert out.tolist() == [2.0, 3.0, 7.0]


# ------------------------------------------------------------------------------------------- noise kinds


def test_discrete_and_exact_outputs_are_integers() -> None:
    stream = [1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 1, 0]
    assert algorithm_2_batch(stream, 3, 0.5, rng=1, noise="discrete-laplace").dtype == np.int64
    assert algorithm_1(stream, 3, 0.5, rng=1, noise="discrete-laplace").dtype == np.int64
    assert algorithm_3(stream, 3, 0.5, rng=1, noise="discrete-laplace").dtype == np.int64
    discrete = OnlineCounter(3, 0.5, 12, rng=1, noise="discrete-laplace").run(stream)
    assert all(isinstance(v, int) for v in discrete)
    first = exact.OnlineCounter(3, Fraction(1, 2), 12, source=SeededRandomBits(7)).run(stream)
    second = exact.OnlineCounter(3, "1/2", 12, source=SeededRandomBits(7), noise="discrete-laplace").run(stream)
    assert first == second and all(isinstance(v, int) for v in first)


def test_exact_twin_refuses_float_epsilon() -> None:
    with pytest.raises(TypeError, match="epsilon"):
        exact.OnlineCounter(3, 0.5, 10)


def test_noise_chooses_the_law_only() -> None:
    """``noise`` names a law: the numeric twin refuses "exact" (pointing at the exact twin) and the exact twin
    refuses the continuous Laplace it cannot draw exactly, each in one line naming ``noise``."""
    with pytest.raises(ValueError, match=r"^noise must be one of .*reference\.kary\.exact\.OnlineCounter$"):
        OnlineCounter(3, 1.0, 10, noise="exact")  # type: ignore[arg-type]
    for refused in ("exact", "laplace"):
        with pytest.raises(ValueError, match=r"^noise must be one of \('discrete-laplace',\)"):
            exact.OnlineCounter(3, 1, 10, noise=refused)  # type: ignore[arg-type]


def test_seed_reproducible() -> None:
    stream = [1] * 30
    assert np.array_equal(algorithm_2_batch(stream, 3, 1.0, rng=4), algorithm_2_batch(stream, 3, 1.0, rng=4))
    assert OnlineCounter(3, 1.0, 30, rng=4).run(stream) == OnlineCounter(3, 1.0, 30, rng=4).run(stream)


# ------------------------------------------------------------------------------------------- live noise


@pytest.mark.parametrize(("arity", "horizon"), [(3, 13), (3, 50), (5, 62), (7, 100), (9, 300)])
def test_live_noise(arity: int, horizon: int) -> None:
    result = checks.check_live_noise(arity, horizon)
    assert result.holds, result.summary()


def test_live_noise_peak_at_full_horizon_is_lemma_bound() -> None:
    # T = (k^h - 1)/2 has all offset digits (k-1)/2, so h(k-1)/2 values are live at t = T.
    counter = OnlineCounter(5, 1.0, 62, rng=0)
    counter.run([0] * 62)
    assert counter.max_live_count == 3 * 2
    assert counter.live_count == 0


# ------------------------------------------------------------------------------------------- statistics


def test_step_variance_statistical() -> None:
    result = checks.check_step_variance(arity=3, horizon=13, group_size=60, seed=3)
    assert result.holds, result.summary()


def test_step_variance_has_power(monkeypatch: pytest.MonkeyPatch) -> None:
    # Noise with twice the scale (4x variance) must be rejected.
    original = algorithm_2_batch

    def doubled(stream: object, arity: object, epsilon: float, rng: object = None) -> np.ndarray:
        return original(stream, arity, epsilon / 2, rng=rng)

    monkeypatch.setattr(checks, "algorithm_2_batch", doubled)
    result = checks.check_step_variance(arity=3, horizon=13, group_size=60, seed=3)
    assert not result.holds


def test_algorithm_2_vs_3_statistical() -> None:
    result = checks.check_algorithm_2_vs_3(arity=3, horizon=4, times=(1, 2, 4), runs=600, seed=5)
    assert result.holds, result.summary()


# ------------------------------------------------------------------------------------------- bad inputs


@pytest.mark.parametrize("function", [algorithm_1, algorithm_2_batch, algorithm_3])
def test_bad_streams(function: object) -> None:
    assert callable(function)
    with pytest.raises(ValueError, match="stream"):
        function([0, 1, 2], 3, 1.0)
    with pytest.raises(ValueError, match="stream"):
        function([0, 0.5], 3, 1.0)
    with pytest.raises(ValueError, match="stream"):
        function([], 3, 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        function([0, 1], 3, 0)
    with pytest.raises(ValueError, match="epsilon"):
        function([0, 1], 3, -1.0)
    with pytest.raises(ValueError, match="arity"):
        function([0, 1], 1, 1.0)
    with pytest.raises(ValueError, match="noise"):
        function([0, 1], 3, 1.0, noise="gaussian")


@pytest.mark.parametrize("function", [algorithm_2_batch, algorithm_3])
def test_arity_below_two_refused_for_subtraction(function: object) -> None:
    assert callable(function)
    with pytest.raises(ValueError, match="arity"):
        function([0, 1], 1, 1.0)  # even arity is Appendix C's variant (tests/kary/test_kary_even_arity.py)


def test_online_counter_bad_inputs() -> None:
    with pytest.raises(ValueError, match="arity"):
        OnlineCounter(1, 1.0, 10)
    with pytest.raises(ValueError, match="horizon"):
        OnlineCounter(3, 1.0, 0)
    with pytest.raises(ValueError, match="epsilon"):
        OnlineCounter(3, 0.0, 10)
    with pytest.raises(ValueError, match="noise"):
        OnlineCounter(3, 1.0, 10, noise="gaussian")
    counter = OnlineCounter(3, 1.0, 2, rng=0)
    with pytest.raises(ValueError, match="stream"):
        counter.step(2)
    with pytest.raises(ValueError, match="stream"):
        counter.step(0.5)
    counter.step(1)
    counter.step(True)
    with pytest.raises(ValueError, match="horizon"):
        counter.step(0)


def test_online_laplace_draws_are_single_draws_in_first_use_order() -> None:
    arity, horizon, epsilon, seed = 3, 40, 0.5, 11
    walks = _walks(arity, horizon)
    order: dict[int, int] = {}
    for walk in walks:
        for p in walk:
            order.setdefault(p, len(order))
    height = height_for_horizon(arity, horizon, offset=True)
    generator = np.random.default_rng(seed)
    draws = [float(numeric.laplace(height / epsilon, size=1, rng=generator)[0]) for _ in order]
    expected = []
    for walk in walks:
        noise = 0.0
        for p in walk:
            noise = noise + draws[order[p]]
        expected.append(noise)
    got = OnlineCounter(arity, epsilon, horizon, rng=seed).run([0] * horizon)
    assert got == expected


def test_noise_from_values_replicate_axis() -> None:
    arity, horizon = 5, 30
    mask = algorithm_2_used_indices(arity, horizon)
    values = np.random.default_rng(0).standard_normal((mask.size, 3))
    together = kary.algorithm_2_noise_from_values(values, arity, horizon)
    for column in range(3):
        alone = kary.algorithm_2_noise_from_values(values[:, column], arity, horizon)
        assert np.array_equal(together[:, column], alone)
    walks = _walks(arity, horizon)
    expected = [sum(values[p, 0] for p in walk) for walk in walks]
    assert np.allclose(together[:, 0], expected, rtol=0, atol=1e-12)
