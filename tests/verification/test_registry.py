"""The claims registry on its quick budget: every check runs, and the verdicts match what independent
reasoning (written out in each test) says about the paper's statements."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from reference_verification.core.claims import Budget, Claim, Method, Outcome, Result, Status, exhaustive, run_claim
from reference_verification.report import build_registry, markdown_report, run_registry, terminal_table


@cache
def quick_results() -> dict[str, Result]:
    results = run_registry(build_registry(), Budget(quick=True))
    return {f"{r.claim.paper} {r.claim.number}": r for r in results}


def status(key: str) -> Status:
    return quick_results()[key].outcome.status


def test_no_check_crashes() -> None:
    crashed = {k: r.outcome.detail for k, r in quick_results().items() if r.outcome.status is Status.ERROR}
    assert not crashed


def test_every_status_comes_with_evidence() -> None:
    for key, result in quick_results().items():
        assert result.outcome.detail, key
        if result.outcome.status is Status.REFUTED:
            # every refuted entry names its smallest counterexample and what holds instead
            assert result.outcome.counterexample, key
            assert result.outcome.corrected, key


@pytest.mark.parametrize(
    "key",
    ["CIP Lemma B.2", "CIP Corollary B.3", "CIP Theorem 3.3", "CIP Proposition 3.5", "CIP Theorem 3.9"],
)
def test_statements_with_proof_programs_are_proved(key: str) -> None:
    assert status(key) is Status.PROVED


def test_proposition_3_13_is_refuted() -> None:
    # Independent reasoning: for W = the single root node (depth 0), err_2/m = σ² but err^∞ = E|N(0, σ²)|
    # = sqrt(2/π)σ < σ, so sqrt(err_2/m) <= err^∞ fails.
    assert status("CIP Proposition 3.13") is Status.REFUTED
    assert "depth 0" in str(quick_results()["CIP Proposition 3.13"].outcome.counterexample)


def test_kary_algorithm_3_is_refuted_in_a_reachable_state() -> None:
    # Independent reasoning: k = 3, T = 2 needs height 2 (capacity (3^1 − 1)/2 = 1 < 2); t = 2 = 3 − 1 has offset
    # digits (−1, +1): the walk adds the level-2 vertex [1, 3] (p = 3), then at level 1 subtracts the printed
    # [p − 3^0 − 1, p] = [1, 3] instead of [3, 3], so output 2 is x_1 + x_2 + x_3 − (x_1 + x_2 + x_3) = 0.
    result = quick_results()["KARY Algorithm 3"].outcome
    assert result.status is Status.REFUTED
    assert str(result.counterexample).startswith("k = 3, T = 2, t = 2: the output is 0")


def test_printed_algorithm_2_is_refuted() -> None:
    # Independent reasoning: with k = 1 the printed loop "1 <= i <= k − 1" is empty, so the new leaves
    # X_10, X_11 are never assigned.
    assert status("CIP Algorithm 2") is Status.REFUTED
    assert "k = 1" in str(quick_results()["CIP Algorithm 2"].outcome.counterexample)


def test_corollary_c2_is_refuted() -> None:
    # Independent reasoning: nodal err_2 = (2n − 1)σ², which is Θ(n log n) with σ² = Θ(log n), not Θ(n² log n).
    assert status("CIP Corollary C.2") is Status.REFUTED


def test_paper_timings_are_not_checkable() -> None:
    assert status("CIP Section 5 timings") is Status.NOT_CHECKABLE


def test_exhaustive_reports_first_failure() -> None:
    outcome = exhaustive(range(10), lambda x: x < 4, lambda x: f"x = {x}", "0..9")
    assert outcome.status is Status.REFUTED and outcome.counterexample == "x = 4"


def test_crashing_check_is_an_error_not_a_verdict() -> None:
    def broken(_: Budget) -> Outcome:
        raise RuntimeError("boom")

    result = run_claim(Claim("X", "1", "s", Method.NONE, broken), Budget(quick=True))
    assert result.outcome.status is Status.ERROR and "boom" in result.outcome.detail


def test_report_renders(tmp_path: Path) -> None:
    results = list(quick_results().values())
    text = markdown_report(results, [("plot.png", "a plot")], 1.0, Budget(quick=True))
    assert "## Summary" in text and "Proposition 3.13" in text and "![a plot](plot.png)" in text
    table = terminal_table(results)
    assert len(table.splitlines()) == len(results) + 2


# ------------------------------------------------------------------------------- methods and statuses agree


def test_every_status_matches_its_method() -> None:
    from reference_verification.core.claims import ALLOWED_STATUSES

    for key, result in quick_results().items():
        status_, method = result.outcome.status, result.claim.method
        if status_ is Status.CONDITIONAL:
            # only a proof that names the entries or cited results it uses, and the detail lists each verified
            # entry and each citation
            assert method is Method.PROOF and (result.claim.depends_on or result.claim.cites), key
            assert all(cited in result.outcome.detail for cited in result.claim.cites), key
            assert result.outcome.detail.startswith("proved, conditional on "), key
            weak = [d for d in result.claim.depends_on if quick_results()[d].outcome.status is Status.VERIFIED]
            assert all(d in result.outcome.detail for d in weak), key
        else:
            assert status_ in ALLOWED_STATUSES[method], (key, status_, method)
        if method is Method.PROOF:
            assert status_ is not Status.VERIFIED, key


def test_statuses_the_truth_pass_settled() -> None:
    results = quick_results()
    # each computed by a proof program now, not by a loop over finitely many parameters
    for key in ("CIP Corollary C.2", "KARY Claim 1 (Appendix C)", "KARY Appendix C factor"):
        assert results[key].claim.method is Method.PROOF and status(key) is Status.REFUTED, key
    assert status("KARY Appendix C recursion") is Status.PROVED
    # one rule for quoted decimals: 0.1238 is the truncation of 0.12387…, accepted as such
    assert status("KARY Corollary C.3 (constant)") is Status.PROVED
    assert "truncation" in results["KARY Corollary C.3 (constant)"].outcome.detail
    # Algorithm 2's privacy and its law (Lemma 4.5, Proposition 4.3) are proved for every k, h, so Theorem 1.2 is;
    # Theorem 1.1 also claims O(T) time and O(log T) space (Lemmas 4.14, 4.12, resting on Proposition 4.10),
    # each proved by its own program for every odd k and h: the theorem is proved without condition
    for key in ("KARY Lemma 4.5", "KARY Proposition 4.3", "KARY Theorem 1.2", "KARY Proposition 4.10",
                "KARY Lemma 4.12", "KARY Lemma 4.14", "KARY Theorem 1.1"):
        assert status(key) is Status.PROVED, key
    assert "conditional" not in results["KARY Theorem 1.1"].outcome.detail


def _planted(number: str, method: Method, outcome: Outcome, depends_on: tuple[str, ...] = ()) -> Claim:
    from reference_verification.core.proof import ProofRecord
    from reference_verification.core.proof_links import proves

    @proves("X", number)
    def program() -> ProofRecord:
        return ProofRecord("X", number, "s")

    def check(_: Budget) -> Outcome:
        if method is Method.PROOF:
            program()
        return outcome

    name = f"{program.name}" if method is Method.PROOF else None
    return Claim("X", number, "s", method, check, implements=("x",), proof=name, depends_on=depends_on)


def test_a_method_cannot_return_another_methods_status() -> None:
    proved, verified = Outcome(Status.PROVED, "d"), Outcome(Status.VERIFIED, "d")
    assert run_claim(_planted("1", Method.PROOF, verified), Budget(quick=True)).outcome.status is Status.ERROR
    assert run_claim(_planted("2", Method.EXHAUSTIVE, proved), Budget(quick=True)).outcome.status is Status.ERROR
    conditional = Outcome(Status.CONDITIONAL, "d")
    assert run_claim(_planted("3", Method.PROOF, conditional), Budget(quick=True)).outcome.status is Status.ERROR
    none = _planted("4", Method.NONE, verified)
    assert run_claim(none, Budget(quick=True)).outcome.status is Status.ERROR


def test_conditions_propagate_and_false_premises_crash() -> None:
    from reference_verification.core.claims import resolve_conditions

    quick = Budget(quick=True)
    proved, verified = Outcome(Status.PROVED, "d"), Outcome(Status.VERIFIED, "d")
    refuted = Outcome(Status.REFUTED, "d", counterexample="c", corrected="c")
    base = run_claim(_planted("base", Method.EXHAUSTIVE, verified), quick)
    middle = run_claim(_planted("middle", Method.PROOF, proved, ("X base",)), quick)
    top = run_claim(_planted("top", Method.PROOF, proved, ("X middle",)), quick)
    solid = run_claim(_planted("solid", Method.PROOF, proved), quick)
    leaning = run_claim(_planted("leaning", Method.PROOF, proved, ("X solid",)), quick)
    wrong = run_claim(_planted("wrong", Method.EXHAUSTIVE, refuted), quick)
    shaky = run_claim(_planted("shaky", Method.PROOF, proved, ("X wrong",)), quick)
    missing = run_claim(_planted("missing", Method.PROOF, proved, ("X nowhere",)), quick)
    got = {r.claim.number: r.outcome for r in resolve_conditions([base, middle, top, solid, leaning, wrong, shaky, missing])}
    assert got["middle"].status is Status.CONDITIONAL and "X base" in got["middle"].detail
    assert got["top"].status is Status.CONDITIONAL and "X base" in got["top"].detail  # inherited
    assert got["leaning"].status is Status.PROVED  # rests on a proof only
    assert got["shaky"].status is Status.ERROR and "refuted" in got["shaky"].detail
    assert got["missing"].status is Status.ERROR
    with pytest.raises(ValueError, match="depends_on"):
        Claim("X", "5", "s", Method.EXHAUSTIVE, lambda _: verified, implements=("x",), depends_on=("X base",))


def test_the_proofs_resting_on_verified_entries_or_citations_are_conditional() -> None:
    """KARY Lemma 5.5 composes with Lemma 5.4 and uses Lemma A.2, both certified numeric (verified); TDA Theorem 1's
    privacy takes Δ² from the brute-force entry and applies CKS 2020 Theorem 14 and Bun–Steinke's composition."""
    results = quick_results()
    lemma = results["KARY Lemma 5.5"].outcome
    assert lemma.status is Status.CONDITIONAL and "KARY Lemma 5.4" in lemma.detail and "KARY Lemma A.2" in lemma.detail
    privacy = results["TDA Theorem 1 (privacy)"].outcome
    assert privacy.status is Status.CONDITIONAL and "TDA Algorithm 1 (sensitivity √2)" in privacy.detail
    assert "CKS 2020" in privacy.detail and "Bun–Steinke" in privacy.detail


