"""Privacy calibration of InfTDA (Boninsegna, TDA paper): σ² per level, level sensitivity, ρ accounting.

The mechanism (TDA Algorithm 1)
-------------------------------
Records have ``attributes`` = d categorical attributes (the paper's d; the attribute order is the hierarchy).
Level ``level`` (1..d) of the tree holds the counts of every prefix of length ``level`` (the
``level``-hierarchical queries). The root (level 0) is n, public under ``substitution`` neighbours (one record
changes its value, n fixed). For each level 1..d, and for each released node u of the level above, line 6 adds
independent discrete Gaussian noise N_Z(0, d/ρ)^{|X_level|} to the vector of u's children counts:

    σ² = d/ρ per level (σ² the scale of P[x] ∝ exp(-x²/(2σ²)), as everywhere in this package),

then post-processes it (IntOpt), which costs no privacy.

Level sensitivity under ``substitution`` (derived here, brute-forced in ``verification/tda/checks/calibration.py``)
-------------------------------------------------------------------------------------------------------------------
A substitution moves one record from category x to x'. At a level where the prefixes of x and x' of that
length differ, one count drops by 1 and another rises by 1: the level's count vector changes by e_y' - e_y,
squared ℓ2 norm 2. Where the prefixes agree it does not change. Every level >= 1 has a pair of records whose
prefixes differ (the paper asks |X_i| >= 2), so the level's ℓ2 sensitivity is exactly sqrt(2) — the "sqrt(2)"
of the paper's privacy proof, which says it of "each k-hierarchical query" but means the level's whole count
vector (a single count changes by at most 1). The children vectors of different parents partition the level,
so the noise the level adds is one vector of independent N_Z(0, σ²) over (a sub-vector of) the level's count
vector, with Δ² <= 2 whichever parents were released. Under ``add_remove`` (not the paper's relation; n is then
not public) Δ² = 1.

User-level privacy (``contributions`` = m records per user, a neighbour changes one user's records): under
``substitution`` the level vector changes by v, a sum of m terms e_y' − e_y, so ‖v‖₁ <= 2m and every
|v_i| <= m, hence ‖v‖₂² <= ‖v‖₁ ‖v‖∞ <= 2m², attained when all m records move from one prefix to one other
prefix (v = m(e_y' − e_y)); under ``add_remove`` v is a sum of m unit vectors, ‖v‖₂² <= m · m = m², attained
when all m records fall in one cell. So Δ² = 2m²
(resp. m²), not 2m: the per-level noise must be σ² = m² d/ρ for the same ρ. Brute-forced on small universes in
``verification/tda/checks/calibration.py``.

Accounting
----------
By Canonne–Kamath–Steinke 2020, Theorem 14, level ``level`` is Δ²/(2σ²) = 2/(2d/ρ) = (ρ/d)-zCDP; d levels
compose adaptively (Bun–Steinke 2016, Lemma 2.3) to d·ρ/d = ρ: TDA Theorem 1's "InfTDA satisfies ρ-zCDP".
Proved for all d and ρ in ``verification/tda/proofs/privacy_accounting.py``. The (ε, δ) guarantee follows from
:mod:`reference.privacy.zcdp` (the tight conversion by default); it depends on ρ only, not on d.

Example — three attributes at ρ = 1/2: σ² = m² d / ρ = 6 at every level::

    >>> from reference.tda.calibration import inftda_sigma_squared
    >>> inftda_sigma_squared(3, rho="1/2")
    Fraction(6, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from reference.core.certified import CertifiedReal
from reference.core.exact_text import message_value
from reference.core.options import ConversionMethod
from reference.core.reprs import CompactRepr
from reference.core.validate import (
    Neighbours,
    RationalLike,
    check_neighbours,
    check_positive_int,
    fraction_text,
    open_unit_fraction,
    positive_fraction,
)
from reference.privacy.zcdp import (
    compose_rho,
    epsilon_from_rho_simple,
    epsilon_from_rho_tight,
    rho_discrete_gaussian,
)

#: Δ² of a level's count vector under substitution (one count -1, another +1), as the calibration uses it.
LEVEL_SENSITIVITY_SQUARED = 2



def inftda_sigma_squared(attributes: int, *, rho: RationalLike, contributions: int = 1) -> Fraction:
    """σ² = m² d/ρ of the discrete Gaussian noise at every level (TDA Algorithm 1, line 6 has m = 1), exact.

    ``attributes`` is d >= 1 (the depth of the hierarchy), ``rho`` the total zCDP budget ρ > 0 (an exact
    rational), ``contributions`` m >= 1 the records one user may contribute (module docstring). σ² is the scale of
    N_Z(0, σ²), P[x] ∝ exp(-x²/(2σ²)).

    Args:
        attributes: d, the number of attributes (depth of the hierarchy), an integer >= 1.
        rho: the total zCDP budget ρ > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        contributions: m, the records one user may contribute, an integer >= 1 (default 1).
    """
    depth = check_positive_int(attributes, "attributes")
    budget = positive_fraction(rho, "rho")
    users = check_positive_int(contributions, "contributions")
    return users * users * depth / budget


def inftda_level_sensitivity_squared(
    categories: Sequence[int], level: int, neighbours: Neighbours = "substitution", contributions: int = 1
) -> int:
    """Δ², the largest squared ℓ2 change of the level-``level`` count vector between neighbours (by argument).

    ``categories`` lists |X_1|, ..., |X_d| (each >= 1); ``level`` is in 0..d; ``contributions`` m is the number of
    records one user may change. Under ``substitution``: 0 at level 0 (n is public) and wherever the prefixes of
    length ``level`` admit a single value; otherwise 2m² (m records move from one prefix to another). Under
    ``add_remove``: m² at every level (the root too). Assumes n >= m records.

    Args:
        categories: the attribute sizes |X_1|, ..., |X_d|, a sequence of integers >= 1.
        level: the level, an integer in 0..d.
        neighbours: ``"substitution"`` (default: one record changes its value) or ``"add_remove"`` (one record is added
            or removed).
        contributions: m, the records one user may change, an integer >= 1 (default 1).
    """
    users = check_positive_int(contributions, "contributions")
    sizes = _check_categories(categories)
    depth = check_positive_int(level, "level", minimum=0)
    if depth > len(sizes):
        raise ValueError(f"level must be in 0..{len(sizes)} (the number of attributes), got {message_value(depth)}")
    relation = check_neighbours(neighbours)
    if relation == "add_remove":
        return users * users
    prefixes = 1
    for size in sizes[:depth]:
        prefixes *= size
    return LEVEL_SENSITIVITY_SQUARED * users * users if prefixes >= 2 else 0


def inftda_rho_per_level(attributes: int, *, rho: RationalLike, contributions: int = 1) -> Fraction:
    """ρ of one level: Δ²/(2σ²) with Δ² = 2m² and σ² = m² d/ρ, i.e. ρ/d (CKS 2020, Theorem 14), exact.

    Args:
        attributes: d, the number of attributes, an integer >= 1.
        rho: the total zCDP budget ρ > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        contributions: m, the records one user may contribute, an integer >= 1 (default 1).
    """
    users = check_positive_int(contributions, "contributions")
    sensitivity_squared = LEVEL_SENSITIVITY_SQUARED * users * users
    return rho_discrete_gaussian(
        sigma_squared=inftda_sigma_squared(attributes, rho=rho, contributions=users),
        sensitivity_squared=sensitivity_squared,
    )


def inftda_total_rho(attributes: int, *, rho: RationalLike, contributions: int = 1) -> Fraction:
    """ρ of the whole mechanism: the d per-level ρ's composed (Bun–Steinke 2016, Lemma 2.3), exact (= ρ).

    Args:
        attributes: d, the number of attributes, an integer >= 1.
        rho: the total zCDP budget ρ > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        contributions: m, the records one user may contribute, an integer >= 1 (default 1).
    """
    depth = check_positive_int(attributes, "attributes")
    per_level = inftda_rho_per_level(depth, rho=rho, contributions=contributions)
    # d equal budgets compose to their sum: d · ρ_level (one product, not a list of d terms: d may be huge)
    return compose_rho(per_level) * depth


def inftda_epsilon(
    attributes: int,
    *,
    delta: RationalLike,
    rho: RationalLike,
    method: ConversionMethod = "tight",
) -> CertifiedReal:
    """ε such that InfTDA with budget ρ over d attributes is (ε, δ)-DP under substitution neighbours.

    The total ρ (:func:`inftda_total_rho`) converted by the tight conversion (CKS 2020, Corollary 13;
    ``method="tight"``, default) or the simple one (Bun–Steinke 2016, Proposition 1.3; ``"simple"``). Quote the
    ``upper`` end of the enclosure: it is a certified valid ε.

    Args:
        attributes: d, the number of attributes, an integer >= 1.
        delta: δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        rho: the total zCDP budget ρ > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        method: ``"tight"`` (default) or ``"simple"``: the zCDP to (ε, δ) conversion.
    """
    total = inftda_total_rho(attributes, rho=rho)
    target = open_unit_fraction(delta, "delta")
    if method == "tight":
        return epsilon_from_rho_tight(rho=total, delta=target)
    if method == "simple":
        return epsilon_from_rho_simple(rho=total, delta=target)
    raise ValueError(f"method must be one of tight, simple; got {method!r}")


@dataclass(frozen=True)
class InfTDACalibration(CompactRepr):
    """Everything the calibration of InfTDA fixes for d attributes and budget ρ (substitution neighbours)."""

    attributes: int
    rho: Fraction
    sigma_squared: Fraction
    level_sensitivity_squared: int
    rho_per_level: Fraction
    total_rho: Fraction
    neighbours: Neighbours = "substitution"
    contributions: int = 1  # records per user; the level sensitivity is 2m² and σ² = m² d/ρ

    def as_json(self) -> dict[str, object]:
        """JSON form: exact rationals as "p/q" strings (``sigma_squared`` is the CLI's contract key)."""
        return {
            "sigma_squared": fraction_text(self.sigma_squared),
            "attributes": self.attributes,
            "rho": fraction_text(self.rho),
            "neighbours": self.neighbours,
            "level_sensitivity_squared": self.level_sensitivity_squared,
            "rho_per_level": fraction_text(self.rho_per_level),
            "total_rho": fraction_text(self.total_rho),
            "contributions": self.contributions,
        }


def inftda_calibration(attributes: int, *, rho: RationalLike, contributions: int = 1) -> InfTDACalibration:
    """The calibration of TDA Algorithm 1 for m records per user (m = 1 as printed): σ² = m² d/ρ per level,
    Δ² = 2m², ρ/d per level, ρ in total (exact).

    Args:
        attributes: d, the number of attributes (depth of the hierarchy), an integer >= 1.
        rho: the total zCDP budget ρ > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        contributions: m, the records one user may contribute, an integer >= 1 (default 1, as printed).
    """
    depth = check_positive_int(attributes, "attributes")
    budget = positive_fraction(rho, "rho")
    users = check_positive_int(contributions, "contributions")
    return InfTDACalibration(
        attributes=depth,
        rho=budget,
        sigma_squared=inftda_sigma_squared(depth, rho=budget, contributions=users),
        level_sensitivity_squared=LEVEL_SENSITIVITY_SQUARED * users * users,
        rho_per_level=inftda_rho_per_level(depth, rho=budget, contributions=users),
        total_rho=inftda_total_rho(depth, rho=budget, contributions=users),
        contributions=users,
    )


def _check_categories(categories: object) -> tuple[int, ...]:
    if isinstance(categories, (str, bytes)) or not isinstance(categories, Sequence):
        raise TypeError(f"categories must be a sequence of positive integers, got {type(categories).__name__}")
    if not categories:
        raise ValueError("categories must list at least one attribute's number of categories")
    return tuple(check_positive_int(size, f"categories[{index}]") for index, size in enumerate(categories))


__all__ = [
    "LEVEL_SENSITIVITY_SQUARED",
    "InfTDACalibration",
    "inftda_calibration",
    "inftda_epsilon",
    "inftda_level_sensitivity_squared",
    "inftda_rho_per_level",
    "inftda_sigma_squared",
    "inftda_total_rho",
]
