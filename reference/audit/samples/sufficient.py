"""Sufficient statistics for the sampler audits: sums that blocks of runs add to, in any order, exactly.

A sampler audit at scale cannot hold its samples (10^12 values are 8 TB); every test it runs needs only sums over
runs — sums of squares of chosen functionals (node sums, sibling differences, whitened coordinates), cross
products per median-of-means group, histogram counts. Each audit therefore keeps an accumulator that consumes
blocks of runs and can be merged with another; the verdict is computed from the merged sums.

**Exact, hence split- and order-free.** Floating-point sums depend on how the values are grouped, so a run split
into blocks, or blocks merged in another order, would give slightly different statistics. :class:`ExactSums`
avoids that: each value is first rounded to the fixed-point grid ``2**-FRACTION_BITS`` (one rounding per value,
a deterministic function of that value alone), and the rounded values are added as *integers* — exactly
(float64 sums of integer-valued floats below ``2**53`` are exact, and the totals are int64, or Python integers
should they ever approach ``2**62``). Integer addition is associative and commutative, so the sums, and every
statistic and verdict computed from them, are identical for any split into blocks and any merge order.
The price is the rounding of each value: at most ``2**-(FRACTION_BITS + 1)`` each, i.e. below ``3e-8`` in the
units the audits use (values normalised to expectation about 1), far below any test's resolution.
Histogram counts (:class:`IntegerHistogram`) are integers to begin with.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

#: Fractional bits of the fixed-point grid each value is rounded to before it is added.
FRACTION_BITS = 24
#: Square root of the grid's scale: a value multiplied by this has its square in units of the grid.
GRID_ROOT = float(1 << (FRACTION_BITS // 2))
#: Integer-valued floats below this in magnitude have products below 2**52: their matrix products are exact in
#: float64 for up to ``2**52 / peak²`` rows at a time.
EXACT_FACTOR = float(1 << 26)
#: Float sums of integers below this are exact (2**53), with margin for the number of rows summed at once.
_EXACT_FLOAT = float(1 << 52)
#: int64 totals are kept while the bound on their magnitude stays below this; Python integers beyond.
_INT64_SAFE = 1 << 62


class ExactSums:
    """Exact sums over rows (axis 0) of float arrays of a fixed trailing ``shape``, each value first rounded to a
    multiple of ``2**-FRACTION_BITS`` (module docstring). :meth:`add` a block of rows, :meth:`merge` another
    accumulator, read :meth:`values` (float64) or :attr:`total` (the integers, in units of the grid).

    ``divisor``: the sums are ``total / divisor`` grid units — a statistic whose every value carries the factor
    ``1 / divisor`` (``(L − R)² / 3``, say) is summed without it, exactly, and divided once when read (one rounding
    less per value, and no division per value).

    Args:
        shape: the trailing shape of the rows summed (one sum per entry), e.g. ``(outputs,)``.
        fraction_bits: the grid's fractional bits: each value is rounded to a multiple of ``2**-fraction_bits``
            before it is added (default :data:`FRACTION_BITS`).
        divisor: the integer every sum is divided by when read, >= 1 (default 1: none).
    """

    def __init__(self, shape: tuple[int, ...], fraction_bits: int = FRACTION_BITS, divisor: int = 1) -> None:
        self.total: np.ndarray = np.zeros(shape, dtype=np.int64)
        self.fraction_bits = fraction_bits  # the grid is 2**-fraction_bits
        self.divisor = divisor
        self._bound = 0  # an upper bound on max |total| while total is int64

    def _add_integers(self, block: np.ndarray, bound: int) -> None:
        """Add integers (an int64 array, or integer-valued floats below 2**53 in magnitude) exactly."""
        whole = np.asarray(block, dtype=np.int64)  # int64 blocks are not copied
        if self.total.dtype == np.int64 and self._bound + bound < _INT64_SAFE:
            self.total += whole
            self._bound += bound
            return
        self.total = self.total.astype(object) + whole.astype(object)

    def add_integers(self, block: np.ndarray, bound: int | None = None) -> None:
        """Add an array of ``shape`` whose entries are already integers in units of the grid (int64, floats
        holding integers below ``2**53`` in magnitude — an exact matrix product of integer-valued floats, say — or
        an object array of Python integers). ``bound``: a bound on their magnitudes the caller already has (saves
        a pass over the block).

        Args:
            block: integers in units of the grid, of shape ``shape``: int64, integer-valued floats below 2**53 in
                magnitude, or an object array of Python integers.
            bound: a bound on the entries' magnitudes, >= max |entry| (``None``: computed here).

        Raises:
            ValueError: ``block`` is not of shape ``shape``.
        """
        if block.shape != self.total.shape:
            raise ValueError(f"block must have shape {self.total.shape}, got {block.shape}")
        if block.dtype == object:  # Python integers (any size)
            self.total = self.total.astype(object) + block
        elif block.size:
            self._add_integers(block, int(np.max(np.abs(block))) if bound is None else bound)

    def add(self, rows: np.ndarray, *, scratch: bool = False) -> None:
        """Add the rows of ``rows`` (shape ``(count, *shape)``, finite reals). ``scratch=True``: ``rows`` is a
        float64 temporary of the caller's that may be overwritten (saves a copy of the block).

        Args:
            rows: the rows, shape ``(count, *shape)``, finite reals (rounded to the grid here).
            scratch: whether ``rows`` is a float64 temporary this call may overwrite (default ``False``: copied).

        Raises:
            ValueError: ``rows`` has another trailing shape, or is not finite.
        """
        if rows.shape[1:] != self.total.shape:
            raise ValueError(f"rows must have trailing shape {self.total.shape}, got {rows.shape[1:]}")
        if rows.size == 0:
            return
        if scratch and rows.dtype == np.float64:
            scaled = np.ldexp(rows, self.fraction_bits, out=rows)
        else:
            scaled = np.ldexp(np.asarray(rows, dtype=np.float64), self.fraction_bits)
        np.rint(scaled, out=scaled)
        peak = max(float(np.max(scaled)), -float(np.min(scaled)))
        if not np.isfinite(peak):
            raise ValueError("samples must be finite (no NaN or infinity)")
        if peak * rows.shape[0] < _EXACT_FLOAT:  # the common case: one exact float sum
            self._add_integers(np.sum(scaled, axis=0), int(peak) * rows.shape[0])
            return
        exact = np.zeros(self.total.shape, dtype=object)  # huge values: Python integers, value by value
        for row in scaled:
            exact = exact + np.vectorize(int, otypes=[object])(row)
        self.total = self.total.astype(object) + exact

    def add_grid_nonnegative(self, rows: np.ndarray) -> None:
        """Add the rows of a float64 temporary of the caller's already in units of the grid (the value times
        ``2**FRACTION_BITS``) and nonnegative (squares); it is overwritten. Two passes instead of five: for
        nonnegative integers every partial float sum is at most the total, so a computed total below ``2**52``
        means the true one is below ``2**53`` and every addition was exact.

        Args:
            rows: float64 rows, shape ``(count, *shape)``, nonnegative and already times ``2**fraction_bits``;
                overwritten.

        Raises:
            ValueError: ``rows`` has another trailing shape, or a sum is not finite.
        """
        if rows.shape[1:] != self.total.shape:
            raise ValueError(f"rows must have trailing shape {self.total.shape}, got {rows.shape[1:]}")
        if rows.size == 0:
            return
        np.rint(rows, out=rows)
        sums = np.sum(rows, axis=0)
        peak = float(np.max(sums))
        if not np.isfinite(peak):
            raise ValueError("samples must be finite and their squares below 1e300 (a square is not finite)")
        if peak < _EXACT_FLOAT:
            self._add_integers(sums, int(peak))
        else:
            self.add(np.ldexp(rows, -self.fraction_bits), scratch=True)

    def merge(self, other: ExactSums) -> None:
        """Add another accumulator's sums (exact; the order of merges does not matter).

        Args:
            other: sums of the same shape, grid and divisor (other rows of the same statistic).

        Raises:
            ValueError: ``other`` differs in shape, grid or divisor.
        """
        if (other.total.shape, other.fraction_bits, other.divisor) != (self.total.shape, self.fraction_bits,
                                                                        self.divisor):
            raise ValueError("cannot merge sums of different shapes, grids or divisors")
        if other.total.dtype == np.int64:
            self._add_integers(other.total, other._bound)
        else:
            self.total = self.total.astype(object) + other.total

    def grand_total(self) -> int:
        """The sum of all the sums, as one exact integer (in units of the grid, times ``divisor``). int64 totals are split into high
        and low 32-bit halves, whose sums cannot overflow int64 for fewer than 2**21 entries per chunk of them."""
        flat = self.total.ravel()
        if flat.dtype != np.int64:
            return sum((int(v) for v in flat), 0)
        result = 0
        for start in range(0, flat.size, 1 << 20):
            part = flat[start:start + (1 << 20)]
            result += (int(np.sum(part >> 32)) << 32) + int(np.sum(part & 0xFFFFFFFF))
        return result

    def values(self) -> np.ndarray:
        """The sums as float64 (each the correctly rounded value of the exact grid integer times the grid step;
        with a divisor, that divided by it: one more rounding)."""
        if self.total.dtype == np.int64:
            scaled = np.ldexp(self.total.astype(np.float64), -self.fraction_bits)
        else:
            scaled = np.array([float(v) for v in self.total.ravel()], dtype=np.float64).reshape(
                self.total.shape) / float(1 << self.fraction_bits)
        return scaled if self.divisor == 1 else scaled / self.divisor


def exact_gram(sums: ExactSums, values: np.ndarray, bits: int, pairs: tuple[np.ndarray, np.ndarray]) -> None:
    """Add ``Σ q_s q_t`` over the rows of ``values`` for the index ``pairs`` (s, t) to ``sums`` (grid
    ``2**-(2 bits)``), where ``q = values`` rounded to the grid ``2**-bits``: exactly, and the same for any split of
    the rows. Rows whose rounded values stay below :data:`EXACT_FACTOR` go through matrix products of
    integer-valued floats, exact because every product and partial sum is an integer below ``2**53`` (the rows are
    taken in sub-blocks small enough for that); a row with a larger value is multiplied out in Python integers.

    Args:
        sums: the accumulator added to, of shape ``(len(pairs[0]),)`` and ``2 × bits`` fraction bits.
        values: the rows, a real (rows, outputs) array, finite.
        bits: the fractional bits of the grid each value is rounded to, an integer >= 0.
        pairs: the (s, t) index pairs, as two integer index arrays of one length (e.g. ``numpy.triu_indices``).

    Raises:
        ValueError: ``values`` is not finite.
    """
    rounded = np.rint(np.ldexp(np.asarray(values, dtype=np.float64), bits))
    if not np.all(np.isfinite(rounded)):
        raise ValueError("samples must be finite (no NaN or infinity)")
    large = np.any(np.abs(rounded) >= EXACT_FACTOR, axis=1)
    normal = rounded[~large]
    if normal.shape[0]:
        peak = max(float(np.max(np.abs(normal))), 1.0)
        step = max(1, int(float(1 << 52) // (peak * peak)))
        for start in range(0, normal.shape[0], step):
            part = normal[start:start + step]
            sums.add_integers((part.T @ part)[pairs])
    for row in rounded[large]:
        exact = np.array([int(v) for v in row], dtype=object)
        sums.add_integers(exact[pairs[0]] * exact[pairs[1]])


class IntegerHistogram:
    """Counts of the integer values drawn (the sufficient statistic of the discrete goodness-of-fit tests)."""

    def __init__(self) -> None:
        self.counts: Counter[int] = Counter()

    def add(self, values: np.ndarray) -> None:
        """Count the values of an integer array (any shape).

        Args:
            values: the draws: an integer array, or a float array holding only integer values.

        Raises:
            ValueError: a float value is not a finite integer.
        """
        data = np.asarray(values)
        if data.size == 0:
            return
        if not np.issubdtype(data.dtype, np.integer):
            if not np.all(np.isfinite(data)) or not np.array_equal(data, np.rint(data)):
                raise ValueError("samples must hold integers for a discrete sampler")
            data = data.astype(np.int64)
        unique, counts = np.unique(data, return_counts=True)
        self.counts.update({int(v): int(c) for v, c in zip(unique, counts)})

    def merge(self, other: IntegerHistogram) -> None:
        """Add another histogram's counts.

        Args:
            other: the counts of other draws (another block).
        """
        self.counts.update(other.counts)

    @property
    def draws(self) -> int:
        """How many values were counted."""
        return sum(self.counts.values())
