"""Data for InfTDA (TDA paper, Boninsegna): categorical records, the hierarchy, the sparse tree of prefix counts.

Conventions
-------------------------------------
* A record has d >= 1 categorical attributes; the **attribute order is the hierarchy** (the paper's X_1, ...,
  X_d). A :class:`Hierarchy` holds the attribute names and, per attribute, its category list (the universe
  X_level). A category is identified by its **index** in that list; records are tuples (or rows of an integer
  array) of category indices.
* Level ``level`` (0..d) of the tree holds the ``level``-hierarchical queries (TDA Definition 4): the number
  of records whose first ``level`` attributes equal a given prefix. Level 0 is the root, key ``()``, count n.
* A :class:`PrefixTree` is **sparse**: a dict from prefix (tuple of category indices, length 0..d) to a
  positive count; a prefix that is absent has count 0 (also the root when n = 0).
* CSV files have a header naming the attributes (in hierarchy order), then one record per row. Without declared
  ``categories`` the universe of each attribute is the **sorted** set of values seen in the file (so a value
  that never occurs is not in the universe); with ``categories`` it is the declared list, in the given order,
  and a value outside it is an error.
* **Privacy of the universe.** InfTDA's ρ-zCDP guarantee (TDA Theorem 1) assumes the universes X_1, ..., X_d
  are fixed independently of the data. A universe read off the data (``read_csv`` without ``categories``)
  is itself a function of the records — a category held by one record appears or disappears with it — so
  for a private release declare ``categories`` (or use a hierarchy fixed in advance, as
  :func:`default_dataset` does).

The embedded default dataset (:func:`default_dataset`) is synthetic and documented there: no registry package
reliably ships a real categorical census-like table in this environment.
"""

from __future__ import annotations

import csv
import io
import numbers
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from reference.core.exact_text import message_value
from reference.core.input_files import read_regular_text
from reference.core.validate import check_positive_int

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = [
    "DEFAULT_DATASET",
    "Hierarchy",
    "PrefixTree",
    "default_dataset",
    "expand_records",
    "prefix_counts",
    "read_csv",
    "write_csv",
]

Prefix = tuple[int, ...]


