"""The size limits of the linear-noise audit, each one raisable (``size_limits=SizeLimits(...)``, ``--max-...``).

Every limit guards memory or time that the audit estimates before the work it bounds (the entries of a file
before they are parsed, the non-zeros before they become Python numbers, a kernel before its Gram matrix). A
default is a size that runs in about a minute on two cores; a user who has the memory and the time raises it,
and every refusal names the flag and the field that raise it (:meth:`SizeLimits.hint`).

Some limits choose a method rather than refuse: past ``enumeration_work`` a participation maximum is bracketed by
certified bounds instead of enumerated, past ``shift_points`` the smallest integer shift keeps its bounds, past
``slackness_support`` a Laplace LP bracket is not refined, past ``enumerated_shifts`` no smallest integer shift is
searched. Those say the estimate, the limit and the flag in the method or explanation they leave, so that a
bracket states what would make it exact. Past ``strategy_entries`` the verdict omits the implied strategy, past
``flint_outputs`` a float-built noise matrix's Gaussian audit takes the sparse elimination instead of a dense solve.
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
    "enumeration_work": "--max-enumeration-work",
    "bound_work": "--max-bound-work",
    "vector_bound_work": "--max-vector-bound-work",
    "improve_work": "--max-improve-work",
    "sdp_patterns": "--max-sdp-patterns",
    "sdp_size": "--max-sdp-size",
    "sign_enumeration": "--max-sign-enumeration",
    "shift_points": "--max-shift-points",
    "slackness_support": "--max-slackness-support",
    "enumerated_shifts": "--max-enumerated-shifts",
    "strategy_entries": "--max-strategy-entries",
    "flint_outputs": "--max-flint-outputs",
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
    "enumeration_work": "enumerate participation patterns (x signs) exactly up to this many steps; beyond, certified "
                        "bounds",
    "bound_work": "refuse participation row bounds of more steps (inputs^2 x pattern size)",
    "vector_bound_work": "compute non-negative min-separation row bounds in float64 up to this many steps "
                         "(inputs^2 x pattern size)",
    "improve_work": "improve a participation lower bound by single swaps up to this many steps per round",
    "sdp_patterns": "bracket the vector-contribution SDP on at most this many patterns (the rest: sum |Q_ij|)",
    "sdp_size": "bracket the vector-contribution SDP on patterns of at most this many inputs",
    "sign_enumeration": "enumerate the signs of a pattern of at most this many inputs for a signed lower bound",
    "shift_points": "enumerate at most this many kernel combinations for the smallest integer draw shift",
    "slackness_support": "refine a Laplace LP bracket by an exact solve on at most this many columns",
    "enumerated_shifts": "search the smallest integer draw shift of at most this many differences (discrete Laplace "
                         "with a kernel); beyond, bounds",
    "strategy_entries": "return the implied strategy (draws x inputs entries) up to this size; beyond, it is omitted",
    "flint_outputs": "solve a float-built noise matrix's Gaussian audit densely (FLINT, Arb) up to this many "
                     "outputs; beyond, the sparse elimination",
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
    #: Elementary steps (patterns × signs × work per pattern) of an exact enumeration of a participation
    #: maximum; beyond it the maximum is bracketed by certified bounds (about a microsecond per step).
    enumeration_work: int = 4_000_000
    #: Elementary steps (inputs² × largest pattern size) of the exact row bounds of a participation maximum that
    #: is not enumerated (about a microsecond each); a larger one is refused.
    bound_work: int = 20_000_000
    #: Elementary steps (inputs² × largest pattern size) of the float64 row bounds (min-separation, non-negative
    #: Gram matrix; about 2 ns each, certified by a rounding margin); beyond, the exact row bounds or a refusal.
    vector_bound_work: int = 2_000_000_000
    #: Elementary steps ((pattern size + 1) × inputs × pattern size²) of one round of single swaps that raise a
    #: participation lower bound; beyond, the lower bound is the bound's maximiser as it is.
    improve_work: int = 2_000_000
    #: Patterns whose vector-contribution SDP is bracketed one by one (exact LDLᵀ each); the rest are bounded by
    #: Σ|Q_ij|.
    sdp_patterns: int = 200
    #: Inputs of the largest pattern whose SDP is bracketed (the exact LDLᵀ check is cubic in it).
    sdp_size: int = 40
    #: Inputs of the largest pattern whose 2^(size−1) sign vectors are enumerated for a signed lower bound;
    #: beyond, single sign flips from all-ones.
    sign_enumeration: int = 16
    #: Kernel combinations (integer points of a box) enumerated for the smallest integer draw shift of one
    #: difference; beyond, the integer shift keeps its LP bounds.
    shift_points: int = 100_000
    #: Columns (draws) of the exact complementary-slackness and basis solves that refine a Laplace LP bracket
    #: wider than 1e-9 relative (dense rational solves, cubic); beyond, the bracket stays as it is.
    slackness_support: int = 400
    #: Neighbouring differences whose smallest integer draw shift is searched (discrete Laplace, B with a kernel);
    #: beyond, ε keeps its bounds.
    enumerated_shifts: int = 256
    #: Entries (draws × inputs) of the implied strategy returned in the verdict (as exact Fractions); beyond, the
    #: verdict omits it (the sensitivities are computed either way).
    strategy_entries: int = 1_000_000
    #: Outputs of a float-built noise matrix audited by the dense FLINT solve (or its Arb enclosure) with Gaussian
    #: noise; beyond, the sparse rational elimination runs.
    flint_outputs: int = 4_000

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

    def over(self, field: str, estimate: int, what: str) -> str:
        """One line for work over the limit ``field``: the estimate, the limit and the flag that raises it.

        Args:
            field: the name of a :class:`SizeLimits` field, e.g. ``"bound_work"``.
            estimate: the estimated size or work, in the field's unit.
            what: what the estimate counts, e.g. ``"steps of the row bounds"``.
        """
        return f"{estimate:,} {what}, over {field} = {getattr(self, field):,}; {self.hint(field)}"


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
