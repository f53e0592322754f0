"""The precise types of the inputs other people's code hands to the audits and the testing helpers (instead of
``object``): a matrix of exact numbers, a zCDP ρ, an RDP curve as accountants give it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from reference.core.validate import RationalLike, RealLike

#: A matrix, rows of entries: nested sequences of exact numbers (``int``, ``Fraction``, ``"p/q"``/decimal strings)
#: or a 2-D numpy array (integer arrays stay exact; a float array is read as the binary numbers it holds).
MatrixLike: TypeAlias = "Sequence[Sequence[RealLike]] | npt.NDArray[np.generic]"
#: A scipy.sparse matrix or array (csr, csc, coo, ...; scipy ships no type stubs, so it is ``Any`` to the checker).
SparseMatrix: TypeAlias = Any
#: An RDP curve: (α, RDP(α)) pairs with α > 1, or a function of α (called at the orders the audit chooses).
RdpCurve: TypeAlias = "Sequence[tuple[RealLike, RealLike]] | Callable[[float], Any]"
#: A zCDP claim ρ > 0, exact.
Rho: TypeAlias = RationalLike
