"""Every Coq file compiles, holds no unfinished proof, and every theorem the registry names is closed (no axiom).

Also: a statement weakened by one edit in a copy of a file — a constant changed, a hypothesis dropped — no longer
compiles, so the compilation really checks the statements as written.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from reference_verification.coq import (
    AUDIT_THEOREMS,
    LIBRARY_AXIOMS,
    LIBRARY_AXIOMS_ONLY,
    Build,
    assumptions,
    compile_all,
    machine_checked,
    proofs_directory,
    read_project,
)
from reference_verification.coq_text import CLOSED, axiom_names, declares, unproved_words
from reference_verification.core.claims import CoqTheorem
from reference_verification.report import build_registry


def _directory() -> Path:
    directory = proofs_directory()
    assert directory is not None, "proofs/coq/_CoqProject not found"
    return directory


def _registered() -> list[CoqTheorem]:
    return [theorem for claim in build_registry().claims for theorem in claim.coq]


def test_every_source_file_is_listed_and_finished() -> None:
    directory = _directory()
    listed = set(read_project(directory).files)
    on_disk = {path.name for path in directory.glob("*.v")}
    assert listed == on_disk, f"_CoqProject lists {sorted(listed)}, the directory holds {sorted(on_disk)}"
    for name in sorted(on_disk):
        assert unproved_words(directory / name) == [], f"{name} holds an unfinished proof or a postulate"


def test_every_registered_theorem_is_declared() -> None:
    theorems = _registered()
    assert theorems, "the registry names no Coq theorem"
    for theorem in theorems:
        assert declares(_directory() / theorem.file, theorem.name), f"{theorem.file} declares no {theorem.name}"


def test_unproved_words_ignore_comments(tmp_path: Path) -> None:
    source = tmp_path / "a.v"
    source.write_text("(* an Admitted (* nested *) comment *) Lemma x : True. Proof. exact I. Qed.\n")
    assert unproved_words(source) == []
    source.write_text("Lemma x : True. Proof. Admitted.\n")
    assert unproved_words(source) == ["Admitted"]


def test_every_file_compiles(coq_build: Build) -> None:
    for result in coq_build.files:
        assert result.ok, f"{result.file} does not compile:\n{result.output}"
    assert coq_build.ok


def test_every_registered_theorem_is_closed(coq_build: Build) -> None:
    """The report's own check (Print Assumptions of every registered theorem): found, compiled, no axiom."""
    for theorem, found in machine_checked(_registered(), coq_build).items():
        assert found.verdict == "closed", f"{theorem.name}: {found.verdict} ({found.detail})"
        assert CLOSED.lower() in found.detail


@pytest.mark.usefixtures("coqc_installed")
def test_an_axiom_is_reported(tmp_path: Path) -> None:
    """Print Assumptions names an axiom a theorem uses: the closed-ness check can fail."""
    (tmp_path / "Postulate.v").write_text("Axiom wish : 1 = 2.\nTheorem uses_wish : 1 = 2.\nProof. exact wish. Qed.\n")
    (tmp_path / "_CoqProject").write_text("-Q . Reference\nPostulate.v\n")
    build = compile_all(source=tmp_path, build_directory=tmp_path / "build")
    assert build.ok
    answer = assumptions(build, [CoqTheorem("Postulate.v", "uses_wish", "a postulate")])
    assert "wish" in next(iter(answer.values()))


@pytest.mark.usefixtures("coqc_installed")
def test_theorems_asked_together_keep_their_own_answers(tmp_path: Path) -> None:
    """The theorems expected closed are asked about as one tuple first: when one of them uses an axiom, each
    still gets its own answer (the closed one closed, the other naming the axiom), and a closed tuple gives
    every theorem in it the answer it gets alone."""
    (tmp_path / "Mixed.v").write_text(
        "Axiom wish : 1 = 2.\nTheorem uses_wish : 1 = 2.\nProof. exact wish. Qed.\n"
        "Theorem honest : 1 = 1.\nProof. reflexivity. Qed.\nTheorem honest_too : 2 = 2.\nProof. reflexivity. Qed.\n"
    )
    (tmp_path / "_CoqProject").write_text("-Q . Reference\nMixed.v\n")
    build = compile_all(source=tmp_path, build_directory=tmp_path / "build")
    assert build.ok
    wish, honest, honest_too = (CoqTheorem("Mixed.v", name, name) for name in ("uses_wish", "honest", "honest_too"))
    mixed = assumptions(build, [honest, wish, honest_too])
    assert mixed[honest] == mixed[honest_too] == CLOSED
    assert axiom_names(mixed[wish]) == ["Mixed.wish"]
    both = assumptions(build, [honest, honest_too])
    assert both == {honest: CLOSED, honest_too: CLOSED}
    assert both[honest] == assumptions(build, [honest])[honest]


