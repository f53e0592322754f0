"""The linear-noise audit when B = 0: answered from the non-zero counts, before any exact matrix is built.

With B = 0 the release ``W x + B z`` is ``W x`` plus nothing: if W = 0 too it does not depend on the data (every
claim holds: ε = 0, ρ = 0, δ(ε) = 0, exactly), else the first non-zero column j of W moves the output with no
noise to hide it (not private: e_j is not in col(B) = {0}). Both follow from counting non-zeros, a numpy pass
over an ``.npy`` file; the general path would hold every column as a Python dict, build the Laplace LP and, for
a 5000 × 5005 pair, spend a second on nothing. (W = 0 with B ≠ 0 still needs rank B and takes the general path,
where the projection is skipped.)
"""

from __future__ import annotations

from fractions import Fraction

from reference.audit.linear.column_matrix import ColumnMatrix
from reference.audit.linear.size_limits import DEFAULT_LIMITS, SizeLimits
from reference.audit.linear.verdict import LinearNoiseVerdict, not_private_verdict

#: Largest zero strategy (draws × inputs entries) spelled out in the verdict, as the general path does.


def zero_noise_verdict(noise: ColumnMatrix, workload: ColumnMatrix, kind: str, scale: Fraction,
                       users: int, limits: SizeLimits = DEFAULT_LIMITS) -> LinearNoiseVerdict | None:
    """The add/remove verdict when ``noise`` (B) has no non-zero (module docstring); ``None`` when it has one.

    Args:
        noise: B, outputs × draws, as exact columns (its non-zeros are counted, no column is built).
        workload: W, outputs × inputs, as exact columns (its first non-zero column is looked for).
        kind: the noise kind: ``"gaussian"``, ``"laplace"``, ``"discrete-gaussian"`` or ``"discrete-laplace"``.
        scale: σ or b, the positive exact scale (recorded in the verdict).
        users: records per user (``contributions``), recorded in the verdict.
        limits: the size limits (``strategy_entries`` bounds the zero strategy returned); default
            :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.
    """
    if noise.nonzeros(False):
        return None
    outputs, draws, inputs = noise.rows, noise.cols, workload.cols
    common = {"noise": kind, "scale": scale, "outputs": outputs, "inputs": inputs, "draws": draws, "rank": 0,
              "neighbours": "add_remove", "contributions": users}
    used = workload.used_columns()
    if used:
        return not_private_verdict(common, draws, used[0])
    zero = Fraction(0)
    strategy = (tuple(tuple(zero for _ in range(inputs)) for _ in range(draws))
                if draws * inputs <= limits.strategy_entries else None)
    laplace = kind in ("laplace", "discrete-laplace")
    return LinearNoiseVerdict(
        **common,  # type: ignore[arg-type]
        kernel_dimension=draws, private=True, first_offending_column=None, strategy=strategy,
        strategy_unique=False, l1_sensitivity=zero, l2_sensitivity_squared=zero,
        epsilon=zero if laplace else None, epsilon_exact=laplace, epsilon_lower=zero if laplace else None,
        rho=None if laplace else zero,
        explanation="private: W = 0 and B = 0, the release does not depend on the data "
        + ("(epsilon = 0, exact)" if laplace else "(rho = 0 and delta(eps) = 0, exact)"),
    )
