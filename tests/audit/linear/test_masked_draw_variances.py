"""Zero-budget draws together with per-draw variances: the masked audit is the limit of large finite variances."""

from __future__ import annotations

from fractions import Fraction

from reference.audit.linear.audit import audit_linear_noise

# three outputs of two inputs, three draws: draw 2 (the last) gets no budget; B is square and invertible, and the
# worst shift has a component along draw 2's column, so Δ² with a finite variance on it is strictly above the limit
NOISE = [[0, -1, 1], [-1, 2, 2], [2, 2, 0]]
WORKLOAD = [[0, 1], [0, 1], [1, 0]]
VARIANCES = [Fraction(3, 4), 2, 1]


def test_the_masked_sensitivity_is_the_limit_of_growing_variances() -> None:
    masked = audit_linear_noise(NOISE, WORKLOAD, "gaussian", scale=1, draw_variances=VARIANCES,
                                infinite_variance_draws=[2])
    assert masked.private and masked.l2_sensitivity_squared is not None
    limit = masked.l2_sensitivity_squared
    previous = None
    for exponent in (2, 6, 12, 24):
        large = audit_linear_noise(NOISE, WORKLOAD, "gaussian", scale=1,
                                   draw_variances=[*VARIANCES[:2], Fraction(10) ** exponent])
        finite = large.l2_sensitivity_squared
        assert finite is not None and finite >= limit  # more noise on the masked direction never adds to Δ²
        if previous is not None:
            assert finite - limit < previous - limit  # and the gap closes as the variance grows
        previous = finite
    assert previous is not None and previous - limit < Fraction(1, 10**20)


def test_without_variances_the_masked_audit_is_unchanged() -> None:
    plain = audit_linear_noise(NOISE, WORKLOAD, "gaussian", scale=1, infinite_variance_draws=[2])
    ones = audit_linear_noise(NOISE, WORKLOAD, "gaussian", scale=1, draw_variances=[1, 1, 1],
                              infinite_variance_draws=[2])
    assert plain.l2_sensitivity_squared == ones.l2_sensitivity_squared