#: (file, text in the statement, replacement): each edit makes a statement false, so its proof must fail.
MUTATIONS = [
    # a constant: k^w − 1 becomes k^w, so t = k^w would be representable with w standard digits
    ("KaryDigits.v", "(0 <= t <= arity ^+ width - 1) <->", "(0 <= t <= arity ^+ width) <->"),
    # a hypothesis dropped: without arity >= 2 the window theorem fails (arity = −1, width 2, t = 0)
    ("KaryDigits.v", "Theorem window_representation arity low width t :\n  2 <= arity ->\n",
     "Theorem window_representation arity low width t :\n"),
    # a hypothesis dropped: IntOpt's loop does not stop for c < 0, so termination needs c >= 0
    ("IntOpt.v", "0 <= c ->\n  exists final, run x c order (iteration_bound x c)",
     "exists final, run x c order (iteration_bound x c)"),
    # the fast version with the pass start off by one level (floors at t0 + P instead of t0 + P − 1)
    ("IntOptFast.v", "else floors x (t - 1) in", "else floors x t in"),
    # Definition 3.1 in its OCR reading (exponent 2^D + 1 instead of 2D + 1): the row sums and the inverse fail
    ("CipMatrix.v", "else - (pow2 (2 * D + 1))^-1\n", "else - (pow2 (2 ^ D + 1))^-1\n"),
    # Proposition B.1 (1): a diagonal entry 2 instead of 1
    ("CipMatrix.v", "(i < 2 ^ D)%N -> cov D i i = 1.", "(i < 2 ^ D)%N -> cov D i i = 2%:R."),
    # Proposition B.1 (2), a hypothesis dropped: the diagonal (i = j) is 1, not negative
    ("CipMatrix.v", "(i < 2 ^ D)%N -> (j < 2 ^ D)%N -> i != j -> cov D i j < 0.", "(i < 2 ^ D)%N -> (j < 2 ^ D)%N -> cov D i j < 0."),
    # a constant in Lemma 3.5's count: h k^h instead of h (k − 1) k^h
    ("KarySums.v", "    height%:Z * (arity - 1) * arity ^+ height.\n", "    height%:Z * arity ^+ height.\n"),
    # a hypothesis dropped: leaves beyond the k^h leaves of the tree lie in no vertex
    ("KarySensitivity.v", "0 < arity -> horizon <= arity ^ height -> 0 < t <= horizon ->",
     "0 < arity -> 0 < t <= horizon ->"),
    # a constant in Corollary B.3: 1 + D/2 instead of 1 + D/3
    ("CipMatrix.v", "prec D i i = 1 + D%:R / 3%:R.", "prec D i i = 1 + D%:R / 2%:R."),
    # a constant: the height h(T) holds T, so capacity(h(T)) < T is false (capacity(h(T) − 1) < T is the theorem)
    ("KaryHeight.v", "  capacity arity top (height arity top horizon).-1 < horizon.",
     "  capacity arity top (height arity top horizon) < horizon."),
    # a hypothesis dropped: with top digit 0 the capacity is 0 and no height holds a horizon T >= 1
    ("KaryHeight.v", "Theorem height_is_least arity top horizon :\n  0 < arity -> 0 < top ->",
     "Theorem height_is_least arity top horizon :\n  0 < arity ->"),
    # a hypothesis dropped: a horizon that a lower tree already holds leaves the top levels unused (T = 1, h = 2)
    ("KaryUsedVertices.v",
     "  (capacity arity top height.-1 < horizon <= capacity arity top height)%N ->\n  l1_sensitivity",
     "  (horizon <= capacity arity top height)%N ->\n  l1_sensitivity"),
    # a constant: a taller tree's top levels are unused, so its sensitivity is h(T), not its own height
    ("KaryUsedVertices.v",
     "l1_sensitivity arity top (height arity top horizon + extra) horizon = height arity top horizon.",
     "l1_sensitivity arity top (height arity top horizon + extra) horizon = height arity top horizon + extra."),
    # a constant: i.i.d. leaf noise would give a node of height h the variance 2^h; C_D gives every node 1
    ("CipNodeVariance.v", "node_variance depth level position = 1.",
     "node_variance depth level position = (2 ^ (depth - level))%:R."),
    # a hypothesis dropped: a node index past the 2^m nodes of its level leaves the block of C_(m + h)
    ("CipNodeVariance.v", "  (p < 2 ^ m)%N -> (a < 2 ^ h)%N -> (b < 2 ^ h)%N ->\n  cov (m + h)",
     "  (a < 2 ^ h)%N -> (b < 2 ^ h)%N ->\n  cov (m + h)"),
    # a constant: the smallest eigenvalue is 2^-D (the all-ones vector), so 2^-(D-1) is no lower bound
    ("CipPositiveDefinite.v", "Theorem quad_lower_bound D x : (pow2 D)^-1 * sumsq D x <= quad D x.",
     "Theorem quad_lower_bound D x : (pow2 D.-1)^-1 * sumsq D x <= quad D x."),
    # a hypothesis weakened: a vector non-zero only past the 2^D leaves has x^T C_D x = 0
    ("CipPositiveDefinite.v", "(exists2 k, (k < 2 ^ D)%N & x k != 0) -> 0 < quad D x.",
     "(exists k, x k != 0) -> 0 < quad D x."),
    # a constant in the maximum range variance: (6D + 5)/9 instead of (6D + 4)/9
    ("CipRangeMax.v", "crossing_variance K l1 l2 <= (6%:R * K.+1%:R + 4%:R) / 9%:R",
     "crossing_variance K l1 l2 <= (6%:R * K.+1%:R + 5%:R) / 9%:R"),
    # a hypothesis weakened: the first piece needs slopes s >= 0
    ("CipRangeMax.v", "(0 <= s <= 1 -> phi K l", "(s <= 1 -> phi K l"),
    # the same constant over all ranges; and the maximiser one leaf too long
    ("CipRangeAll.v", "rv D x len <= (6%:R * D%:R + 4%:R) / 9%:R", "rv D x len <= (6%:R * D%:R + 5%:R) / 9%:R"),
    ("CipRangeAll.v", "rv K.+1 (2 ^ K - A K) (2 * A K) =", "rv K.+1 (2 ^ K - A K) (2 * A K + 1) ="),
    # the unique maximiser starting at the other grid point
    ("CipRangeUnique.v", "  x = (2 ^ K.+1 - A K.+1)%N /\\ len", "  x = (2 ^ K.+1 - B K.+1)%N /\\ len"),
    # the wrong sign rule: a vertex (l, j) is added iff j mod k < top; with j mod k < top − 1 the vertices with
    # j mod k = top − 1 (added by the digit top) would count as subtracted
    ("KaryAlgorithm2.v", "Definition added_vertex (arity top : nat) (v : vertex) : bool := ((v.2 %% arity%:Z)%Z < top%:Z).",
     "Definition added_vertex (arity top : nat) (v : vertex) : bool := ((v.2 %% arity%:Z)%Z < top%:Z - 1)."),
    # a hypothesis dropped: beyond the capacity the digits wrap around and a value's times are no longer one interval
    ("KaryAlgorithm2.v", "(0 < top < arity)%N -> (t1 <= t <= t2)%N -> (t2 <= capacity arity top height)%N ->\n  q \\in",
     "(0 < top < arity)%N -> (t1 <= t <= t2)%N ->\n  q \\in"),
    # a constant: Lemma 4.12's bound h(k − 1)/2 halved again (attained at T = (k^h − 1)/2, so false)
    ("KaryAlgorithm2.v", "     <= height arity (arity %/ 2) horizon * (arity - 1))%N.",
     "     <= height arity (arity %/ 2) horizon * (arity %/ 2))%N."),
    # a constant: each value is added once and removed once, so D updates are too few
    ("KaryAlgorithm2.v", "(updates arity top height horizon <= 2 * size (used_indices arity top height horizon))%N.",
     "(updates arity top height horizon <= size (used_indices arity top height horizon))%N."),
    # a constant: D <= T instead of D <= kT (false: k = 3, T = 2 uses the indices 1, 2, 3)
    ("KaryDistinctNoise.v", "  (size (used_indices arity top height horizon) <= arity * horizon)%N /\\",
     "  (size (used_indices arity top height horizon) <= horizon)%N /\\"),
    # a constant: the indices start at 2 (false: output 1 uses index 1)
    ("KaryDistinctNoise.v", "q \\in noise_indices arity top height t -> 1 <= q <= (cap height)%:Z.",
     "q \\in noise_indices arity top height t -> 2 <= q <= (cap height)%:Z."),
    # a constant: capacity(h(T)) <= (k - 1) T (false: k = 3, T = 5 has h = 3 and capacity 13 > 10)
    ("KaryDistinctNoise.v", "  (capacity arity top (height arity top horizon) <= arity * horizon)%N.",
     "  (capacity arity top (height arity top horizon) <= arity.-1 * horizon)%N."),
    # a constant: the discrete Laplace epsilon halved, max ||u_j||_1 / (2b) (false for any u_j != 0)
    ("DiscreteLaplacePrivacy.v", "Definition epsilon : R := (\\max_(j < d) norm1 (u j))%:R / b.",
     "Definition epsilon : R := (\\max_(j < d) norm1 (u j))%:R / (2 * b)."),
    # the sup norm for the l1 norm: u = (1, 1) costs exp(2/b), not exp(1/b)
    ("DiscreteLaplacePrivacy.v", "Definition epsilon : R := (\\max_(j < d) norm1 (u j))%:R / b.",
     "Definition epsilon : R := (\\max_(j < d) \\max_(i < n) absz (u j i ord0))%:R / b."),
    # integrality dropped: a shift r (B u) with r real (half a lattice step: the parity leak) is not private
    ("DiscreteLaplacePrivacy.v",
     "adj x x' -> exists u : 'cV[int]_n, a x' - a x = noise u /\\ (norm1 u <= Delta)%N) ->",
     "adj x x' -> exists (u : 'cV[int]_n) (r : R), a x' - a x = r *: noise u /\\ (norm1 u <= Delta)%N) ->"),
    # a constant in the normalisation: the geometric sum 1 + q + ... + q^(M-1) is not at most 1
    ("DiscreteLaplacePrivacy.v", "Lemma geometric_le (M : nat) : \\sum_(k < M) q ^+ k <= (1 - q)^-1.",
     "Lemma geometric_le (M : nat) : \\sum_(k < M) q ^+ k <= 1."),
    # a hypothesis dropped: a shift inside the lattice (e.g. no shift) leaves the set mass under x' too
    ("DiscreteLaplacePrivacy.v",
     "Theorem lattice_leak x x' :\n  ~ (exists u : 'cV[int]_n, a x' - a x = noise u) ->\n",
     "Theorem lattice_leak x x' :\n"),
    # a constant: F = Σ_(a=−m..m) |a| = m(m + 1); with m² each level's total drifts away from F·T/k as T grows
    ("KaryDigitCount.v", "Definition window_l1 (arity : nat) : nat := arity %/ 2 * (arity %/ 2).+1.",
     "Definition window_l1 (arity : nat) : nat := arity %/ 2 * (arity %/ 2)."),
    # a hypothesis dropped: for even k the window −k/2 + 1..k/2 has Σ|a| = (k/2)², not m(m + 1)
    ("KaryDigitCount.v", "  (3 <= arity)%N -> odd arity -> (l < height)%N ->", "  (3 <= arity)%N -> (l < height)%N ->"),
    # a constant: the all-levels centre (h + 1)F·T instead of h·F·T (false once T is far past the capacity)
    ("KaryDigitCount.v", "- (height * window_l1 arity * horizon)%:Z|", "- (height.+1 * window_l1 arity * horizon)%:Z|"),
    # a constant: the leading term doubled, (k² − 1)h³/k (false for k = 3 at T = 9842, h = 10)
    ("KaryDigitCount.v", "    - (height arity (arity %/ 2) horizon * window_l1 arity * horizon)%:Z|",
     "    - (2 * height arity (arity %/ 2) horizon * window_l1 arity * horizon)%:Z|"),
    # the same in Theorem 1.1's form: the leading term (k² − 1)h³/k instead of (k² − 1)h³/(2k)
    ("KaryDigitCount.v", "horizon ^ 3)%:R / (2 * arity)%:R : rat)|", "horizon ^ 3)%:R / arity%:R : rat)|"),
    # a constant: Δ² <= 1 (the sensitivity of one count, which the paper's wording suggests) is false for a level's
    # vector: the record leaves one cell and enters another
    ("TdaLevelSensitivity.v", "  squared_distance (level_counts data) (level_counts data') <= 2.",
     "  squared_distance (level_counts data) (level_counts data') <= 1."),
    # a hypothesis dropped: r and r' in the same cell leave the count vector unchanged (squared change 0, not 2)
    ("TdaLevelSensitivity.v", "  cell r < cells -> cell r' < cells -> cell r != cell r' ->",
     "  cell r < cells -> cell r' < cells ->"),
    # a hypothesis dropped: a record outside the level's cells (no entry of the vector) does not count
    ("TdaLevelSensitivity.v", "  cell r < cells -> cell r' < cells -> cell r != cell r' ->",
     "  cell r' < cells -> cell r != cell r' ->"),
    # the exact change with the cells' membership doubled: a record leaving counts once, not twice
    ("TdaLevelSensitivity.v", "  if cell r == cell r' then 0 else (cell r < cells) + (cell r' < cells).",
     "  if cell r == cell r' then 0 else 2 * ((cell r < cells) + (cell r' < cells))."),
    # a constant: Lemma 3.5's count without the factor 2 (the mean digit is (k − 1)/2, not k − 1)
    ("KaryMse.v", "  (2 * sumn [seq size (vertices_of arity arity.-1 height t) | t <- iota 1 (arity ^ height).-1] =",
     "  (sumn [seq size (vertices_of arity arity.-1 height t) | t <- iota 1 (arity ^ height).-1] ="),
    # a constant: k h³ instead of (k − 1) h³ in Lemma 3.5's closed form
    ("KaryMse.v", "  ((arity - 1) * height ^ 3)%:R / (1 - ((arity ^ height)%:R)^-1).",
     "  (arity * height ^ 3)%:R / (1 - ((arity ^ height)%:R)^-1)."),
    # the per-noise variance (h/ε)² instead of Laplace's 2(h/ε)²: the identity is off by a factor 2
    ("KaryMse.v", "  (2 * height ^ 2 * sumn [seq count t | t <- iota 1 horizon])%:R / horizon%:R.",
     "  (height ^ 2 * sumn [seq count t | t <- iota 1 horizon])%:R / horizon%:R."),
    # a constant: Lemma 4.7's count over 1..T with 4 for 8 (the sum over −T..T is twice the sum over 1..T)
    ("KaryMse.v", "  (8 * sumn [seq size (noise_indices arity (arity %/ 2) height t) | t <- iota 1 ((arity ^ height).-1 %/ 2)] =",
     "  (4 * sumn [seq size (noise_indices arity (arity %/ 2) height t) | t <- iota 1 ((arity ^ height).-1 %/ 2)] ="),
    # a constant: Lemma 4.7's closed form without the 2 in its denominator
    ("KaryMse.v", "(height ^ 3)%:R / (2 * (1 - ((arity ^ height)%:R)^-1)).",
     "(height ^ 3)%:R / (1 - ((arity ^ height)%:R)^-1)."),
    # a hypothesis dropped: for even k the offset window is not symmetric and the count differs (k = 4, h = 1)
    ("KaryMse.v", "Theorem lemma_4_7_mse arity height : (3 <= arity)%N -> odd arity -> (0 < height)%N ->",
     "Theorem lemma_4_7_mse arity height : (3 <= arity)%N -> (0 < height)%N ->"),
    # a constant: the factor 2 dropped (false: x = (0, 1, 1), y = (1, 0, 0), c = 2 gives IntOpt(y, c) = (2, 0, 0))
    ("TdaErrorStep.v", "  chebyshev x (output y final) <= 2 * chebyshev y x + `|c - sumz x|.",
     "  chebyshev x (output y final) <= chebyshev y x + `|c - sumz x|."),
    # a hypothesis dropped: true counts may not be negative (x = (−5, 5), y = x, c = 0: IntOpt gives (0, 0))
    ("TdaErrorStep.v", "  size x = size y -> all (fun v => 0 <= v) x ->\n  chebyshev x (output y final)",
     "  size x = size y ->\n  chebyshev x (output y final)"),
    # a constant: the total's error term dropped (false for y = x and c != Σx)
    ("TdaErrorStep.v", "  chebyshev x (output y final) <= 2 * chebyshev y x + `|c - sumz x|.",
     "  chebyshev x (output y final) <= 2 * chebyshev y x."),
    # a constant in Proof C.2's increment: (k + 1)/4 for (k + 2)/4 (k = 2, h = 1: c_1 = 3/4, the count is 1)
    ("KaryAppendixC.v", "    ((arity + 2)%:R / 4 + (arity * h)%:R / 4)", "    ((arity + 1)%:R / 4 + (arity * h)%:R / 4)"),
    # an index off by one: k h/4 for k (h − 1)/4 in the increment (false at h = 1)
    ("KaryAppendixC.v", "    ((arity + 2)%:R / 4 + (arity * h)%:R / 4)", "    ((arity + 2)%:R / 4 + (arity * h.+1)%:R / 4)"),
    # a hypothesis dropped: for odd k (k = 3, h = 2, T = 6) the count is an integer and c_2 = 87/8 is not
    ("KaryAppendixC.v", "(2 <= arity)%N -> ~~ odd arity ->\n", "(2 <= arity)%N ->\n"),
    # the horizon doubled: (k − 1)T = k(k^h − 1) (k = 4, h = 1: T = 4, the count is 4, c_1 = 3)
    ("KaryAppendixC.v", "  (2 * (arity - 1) * horizon = arity * (arity ^ height - 1))%N ->",
     "  ((arity - 1) * horizon = arity * (arity ^ height - 1))%N ->"),
    # the dimension dropped from the real bound: x = (0, 0), c = 2, y = (1, 1) has |c − Σx| = 2 > ‖x − y‖∞ = 1
    ("TdaIntOptBound.v", "  [/\\ `|c - sumz x| <= (size x)%:Z * chebyshev x y,", "  [/\\ `|c - sumz x| <= chebyshev x y,"),
    # the ceiling bound made strict: it is attained (x = (0), c = 1, y = (1): both 1)
    ("TdaIntOptBound.v", "      ceil_div `|c - sumz x| (size x) <= chebyshev x y",
     "      ceil_div `|c - sumz x| (size x) < chebyshev x y"),
    # a hypothesis dropped: y may not be negative (y = x = (5, −5), c = 0: −x_2 = 5 > ‖x − y‖∞ = 0)
    ("TdaIntOptBound.v", "size y = size x -> all (fun v => 0 <= v) y -> sumz y = c ->", "size y = size x -> sumz y = c ->"),
    # footnote 4 made strict: x = (0), c = 0 gives D = 0 = Σz
    ("TdaIntOptBound.v", "  deficit x c <= sumz (z_start x c) /\\", "  deficit x c < sumz (z_start x c) /\\"),
    # −min x dropped from the start's norm bound: x = (−5, 5), c = 0 gives z = (5, 0), ⌈|D|/d⌉ = 0
    ("TdaIntOptBound.v", "  maxabs (z_start x c) <= Num.max (ceil_div `|deficit x c| (size x)) (max0 [seq - v | v <- x]).",
     "  maxabs (z_start x c) <= ceil_div `|deficit x c| (size x)."),
    # the disjointness hypothesis dropped: S1 = S2 = (0) gives the diagonal entry 1 > 0
    ("CipLemmaB4.v", "  all (fun i => i < 2 ^ depth)%N S1 -> all (fun j => j < 2 ^ depth)%N S2 -> ~~ has (fun i => i \\in S2) S1 ->\n  sigma2 * set_covariance depth S1 S2 <= 0.",
     "  all (fun i => i < 2 ^ depth)%N S1 -> all (fun j => j < 2 ^ depth)%N S2 ->\n  sigma2 * set_covariance depth S1 S2 <= 0."),
    # the sign flipped: σ² = 1, S1 = (0), S2 = (1) at depth 1 give −1/2
    ("CipLemmaB4.v", "  sigma2 * set_covariance depth S1 S2 <= 0.", "  0 <= sigma2 * set_covariance depth S1 S2."),
    # strictness without non-empty lists: S1 empty gives 0
    ("CipLemmaB4.v", "  S1 != [::] -> S2 != [::] ->\n", "  S2 != [::] ->\n"),
    # Appendix E.5's coin with P(heads) = 1/(n + 1): single cells get 1/(n(n + 1)), half the uniform mass
    ("CipRangeSampling.v", "Definition heads_probability (n : nat) : rat := 2%:R / n.+1%:R.",
     "Definition heads_probability (n : nat) : rat := 1 / n.+1%:R."),
    # the tails branch returning [min, min]: a pair's span is not a single cell
    ("CipRangeSampling.v", "(minn ab.1 ab.2, maxn ab.1 ab.2).", "(minn ab.1 ab.2, minn ab.1 ab.2)."),
    # a constant: 1/(n(n + 1)) per range (the ranges would sum to 1/2)
    ("CipRangeSampling.v", "(i <= j < n)%N -> prob (sample_range n) (pred1 (i, j)) = 2%:R / (n * n.+1)%:R.",
     "(i <= j < n)%N -> prob (sample_range n) (pred1 (i, j)) = 1 / (n * n.+1)%:R."),
    # a hypothesis dropped: [i, j] with i > j is no range and has probability 0
    ("CipRangeSampling.v", "(i <= j < n)%N -> prob (sample_range n) (pred1 (i, j)) =",
     "(j < n)%N -> prob (sample_range n) (pred1 (i, j)) ="),
    # a hypothesis dropped: n = 0 has no range, the sum is 0
    ("CipRangeSampling.v", "Theorem probabilities_sum_to_one n : (0 < n)%N ->", "Theorem probabilities_sum_to_one n :"),
    # a constant: n² instead of n(n + 1) for twice the number of ranges
    ("CipRangeSampling.v", "Theorem range_count n : ((size (ranges n)).*2 = n * n.+1)%N.",
     "Theorem range_count n : ((size (ranges n)).*2 = n * n)%N."),
    # Appendix D.3's cells scaled by 1/3 instead of 1/4 in the printed table: the construction no longer gives it
    ("CipTwoByTwo.v", "Definition quarter (a b : rat) : q3 := (a / 4%:R, b / 4%:R).",
     "Definition quarter (a b : rat) : q3 := (a / 3%:R, b / 3%:R)."),
    # X10 built with + instead of −: X10 = X00, the column sum X00 + X10 has variance 4
    ("CipTwoByTwo.v", "Definition X10 := add_forms (scale one_half X0) (scale minus_half_root3 Xt0).",
     "Definition X10 := add_forms (scale one_half X0) (scale half_root3 Xt0)."),
    # a hypothesis dropped: read with s = 0 (not √3) the cell X00 has variance 1/16 + 9/16
    ("CipTwoByTwo.v", "Theorem unit_variances (R : numFieldType) (s : R) : s ^+ 2 = 3%:R ->\n",
     "Theorem unit_variances (R : numFieldType) (s : R) :\n"),
    # a constant: Equation (2)'s covariance −1/4 instead of −1/2
    ("CipTwoByTwo.v", "real_gram (map (interp s) X0) (map (interp s) X1) = - (1 / 2%:R).",
     "real_gram (map (interp s) X0) (map (interp s) X1) = - (1 / 4%:R)."),
    # C_1 with a positive off-diagonal entry: the cells' covariance is C_1 ⊗ C_1 with −1/2
    ("CipTwoByTwo.v", "Definition C1 (a b : nat) : rat := if a == b then 1 else - (1 / 2%:R).",
     "Definition C1 (a b : nat) : rat := if a == b then 1 else 1 / 2%:R."),
    # one noise value per non-zero digit (as without repeated steps): false for k = 5, t = 2 (digit 2: z_1, z_2)
    ("KaryTheorem11.v", "sumn (map absz (digits_of arity (arity %/ 2) height t)).",
     "count (fun d => d != 0) (digits_of arity (arity %/ 2) height t)."),
    # the standard digits for the offset ones: false for k = 3, h = 3, t = 8 (offset (1, 0, −1): 2 values; 22: 4)
    ("KaryTheorem11.v", "sumn (map absz (digits_of arity (arity %/ 2) height t)).",
     "sumn (map absz (digits_of arity arity.-1 height t))."),
    # distinct across outputs too: false, outputs 2 and 3 (k = 3, h = 2) both add z_3
    ("KaryTheorem11.v", "-> uniq (noise_indices arity (arity %/ 2) height t).",
     "-> uniq (noise_indices arity (arity %/ 2) height t ++ noise_indices arity (arity %/ 2) height t.+1)."),
    # distinct from a taller tree's walk: false, output 1 adds z_1 at every height
    ("KaryTheorem11.v", "-> uniq (noise_indices arity (arity %/ 2) height t).",
     "-> uniq (noise_indices arity (arity %/ 2) height t ++ noise_indices arity (arity %/ 2) height.+1 t)."),
    # a hypothesis dropped: ε = 0 makes ε²·MSE 0, while the count form is 2h²n(1) = 2 at T = 1 (k = 3, h = 1)
    ("KaryTheorem11.v", "Theorem algorithm_2_mse_scaled arity height (epsilon : rat) horizon : epsilon != 0 ->\n",
     "Theorem algorithm_2_mse_scaled arity height (epsilon : rat) horizon :\n"),
    # ε for ε²: false for ε = 2 whenever some output adds a noise value
    ("KaryTheorem11.v", "  epsilon ^+ 2 * algorithm_2_mse arity height epsilon horizon = algorithm_2_scaled_mse",
     "  epsilon * algorithm_2_mse arity height epsilon horizon = algorithm_2_scaled_mse"),
    # Laplace(b)'s variance b² instead of 2b²: ε²·MSE is twice h²S(T)/T (S(1) = 1 at k = 3)
    ("KaryTheorem11.v", "  (2 * height ^ 2 * digit_sum arity height horizon)%:R / horizon%:R.",
     "  (height ^ 2 * digit_sum arity height horizon)%:R / horizon%:R."),
    # the mean over t = 0..T (T + 1 outputs) instead of t = 1..T: false at T = 1 (2 against 1)
    ("KaryTheorem11.v", "  (2 * height ^ 2 * digit_sum arity height horizon)%:R / horizon%:R.",
     "  (2 * height ^ 2 * digit_sum arity height horizon)%:R / horizon.+1%:R."),
    # the leading term doubled, (k² − 1)h³/k: false for k = 3, T = 9842 (h = 10: distance 1466.5 > 1200)
    ("KaryTheorem11.v", "horizon ^ 3)%:R / (2 * arity)%:R|\n", "horizon ^ 3)%:R / arity%:R|\n"),
    # a hypothesis dropped: at ε = 0 ε²·MSE is 0, at distance 4h³/3 > 12h² from the centre once h >= 10 (k = 3)
    ("KaryTheorem11.v", "(0 < horizon)%N -> epsilon != 0 ->\n  `|epsilon", "(0 < horizon)%N ->\n  `|epsilon"),
    # a real shift for an integer one: Z(1/2) < Z(0) strictly (the theta function peaks at integer centres)
    ("DiscreteGaussianPrivacy.v", "Theorem gmass_shift m u : gmass (m + real_vector u) = gmass m.",
     "Theorem gmass_shift m (u : 'cV[R]_n) : gmass (m + u) = gmass m."),
    # the centre scaled as well as shifted: m = 1/2 gives Z(1) = Z(0) > Z(1/2)
    ("DiscreteGaussianPrivacy.v", "Theorem gmass_shift m u : gmass (m + real_vector u) = gmass m.",
     "Theorem gmass_shift m u : gmass (2 *: m + real_vector u) = gmass m."),
    # the summability bound without the 1/2: x = 1, c = 0, sigma = 1 gives -1/2 > -1
    ("DiscreteGaussianPrivacy.v", "  - (x - c) ^+ 2 / (2 * sigma ^+ 2) <= (2^-1 + `|c| / sigma) - `|x| / sigma.",
     "  - (x - c) ^+ 2 / (2 * sigma ^+ 2) <= `|c| / sigma - `|x| / sigma."),
    # the weight growing instead of decaying: exp(+||z - m||^2 / (2 sigma^2)) has an infinite sum
    ("DiscreteGaussianPrivacy.v",
     "Definition gweight (m : 'cV[R]_n) (z : 'cV[int]_n) : R := expR (- sqdist z m / (2 * sigma ^+ 2)).",
     "Definition gweight (m : 'cV[R]_n) (z : 'cV[int]_n) : R := expR (sqdist z m / (2 * sigma ^+ 2))."),
    # the privacy loss's denominator without its 2 (mu = 1, nu = 0, z = 1: 1/(2 sigma^2), not 1/sigma^2)
    ("DiscreteGaussianPrivacy.v",
     "  ln (gprob mu z / gprob nu z) = (loss_numerator mu nu z)%:~R / (2 * sigma ^+ 2).",
     "  ln (gprob mu z / gprob nu z) = (loss_numerator mu nu z)%:~R / sigma ^+ 2."),
    # the loss's affine factor with a wrong sign: mu = 0, nu = 1, z = 0 has numerator (0 - 1)(0 - 0 - 1) = 1, the
    # mutant's (0 - 1)(0 - 0 + 1) = -1
    ("DiscreteGaussianPrivacy.v", "  \\sum_(i < n) (mu i ord0 - nu i ord0) * (2 * z i ord0 - mu i ord0 - nu i ord0).",
     "  \\sum_(i < n) (mu i ord0 - nu i ord0) * (2 * z i ord0 - mu i ord0 + nu i ord0)."),
    # the order's factor k replaced by k - 1 (the divergence of order 2 at mu - nu = 1 is 2/(2 sigma^2))
    ("DiscreteGaussianPrivacy.v", "  renyi k%:~R mu nu = k%:~R * (sqnorm (mu - nu))%:~R / (2 * sigma ^+ 2).",
     "  renyi k%:~R mu nu = (k%:~R - 1) * (sqnorm (mu - nu))%:~R / (2 * sigma ^+ 2)."),
    # the order's hypothesis dropped: at k = 1 the defining quotient is ln(1)/0 = 0, not ||mu - nu||^2/(2 sigma^2)
    ("DiscreteGaussianPrivacy.v", "Theorem renyi_integer_order (k : int) mu nu : 1 < k ->\n",
     "Theorem renyi_integer_order (k : int) mu nu :\n"),
    # the theta term with its sign flipped: false wherever Z(m) != Z(0) (alpha = 3/2, mu - nu = 1)
    ("DiscreteGaussianPrivacy.v", "    + ln (fine (gmass (centre alpha mu nu)) / fine (gmass 0)) / (alpha - 1).",
     "    - ln (fine (gmass (centre alpha mu nu)) / fine (gmass 0)) / (alpha - 1)."),
    # the order 1 allowed: the defining quotient is then 0 (x / 0 = 0), the right side ||mu - nu||^2/(2 sigma^2)
    ("DiscreteGaussianPrivacy.v", "Theorem renyi_real_order alpha mu nu : alpha != 1 ->\n",
     "Theorem renyi_real_order alpha mu nu :\n"),
    # rho k replaced by rho (k - 1): attained with equality when ||f x - f x'||^2 = Delta^2
    ("DiscreteGaussianPrivacy.v", "  renyi k%:~R (f x) (f x') <= rho * k%:~R.",
     "  renyi k%:~R (f x) (f x') <= rho * (k%:~R - 1)."),
    # neighbours allowed twice the squared sensitivity with rho unchanged: ||f x - f x'||^2 = 2 Delta^2 gives 2 rho k
    ("DiscreteGaussianPrivacy.v", "adj x x' -> (sqnorm (f x - f x'))%:~R <= Delta ^+ 2.",
     "adj x x' -> (sqnorm (f x - f x'))%:~R <= 2 * Delta ^+ 2."),
    # zCDP without the order: D_alpha <= rho fails for alpha = 2 at equality sensitivity
    ("DiscreteGaussianPrivacy.v", "  forall alpha, 1 < alpha -> renyi alpha (f x) (f x') <= rho * alpha.",
     "  forall alpha, 1 < alpha -> renyi alpha (f x) (f x') <= rho."),
    # rho halved: Delta^2/(4 sigma^2) is below the divergence of order 2 at equality sensitivity
    ("DiscreteGaussianPrivacy.v", "Definition rho : R := Delta ^+ 2 / (2 * sigma ^+ 2).",
     "Definition rho : R := Delta ^+ 2 / (4 * sigma ^+ 2)."),
    # the mass of Z^(1+n) as a sum of the masses instead of their product
    ("DiscreteGaussianPrivacy.v", "  gmass sigma (col_mx c m) = (gmass sigma c * gmass sigma m)%E.",
     "  gmass sigma (col_mx c m) = (gmass sigma c + gmass sigma m)%E."),
    # the mass of Z^(1+n) without the factor of Z^n (m = 0, n = 1: Z(0)^2 is not Z(0), Z(0) > 1)
    ("DiscreteGaussianPrivacy.v", "  gmass sigma (col_mx c m) = (gmass sigma c * gmass sigma m)%E.",
     "  gmass sigma (col_mx c m) = gmass sigma c."),
    # the one-dimensional premise's zCDP without the order
    ("DiscreteGaussianPrivacy.v", "  forall alpha, 1 < alpha -> renyi sigma alpha (f x) (f x') <= rho sigma Delta * alpha.",
     "  forall alpha, 1 < alpha -> renyi sigma alpha (f x) (f x') <= rho sigma Delta."),
    # its neighbours allowed twice the squared sensitivity with rho unchanged
    ("DiscreteGaussianPrivacy.v", "  (forall x x', adj x x' -> (sqnorm (f x - f x'))%:~R <= Delta ^+ 2) ->",
     "  (forall x x', adj x x' -> (sqnorm (f x - f x'))%:~R <= 2 * Delta ^+ 2) ->"),
    # the coordinates' divergences at the order k + 1: each is larger, the sum exceeds the divergence on Z^n
    ("DiscreteGaussianPrivacy.v",
     "  1 < k -> renyi sigma k%:~R mu nu = \\sum_(i < n) renyi sigma k%:~R (coordinate mu i) (coordinate nu i).",
     "  1 < k -> renyi sigma k%:~R mu nu = \\sum_(i < n) renyi sigma (k + 1)%:~R (coordinate mu i) (coordinate nu i)."),
    # each coordinate compared with itself: the sum is 0, the divergence on Z^n is not when mu != nu
    ("DiscreteGaussianPrivacy.v",
     "  1 < k -> renyi sigma k%:~R mu nu = \\sum_(i < n) renyi sigma k%:~R (coordinate mu i) (coordinate nu i).",
     "  1 < k -> renyi sigma k%:~R mu nu = \\sum_(i < n) renyi sigma k%:~R (coordinate mu i) (coordinate mu i)."),
]


