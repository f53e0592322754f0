"""The streamed cascade audit's batched sums (reference.audit.samples.cascade_fold): the exact integers of the definition,
checked against an independent scalar computation, the reference path, exact rationals and planted samplers."""

from __future__ import annotations

import pickle
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import reference.audit.samples.cascade_fold as cascade_fold
import reference.audit.samples.cascade_stream as cascade_stream
import reference.audit.samples.target as target_module
from reference.audit.samples.cascade_stream import CascadeMoments
from reference.audit.samples.sampler_function import audit_sampler_function
from reference.audit.samples.sufficient import FRACTION_BITS, GRID_ROOT
from reference.audit.samples.target import Mechanism
from reference.cip.numeric.cascade_runs import cascade_leaves_runs

ALPHA = 1e-6


def _scalar_sums(samples: np.ndarray, sigma: float) -> tuple[list[list[int]], list[list[int]]]:
    """The definition, value by value in Python floats and integers (independent of numpy's batching): per node
    Σ rint((x·c)²) over the runs, per internal node Σ rint((L − R)²), c = 2**12 / σ; ``round`` is ties-to-even."""
    depth = int(samples.shape[1]).bit_length() - 1
    scale = GRID_ROOT / sigma
    nodes = [[0] * (1 << level) for level in range(depth + 1)]
    siblings = [[0] * (1 << level) for level in range(depth)]
    for run in samples.tolist():
        level_values = [float(x) * scale for x in run]
        for level in range(depth, -1, -1):
            for position, y in enumerate(level_values):
                nodes[level][position] += round(y * y)
            if level == 0:
                break
            pairs = list(zip(level_values[0::2], level_values[1::2]))
            for position, (left, right) in enumerate(pairs):
                siblings[level - 1][position] += round((left - right) * (left - right))
            level_values = [left + right for left, right in pairs]
    return nodes, siblings


def _totals(moments: CascadeMoments) -> tuple[list[list[int]], list[list[int]]]:
    return ([[int(v) for v in sums.total] for sums in moments.nodes],
            [[int(v) for v in sums.total] for sums in moments.siblings])


@pytest.mark.parametrize(("depth", "runs", "sigma", "tile_values"), [
    (0, 3, 2.0, 1 << 17), (3, 5, 0.7, 1 << 17), (5, 7, 1.3, 16), (6, 9, 1.0, 64), (4, 1, 3.0, 4),
])
def test_the_batched_sums_are_the_definitions_integers(monkeypatch: pytest.MonkeyPatch, depth: int, runs: int,
                                                       sigma: float, tile_values: int) -> None:
    # small tiles: the tiled path (several tiles, the levels above in one piece) runs at these small sizes too
    monkeypatch.setattr(cascade_fold, "TILE_VALUES", tile_values)
    samples = cascade_leaves_runs(depth, sigma, runs, 40 + depth) * 1.7  # not the claimed law: any values
    moments = CascadeMoments(depth, sigma)
    moments.add(samples[:2])
    moments.add(samples[2:])
    assert _totals(moments) == _scalar_sums(samples, sigma)
    assert moments.runs == runs


def test_the_sums_are_within_half_a_grid_unit_per_value_of_the_exact_squares() -> None:
    # against exact rationals: the scaled values as Fractions, their sums and squares exact; each value's rounding
    # (the float square, then the integer) moves the sum by at most 1/2 unit plus the square's relative 2**-53
    depth, runs, sigma = 3, 6, 1.1
    samples = cascade_leaves_runs(depth, sigma, runs, 7)
    moments = CascadeMoments(depth, sigma)
    moments.add(samples)
    scale = Fraction(GRID_ROOT / sigma)
    exact_root = sum(sum(Fraction(x) * scale for x in run) ** 2 for run in samples.tolist())  # no rounding of sums
    difference = abs(Fraction(int(moments.nodes[0].total[0])) - exact_root)
    # the root's float value also carries the roundings of the products by the scale and of the 7 additions
    assert difference <= runs * (Fraction(1, 2) + exact_root / runs * Fraction(2 ** 7, 2 ** 53) * 40)
    statistics = moments.statistics()
    root = statistics["node_squares"][0]
    assert abs(root - float(exact_root) / 2 ** FRACTION_BITS) <= 1e-6 * root
    first_sibling = moments.siblings[0].total[0]
    assert statistics["sibling_squares"][0] == float(Fraction(int(first_sibling), 3 * 2 ** FRACTION_BITS))


