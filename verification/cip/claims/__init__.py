"""The CIP registry (Dharangutte, Gao, Gong, Wang): every checkable statement, one module per section of the paper.

Each entry's ``check`` computes its status (see :mod:`reference_verification.core.claims`); ``implements`` names the code the
statement speaks about and ``proof`` the program that establishes it. Depth ``D`` is the paper's ``k``
(n = 2**D leaves).
"""

from __future__ import annotations

from ...core.claims import Claim
from . import (
    appendix_b,
    appendix_c,
    appendix_d,
    appendix_e,
    construction,
    privacy_and_error,
    proof_steps,
    section_2,
    section_4,
    section_5,
)


def cip_claims() -> list[Claim]:
    """All CIP entries, in the paper's order."""
    return [
        *section_2.claims(),
        *construction.claims(),
        *privacy_and_error.claims(),
        *section_4.claims(),
        *appendix_b.claims(),
        *appendix_c.claims(),
        *appendix_d.claims(),
        *appendix_e.claims(),
        *section_5.claims(),
        *proof_steps.claims(),
    ]
