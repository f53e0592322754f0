"""The size limits of the linear-noise audit, each one raisable (``size_limits=SizeLimits(...)``, ``--max-...``).

Every limit guards memory or time that the audit estimates before the work it bounds (the entries of a file
before they are parsed, the non-zeros before they become Python numbers, a kernel before its Gram matrix). A
default is a size that runs in about a minute on two cores; a user who has the memory and the time raises it,
and every refusal names the flag and the field that raise it (:meth:`SizeLimits.hint`).

The limits of the participation maxima (patterns enumerated, SDP sizes) and of the strategy fast paths are not
here: they belong to those modules.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from reference.core.validate import check_positive_int

#: The command-line flag of each field.
FLAGS = {
    "text_entries": "--max-text-entries",
    "scanned_entries": "--max-scanned-entries",
    "nonzeros": "--max-nonzeros",
    "dense_dimension": "--max-dense-dimension",
    "sparse_dimension": "--max-sparse-dimension",
    "kernel_dimension": "--max-kernel-dimension",
    "projection_work": "--max-projection-work",
}

#: What each limit bounds, for the flag's help.
LIMIT_HELP = {
    "text_entries": "refuse up front more matrix entries read as exact rationals from .csv/.json text or floats",
    "scanned_entries": "refuse up front a dense integer .npy matrix of more entries",
    "nonzeros": "refuse more non-zeros held as exact numbers (and stored integer entries of an .npz)",
    "dense_dimension": "refuse a larger matrix (rows or columns) for the dense exact audit",
    "sparse_dimension": "refuse a larger rational or sparse matrix (rows or columns) for the sparse audit",
    "kernel_dimension": "refuse a larger kernel of the noise matrix for the minimum-norm strategy",
    "projection_work": "refuse a minimum-norm projection of more operations (kernel non-zeros x inputs)",
}


@dataclass(frozen=True)
class SizeLimits:
    """The linear-noise audit's size limits (all positive integers)."""

    #: Entries read as exact rationals from ``.csv``/``.json`` text or from floats (about 5.4 µs each: a million
    #: take about 5 s).
    text_entries: int = 1_000_000
    #: Entries of a dense integer ``.npy`` matrix scanned (20,000 × 20,000 is 3.2 GB of int64 read from disk).
    scanned_entries: int = 400_000_000
    #: Non-zeros held as exact Python numbers (about 100 bytes each), and stored integer entries of an ``.npz``.
    nonzeros: int = 20_000_000
    #: Rows and columns of the dense exact audit (substitution neighbours, draw variances, participation with a
    #: noise matrix other than the identity, masked draws; an integer lattice sparse elimination leaves).
    dense_dimension: int = 4_000
    #: Rows and columns of a rational or sparse matrix given to the sparse audit.
    sparse_dimension: int = 20_000
    #: Kernel dimension of B for the minimum-norm strategy (a size² Gram matrix and its exact size³ inverse).
    kernel_dimension: int = 1_000
    #: Kernel non-zeros times inputs of the minimum-norm projection (its operations).
    projection_work: int = 400_000_000

    def __post_init__(self) -> None:
        for field in fields(self):
            check_positive_int(getattr(self, field.name), f"size_limits.{field.name}")

    @staticmethod
    def hint(field: str) -> str:
        """How to raise the limit ``field``, for a refusal message.

        Args:
            field: the name of a :class:`SizeLimits` field, e.g. ``"nonzeros"`` (its flag is looked up in
                :data:`FLAGS`).
        """
        return f"raise it with {FLAGS[field]} (size_limits=SizeLimits({field}=...))"


#: The defaults.
DEFAULT_LIMITS = SizeLimits()


def size_limits_or_default(value: SizeLimits | None) -> SizeLimits:
    """``None`` as :data:`DEFAULT_LIMITS`; a :class:`SizeLimits` as it is; anything else refused naming it.

    Args:
        value: the ``size_limits`` a caller gave: a :class:`SizeLimits` or None (anything else is refused).

    Raises:
        TypeError: ``value`` is neither None nor a :class:`SizeLimits`.
    """
    if value is None:
        return DEFAULT_LIMITS
    if not isinstance(value, SizeLimits):
        raise TypeError(f"size_limits must be a SizeLimits (reference.audit.linear.size_limits), got "
                        f"{type(value).__name__}")
    return value


__all__ = ["DEFAULT_LIMITS", "FLAGS", "LIMIT_HELP", "SizeLimits", "size_limits_or_default"]
