"""InfTDA's privacy calibration (TDA paper, Algorithm 1 line 6 and Theorem 1): σ² = d/ρ per level, level
sensitivity Δ² = 2 under substitution (brute force), ρ/d per level, ρ in total, and the (ε, δ) it gives.

Independent references: the level sensitivities are enumerated over every dataset and neighbour of small
hierarchies (``reference_verification.tda.checks.calibration``), the accounting is proved symbolically
(``verification/tda/proofs/privacy_accounting.py``, with mutation tests below), and ε is recomputed with mpmath.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import mpmath
import pytest
from reference_verification.core.proof import ProofFailure
from reference_verification.tda.checks import calibration as zcdp_checks
from reference_verification.tda.proofs import privacy_accounting as tda_privacy_accounting

from reference.privacy import zcdp
from reference.tda import calibration as inftda


@pytest.fixture(autouse=True)
def _fifty_digits() -> Iterator[None]:
    """mpmath at 50 digits for every test here, restored afterwards (mpmath's precision is global)."""
    with mpmath.workdps(50):
        yield



@pytest.mark.parametrize(("attributes", "rho"), [(1, Fraction(1)), (3, Fraction(1, 2)), (8, "1/10"), (5, "0.25")])
def test_sigma_squared_is_d_over_rho(attributes: int, rho: Fraction | str) -> None:
    budget = Fraction(rho)
    sigma_squared = inftda.inftda_sigma_squared(attributes, rho)
    assert isinstance(sigma_squared, Fraction)
    assert sigma_squared * budget == attributes


@pytest.mark.parametrize(("attributes", "rho"), [(1, Fraction(1)), (4, Fraction(1, 3)), (10, Fraction(7, 2))])
def test_per_level_and_total_rho(attributes: int, rho: Fraction) -> None:
    assert inftda.inftda_rho_per_level(attributes, rho) == rho / attributes
    assert inftda.inftda_total_rho(attributes, rho) == rho
    calibration = inftda.inftda_calibration(attributes, rho)
    assert calibration.sigma_squared == Fraction(attributes) / rho
    assert calibration.level_sensitivity_squared == 2
    assert calibration.neighbours == "substitution"
    document = calibration.as_json()
    assert document["sigma_squared"] == f"{(Fraction(attributes) / rho).numerator}" + (
        "" if (Fraction(attributes) / rho).denominator == 1 else f"/{(Fraction(attributes) / rho).denominator}"
    )
    assert document["total_rho"] == str(rho) and document["level_sensitivity_squared"] == 2


def test_the_calibration_is_exactly_the_discrete_gaussian_budget() -> None:
    # σ² = d/ρ at Δ² = 2 is the σ² at which N_Z is exactly (ρ/d)-zCDP
    for attributes, rho in [(3, Fraction(1, 2)), (7, Fraction(2))]:
        assert zcdp.sigma_squared_for_rho(rho / attributes, 2) == inftda.inftda_sigma_squared(attributes, rho)


def test_epsilon_uses_the_total_rho_and_not_the_depth() -> None:
    rho, delta = Fraction(1, 2), Fraction(1, 10**6)
    values = [inftda.inftda_epsilon(attributes, rho, delta) for attributes in (1, 4, 9)]
    assert values[0] == values[1] == values[2] == zcdp.epsilon_from_rho_tight(rho, delta)
    simple = inftda.inftda_epsilon(3, rho, delta, method="simple")
    expected = mpmath.mpf(1) / 2 + 2 * mpmath.sqrt(mpmath.mpf(1) / 2 * mpmath.log(10**6))
    assert simple.lower - Fraction(1, 10**30) <= Fraction(mpmath.nstr(expected, 40)) <= simple.upper + Fraction(1, 10**30)
    assert values[0].certainly_le(simple.lower)


def test_level_sensitivity_by_argument() -> None:
    assert [inftda.inftda_level_sensitivity_squared((2, 3, 2), level) for level in range(4)] == [0, 2, 2, 2]
    assert [inftda.inftda_level_sensitivity_squared((2, 3), level, "add_remove") for level in range(3)] == [1, 1, 1]
    # an attribute with a single category (the paper excludes it) leaves nothing to change at level 1
    assert inftda.inftda_level_sensitivity_squared((1, 2), 1) == 0
    assert inftda.inftda_level_sensitivity_squared((1, 2), 2) == 2


def test_level_sensitivity_by_brute_force_matches_the_calibration() -> None:
    check = zcdp_checks.inftda_level_sensitivity(
        hierarchies=(((2, 2), 1), ((2, 2), 2), ((3, 2), 2), ((2, 2, 2), 2), ((1, 3), 2)),
        rhos=(Fraction(1, 10), Fraction(3)),
    )
    for hierarchy in check.hierarchies:
        assert hierarchy.matches
        assert max(hierarchy.single_query) == 1  # one count alone changes by at most 1
        assert hierarchy.add_remove == tuple(1 for _ in range(len(hierarchy.categories) + 1))
    regular = [h for h in check.hierarchies if min(h.categories) >= 2]
    assert all(h.substitution == (0,) + (2,) * len(h.categories) for h in regular)
    assert check.accounting_ok
    assert not check.passed  # the (1, 3) hierarchy has a free level 1, which the check reports


def test_proof_program_establishes_the_accounting() -> None:
    record = tda_privacy_accounting.prove()
    assert record.paper == "TDA"
    assert len(record.steps) >= 10


@pytest.mark.parametrize(
    ("arguments", "failing_step"),
    [
        ({"variance_factor": Fraction(2)}, "each level is"),  # σ² = 2d/ρ: ρ/(2d) per level, not the allocation
        ({"variance_factor": Fraction(1, 2)}, "each level is"),
        ({"sensitivity_squared": 1}, "squared ℓ2"),  # reading 'sensitivity of one query' = 1 as Δ²
        ({"conversion_coefficient": Fraction(1)}, "solves"),
        ({"conversion_coefficient": Fraction(3)}, "solves"),
    ],
)
def test_proof_program_fails_on_wrong_constants(arguments: dict[str, object], failing_step: str) -> None:
    with pytest.raises(ProofFailure, match=failing_step):
        tda_privacy_accounting.prove(**arguments)  # type: ignore[arg-type]


def test_registry_checks_pass_on_small_grids() -> None:
    assert zcdp_checks.tight_conversion_never_worse(grid_size=2).passed
    discrete = zcdp_checks.discrete_gaussian_below_zcdp(grid_size=2)
    assert discrete.passed and "holds everywhere" in discrete.describe()


def test_inputs_are_validated() -> None:
    for bad in (0, -3):
        with pytest.raises(ValueError, match="attributes"):
            inftda.inftda_sigma_squared(bad, 1)
    for wrong_kind in (True, 2.0, "3"):
        with pytest.raises(TypeError, match="attributes"):
            inftda.inftda_sigma_squared(wrong_kind, 1)
    for bad_rho in (0, "-1/2"):
        with pytest.raises(ValueError, match="rho"):
            inftda.inftda_calibration(3, bad_rho)
    with pytest.raises(TypeError, match="rho"):
        inftda.inftda_rho_per_level(3, 0.5)
    for bad_delta in (0, 1, 2):
        with pytest.raises(ValueError, match="delta"):
            inftda.inftda_epsilon(3, 1, bad_delta)
    with pytest.raises(ValueError, match="method"):
        inftda.inftda_epsilon(3, 1, Fraction(1, 10), method="exact")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="level"):
        inftda.inftda_level_sensitivity_squared((2, 2), 3)
    with pytest.raises(ValueError, match="categories"):
        inftda.inftda_level_sensitivity_squared((), 0)
    with pytest.raises(TypeError, match="categories"):
        inftda.inftda_level_sensitivity_squared("22", 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"categories\[1\]"):
        inftda.inftda_level_sensitivity_squared((2, 0), 1)
    with pytest.raises(ValueError, match="neighbours"):
        inftda.inftda_level_sensitivity_squared((2, 2), 1, "bounded")  # type: ignore[arg-type]


