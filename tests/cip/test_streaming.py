"""Streaming Cascade Sampling (CIP Remark 3.6, Appendix D.1): growth rule, draw order, covariance, horizon.

Statistical tests: 4 calls of ``check_streaming_covariance`` with false-alarm probability 1e-9 each (total
below 1e-8 for this file).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_verification.cip.checks import cascade as checks

from reference.cip.numeric.streaming import StreamingCascade


def documented_draws(t: int) -> int:
    """Normals drawn for element t, from the documented order (independent of the implementation)."""
    if t == 0:
        return 1
    if t & (t - 1) == 0:
        return 1 + (t.bit_length() - 1)
    trailing = 0
    while t % 2 == 0:
        t //= 2
        trailing += 1
    return trailing


def test_first_four_elements_by_hand() -> None:
    # Remark 3.6 and equation (2), written out for t = 0..3 with scripted normals z0..z3.
    z = [0.7, -1.3, 0.4, 2.1]
    sigma = 1.9
    s = math.sqrt(3.0) / 2.0 * sigma
    x0 = sigma * z[0]
    x1 = -x0 / 2 + s * z[1]  # new right child when the tree grows from 1 to 2 leaves
    root1 = x0 + x1
    right = -root1 / 2 + s * z[2]  # growth from 2 to 4 leaves, then one split of the new right child
    x2, x3 = right / 2 + s * z[3], right / 2 - s * z[3]
    stream = StreamingCascade(sigma, checks.ScriptedGenerator(z))
    got = stream.take(4)
    assert got.tolist() == pytest.approx([x0, x1, x2, x3], rel=1e-15, abs=1e-15)
    assert stream.root == pytest.approx(root1 + right, rel=1e-15)


@pytest.mark.parametrize("count", range(0, 70))
def test_draw_counts_follow_documented_order(count: int) -> None:
    script = checks.ScriptedGenerator(np.zeros(200))
    stream = StreamingCascade(1.0, script)
    stream.take(count)
    assert script.used == sum(documented_draws(t) for t in range(count))


@pytest.mark.parametrize("k", range(0, 8))
def test_power_of_two_elements_draw_that_many_normals(k: int) -> None:
    used = np.random.default_rng(13)
    StreamingCascade(1.0, used).take(1 << k)
    reference = np.random.default_rng(13)
    reference.standard_normal(1 << k)
    assert used.standard_normal() == reference.standard_normal()


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 600), st.integers(0, 2**32))
def test_tree_invariants(count: int, seed: int) -> None:
    stream = StreamingCascade(1.0, seed)
    outputs = stream.take(count)
    depth = (count - 1).bit_length()
    assert stream.depth == depth
    # Pending right siblings: one per zero bit of (count - 1) below the depth, so at most log2 of the count.
    zero_bits = sum(1 for bit in range(depth) if not (count - 1) >> bit & 1)
    assert len(stream.pending) == zero_bits <= depth
    # The root is the sum of all 2**depth leaves: the ones produced plus the subtrees still pending.
    total = math.fsum(outputs.tolist()) + math.fsum(stream.pending)
    assert math.isclose(stream.root, total, rel_tol=0, abs_tol=1e-12 * (count + 1))


@pytest.mark.parametrize("length", [*range(1, 21), 31, 32, 33, 100])
def test_linear_map_covariance_is_top_left_block(length: int) -> None:
    result = checks.check_streaming_linear_map(length, sigma=1.0 if length % 2 else 0.45)
    assert result.holds, result.detail


@pytest.mark.parametrize(("length", "depth"), [(3, None), (6, None), (13, None), (5, 4)])
def test_covariance_statistical(length: int, depth: int | None) -> None:
    # false-alarm probability 1e-9 per case; (5, 4) checks the block of a deeper C than needed
    result = checks.check_streaming_covariance(length, depth, sigma=2.2, samples=4000, seed=31 + length)
    assert result.holds, result.detail


def test_reproducible_and_seed_equals_generator() -> None:
    a = StreamingCascade(1.0, 42).take(50)
    b = StreamingCascade(1.0, np.random.default_rng(42)).take(50)
    assert np.array_equal(a, b)


def test_take_equals_repeated_next_noise_and_iteration() -> None:
    one = StreamingCascade(0.8, 3)
    two = StreamingCascade(0.8, 3)
    three = StreamingCascade(0.8, 3)
    expected = one.take(37)
    assert [two.next_noise() for _ in range(37)] == expected.tolist()
    assert list(itertools.islice(three, 37)) == expected.tolist()
    assert one.count == two.count == three.count == 37


def test_horizon_limits_the_stream() -> None:
    stream = StreamingCascade(1.0, 0, horizon=5)
    assert stream.take(5).shape == (5,)
    with pytest.raises(ValueError, match="horizon"):
        stream.next_noise()
    assert list(StreamingCascade(1.0, 0, horizon=7)) == StreamingCascade(1.0, 0).take(7).tolist()


def test_take_beyond_horizon_raises_without_consuming() -> None:
    stream = StreamingCascade(1.0, 0, horizon=4)
    stream.take(3)
    with pytest.raises(ValueError, match="horizon"):
        stream.take(2)
    assert stream.count == 3
    stream.next_noise()
    assert stream.count == 4


def test_properties() -> None:
    stream = StreamingCascade(2.0, 0, horizon=10)
    assert (stream.sigma, stream.horizon, stream.count, stream.depth, stream.root) == (2.0, 10, 0, 0, 0.0)
    assert "horizon=10" in repr(stream)


@pytest.mark.parametrize("sigma", [0, -2.0, math.inf, math.nan, "abc"])
def test_bad_sigma_value(sigma: object) -> None:
    with pytest.raises(ValueError, match="sigma"):
        StreamingCascade(sigma)  # type: ignore[arg-type]


@pytest.mark.parametrize("sigma", [None, True, [1.0]])
def test_bad_sigma_kind(sigma: object) -> None:
    with pytest.raises(TypeError, match="sigma"):
        StreamingCascade(sigma)  # type: ignore[arg-type]


@pytest.mark.parametrize("rng", ["seed", 2.5, object()])
def test_bad_rng(rng: object) -> None:
    with pytest.raises(TypeError, match="rng"):
        StreamingCascade(1.0, rng)  # type: ignore[arg-type]


@pytest.mark.parametrize("horizon", [0, -3])
def test_bad_horizon_value(horizon: int) -> None:
    with pytest.raises(ValueError, match="horizon"):
        StreamingCascade(1.0, 0, horizon=horizon)


@pytest.mark.parametrize("horizon", [2.5, True, "5"])
def test_bad_horizon_kind(horizon: object) -> None:
    with pytest.raises(TypeError, match="horizon"):
        StreamingCascade(1.0, 0, horizon=horizon)  # type: ignore[arg-type]


def test_bad_take_length() -> None:
    stream = StreamingCascade(1.0, 0)
    with pytest.raises(ValueError, match="length"):
        stream.take(-1)
    with pytest.raises(TypeError, match="length"):
        stream.take(1.5)  # type: ignore[arg-type]
    assert stream.take(0).shape == (0,)
