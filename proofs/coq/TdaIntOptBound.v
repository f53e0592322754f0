(** * TDA Section 3: IntOpt's lower bound and line 2's start (footnote 4).

    The problem P(x, c): a non-negative integer vector y with Σy = c at least ℓ∞ distance α from x.  The paper:
    "α >= max(|c − Σx_i| / dim(x), −min_i x_i) in the real domain, which translates to a lower bound in the
    integer domain by taking the ceiling"; line 2's z = max(⌈(c − Σx)/d⌉, −x) has ‖z‖∞ no greater than
    max(⌈|c − Σx|/d⌉, −min_i x_i), and Σz >= c − Σx (footnote 4).  Proved here ([Print Assumptions] closed), for
    every d >= 1, every integer vector x and every total c:
    - [ceil_div_ge], [ceil_div_le]: ⌈a/d⌉ ([ceil_div] of IntOpt.v) is the least integer b with a <= d b;
    - [intopt_lower_bound]: every non-negative integer y with d entries and Σy = c has |c − Σx| <= d ‖x − y‖∞
      (the real bound), so ⌈|c − Σx|/d⌉ <= ‖x − y‖∞ (the integer one), and −x_i <= ‖x − y‖∞ for every i;
    - [line_2_start]: Σz >= c − Σx, and ‖z‖∞ <= max(⌈|c − Σx|/d⌉, max(0, −min_i x_i)) (the 0 changes nothing:
      the ceiling is >= 0). *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint intdiv.
From mathcomp Require Import zify.
From Reference Require Import ZifyOpaque IntOpt.
Import GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

Lemma ceil_div_ge a (d : nat) : (0 < d)%N -> a <= d%:Z * ceil_div a d.
Proof.
move=> pos; have d0 : d%:Z != 0 by rewrite eqz_nat -lt0n.
have := lez_floor (- a) d0; rewrite /ceil_div; set q := ((- a) %/ d%:Z)%Z => le.
by rewrite mulrN mulrC; lia.
Qed.

Lemma ceil_div_le a (d : nat) (alpha : int) : (0 < d)%N -> a <= d%:Z * alpha -> ceil_div a d <= alpha.
Proof.
move=> pos le; have dpos : 0 < d%:Z by rewrite ltz_nat.
have : - alpha <= ((- a) %/ d%:Z)%Z by rewrite lez_divRL // mulNr mulrC ler_opp2.
by rewrite /ceil_div; lia.
Qed.

(** The differences y - x, summed: Σy − Σx, each within ‖x − y‖∞. *)
Lemma sum_within x y : size y = size x ->
  `|sumz y - sumz x| <= (size x)%:Z * chebyshev x y.
Proof.
move=> same; set D := [seq p.1 - p.2 | p <- zip y x].
have sizeD : size D = size x by rewrite size_map size_zip same minnn.
have entry : forall i, (i < size D)%N -> `|nth 0 D i| <= chebyshev x y.
  move=> i lt; rewrite sizeD in lt; rewrite (nth_zip_map (fun a b => a - b) same) ?same // distrC.
  exact: chebyshev_ge.
have upper : sumz D <= (size D)%:Z * chebyshev x y.
  by apply: sumz_le_const => i lt; have := entry i lt; lia.
have lower : (size D)%:Z * (- chebyshev x y) <= sumz D.
  by apply: sumz_ge_const => i lt; have := entry i lt; lia.
rewrite (sumz_minus same) sizeD in upper lower; lia.
Qed.

(** TDA Section 3's lower bound, for every feasible y of problem (1). *)
Theorem intopt_lower_bound x y c :
  (0 < size x)%N -> size y = size x -> all (fun v => 0 <= v) y -> sumz y = c ->
  [/\ `|c - sumz x| <= (size x)%:Z * chebyshev x y,
      ceil_div `|c - sumz x| (size x) <= chebyshev x y
    & forall i, (i < size x)%N -> - nth 0 x i <= chebyshev x y].
Proof.
move=> pos same y0 total; have real : `|c - sumz x| <= (size x)%:Z * chebyshev x y by rewrite -total sum_within.
split => //; first exact: ceil_div_le.
move=> i lt; have := chebyshev_ge (esym same) lt; have := (all_nthP 0 y0) i (ltac:(by rewrite same)).
by clear; move=> /= y_i x_i; ilia.
Qed.

Lemma max0_ge0 (s : seq int) : 0 <= max0 s.
Proof. by elim: s => [|a s IH] //=; lia. Qed.

(** Line 2's start and footnote 4. *)
Theorem line_2_start x c : (0 < size x)%N ->
  deficit x c <= sumz (z_start x c) /\
  maxabs (z_start x c) <= Num.max (ceil_div `|deficit x c| (size x)) (max0 [seq - v | v <- x]).
Proof.
move=> pos; set D := deficit x c; set B := ceil_div D (size x); set C := ceil_div `|D| (size x).
set M := max0 [seq - v | v <- x].
have geB := ceil_div_ge D pos; have geC := ceil_div_ge `|D| pos; rewrite -/B -/C in geB geC.
have dpos : 0 < (size x)%:Z by rewrite ltz_nat.
(* -C <= B <= C: the start's common value is at most the ceiling of |D| / d in size *)
have B_le : B <= C by apply: ceil_div_le => //; apply: (Order.POrderTheory.le_trans (ler_norm D)).
have B_ge : - C <= B.
  have : 0 <= (size x)%:Z * (B + C) by rewrite mulrDr; move: geB geC; clear; lia.
  by rewrite pmulr_rge0 //; lia.
split.
- apply: (Order.POrderTheory.le_trans geB); rewrite /z_start -/B.
  by apply: sumz_map_ge => v; rewrite Order.TotalTheory.le_maxr Order.POrderTheory.lexx.
- have M0 := max0_ge0 [seq - v | v <- x].
  apply: maxabs_le; first by rewrite -/M; lia.
  move=> i; rewrite size_map => lt; rewrite (nth_map 0) //.
  have := max0_ge (s := [seq - v | v <- x]) (i := i); rewrite size_map (nth_map 0) // -/M => /(_ lt).
  rewrite -/B -/M in M0 *; clearbody B C M; move: B_le B_ge M0; clear; ilia.
Qed.
