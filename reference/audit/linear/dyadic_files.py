"""Float ``.npz`` files of a Laplace or Gaussian linear-noise audit read on the dyadic path: one power of two
makes both matrices integer (:mod:`reference.audit.linear.dyadic`), so a float-built strategy saved by
``scipy.sparse.save_npz`` costs what an integer one does — no ``Fraction`` per stored entry — as it does in the
library, which is handed the float matrices as read and scales them itself.

Cost before work: each file's headers (shape, stored entries, dtype) are checked first; a float file's stored
entries are bounded by ``nonzeros`` (they become int64 entries). When the scaled entries would not fit in int64
(mantissas spread over more than about ten binary orders of magnitude), the files are read as before, each float
entry a Fraction bounded by ``text_entries`` before it is read.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from reference.audit.linear.dyadic import scaled_to_integers
from reference.audit.linear.size_limits import SizeLimits
from reference.audit.linear.sparse_input import check_header
from reference.core.npz_files import load_sparse, sparse_header


def _npz_dtype(path: str | Path) -> np.dtype | None:
    """The dtype an ``.npz`` file's headers declare, or None (not an ``.npz``, or unreadable: the rational path
    then refuses it naming the option)."""
    if not (isinstance(path, (str, Path)) and Path(path).suffix.lower() == ".npz" and Path(path).is_file()):
        return None
    try:
        return sparse_header(path, "matrix").dtype
    except (ValueError, OSError):
        return None


def wants_dyadic(noise_path: str | Path, workload_path: str | Path) -> bool:
    """Whether both files are ``.npz`` of float64 or integer entries, at least one float64 (headers only).

    Args:
        noise_path: the file of B.
        workload_path: the file of W.
    """
    dtypes = [_npz_dtype(noise_path), _npz_dtype(workload_path)]
    if any(dtype is None or (dtype != np.float64 and dtype.kind not in "iu") for dtype in dtypes):
        return False
    return any(dtype == np.float64 for dtype in dtypes)


def raw_npz(path: str | Path, name: str, limits: SizeLimits) -> Any | None:
    """The matrix of a ``save_npz`` file of float64 or integer entries as a scipy.sparse csc matrix, its headers
    checked first (at most ``sparse_dimension`` rows and columns, ``nonzeros`` stored entries); None when the file
    is not an ``.npz``, holds another dtype, or stores a position twice (scipy would add the two in floating point;
    the rational path adds them exactly).

    Args:
        path: the file (``--noise-matrix`` or ``--workload``).
        name: the parameter the file was given for, named in a refusal.
        limits: the size limits.

    Raises:
        ValueError: a damaged file, or a size over its limit (one line naming the flag that raises it).
    """
    if not (isinstance(path, (str, Path)) and Path(path).suffix.lower() == ".npz" and Path(path).is_file()):
        return None
    header = sparse_header(path, name)
    if header.dtype != np.float64 and header.dtype.kind not in "iu":
        return None
    # float64 entries on this path become int64 entries: bounded, and refused, as integer ones (--max-nonzeros)
    check_header(replace(header, dtype=np.dtype(np.int64)), name, max_dimension=limits.sparse_dimension,
                 max_nonzeros=limits.nonzeros, max_float_entries=limits.nonzeros)
    entries = load_sparse(path, name, max_stored=header.stored)
    positions = entries.row.astype(np.int64) * header.cols + entries.col.astype(np.int64)
    if np.unique(positions).size != positions.size:
        return None
    import scipy.sparse

    return scipy.sparse.csc_matrix((entries.data, (entries.row, entries.col)), shape=(header.rows, header.cols))


def dyadic_pair(noise_matrix: Any | None, workload: Any | None) -> tuple[Any, Any] | None:
    """``(B, W)`` as read, scipy.sparse, when both were read (:func:`raw_npz`), at least one holds float64 entries
    and :func:`~reference.audit.linear.dyadic.scaled_to_integers` makes them int64: the audit scales them itself
    (and knows a float-built Gaussian strategy for what it is). None otherwise: the caller reads the files as
    before, each float entry a Fraction bounded by ``text_entries``.

    Args:
        noise_matrix: B from :func:`raw_npz`, or None.
        workload: W from :func:`raw_npz`, or None.
    """
    if noise_matrix is None or workload is None:
        return None
    if noise_matrix.dtype != np.float64 and workload.dtype != np.float64:
        return None  # integers only: already exact on the integer paths
    return (noise_matrix, workload) if scaled_to_integers(noise_matrix, workload) is not None else None


__all__ = ["dyadic_pair", "raw_npz", "wants_dyadic"]
