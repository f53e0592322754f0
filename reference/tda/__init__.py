"""Everything of TDA (Boninsegna): the InfTDA top-down mechanism for hierarchical counts.

``data`` (CSV, hierarchy, the sparse prefix tree, the embedded default dataset), ``intopt`` (IntOpt, literal and
fast), ``intopt_breakpoints`` (IntOpt in O(d²) steps), ``mechanism`` (InfTDA: the algorithm, and the entry
module binding the names users know), ``exact`` and ``numeric`` (the twins, each defining the same InfTDA
function), ``topdown`` (what the twins share), ``calibration`` (σ² = d/ρ, conversions). The proof programs,
cross-checks and the paper's registry are the verification's (``verification/tda/``).
"""

from typing import TYPE_CHECKING

from reference.core.face import lazy_face

if TYPE_CHECKING:  # where each public name comes from; imported on first use (reference.core.face)
    from .calibration import inftda_calibration, inftda_sigma_squared
    from .data import Hierarchy, PrefixTree, default_dataset, prefix_counts, read_csv, write_csv
    from .exact import inftda as inftda_exact
    from .intopt import intopt_literal
    from .numeric import inftda as inftda_numeric

__all__ = [
    "Hierarchy",
    "PrefixTree",
    "default_dataset",
    "inftda_calibration",
    "inftda_exact",
    "inftda_numeric",
    "inftda_sigma_squared",
    "intopt_literal",
    "prefix_counts",
    "read_csv",
    "write_csv",
]

__getattr__, __dir__ = lazy_face(__name__)
