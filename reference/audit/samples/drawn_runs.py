"""The draws of a sampler function, kept whole for the whole-law audit of a design or a KARY law.

Second moments are sufficient statistics for the covariance only: a sampler of the right covariance and the wrong
law (Gaussian draws claimed as Laplace, say) passes every test they feed. For a linear design (a Gaussian or
Laplace value is the design ``[[1]]``) and KARY's output noise the sampler-function audit therefore keeps the
runs themselves — blocks of runs, each tagged with the index of its first run — and hands them, in run order, to
:func:`reference.audit.samples.law_audit.audit_samples`: family, tails, correlations and scale, with the power
stated and "inconclusive" below 99% power against the stated scale error. The verdict does not depend on the
workers or the block size: the rows are put back in run order before anything is computed. Memory is bounded by
:data:`MAX_DRAWN_VALUES`, checked from the run count before anything is drawn.
"""

from __future__ import annotations

import hashlib

import numpy as np

#: Most values (runs × values per run) held for the whole-law audit of a design: 2**25 float64 values, 256 MiB.
MAX_DRAWN_VALUES = 1 << 25


class DrawnRuns:
    """Blocks of runs by the index of their first run; merged by union, read back in run order."""

    def __init__(self) -> None:
        self.blocks: dict[int, np.ndarray] = {}

    def add(self, draws: np.ndarray, first: int) -> None:
        """Keep ``draws`` (rows × n), the runs ``first, first + 1, ...``.

        Args:
            draws: a block of runs, shape (rows, n), real (kept as a float64 copy).
            first: the index of the block's first run among all runs, from 0 (the key that orders the blocks).
        """
        self.blocks[int(first)] = np.array(draws, dtype=np.float64)

    def merge(self, other: DrawnRuns) -> None:
        """Add another block's runs (they never overlap: each run is drawn once).

        Args:
            other: the runs of other blocks of the same audit.
        """
        self.blocks.update(other.blocks)

    def runs(self) -> np.ndarray:
        """Every run kept, in run order (``runs × n``)."""
        return np.concatenate([self.blocks[first] for first in sorted(self.blocks)], axis=0)

    def digest(self) -> str:
        """SHA-256 of the runs in run order (the same for any split into blocks)."""
        hasher = hashlib.sha256()
        for first in sorted(self.blocks):
            hasher.update(np.ascontiguousarray(self.blocks[first]).tobytes())
        return hasher.hexdigest()