def _check_name(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {type(value).__name__}")
    if not value.strip():
        raise ValueError(f"{name} must be a non-empty string, got {value!r}")
    return value


@dataclass(frozen=True)
class Hierarchy:
    """d >= 1 attribute names (hierarchy order) and, per attribute, its list of categories (the universe X_i).

    ``attributes[i]`` names attribute i + 1 of the paper; ``categories[i]`` lists its categories, index j of the
    list being category index j. Names are non-empty and unique; each category list is non-empty and has
    unique non-empty strings.
    """

    attributes: tuple[str, ...]
    categories: tuple[tuple[str, ...], ...]

    def __post_init__(self) -> None:
        if not isinstance(self.attributes, tuple) or not isinstance(self.categories, tuple):
            raise TypeError("attributes and categories must be tuples (use Hierarchy.build for other sequences)")
        if not self.attributes:
            raise ValueError("attributes must name at least one attribute (d >= 1), got d = 0")
        if len(self.categories) != len(self.attributes):
            raise ValueError(
                f"categories must give one category list per attribute: {len(self.attributes)} attributes, "
                f"{len(self.categories)} lists"
            )
        for index, attribute in enumerate(self.attributes):
            _check_name(attribute, f"attributes[{index}]")
        if len(set(self.attributes)) != len(self.attributes):
            raise ValueError(f"attributes must be unique, got {list(self.attributes)}")
        for index, values in enumerate(self.categories):
            if not isinstance(values, tuple):
                raise TypeError(f"categories[{index}] must be a tuple of strings")
            if not values:
                raise ValueError(f"categories[{index}] (attribute {self.attributes[index]!r}) must be non-empty")
            for position, value in enumerate(values):
                _check_name(value, f"categories[{index}][{position}]")
            if len(set(values)) != len(values):
                raise ValueError(f"categories[{index}] (attribute {self.attributes[index]!r}) has duplicates")

    @classmethod
    def build(cls, attributes: Sequence[str], categories: Sequence[Sequence[str]]) -> Hierarchy:
        """A hierarchy from any sequences (converted to tuples; strings are refused as sequences).

        Args:
            attributes: the d attribute names, in hierarchy order (distinct, non-empty).
            categories: per attribute, its categories in order (each a non-empty sequence of distinct strings).
        """
        if isinstance(attributes, str) or not isinstance(attributes, Sequence):
            raise TypeError(f"attributes must be a sequence of strings, got {type(attributes).__name__}")
        if isinstance(categories, str) or not isinstance(categories, Sequence):
            raise TypeError(f"categories must be a sequence of category lists, got {type(categories).__name__}")
        lists: list[tuple[str, ...]] = []
        for index, values in enumerate(categories):
            if isinstance(values, str) or not isinstance(values, Sequence):
                raise TypeError(f"categories[{index}] must be a sequence of strings, got {type(values).__name__}")
            lists.append(tuple(values))
        return cls(tuple(attributes), tuple(lists))

    @property
    def depth(self) -> int:
        """d, the number of attributes (the depth of the tree)."""
        return len(self.attributes)

    @property
    def sizes(self) -> tuple[int, ...]:
        """|X_1|, ..., |X_d|."""
        return tuple(len(values) for values in self.categories)

    def index_of(self, level: int, value: str) -> int:
        """The index of category ``value`` of attribute ``level`` (1..d); ``ValueError`` if it is not there.

        Args:
            level: the attribute's level, an integer in 1..d.
            value: the category name.
        """
        depth = check_positive_int(level, "level")
        if depth > self.depth:
            raise ValueError(f"level must be in 1..{self.depth}, got {message_value(depth)}")
        try:
            return self.categories[depth - 1].index(value)
        except ValueError:
            raise ValueError(f"value {value!r} is not a category of attribute {self.attributes[depth - 1]!r}") from None


class PrefixTree:
    """The sparse tree of prefix counts over a :class:`Hierarchy` (see the module docstring).

    ``counts`` maps a prefix (tuple of category indices, length 0..d) to its count, a positive integer; absent
    prefixes count 0. The constructor validates keys (lengths, index ranges) and values (integers >= 1; zero
    entries are dropped). It does not require consistency (children summing to their parent):
    :meth:`is_consistent` checks it.

    Args:
        hierarchy: the :class:`Hierarchy` the prefixes index.
        counts: a mapping from prefixes (tuples of category indices, length 0..d) to positive integer counts.
    """

    __slots__ = ("_counts", "hierarchy")

    def __init__(self, hierarchy: Hierarchy, counts: Mapping[Prefix, int]) -> None:
        if not isinstance(hierarchy, Hierarchy):
            raise TypeError(f"hierarchy must be a Hierarchy, got {type(hierarchy).__name__}")
        if not isinstance(counts, Mapping):
            raise TypeError(f"counts must be a mapping from prefix tuples to counts, got {type(counts).__name__}")
        sizes = hierarchy.sizes
        stored: dict[Prefix, int] = {}
        for key, value in counts.items():
            if not isinstance(key, tuple) or len(key) > len(sizes):
                raise ValueError(f"counts key must be a tuple of at most {len(sizes)} category indices, got {key!r}")
            for position, entry in enumerate(key):
                if type(entry) is not int and (isinstance(entry, bool) or not isinstance(entry, numbers.Integral)):
                    raise TypeError(f"counts key {key!r} must hold integers")
                if not 0 <= int(entry) < sizes[position]:
                    raise ValueError(f"counts key {key!r}: index {entry} out of range 0..{sizes[position] - 1}")
            count = check_positive_int(value, f"counts[{key!r}]", minimum=0)
            if count:
                stored[tuple(int(entry) for entry in key)] = count
        self.hierarchy: Hierarchy = hierarchy
        self._counts: dict[Prefix, int] = stored

    @classmethod
    def _built(cls, hierarchy: Hierarchy, counts: dict[Prefix, int]) -> PrefixTree:
        """A tree from counts this package built itself (tuple keys of in-range int indices, int values >= 0,
        e.g. InfTDA's release, whose projection's output is checked): the constructor's per-entry checks are
        skipped, the zero entries dropped as it drops them."""
        tree = cls.__new__(cls)
        tree.hierarchy = hierarchy
        tree._counts = {key: value for key, value in counts.items() if value}
        return tree

    @property
    def counts(self) -> dict[Prefix, int]:
        """A copy of the non-zero counts, prefix -> count."""
        return dict(self._counts)

    @property
    def total(self) -> int:
        """n, the root count."""
        return self._counts.get((), 0)

    def __len__(self) -> int:
        """The number of non-zero nodes (root included when n > 0)."""
        return len(self._counts)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PrefixTree):
            return NotImplemented
        return self.hierarchy == other.hierarchy and self._counts == other._counts

    def __hash__(self) -> int:
        return hash((self.hierarchy, frozenset(self._counts.items())))

    def __repr__(self) -> str:
        return f"PrefixTree(d={self.hierarchy.depth}, n={self.total}, nodes={len(self._counts)})"

    def count(self, prefix: Sequence[int]) -> int:
        """The count of ``prefix`` (0 if absent).

        Args:
            prefix: a tuple of category indices of length 0..d.
        """
        return self._counts.get(tuple(prefix), 0)

    def level(self, level: int) -> dict[Prefix, int]:
        """The non-zero nodes of level ``level`` (0..d), sorted by prefix (lexicographic on category indices).

        Args:
            level: the level, an integer in 0..d.
        """
        depth = check_positive_int(level, "level", minimum=0)
        if depth > self.hierarchy.depth:
            raise ValueError(f"level must be in 0..{self.hierarchy.depth}, got {message_value(depth)}")
        return {key: self._counts[key] for key in sorted(k for k in self._counts if len(k) == depth)}

    def leaves(self) -> dict[Prefix, int]:
        """The non-zero leaf counts (level d): the full contingency table, sorted by prefix."""
        return self.level(self.hierarchy.depth)

    def children(self, prefix: Sequence[int]) -> tuple[int, ...]:
        """The counts of all |X_{l+1}| children of ``prefix`` (length l < d), zeros included, by category index.

        Args:
            prefix: a tuple of category indices of length l < d.
        """
        key = tuple(prefix)
        if len(key) >= self.hierarchy.depth:
            raise ValueError(f"prefix must have length < {self.hierarchy.depth} to have children, got {key!r}")
        size = self.hierarchy.sizes[len(key)]
        return tuple(self._counts.get((*key, child), 0) for child in range(size))

    def is_consistent(self) -> bool:
        """Whether every node's children (next level) sum to it, for levels 0..d-1 (zero nodes included)."""
        sums: Counter[Prefix] = Counter()
        for key, value in self._counts.items():
            if key:
                sums[key[:-1]] += value
        for key in set(sums) | {k for k in self._counts if len(k) < self.hierarchy.depth}:
            if sums.get(key, 0) != self._counts.get(key, 0):
                return False
        return True