def test_one_block_or_many_and_the_reference_path_agree() -> None:
    # tiled (40 runs × 4096 leaves is above one tile) and untiled blocks, against the reference computation
    depth, sigma = 12, 1.3
    samples = cascade_leaves_runs(depth, sigma, 40, 8)
    whole = CascadeMoments(depth, sigma)
    whole.add(samples)
    rows = CascadeMoments(depth, sigma)
    for start in range(0, 40, 3):
        rows.add(samples[start:start + 3])
    reference = CascadeMoments(depth, sigma)
    reference._add_scaled_exactly(np.multiply(samples, GRID_ROOT / sigma))
    assert _totals(whole) == _totals(rows) == _totals(reference)


def test_integer_and_float32_samples_are_scaled_in_float64() -> None:
    depth, sigma = 4, 0.3
    values = np.random.default_rng(3).integers(-50, 50, size=(5, 1 << depth))
    for samples in (values, values.astype(np.float32) / np.float32(7)):
        moments = CascadeMoments(depth, sigma)
        moments.add(samples)
        assert _totals(moments) == _scalar_sums(np.asarray(samples, dtype=np.float64), sigma)


def test_huge_values_take_the_exact_path_and_nan_is_refused_with_nothing_added() -> None:
    depth, sigma = 3, 1.0
    samples = cascade_leaves_runs(depth, sigma, 4, 9)
    samples[1, 5] = 3e9  # its square in grid units is about 2**87: beyond the exact float sums
    moments = CascadeMoments(depth, sigma)
    moments.add(samples)
    assert _totals(moments) == _scalar_sums(samples, sigma)
    assert moments.nodes[3].total.dtype == object  # Python integers: beyond int64
    broken = samples.copy()
    broken[2, 0] = np.nan
    before = _totals(moments)
    with pytest.raises(ValueError, match="finite"):
        moments.add(broken)
    assert _totals(moments) == before and moments.runs == 4


def test_pending_totals_are_flushed_exactly_when_they_would_leave_the_exact_range(
        monkeypatch: pytest.MonkeyPatch) -> None:
    depth, sigma = 5, 1.0
    samples = cascade_leaves_runs(depth, sigma, 30, 10)
    expected = _scalar_sums(samples, sigma)
    monkeypatch.setattr(cascade_stream, "EXACT_TOTAL", float(1 << 27))  # a flush every few blocks
    moments = CascadeMoments(depth, sigma)
    for start in range(0, 30, 2):
        moments.add(samples[start:start + 2])
    assert _totals(moments) == expected
    copy = pickle.loads(pickle.dumps(moments))  # a worker's statistics, sent back
    assert _totals(copy) == expected and copy.runs == 30
    assert copy.report(ALPHA).as_json() == moments.report(ALPHA).as_json()


def test_deep_trees_add_each_blocks_totals_directly(monkeypatch: pytest.MonkeyPatch) -> None:
    # above KEPT_VALUES totals (depth 21 and more) no pending copy is kept: the same integers, block by block
    depth, sigma = 5, 0.9
    samples = cascade_leaves_runs(depth, sigma, 12, 13)
    monkeypatch.setattr(cascade_stream, "KEPT_VALUES", 8)
    moments = CascadeMoments(depth, sigma)
    for start in range(0, 12, 5):
        moments.add(samples[start:start + 5])
    assert moments._pending is None
    assert _totals(moments) == _scalar_sums(samples, sigma)


