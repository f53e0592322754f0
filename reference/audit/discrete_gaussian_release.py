"""(ε, δ) of a linear release with discrete Gaussian noise, decided exactly where the draw shifts are unique.

The linear audit (:mod:`reference.audit.linear`) knows a discrete-Gaussian release's ρ exactly when B has a trivial
kernel (then each neighbouring difference moves the noise vector by the unique integer shift u_j = A e_j, A the
strategy), and decides an (ε, δ) claim only through a sufficient zCDP conversion ("inconclusive" otherwise). With
the shifts known, δ(ε) is exact: the release is the pair (N_Z(0, σ²)^d, N_Z(u_j, σ²)^d) for the worst j, whose
profile :func:`reference.privacy.discrete_gaussian_shift.discrete_gaussian_shift_delta` encloses. Shifts with the
same multiset of |entries| have the same profile, so each is computed once.

Decided for ``add_remove`` neighbours, one contribution and no participation scheme (the neighbouring shifts are
then exactly ±u_j); otherwise :func:`release_delta` returns None and the conversion's answer stands.
"""

from __future__ import annotations

from fractions import Fraction

from reference.audit.linear.verdict import LinearNoiseVerdict
from reference.core.certified import CertifiedReal
from reference.privacy.discrete_gaussian_shift import discrete_gaussian_shift_delta


def release_delta(verdict: LinearNoiseVerdict, epsilon: Fraction) -> CertifiedReal | None:
    """The exact δ(ε) of the release (the maximum over its neighbouring shifts, enclosed), or None when the
    shifts are not known exactly (see the module docstring).

    Args:
        verdict: the linear audit's verdict on a release (its noise kind, scale σ, strategy A as exact rows, kernel
            dimension, neighbours, contributions and participation are read).
        epsilon: the ε > 0 at which δ(ε) is wanted, exact.

    Returns:
        The enclosure of the worst neighbouring shift's δ(ε), or None when the release is not decided here.
    """
    if (verdict.noise != "discrete-gaussian" or not verdict.private or verdict.kernel_dimension != 0
            or verdict.strategy is None or verdict.participation is not None or verdict.neighbours != "add_remove"
            or verdict.contributions != 1):
        return None
    strategy = verdict.strategy
    if any(entry.denominator != 1 for row in strategy for entry in row):
        return None  # a non-integer shift: the audit has already said "not private" or bounded it
    shapes = {tuple(sorted(abs(int(row[j])) for row in strategy if row[j])) for j in range(len(strategy[0]))}
    shapes.discard(())
    if not shapes:
        return None
    sigma_squared = verdict.scale * verdict.scale
    found = [discrete_gaussian_shift_delta(epsilon=epsilon, sigma_squared=sigma_squared, shift=list(shape))
             for shape in sorted(shapes)]
    return CertifiedReal(max(item.lower for item in found), max(item.upper for item in found))