def _records_array(records: object, hierarchy: Hierarchy) -> np.ndarray:
    """``records`` as an int64 array of shape (n, d), every index checked against the hierarchy."""
    depth = hierarchy.depth
    if isinstance(records, np.ndarray):
        if records.ndim != 2 or records.shape[1] != depth:
            raise ValueError(f"records must have shape (n, {depth}), got {records.shape}")
        if records.size and not np.issubdtype(records.dtype, np.integer):
            raise TypeError(f"records must hold integer category indices, got dtype {records.dtype}")
        array = records.astype(np.int64, copy=False)
    else:
        if isinstance(records, (str, bytes)) or not isinstance(records, Iterable):
            raise TypeError(f"records must be a 2-D integer array or a sequence of tuples, got {type(records)}")
        rows: list[tuple[int, ...]] = []
        for number, row in enumerate(records):
            if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or len(row) != depth:
                raise ValueError(f"records[{number}] must be a sequence of {depth} category indices, got {row!r}")
            for entry in row:
                if isinstance(entry, bool) or not isinstance(entry, numbers.Integral):
                    raise TypeError(f"records[{number}] must hold integer category indices, got {row!r}")
            rows.append(tuple(int(entry) for entry in row))
        array = np.array(rows, dtype=np.int64).reshape(len(rows), depth)
    for level, size in enumerate(hierarchy.sizes):
        column = array[:, level]
        if column.size and (int(column.min()) < 0 or int(column.max()) >= size):
            bad = int(np.flatnonzero((column < 0) | (column >= size))[0])
            raise ValueError(
                f"records[{bad}][{level}] = {int(column[bad])} is not a category index of attribute "
                f"{hierarchy.attributes[level]!r} (0..{size - 1})"
            )
    return array


