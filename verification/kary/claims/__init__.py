"""The KARY registry (Andersson, Pagh, Steiner, Torkamani): every checkable statement, one module per section.

Each entry's ``check`` computes its status (see :mod:`reference_verification.core.claims`); ``implements`` names the code the
statement speaks about and ``proof`` the program that establishes it.
"""

from __future__ import annotations

from ...core.claims import Claim
from . import (
    appendix_a,
    appendix_c,
    constants,
    digits,
    introduction,
    lower_bound,
    proof_steps,
    prose,
    section_3,
    section_4,
    section_5,
)


def kary_claims() -> list[Claim]:
    """All KARY entries, in the paper's order."""
    return [
        *introduction.claims(),
        *digits.claims(),
        *constants.claims(),
        *section_3.claims(),
        *section_4.claims(),
        *appendix_c.claims(),
        *section_5.claims(),
        *lower_bound.claims(),
        *proof_steps.claims(),
        *appendix_a.claims(),
        *prose.claims(),
    ]
