"""CIP's σ formulas (Theorems 3.8 and 3.9), evaluated as printed and refused outside the range they are stated for.

Theorem 3.8: ``σ² >= 2 ‖diag(C⁻¹)‖_∞ log(2/δ)/ε²`` for ε ∈ (0, 1], δ ∈ (0, 1/2]; Theorem 3.9: ``σ² >= (2/ε² +
2 log2(n)/(3ε²)) log(2/δ)`` for C_depth, n = 2**depth (same range). Both are for ``add_remove`` neighbours
(Δ² = max diag C⁻¹). They are claims of the paper: :func:`reference.privacy.gaussian.sigma_exact` gives the
smallest sufficient σ for every ε > 0 and δ ∈ (0, 1), for either relation, and the verification compares them.
"""

from __future__ import annotations

from fractions import Fraction

from reference.core.certified import CertifiedReal, certify
from reference.core.certified import ball as _ball
from reference.core.validate import RationalLike, check_depth, open_unit_fraction, positive_fraction
from reference.privacy.gaussian import check_paper_range

__all__ = ["sigma_theorem_3_8", "sigma_theorem_3_9"]


def sigma_theorem_3_8(
    *,
    epsilon: RationalLike,
    delta: RationalLike,
    max_precision_diagonal: RationalLike,
) -> CertifiedReal:
    """σ of CIP Theorem 3.8: ``sqrt(2 ‖diag(C⁻¹)‖_∞ log(2/δ)) / ε`` (``add_remove`` neighbours).

    ``max_precision_diagonal`` is ``max_i (C⁻¹)_ii``, exact. Refused outside the theorem's range ε ∈ (0, 1],
    δ ∈ (0, 1/2], with a pointer to :func:`~reference.privacy.gaussian.sigma_exact`.

    Args:
        epsilon: ε in (0, 1] (the theorem's range), exact (int, Fraction or str such as ``"1/3"``; not float).
        delta: δ in (0, 1/2] (the theorem's range), exact (int, Fraction or str such as ``"1/3"``; not float).
        max_precision_diagonal: max_i (C⁻¹)_ii > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    eps = positive_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    diagonal = positive_fraction(max_precision_diagonal, "max_precision_diagonal")
    check_paper_range(
        epsilon=eps,
        delta=target,
        theorem="Theorem 3.8 of the CIP paper",
        stated_range="(0, 1]",
        within_stated_range=eps <= 1,
        bounded_by_half=True,
        command="cascade",
    )
    return certify(
        lambda: (2 * _ball(diagonal) * (2 / _ball(target)).log()).sqrt() / _ball(eps),
        label="Theorem 3.8 sigma",
    )


def sigma_theorem_3_9(depth: int, *, epsilon: RationalLike, delta: RationalLike) -> CertifiedReal:
    """σ of CIP Theorem 3.9 for C_depth, n = 2**depth: ``sqrt((2/ε² + 2 log2(n)/(3ε²)) log(2/δ))``.

    Evaluated from the printed formula (log2(n) = depth exactly), not through Theorem 3.8. ``add_remove``
    neighbours. Refused outside ε ∈ (0, 1], δ ∈ (0, 1/2], with a pointer to :func:`~reference.privacy.gaussian.sigma_exact`.

    Args:
        depth: the cascade's depth, an integer in [0, 30] (n = 2**depth cells).
        epsilon: ε in (0, 1] (the theorem's range), exact (int, Fraction or str such as ``"1/3"``; not float).
        delta: δ in (0, 1/2] (the theorem's range), exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    levels = check_depth(depth)
    eps = positive_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    check_paper_range(
        epsilon=eps,
        delta=target,
        theorem="Theorem 3.9 of the CIP paper",
        stated_range="(0, 1]",
        within_stated_range=eps <= 1,
        bounded_by_half=True,
        command="cascade",
    )
    factor = 2 / eps**2 + Fraction(2 * levels) / (3 * eps**2)  # exact rational
    return certify(lambda: (_ball(factor) * (2 / _ball(target)).log()).sqrt(), label="Theorem 3.9 sigma")