def prefix_counts(records: npt.ArrayLike, hierarchy: Hierarchy) -> PrefixTree:
    """The tree of prefix counts of ``records`` (an (n, d) integer array or a sequence of index tuples).

    Vectorised: level l encodes each record's length-l prefix as a mixed-radix integer (exact in int64 while
    |X_1|...|X_l| < 2**62, otherwise Python integers are used) and counts the distinct codes.

    Args:
        records: an (n, d) integer array of category indices, or a sequence of index tuples of length d.
        hierarchy: the :class:`Hierarchy` of the records (``TypeError`` otherwise).
    """
    if not isinstance(hierarchy, Hierarchy):
        raise TypeError(f"hierarchy must be a Hierarchy, got {type(hierarchy).__name__}")
    array = _records_array(records, hierarchy)
    n = int(array.shape[0])
    counts: dict[Prefix, int] = {(): n} if n else {}
    if n == 0:
        return PrefixTree(hierarchy, counts)
    code = np.zeros(n, dtype=np.int64)
    radix = 1
    for level, size in enumerate(hierarchy.sizes, start=1):
        radix *= size
        if radix >= 2**62:
            tally = Counter(tuple(int(v) for v in row[:level]) for row in array)
            counts.update(tally)
            continue
        code = code * size + array[:, level - 1]
        _, first, number = np.unique(code, return_index=True, return_counts=True)
        prefixes = array[first, :level].tolist()
        for prefix, value in zip(prefixes, number.tolist(), strict=True):
            counts[tuple(prefix)] = int(value)
    return PrefixTree(hierarchy, counts)


def _check_path(path: object) -> Path:
    if not isinstance(path, (str, Path)):
        raise TypeError(f"path must be a str or pathlib.Path, got {type(path).__name__}")
    return Path(path)


#: Largest CSV of records read (64 MiB, checked from the file's size before reading): parsed rows cost Python
#: about 10-20 times their bytes.
MAX_CSV_BYTES = 64 << 20
#: Largest number of lines read (measured: 15.5 million two-field rows took 84 s and 5 GB, about 330 bytes and
#: 5 µs a row, so 2 million rows stay near 700 MB and ten seconds).
MAX_CSV_LINES = 2_000_000


