"""Data layer of InfTDA (reference.tda.data): hierarchy, CSV reading/writing, prefix counts, default dataset.

Expected prefix counts are counted by hand (or by a plain Counter over prefixes, independent of the vectorised
code); no statistical tests here.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.tda.data import (
    DEFAULT_DATASET,
    Hierarchy,
    PrefixTree,
    default_dataset,
    expand_records,
    prefix_counts,
    read_csv,
    write_csv,
)

HAND_CSV = "region,sex\nnorth,f\nsouth,m\nnorth,m\nnorth,f\n"


def _write(tmp_path: Path, text: str, name: str = "data.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_read_csv_sorted_universes_and_hand_prefix_counts(tmp_path: Path) -> None:
    hierarchy, records = read_csv(_write(tmp_path, HAND_CSV))
    assert hierarchy.attributes == ("region", "sex")
    assert hierarchy.categories == (("north", "south"), ("f", "m"))
    assert records.tolist() == [[0, 0], [1, 1], [0, 1], [0, 0]]
    tree = prefix_counts(records, hierarchy)
    # By hand: n = 4; north 3, south 1; (north, f) 2, (north, m) 1, (south, m) 1; (south, f) = 0 not stored.
    assert tree.counts == {(): 4, (0,): 3, (1,): 1, (0, 0): 2, (0, 1): 1, (1, 1): 1}
    assert tree.total == 4
    assert tree.children((1,)) == (0, 1)
    assert tree.children(()) == (3, 1)
    assert tree.count((1, 0)) == 0
    assert tree.is_consistent()
    assert list(tree.leaves()) == [(0, 0), (0, 1), (1, 1)]


def test_read_csv_declared_categories_keep_their_order(tmp_path: Path) -> None:
    declared = {"sex": ["m", "f", "x"], "region": ["south", "north", "east"]}
    hierarchy, records = read_csv(_write(tmp_path, HAND_CSV), declared)
    assert hierarchy.categories == (("south", "north", "east"), ("m", "f", "x"))
    assert records.tolist() == [[1, 1], [0, 0], [1, 0], [1, 1]]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty file"),
        ("\n", "d = 0"),
        ("region,\nnorth,f\n", "blank attribute name"),
        ("a,a\n1,2\n", "duplicate"),
        ("region,sex\nnorth,f\nsouth\n", "line 3: ragged row"),
        ("region,sex\nnorth,f,x\n", "line 2: ragged row"),
        ("region,sex\n", "no records"),
    ],
)
def test_read_csv_rejects_bad_files(tmp_path: Path, text: str, fragment: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(ValueError, match=fragment) as info:
        read_csv(path)
    assert str(path) in str(info.value)


def test_read_csv_value_outside_declared_domain_names_line(tmp_path: Path) -> None:
    path = _write(tmp_path, HAND_CSV)
    with pytest.raises(ValueError, match=r"line 3: value 'south' of attribute 'region'"):
        read_csv(path, {"region": ["north"], "sex": ["f", "m"]})


def test_read_csv_missing_header_detected_with_declared_categories(tmp_path: Path) -> None:
    path = _write(tmp_path, "north,f\nsouth,m\n")
    with pytest.raises(ValueError, match="missing header"):
        read_csv(path, {"region": ["north", "south"], "sex": ["f", "m"]})


def test_read_csv_header_only_with_declared_categories_is_empty_dataset(tmp_path: Path) -> None:
    hierarchy, records = read_csv(_write(tmp_path, "region,sex\n"), {"region": ["a"], "sex": ["f", "m"]})
    assert records.shape == (0, 2)
    tree = prefix_counts(records, hierarchy)
    assert tree.total == 0 and len(tree) == 0


def test_read_csv_type_errors(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="path"):
        read_csv(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="categories"):
        read_csv(_write(tmp_path, HAND_CSV), [["a"]])  # type: ignore[arg-type]


def test_hierarchy_validation() -> None:
    with pytest.raises(ValueError, match="d = 0"):
        Hierarchy((), ())
    with pytest.raises(ValueError, match="one category list per attribute"):
        Hierarchy(("a",), ())
    with pytest.raises(ValueError, match="non-empty"):
        Hierarchy(("a",), ((),))
    with pytest.raises(ValueError, match="duplicates"):
        Hierarchy(("a",), (("x", "x"),))
    with pytest.raises(ValueError, match="unique"):
        Hierarchy(("a", "a"), (("x",), ("y",)))
    with pytest.raises(TypeError, match="attributes"):
        Hierarchy.build("ab", [["x"]])
    hierarchy = Hierarchy.build(["a", "b"], [["x", "y"], ["z"]])
    assert hierarchy.depth == 2 and hierarchy.sizes == (2, 1)
    assert hierarchy.index_of(1, "y") == 1
    with pytest.raises(ValueError, match="not a category"):
        hierarchy.index_of(2, "x")


def test_prefix_tree_validation() -> None:
    hierarchy = Hierarchy.build(["a", "b"], [["x", "y"], ["z"]])
    with pytest.raises(ValueError, match="out of range"):
        PrefixTree(hierarchy, {(2,): 1})
    with pytest.raises(ValueError, match="at most 2"):
        PrefixTree(hierarchy, {(0, 0, 0): 1})
    with pytest.raises(ValueError, match=">= 0"):
        PrefixTree(hierarchy, {(0,): -1})
    assert PrefixTree(hierarchy, {(0,): 0}).counts == {}
    assert not PrefixTree(hierarchy, {(): 2, (0,): 1}).is_consistent()
    assert PrefixTree(hierarchy, {(): 2, (0,): 2, (0, 0): 2}).is_consistent()


def test_prefix_counts_rejects_bad_records() -> None:
    hierarchy = Hierarchy.build(["a", "b"], [["x", "y"], ["z"]])
    with pytest.raises(ValueError, match=r"records\[1\]\[1\]"):
        prefix_counts([(0, 0), (1, 1)], hierarchy)
    with pytest.raises(ValueError, match="shape"):
        prefix_counts(np.zeros((2, 3), dtype=np.int64), hierarchy)
    with pytest.raises(TypeError, match="integer"):
        prefix_counts([(0, 0.0)], hierarchy)
    with pytest.raises(TypeError, match="hierarchy"):
        prefix_counts([(0, 0)], "h")  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 4), min_size=1, max_size=4),
    data=st.data(),
)
def test_prefix_counts_match_a_plain_counter(sizes: list[int], data: st.DataObject) -> None:
    hierarchy = Hierarchy.build([f"a{i}" for i in range(len(sizes))], [[str(j) for j in range(s)] for s in sizes])
    rows = data.draw(st.lists(st.tuples(*[st.integers(0, s - 1) for s in sizes]), max_size=30))
    expected: Counter[tuple[int, ...]] = Counter()
    for row in rows:
        for length in range(len(sizes) + 1):
            expected[row[:length]] += 1
    tree = prefix_counts(rows, hierarchy)
    assert tree.counts == dict(expected)
    assert tree.is_consistent()


def test_expand_and_write_round_trip(tmp_path: Path) -> None:
    hierarchy, records = read_csv(_write(tmp_path, HAND_CSV))
    tree = prefix_counts(records, hierarchy)
    rows = list(expand_records(tree, hierarchy))
    assert rows == [("north", "f"), ("north", "f"), ("north", "m"), ("south", "m")]
    out = tmp_path / "out.csv"
    assert write_csv(out, hierarchy, rows) == 4
    again_hierarchy, again = read_csv(out, dict(zip(hierarchy.attributes, hierarchy.categories, strict=True)))
    assert again_hierarchy == hierarchy
    assert prefix_counts(again, hierarchy) == tree
    assert list(expand_records({(1, 0): 2}, hierarchy)) == [("south", "f")] * 2
    with pytest.raises(ValueError, match="length d"):
        list(expand_records({(1,): 2}, hierarchy))
    with pytest.raises(ValueError, match="not a category"):
        write_csv(out, hierarchy, [("east", "f")])


def test_default_dataset_is_seeded_and_documented() -> None:
    hierarchy, records = default_dataset(size=500, seed=3)
    assert hierarchy.depth == 6
    assert hierarchy.sizes == tuple(len(values) for _, values, _ in DEFAULT_DATASET) == (4, 5, 6, 9, 2, 4)
    assert records.shape == (500, 6)
    again = default_dataset(size=500, seed=3)[1]
    assert np.array_equal(records, again)
    assert not np.array_equal(records, default_dataset(size=500, seed=4)[1])
    tree = prefix_counts(records, hierarchy)
    assert tree.total == 500 and tree.is_consistent()
    # Independent check of the documented generation: one Generator.choice per attribute in order.
    gen = np.random.default_rng(3)
    first = gen.choice(4, size=500, p=np.array([40, 30, 20, 10]) / 100)
    assert np.array_equal(records[:, 0], first)
    with pytest.raises(ValueError, match="size"):
        default_dataset(size=-1)