def test_two_accumulators_in_one_thread_keep_their_own_totals() -> None:
    # the work space is per thread and shared: each accumulator's pending totals must stay its own
    depth, sigma = 6, 1.0
    first, second = cascade_leaves_runs(depth, sigma, 8, 11), cascade_leaves_runs(depth, sigma, 8, 12)
    a, b = CascadeMoments(depth, sigma), CascadeMoments(depth, sigma)
    for start in range(0, 8, 2):
        a.add(first[start:start + 2])
        b.add(second[start:start + 2])
    assert _totals(a) == _scalar_sums(first, sigma) and _totals(b) == _scalar_sums(second, sigma)


def test_planted_samplers_fail_and_the_correct_one_holds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # through the whole audit (chunks, blocks, merges): independent leaves with the right marginals (wrong
    # covariance), and the variance passed for σ; the correct sampler with the same seed holds
    (tmp_path / "planted_leaves.py").write_text(
        "import numpy as np\n\n\n"
        "def independent_leaves(generator, runs):\n"
        "    return 2.0 * generator.standard_normal((runs, 64))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("planted_leaves", None)
    mechanism = Mechanism("cascade", depth=6, sigma=2.0)
    options: dict[str, Any] = {"chunk_runs": 16, "block_runs": 64}
    correct = audit_sampler_function("examples.batched_samplers:cascade_depth_6", mechanism, 256, 5, **options,
                                     smallest_deviation=0.25)
    assert correct["verdict"] == "holds"
    independent = audit_sampler_function("planted_leaves:independent_leaves", mechanism, 256, 5, **options)
    assert independent["verdict"] == "fails"
    failed = {check["property"] for check in independent["checks"] if check["verdict"] == "fails"}
    assert {"node variances", "sibling covariances"} <= failed
    variance = audit_sampler_function("reference_verification.planted.variance_for_std_cascade:faulty_cascade_batch",
                                      mechanism, 256, 5, **options)
    assert variance["verdict"] == "fails"


@pytest.mark.parametrize(("depth", "tile_values"), [(0, 1 << 17), (5, 1 << 17), (7, 16), (6, 2)])
def test_one_run_per_block_gives_the_definitions_integers(monkeypatch: pytest.MonkeyPatch, depth: int,
                                                          tile_values: int) -> None:
    # one run per block (the command's chunks at depth 20): its squares are rounded where the totals are kept;
    # the same integers as the per-node definition and as the reference path, tiled (small tiles) or not
    monkeypatch.setattr(cascade_fold, "TILE_VALUES", tile_values)
    sigma = 1.7
    samples = cascade_leaves_runs(depth, sigma, 6, 50 + depth) * 1.3
    one_by_one = CascadeMoments(depth, sigma)
    for row in samples:
        one_by_one.add(row[np.newaxis, :])
    reference = CascadeMoments(depth, sigma)
    reference._add_scaled_exactly(np.multiply(samples, GRID_ROOT / sigma))
    assert _totals(one_by_one) == _scalar_sums(samples, sigma) == _totals(reference)
    assert np.array_equal(one_by_one.above, reference.above)


PLANTED_CASCADES = '''
import numpy as np


def _cascade(generator, runs, depth, split, root):
    """Leaves of a two-children split applied level by level from a root draw (sigma = 2)."""
    values = root(generator, (runs, 1))
    for _ in range(depth):
        values = split(generator, values)
    return values


def _interleave(left, right):
    children = np.empty((left.shape[0], 2 * left.shape[1]))
    children[:, 0::2], children[:, 1::2] = left, right
    return children


def quarter_correlation(generator, runs):
    # children sqrt(3/2) (X/2 +- y) with Var y = 5/12 sigma^2: variance sigma^2, correlation -1/4 (not -1/2)
    def split(generator, parents):
        noise = generator.normal(0.0, np.sqrt(5.0 / 12.0) * 2.0, parents.shape)
        return np.sqrt(1.5) * _interleave(parents / 2 + noise, parents / 2 - noise)
    return _cascade(generator, runs, 6, split, lambda generator, shape: generator.normal(0.0, 2.0, shape))


def laplace_splits(generator, runs):
    # the cascade's covariance exactly (Var y = 3/4 sigma^2, the root sigma^2), but Laplace draws: the wrong law
    def split(generator, parents):
        noise = generator.laplace(0.0, np.sqrt(3.0 / 8.0) * 2.0, parents.shape)
        return _interleave(parents / 2 + noise, parents / 2 - noise)
    return _cascade(generator, runs, 6, split, lambda generator, shape: generator.laplace(0.0, np.sqrt(2.0), shape))
'''


def test_planted_samplers_fail_with_one_run_per_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # one run per chunk, as the command draws depth 20: sibling correlation -1/4 instead of -1/2 (every node's
    # marginal variance right at the leaves) and Laplace draws with the cascade's exact covariance both fail; the
    # correct sampler holds on the same plan
    (tmp_path / "planted_cascades.py").write_text(PLANTED_CASCADES)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("planted_cascades", None)
    mechanism = Mechanism("cascade", depth=6, sigma=2.0)
    options: dict[str, Any] = {"chunk_runs": 1, "block_runs": 64}
    correct = audit_sampler_function("examples.batched_samplers:cascade_depth_6", mechanism, 256, 6, **options,
                                     smallest_deviation=0.25)
    assert correct["verdict"] == "holds"
    correlation = audit_sampler_function("planted_cascades:quarter_correlation", mechanism, 256, 6, **options)
    assert correlation["verdict"] == "fails"
    assert "sibling covariances" in {check["property"] for check in correlation["checks"]
                                     if check["verdict"] == "fails"}
    laplace = audit_sampler_function("planted_cascades:laplace_splits", mechanism, 256, 6, **options)
    assert laplace["verdict"] == "fails"
    assert "whitened magnitudes" in {check["property"] for check in laplace["checks"] if check["verdict"] == "fails"}


def test_a_node_whose_rounded_squares_are_all_zero_is_ranked_without_an_error() -> None:
    # with two runs a node's statistic can be exactly 0 (both rounded squares 0): a ratio of 0 to the expectation,
    # infinitely far in the log scale the report ranks by — never a math error. Its exact value is below half a
    # grid unit per run, and the lower critical value of chi-square(2) at this level (about 1e-8) is below that
    # rounding, so the rounded statistic cannot be held against the sampler: accepted, the range widened by it
    samples = cascade_leaves_runs(2, 1.0, 2, 14)
    samples[:, 0:2] = [[1e-9, -1e-9], [0.0, 0.0]]  # leaves 0 and 1: their parent and their difference vanish too
    moments = CascadeMoments(2, 1.0)
    moments.add(samples)
    node_check = next(check for check in moments.report(ALPHA).checks if check.name == "node variances")
    assert node_check.statistic == 0.0 and node_check.holds
    moments_far = CascadeMoments(2, 1.0)
    moments_far.add(samples * 1e4)  # the other values 10^4 times too large: the upper side still fails
    assert not next(check for check in moments_far.report(ALPHA).checks if check.name == "node variances").holds


def _user_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, source: str) -> None:
    """A user's target module ``name`` written to ``tmp_path`` and importable (fresh) for this test."""
    (tmp_path / f"{name}.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop(name, None)


def test_gathered_chunks_give_the_statistics_of_one_chunk_at_a_time(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # one-run chunks are copied into one buffer and folded together: the same exact statistics (digest) as folding
    # each chunk alone, also for a target that returns the same array every call (the copy is taken at once)
    _user_module(tmp_path, monkeypatch, "reused_output",
                 "import numpy as np\n\nfrom examples.batched_samplers import cascade_depth_6\n\n_OUT = {}\n\n\n"
                 "def same_array(generator, runs):\n"
                 "    values = cascade_depth_6(generator, runs)\n"
                 "    out = _OUT.setdefault(values.shape, np.empty_like(values))\n"
                 "    out[:] = values\n"
                 "    return out\n")
    mechanism = Mechanism("cascade", depth=6, sigma=2.0)
    options: dict[str, Any] = {"chunk_runs": 1, "block_runs": 24}
    gathered = audit_sampler_function("examples.batched_samplers:cascade_depth_6", mechanism, 60, 4, **options)
    reused = audit_sampler_function("reused_output:same_array", mechanism, 60, 4, **options)
    monkeypatch.setattr(target_module, "_cascade_gather", lambda *arguments: None)
    alone = audit_sampler_function("examples.batched_samplers:cascade_depth_6", mechanism, 60, 4, **options)
    assert gathered["statistics_sha256"] == reused["statistics_sha256"] == alone["statistics_sha256"]
    assert gathered["verdict"] == alone["verdict"]


@pytest.mark.parametrize("seed", range(4))
def test_the_most_extreme_ratio_is_the_one_of_largest_log_distance(seed: int) -> None:
    # the report names the node ratio farthest from 1 in |log| (the first on a tie); it is found from the smallest
    # and the largest ratio: the same value as the arg-maximum of |log ratio| over every node, zeros and ties included
    rng = np.random.default_rng(seed)
    for trial in range(500):
        size = int(rng.integers(1, 40))
        ratios = (rng.choice([0.0, 0.25, 0.5, 2 / 3, 1.0, 1.5, 2.0, 3.0, 4.0], size=size) if trial % 2
                  else rng.chisquare(3, size=size) / 3)
        with np.errstate(divide="ignore"):
            expected = float(ratios[np.argmax(np.abs(np.log(ratios)))])
        assert cascade_stream._most_extreme(ratios) == expected


def test_a_cascade_target_is_called_once_per_chunk_and_a_wrong_width_is_one_line(tmp_path: Path,
                                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # the width of a cascade's runs is 2**depth: no probing run before the audit's chunks (each drawn once), and a
    # target of the wrong width is refused at its first chunk with the shape named, before anything is folded
    _user_module(tmp_path, monkeypatch, "counted_cascade",
                 "from examples.batched_samplers import cascade_depth_6\n\nCALLS = []\n\n\n"
                 "def counted(generator, runs):\n"
                 "    CALLS.append(runs)\n"
                 "    return cascade_depth_6(generator, runs)\n")
    result = audit_sampler_function("counted_cascade:counted", Mechanism("cascade", depth=6, sigma=2.0), 40, 3,
                                    chunk_runs=8, block_runs=16)
    calls = sys.modules["counted_cascade"].CALLS
    assert calls == [8] * 5 and result["plan"]["chunks"] == 5 and result["verdict"] in ("holds", "inconclusive")
    with pytest.raises(ValueError, match=r"shape \(runs, n\) = \(8, 32\) for 8 runs, got shape \(8, 64\)"):
        audit_sampler_function("counted_cascade:counted", Mechanism("cascade", depth=5, sigma=2.0), 40, 3,
                               chunk_runs=8, block_runs=16)
    assert len(calls) == 6  # the first chunk only


def test_too_few_runs_still_check_the_targets_width() -> None:
    # one run cannot test a variance: the cascade audit is inconclusive before drawing (and says why); a target of
    # the wrong width is still named then (one probing run), instead of being reported inconclusive as if it fit
    fits = audit_sampler_function("examples.batched_samplers:cascade_depth_6", Mechanism("cascade", depth=6, sigma=2.0),
                                  1, 3)
    assert fits["verdict"] == "inconclusive" and "at least 2 runs" in fits["reason"]
    with pytest.raises(ValueError, match=r"shape \(runs, n\) = \(1, 32\) for one run, got shape \(1, 64\)"):
        audit_sampler_function("examples.batched_samplers:cascade_depth_6", Mechanism("cascade", depth=5, sigma=2.0),
                               1, 3)