def read_csv(path: str | Path, categories: Mapping[str, Sequence[str]] | None = None) -> tuple[Hierarchy, np.ndarray]:
    """Read a CSV of records: ``(hierarchy, records)`` with ``records`` an (n, d) int64 array of indices.

    The first row is the header (attribute names, hierarchy order); each further row is one record. Values are
    stripped of surrounding blanks; blank lines are skipped. ``categories`` optionally declares, per attribute
    name, the universe in its order (every header attribute must be declared and no other); otherwise each
    universe is the sorted set of values seen. ``ValueError`` naming the file (and line) for: an empty file, a
    missing or blank header (d = 0, blank or duplicate names, or names not matching ``categories``), a ragged
    row, a value outside a declared universe, or no records without declared ``categories``.

    Args:
        path: the CSV file, a ``str`` or ``pathlib.Path`` (a regular file).
        categories: ``None``, or a mapping from every header attribute name to its universe of values, in order.
    """
    file = _check_path(path)
    if categories is not None and not isinstance(categories, Mapping):
        raise TypeError(f"categories must be a mapping attribute -> category list, got {type(categories).__name__}")
    # a FIFO, a device, a link to one, or a file over the size bound is refused before a byte is read
    text = read_regular_text(file, name="path", max_bytes=MAX_CSV_BYTES, encoding="utf-8-sig")
    lines = text.count("\n") + 1  # an upper bound on the records, counted before any row is parsed
    if lines > MAX_CSV_LINES:
        raise ValueError(f"path must hold at most {MAX_CSV_LINES} lines of records, got {message_value(lines)}: {str(file)!r}")
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as error:  # e.g. a field over the csv module's size limit: not a file of records
        raise ValueError(f"{file}: not a CSV of records ({error})") from None
    if not rows:
        raise ValueError(f"{file}: empty file (expected a header naming the attributes)")
    header = [field.strip() for field in rows[0]]
    if not header or all(not field for field in header):
        raise ValueError(f"{file}, line 1: missing header: it names no attribute (d = 0)")
    if any(not field for field in header):
        raise ValueError(f"{file}, line 1: missing header: blank attribute name in {rows[0]!r}")
    if len(set(header)) != len(header):
        raise ValueError(f"{file}, line 1: duplicate attribute names in the header {header!r}")
    if categories is not None and set(categories) != set(header):
        raise ValueError(
            f"{file}, line 1: missing header? The header {header!r} does not name exactly the declared attributes "
            f"{sorted(categories)!r}"
        )
    depth = len(header)
    data: list[tuple[int, list[str]]] = []
    for number, row in enumerate(rows[1:], start=2):
        if not row or all(not field.strip() for field in row):
            continue
        if len(row) != depth:
            raise ValueError(f"{file}, line {number}: ragged row: {len(row)} fields, the header has {depth}")
        data.append((number, [field.strip() for field in row]))
    if categories is None:
        if not data:
            raise ValueError(f"{file}: no records, and no declared categories to define the universes")
        universes = [tuple(sorted({row[level] for _, row in data})) for level in range(depth)]
    else:
        universes = []
        for attribute in header:
            declared = categories[attribute]
            if isinstance(declared, str) or not isinstance(declared, Sequence):
                raise TypeError(f"categories[{attribute!r}] must be a sequence of strings")
            universes.append(tuple(declared))
    hierarchy = Hierarchy(tuple(header), tuple(universes))
    lookup = [{value: index for index, value in enumerate(values)} for values in universes]
    array = np.empty((len(data), depth), dtype=np.int64)
    for position, (number, row) in enumerate(data):
        for level, value in enumerate(row):
            index = lookup[level].get(value)
            if index is None:
                raise ValueError(
                    f"{file}, line {number}: value {value!r} of attribute {header[level]!r} is not in its declared "
                    "categories"
                )
            array[position, level] = index
    return hierarchy, array


def expand_records(leaf_counts: PrefixTree | Mapping[Prefix, int], hierarchy: Hierarchy) -> Iterator[tuple[str, ...]]:
    """The synthetic dataset as rows of category names: each leaf repeated by its count, leaves in prefix order.

    ``leaf_counts`` is a :class:`PrefixTree` (its level d is used) or a mapping leaf prefix -> count >= 0.

    Args:
        leaf_counts: a :class:`PrefixTree` (its level d is used) or a mapping from leaf prefixes to counts >= 0.
        hierarchy: the :class:`Hierarchy` naming the categories.
    """
    if not isinstance(hierarchy, Hierarchy):
        raise TypeError(f"hierarchy must be a Hierarchy, got {type(hierarchy).__name__}")
    if isinstance(leaf_counts, PrefixTree):
        if leaf_counts.hierarchy != hierarchy:
            raise ValueError("leaf_counts is a PrefixTree over a different hierarchy")
        leaves = leaf_counts.leaves()
    else:
        tree = PrefixTree(hierarchy, leaf_counts)
        leaves = tree.counts
        if any(len(key) != hierarchy.depth for key in leaves):
            raise ValueError(f"leaf_counts keys must all have length d = {hierarchy.depth}")
    for key in sorted(leaves):
        row = tuple(hierarchy.categories[level][index] for level, index in enumerate(key))
        for _ in range(leaves[key]):
            yield row


