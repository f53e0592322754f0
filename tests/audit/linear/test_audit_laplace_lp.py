"""The Laplace ε of a noise matrix with a kernel: min ‖u‖₁ over B u = W v, certified from both sides."""

from __future__ import annotations

from fractions import Fraction

from reference.audit.linear.audit import audit_linear_noise, exact_matrix
from reference.audit.linear.laplace_lp import shift_norm


def test_the_lp_beats_the_minimum_norm_bound_and_is_exact() -> None:
    # B = (1 2), y = 2: u = (0, 1) has ‖u‖₁ = 1, and λ = 1/2 is dual-feasible (|λ|, |2λ| <= 1) with λ·y = 1,
    # so the minimum is exactly 1; the minimum-norm solution (2/5, 4/5) only gives 6/5
    matrix = exact_matrix([[1, 2]], "B")
    found = shift_norm(matrix, [Fraction(2)], [Fraction(2, 5), Fraction(4, 5)])
    assert found.exact and found.lower == found.upper == 1
    assert found.shift == (Fraction(0), Fraction(1)) and found.dual == (Fraction(1, 2),)


def test_the_audit_reports_the_exact_epsilon_and_decides_claims() -> None:
    # two outputs, three draws: output 1 = z1 + z2, output 2 = z2 + z3; W = identity.
    # e_1 needs B u = (1, 0): u = (1, 0, 0) has ℓ1 1; dual λ = (1, 0) is feasible (|1|, |1|, |0| <= 1): exactly 1
    verdict = audit_linear_noise([[1, 1, 0], [0, 1, 1]], [[1, 0], [0, 1]], "laplace", scale=2)
    assert verdict.kernel_dimension == 1
    assert verdict.epsilon == verdict.epsilon_lower == Fraction(1, 2) and verdict.epsilon_exact
    assert verdict.verdict_on(epsilon="1/2") == "holds" and verdict.verdict_on(epsilon="1/3") == "fails"


def test_bounds_that_do_not_decide_make_an_inconclusive_verdict() -> None:
    verdict = audit_linear_noise([[1, 1, 0], [0, 1, 1]], [[1, 0], [0, 1]], "laplace", scale=2)
    widened = type(verdict)(**{**verdict.__dict__, "epsilon": Fraction(1), "epsilon_lower": Fraction(1, 4),
                               "epsilon_exact": False})
    assert widened.verdict_on(epsilon="1/2") == "inconclusive" and widened.verdict_on(epsilon="1/5") == "fails"


def test_the_largest_shift_is_certified_with_as_few_lps_as_needed(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # B = (1 2), targets y = 2 and y = 1: the elimination's solutions u = (2, 0) and (1, 0) have norms 2 and 1, so
    # the first LP goes to y = 2, whose value is 1 (u = (0, 1)); the other target's upper bound 1 is then not above
    # the certified 1, so it never gets an LP: max = 1 exactly, with one LP
    from reference.audit.linear import laplace_lp

    calls: list[dict[int, Fraction]] = []
    solve = laplace_lp._solve

    def counting(problem, target, fallback):  # type: ignore[no-untyped-def]
        calls.append(target)
        return solve(problem, target, fallback)

    monkeypatch.setattr(laplace_lp, "_solve", counting)
    matrix = exact_matrix([[1, 2]], "B")
    lower, upper = laplace_lp.max_shift_norm(matrix, [{0: Fraction(2)}, {0: Fraction(1)}], lambda k: {})
    assert (lower, upper) == (1, 1) and calls == [{0: Fraction(2)}]


def test_a_remainder_takes_the_fallback_and_a_bad_fallback_is_refused() -> None:
    from reference.audit.linear import laplace_lp

    matrix = exact_matrix([[1, 0], [1, 0]], "B")  # y = (1, 2) is outside the span: the elimination leaves a remainder
    try:
        laplace_lp.max_shift_norm(matrix, [{0: Fraction(1), 1: Fraction(2)}], lambda k: {0: Fraction(1)})
    except ValueError as error:
        assert "fallback" in str(error)
    else:
        raise AssertionError("a fallback that does not solve B u = y must be refused")


def test_float_built_pseudo_inverse_bracket_is_refined() -> None:
    # B = H⁺ of a binary tree over 8 leaves, computed in floats and read exactly; W = I. Ideally B H = I, so
    # the shift u = H e_j has ‖u‖₁ = 4 (the path of leaf j); exactly, the float B moves the optimum by rounding.
    # Unrefined, the elimination pivots on rounding debris (an upper bound of 1e19); from the float basis the
    # certificates must agree to 1e-12, and each must be checked here exactly: B u = e_0 and ‖Bᵀλ‖∞ <= 1.
    import numpy as np

    from reference.audit.linear import elimination
    from reference.audit.linear.audit import audit_linear_noise
    from reference.audit.linear.laplace_lp import shift_norm

    rows = [[int(start <= j < start + size) for j in range(8)] for size in (8, 4, 2, 1) for start in range(0, 8, size)]
    pseudo = np.linalg.pinv(np.array(rows, dtype=float))
    noise = tuple(tuple(Fraction(v) for v in row) for row in pseudo.tolist())
    target = [Fraction(int(i == 0)) for i in range(8)]
    reduction = elimination.eliminate(elimination.sparse_columns(noise), [{0: Fraction(1)}], 8, integral=False,
                                      track=True)
    assert reduction.solutions is not None
    fallback = [Fraction(reduction.solutions[0].get(j, 0)) for j in range(15)]
    found = shift_norm(noise, target, fallback)
    assert found.upper - found.lower <= found.upper * Fraction(1, 10**12)
    assert abs(found.upper - 4) < Fraction(1, 10**12)
    assert [sum((noise[i][j] * found.shift[j] for j in range(15)), Fraction(0)) for i in range(8)] == target
    assert sum(abs(value) for value in found.shift) == found.upper
    assert max(abs(sum((found.dual[i] * noise[i][j] for i in range(8)), Fraction(0))) for j in range(15)) <= 1
    assert sum((found.dual[i] * target[i] for i in range(8)), Fraction(0)) == found.lower
    verdict = audit_linear_noise(pseudo, np.eye(8, dtype=np.int64), "laplace", scale=1, rtol=1e-12)
    assert verdict.epsilon is not None and verdict.epsilon_lower is not None
    assert verdict.epsilon - verdict.epsilon_lower <= verdict.epsilon * Fraction(1, 10**12)
    assert verdict.verdict_on(epsilon=4) == "holds"  # the intended ε within rtol
    assert verdict.verdict_on(epsilon=Fraction(39, 10)) == "fails"