@pytest.mark.parametrize(("file", "original", "mutated"), MUTATIONS)
def test_a_weakened_statement_does_not_compile(
    coq_build: Build, tmp_path: Path, file: str, original: str, mutated: str
) -> None:
    """Only the mutated file is compiled: the files it imports come compiled from the session's build (which must
    be complete, or a missing import would fail the mutant for the wrong reason)."""
    assert coq_build.ok, "the unmutated development does not compile"
    source = _directory() / file
    text = source.read_text(encoding="utf-8")
    assert text.count(original) == 1, f"the mutation's target is not in {file} exactly once"
    project = read_project(_directory())
    for name in project.files:
        shutil.copy2(_directory() / name, tmp_path / name)
    shutil.copy2(_directory() / "_CoqProject", tmp_path / "_CoqProject")
    (tmp_path / file).write_text(text.replace(original, mutated), encoding="utf-8")
    build = compile_all(source=tmp_path, build_directory=tmp_path / "build", only=[file], prebuilt=coq_build)
    assert not build.ok, f"{file} still compiles after replacing {original!r} by {mutated!r}"
    assert build.files[-1].file == file and not build.files[-1].signal
    # failed on the statement, not on an import the prebuilt files should have provided
    assert "physical path" not in build.files[-1].output and "Unable to locate" not in build.files[-1].output


