"""(ε, δ) claims with δ > 0 on Laplace-kind linear noise: the worst δ(ε) over the neighbouring shifts.

A Laplace release ``W x + B z`` with a trivial kernel is ``A x + z`` (A = B⁺W, the unique strategy), so one record
added or removed (input j) shifts the draws by the column ``A e_j`` and the release is (ε, δ)-DP iff δ_j(ε) <= δ for
every j, δ_j the hockey-stick divergence of the noise and its shift by ``A e_j`` (signs do not matter: the noise
is symmetric). Its ε-DP ε = max ‖A e_j‖₁/b says nothing about δ > 0 below it, so an (ε, δ) claim with ε under
that value is decided here, not failed:

* ``laplace``: δ_j(ε) is the exact closed form of :func:`reference.privacy.laplace_profile.laplace_delta_worst_case`
  over the distinct columns (δ depends only on the multiset of |entries|);
* ``discrete-laplace``: a shift that moves one draw by the integer u has the scalar closed form
  :func:`reference.privacy.discrete_laplace_profile.discrete_laplace_delta`; a shift over several draws has no
  closed form here, and the claim stays undecided.

Returns None (undecided) outside these cases or when the exact profile's cost limits refuse a column.
"""

from __future__ import annotations

from fractions import Fraction

from reference.core.certified import CertifiedReal
from reference.core.linalg import Matrix
from reference.core.options import LinearNoise

#: Most distinct shift columns whose exact δ(ε) is computed (each an exact profile).
MAX_DISTINCT_SHIFTS = 512


def shift_columns(strategy: Matrix) -> list[tuple[Fraction, ...]]:
    """The distinct nonzero columns of the strategy, as sorted |entries| without zeros (what δ(ε) depends on).

    Args:
        strategy: the unique strategy A (draws × inputs), exact; may be empty.
    """
    inputs = len(strategy[0]) if strategy else 0
    distinct = {tuple(sorted(abs(row[j]) for row in strategy if row[j])) for j in range(inputs)}
    return sorted(column for column in distinct if column)


def worst_delta(noise: LinearNoise, strategy: Matrix, *, epsilon: Fraction, scale: Fraction) -> CertifiedReal | None:
    """The certified worst δ(ε) over the add/remove shifts (the strategy's columns), or None when it is not
    computed (module docstring).

    Args:
        noise: the noise kind; ``"laplace"`` and ``"discrete-laplace"`` are computed, any other gives None.
        strategy: the unique strategy A = B⁺W (draws × inputs), exact.
        epsilon: the claim's ε > 0, exact.
        scale: the Laplace scale b, a positive Fraction (an integer scale's meaning for the discrete kind is
            :func:`reference.privacy.discrete_laplace_profile.discrete_laplace_delta`'s).
    """
    columns = shift_columns(strategy)
    if not columns:
        return CertifiedReal.exact(Fraction(0))  # W = 0: nothing moves
    if len(columns) > MAX_DISTINCT_SHIFTS:
        return None
    if noise == "laplace":
        from reference.privacy.laplace_profile import laplace_delta_worst_case

        try:
            return laplace_delta_worst_case(epsilon=epsilon, scale=scale, sensitivity_vectors=columns).delta
        except ValueError:  # a column whose exact profile is over its construction budget
            return None
    if noise == "discrete-laplace":
        if any(len(column) != 1 or column[0].denominator != 1 for column in columns):
            return None
        from reference.privacy.discrete_laplace_profile import discrete_laplace_delta

        deltas = [discrete_laplace_delta(epsilon=epsilon, scale=scale, sensitivity=int(column[0]))
                  for column in columns]
        return CertifiedReal(max(d.lower for d in deltas), max(d.upper for d in deltas))
    return None