def write_csv(path: str | Path, hierarchy: Hierarchy, rows: Iterable[Sequence[str]]) -> int:
    """Write a header (the attribute names) and ``rows`` (category names) to ``path``; return the row count.

    Each row must have d values, each in its attribute's categories (``ValueError`` naming the row otherwise).

    Args:
        path: the file to write, a ``str`` or ``pathlib.Path``.
        hierarchy: the :class:`Hierarchy` whose attribute names make the header.
        rows: the records as sequences of d category names, each in its attribute's categories.
    """
    file = _check_path(path)
    if not isinstance(hierarchy, Hierarchy):
        raise TypeError(f"hierarchy must be a Hierarchy, got {type(hierarchy).__name__}")
    universes = [set(values) for values in hierarchy.categories]
    written = 0
    with file.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(hierarchy.attributes)
        for number, row in enumerate(rows):
            if isinstance(row, str) or len(row) != hierarchy.depth:
                raise ValueError(f"rows[{number}] must have {hierarchy.depth} values, got {row!r}")
            for level, value in enumerate(row):
                if value not in universes[level]:
                    raise ValueError(f"rows[{number}]: {value!r} is not a category of {hierarchy.attributes[level]!r}")
            writer.writerow(row)
            written += 1
    return written


# ------------------------------------------------------------------------------------------ default dataset

#: The embedded default dataset's design: (attribute, categories, unnormalised weights). Attributes are drawn
#: independently, category j of an attribute with probability weight_j / sum(weights).
DEFAULT_DATASET: tuple[tuple[str, tuple[str, ...], tuple[int, ...]], ...] = (
    ("region", ("north", "south", "east", "west"), (40, 30, 20, 10)),
    ("county", ("county-1", "county-2", "county-3", "county-4", "county-5"), (60, 30, 20, 15, 12)),
    ("town", ("town-1", "town-2", "town-3", "town-4", "town-5", "town-6"), (36, 13, 7, 5, 3, 2)),
    (
        "age_band",
        ("0-9", "10-19", "20-29", "30-39", "40-49", "50-59", "60-69", "70-79", "80+"),
        (11, 11, 13, 14, 13, 13, 11, 9, 5),
    ),
    ("sex", ("female", "male"), (51, 49)),
    ("household", ("single", "couple", "family", "shared"), (30, 30, 32, 8)),
)


#: Most records the embedded dataset generates (6 int64 attributes: 10**8 records are 4.8 GB).
MAX_DEFAULT_SIZE = 10**8


def default_dataset(size: int = 10_000, seed: int = 0) -> tuple[Hierarchy, np.ndarray]:
    """The embedded synthetic "geography" dataset: ``size`` records over 6 attributes, seeded.

    Hierarchy (d = 6, 4 × 5 × 6 × 9 × 2 × 4 = 8640 leaves): region (4) / county within region (5, labels
    county-1..5 reused in every region, as the paper's product universe X_1 × ... × X_d requires) / town
    within county (6) × age band (9 ten-year bands, 80+) × sex (2) × household type (4). Each attribute is
    drawn independently with the fixed weights of :data:`DEFAULT_DATASET` (a Zipf-like skew for geography, so
    that small towns are sparse at small ``size``). Generation: ``numpy.random.default_rng(seed)``, then one
    ``Generator.choice(k, size, p=weights/sum)`` per attribute, in hierarchy order. Returns the hierarchy and
    the (size, 6) int64 array of category indices.

    Args:
        size: the number of records, an integer in [0, 10^8] (default 10,000).
        seed: the seed of ``numpy.random.default_rng``, an integer >= 0 (default 0).
    """
    count = check_positive_int(size, "size", minimum=0)
    if count > MAX_DEFAULT_SIZE:
        raise ValueError(f"size must be at most {MAX_DEFAULT_SIZE} records for the embedded dataset, got {message_value(count)}")
    start = check_positive_int(seed, "seed", minimum=0)
    gen = np.random.default_rng(start)
    hierarchy = Hierarchy(
        tuple(name for name, _, _ in DEFAULT_DATASET), tuple(values for _, values, _ in DEFAULT_DATASET)
    )
    columns = []
    for _, values, weights in DEFAULT_DATASET:
        probabilities = np.array(weights, dtype=float) / sum(weights)
        columns.append(gen.choice(len(values), size=count, p=probabilities))
    array = np.stack(columns, axis=1).astype(np.int64) if count else np.empty((0, len(DEFAULT_DATASET)), np.int64)
    return hierarchy, array