def test_the_audit_theorems_use_exactly_the_library_axioms(coq_build: Build) -> None:
    """The discrete Laplace theorems behind the audit: compiled, and Print Assumptions names exactly the three
    classical axioms of mathcomp-analysis's boolp (LIBRARY_AXIOMS), none of the project's own."""
    found = machine_checked(list(AUDIT_THEOREMS), coq_build)
    for theorem in AUDIT_THEOREMS:
        assert found[theorem].verdict == LIBRARY_AXIOMS_ONLY, (theorem.name, found[theorem])
        assert not found[theorem].failed
    answers = assumptions(coq_build, list(AUDIT_THEOREMS))
    for theorem in AUDIT_THEOREMS:
        assert axiom_names(answers[theorem]) == sorted(LIBRARY_AXIOMS[theorem.file]), answers[theorem]


def test_a_further_axiom_or_another_file_fails_the_library_allowance(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the listed axioms, and only in the file listed: an extra axiom, or the same axioms in a file whose
    theorems must be closed, is "depends on axioms"."""
    import reference_verification.coq as coq

    allowed = "Axioms:\n" + "\n".join(f"{name} : P" for name in LIBRARY_AXIOMS["DiscreteLaplacePrivacy.v"])
    extra = allowed + "\nReference.DiscreteLaplacePrivacy.wish\n  : 1 = 2"
    audit = AUDIT_THEOREMS[0]
    registered = _registered()[0]
    monkeypatch.setattr(coq, "coq_missing", lambda: None)
    monkeypatch.setattr(coq, "coq_version", lambda: "coq")
    build = Build(read_project(_directory()), _directory(),
                  tuple(coq.FileResult(name, True, 0.0, "") for name in read_project(_directory()).files))
    for answer, theorem, verdict in ((allowed, audit, LIBRARY_AXIOMS_ONLY), (extra, audit, "depends on axioms"),
                                     (allowed, registered, "depends on axioms")):
        monkeypatch.setattr(coq, "assumptions", lambda _build, names, text=answer: {name: text for name in names})
        found = machine_checked([theorem], build)[theorem]
        assert found.verdict == verdict, (theorem.name, answer, found)
    assert axiom_names(extra)[-1] == "boolp.propositional_extensionality"
    assert "Reference.DiscreteLaplacePrivacy.wish" in axiom_names(extra)
    assert axiom_names(CLOSED) == []


def test_without_coqc_the_report_says_not_compiled_here(monkeypatch: pytest.MonkeyPatch) -> None:
    import reference_verification.coq as coq

    monkeypatch.setattr(coq, "coq_missing", lambda: "coqc is not installed")
    for theorem, found in machine_checked(_registered()).items():
        assert found.verdict == "not compiled here", (theorem.name, found)
        assert "apt-get install" in found.detail


def test_a_missing_library_is_named_and_nothing_is_compiled(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """coqc without mathcomp-analysis (the discrete Laplace theorem's sums over sets): not compiled here, naming
    the library and the install command, rather than a file that does not compile."""
    import reference_verification.coq as coq

    fake = tmp_path / "coqc"
    fake.write_text(f"#!/bin/sh\necho {tmp_path}\n")
    fake.chmod(0o755)
    for library in coq.COQ_LIBRARIES[:-1]:
        (tmp_path / "user-contrib" / library).mkdir(parents=True)
    monkeypatch.setattr(coq, "coqc_path", lambda: str(fake))
    monkeypatch.setenv("COQPATH", "")
    assert coq.coq_missing() == "coqc is installed but not mathcomp/analysis"
    for found in machine_checked(_registered()).values():
        assert found.verdict == "not compiled here" and "mathcomp/analysis" in found.detail
    (tmp_path / "user-contrib" / "mathcomp" / "analysis").mkdir()
    assert coq.coq_missing() is None


def test_a_missing_theorem_fails_the_report() -> None:
    ghost = CoqTheorem("KaryDigits.v", "no_such_theorem", "nothing")
    found = machine_checked([ghost])[ghost]
    assert found.verdict == "missing" and found.failed


def test_without_coqc_ci_fails_and_local_skips(monkeypatch: pytest.MonkeyPatch) -> None:
    import conftest  # the tests/coq conftest, on sys.path while these tests run

    monkeypatch.setattr(conftest, "coq_missing", lambda: "coqc is not installed")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true"):
        conftest.require_coqc()
    monkeypatch.setenv("CI", "")
    with pytest.raises(pytest.skip.Exception, match="apt-get install"):
        conftest.require_coqc()


def test_outside_the_checkout_the_report_says_not_compiled_here(monkeypatch: pytest.MonkeyPatch) -> None:
    import reference_verification.coq as coq

    monkeypatch.setattr(coq, "proofs_directory", lambda: None)
    for found in machine_checked(_registered()).values():
        assert found.verdict == "not compiled here" and not found.failed


def test_a_run_that_compiles_nothing_says_so_and_fails(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    import reference_verification.coq as coq

    monkeypatch.setattr(coq, "proofs_directory", lambda: None)
    monkeypatch.setattr(coq, "coq_missing", lambda: None)
    assert coq.main() == 2
    assert "nothing was compiled" in capsys.readouterr().err
    monkeypatch.setattr(coq, "coq_missing", lambda: "coqc is not installed")
    assert coq.main() == 2
    assert "nothing was compiled" in capsys.readouterr().err


def test_the_sources_ship_with_the_package() -> None:
    """setup.py maps proofs/coq into the verification package, with every file _CoqProject lists."""
    root = Path(__file__).resolve().parents[2]
    setup = (root / "setup.py").read_text(encoding="utf-8")
    pyproject = (root / "pyproject.toml").read_text(encoding="utf-8")
    assert '"proofs/coq"' in setup and '"reference_verification.coq_sources" = ["*.v", "_CoqProject"]' in pyproject
    project = read_project(root / "proofs" / "coq")
    assert project.files and all((root / "proofs" / "coq" / name).is_file() for name in project.files)