def test_tda_theorem_1_by_the_exact_law() -> None:
    results = quick_results()
    theorem = results["TDA Theorem 1 (utility)"]
    assert theorem.claim.method is Method.CERTIFIED and theorem.outcome.status is Status.VERIFIED
    assert "certainly > β at 0, undecided at 0" in theorem.outcome.detail
    step = results["TDA Theorem 1 (utility, per-level step)"]
    # two cells, σ² = 1/4, β = 0.3: P[Z_1 = Z_2 = 0] = 0.6187… < 0.7 = 1 − β, while the theorem holds there
    assert step.outcome.status is Status.REFUTED and "2 cells, σ² = 1/4, β = 3/10" in str(step.outcome.counterexample)


def test_lemma_b4_stands_but_its_printed_step_does_not() -> None:
    # Independent reasoning: with X ~ N(0, [[1, 1/2], [1/2, 1]]) the diagonal is positive, yet Cov(X_0, X_1) = 1/2 > 0;
    # the lemma holds for C_K only because every off-diagonal entry of C_K is negative.
    assert status("CIP Lemma B.4") is Status.PROVED
    printed = quick_results()["CIP Lemma B.4 (printed proof)"]
    assert printed.outcome.status is Status.REFUTED and "[[1, 1/2], [1/2, 1]]" in str(printed.outcome.counterexample)


def test_tda_prose_counts() -> None:
    # Independent reasoning: with |X| = (3, 2) the 1-way marginal queries (S, y) are the 3 + 2 = 5 single-value
    # queries and the 1-way marginals (subsets) are 2 — neither is 2^d = 4; only all subsets together are 2^2.
    marginals = quick_results()["TDA Section 2 (number of marginal queries)"]
    assert marginals.outcome.status is Status.REFUTED and "{1: 5, 2: 6}" in marginals.outcome.detail
    # the O(max|X_i|²) claim is the cited version's (the printed loop is O(c)): an O(d²) IntOpt with the printed
    # loop's output meets it, 9 steps on x = (M, 0), c = 0 at every M, where the printed loop runs M + 2 times
    steps = quick_results()["TDA Section 1 (IntOPT steps)"]
    assert steps.outcome.status is Status.VERIFIED and "runs 1002 iterations" in steps.outcome.detail
    assert "9 steps at M = 1000000" in steps.outcome.detail