# --- user-level privacy: m records per user -------------------------------------------------------------------


def test_user_level_sensitivity_matches_brute_force() -> None:
    from reference_verification.tda.checks.calibration import user_level_sensitivity

    for categories, records, users in [((2, 2), 2, 2), ((2, 3), 3, 2), ((2, 2), 3, 3), ((2, 2, 2), 2, 2)]:
        found = user_level_sensitivity(categories, records, users)
        assert found.passed, found
        # by hand: m records moved together from one prefix to another change two counts by m each
        assert found.substitution[1:] == (2 * users * users,) * len(categories)
        assert found.add_remove == (users * users,) * (len(categories) + 1)


def test_user_level_calibration_scales_sigma_squared_by_m_squared() -> None:
    calibration = inftda.inftda_calibration(3, "1/2", contributions=2)
    assert calibration.sigma_squared == Fraction(4 * 3 * 2)  # m² d / ρ
    assert calibration.level_sensitivity_squared == 8 and calibration.rho_per_level == Fraction(1, 6)
    assert calibration.total_rho == Fraction(1, 2)
    assert inftda.inftda_calibration(3, "1/2").as_json() == {**inftda.inftda_calibration(3, "1/2", 1).as_json()}


def test_the_sqrt_2m_calibration_is_caught_by_the_calibration_audit() -> None:
    from reference_verification.planted import user_level_inftda

    from reference.audit.calibration import audit_discrete_gaussian

    attributes, rho, users = 3, Fraction(1, 2), 3
    per_level_claim = rho / attributes
    true_d2 = inftda.inftda_level_sensitivity_squared((2, 2, 2), 1, contributions=users)  # 2m² = 18
    faulty = audit_discrete_gaussian(
        user_level_inftda.sigma_squared(attributes, rho, users), rho=per_level_claim, sensitivity_squared=true_d2
    )
    assert not faulty.holds  # it is (m ρ/d)-zCDP per level: three times the claim
    assert faulty.details["rho_achieved"] == "1/2"
    corrected = audit_discrete_gaussian(
        inftda.inftda_sigma_squared(attributes, rho, users), rho=per_level_claim, sensitivity_squared=true_d2
    )
    assert corrected.holds and corrected.details["rho_achieved"] == "1/6"
