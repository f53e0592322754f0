(** * TDA Appendix A, the error step: ‖x - IntOpt(y, c)‖∞ <= 2‖y - x‖∞ + |c - Σx| for true counts x >= 0.

    IntOpt.v's loop ([run], [output]) returns, when it stops, non-negative integers summing to c at minimal ℓ∞
    distance from its input y ([intopt_optimal], for every order of line 4).  Proved here ([Print Assumptions]
    closed), for every noisy input y (d >= 1 entries), every total c >= 0 (for c < 0 the loop never stops,
    [intopt_diverges]) and every vector x of d non-negative integers (the true counts):
    - [adjust_close]: some non-negative integer vector w with total c lies within |c - Σx| of x ([adjust]: raise
      the first count by c - Σx, or lower the counts in turn, each by at most what it holds);
    - [chebyshev_triangle], [chebyshev_sym]: ℓ∞ distance is a metric on vectors of one length;
    - [appendix_a_error_step]: ‖x - z‖∞ <= ‖x - y‖∞ + ‖y - z‖∞ <= ‖x - y‖∞ + ‖y - w‖∞
      <= 2‖y - x‖∞ + ‖x - w‖∞ <= 2‖y - x‖∞ + |c - Σx|, z the output. *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint.
From mathcomp Require Import zify.
From Reference Require Import ZifyOpaque IntOpt.
Import GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

(** Lower the counts in turn by r in total, each by at most what it holds. *)
Fixpoint lower (u : seq int) (r : int) : seq int :=
  if u is a :: u' then (a - Num.min a r) :: lower u' (r - Num.min a r) else [::].

(** A non-negative integer vector with total c near u: raise the first count, or lower them. *)
Definition adjust (u : seq int) (c : int) : seq int :=
  if sumz u <= c then (if u is a :: u' then (a + (c - sumz u)) :: u' else u) else lower u (sumz u - c).

Lemma sumz_ge0 (u : seq int) : all (fun v => 0 <= v) u -> 0 <= sumz u.
Proof. by elim: u => [|a u IH] //= /andP [a0 /IH]; lia. Qed.

Lemma size_lower u r : size (lower u r) = size u.
Proof. by elim: u r => [|a u IH] r //=; rewrite IH. Qed.

Lemma lower_ge0 u r : all (fun v => 0 <= v) u -> 0 <= r -> all (fun v => 0 <= v) (lower u r).
Proof. by elim: u r => [|a u IH] r //= /andP [a0 u0] r0; rewrite IH ?andbT //; lia. Qed.

Lemma lower_sum u r : all (fun v => 0 <= v) u -> 0 <= r <= sumz u -> sumz (lower u r) = sumz u - r.
Proof.
elim: u r => [|a u IH] r /=; first by lia.
move=> /andP [a0 u0] range; have s0 := sumz_ge0 u0.
rewrite IH //; first by lia.
by move: range; clear -a0 s0; lia.
Qed.

Lemma lower_close u r : all (fun v => 0 <= v) u -> 0 <= r -> chebyshev u (lower u r) <= r.
Proof.
elim: u r => [|a u IH] r //= /andP [a0 u0] r0.
set r' := (X in lower u X); set m := (X in `|a - (a - X)|).
have e : r' = r - m by [].
have m_range : 0 <= m <= Num.min a r by rewrite /m; clear -a0 r0; lia.
have := IH r' u0 (ltac:(rewrite e; clear -m_range r0; lia)).
clearbody r' m; clear IH u0; lia.
Qed.

Lemma chebyshev_refl u : chebyshev u u = 0.
Proof. by elim: u => [|a u IH] //=; rewrite IH subrr normr0; lia. Qed.

Lemma chebyshev_sym a b : chebyshev a b = chebyshev b a.
Proof. by elim: a b => [|p a IH] [|q b] //=; rewrite IH distrC. Qed.

Lemma chebyshev_triangle a b c : size a = size b -> size b = size c ->
  chebyshev a c <= chebyshev a b + chebyshev b c.
Proof.
elim: a b c => [|p a IH] [|q b] [|s c] //= [same1] [same2].
have := IH b c same1 same2; have := ler_dist_add q p s; lia.
Qed.

(** Some non-negative integer vector with d entries and total c >= 0 lies within |c - Σu| of u. *)
Lemma adjust_close u c : (0 < size u)%N -> all (fun v => 0 <= v) u -> 0 <= c ->
  [/\ size (adjust u c) = size u, all (fun v => 0 <= v) (adjust u c), sumz (adjust u c) = c
    & chebyshev u (adjust u c) <= `|c - sumz u|].
Proof.
move=> nonempty u0 c0; rewrite /adjust; case: ifP => above.
- case: u nonempty u0 above => [|a u] //= _ /andP [a0 u0] above.
  by rewrite u0 chebyshev_refl andbT; split => //; lia.
- have r0 : 0 <= sumz u - c <= sumz u by move: above; lia.
  rewrite size_lower lower_ge0 // ?lower_sum //; last by lia.
  split => //; first by lia.
  by apply: (Order.POrderTheory.le_trans (lower_close u0 _)); lia.
Qed.

(** TDA Appendix A's error step, for every order of line 4 and every stopping run of the loop. *)
Theorem appendix_a_error_step y x c order fuel final :
  (0 < size y)%N -> perm_eq order (iota 0 (size y)) -> 0 <= c ->
  run y c order fuel (start y c) = Some final ->
  size x = size y -> all (fun v => 0 <= v) x ->
  chebyshev x (output y final) <= 2 * chebyshev y x + `|c - sumz x|.
Proof.
move=> nonempty perm c0 ran same x0.
have [size_z _ _] := intopt_output_valid nonempty perm c0 ran.
have x_pos : (0 < size x)%N by rewrite same.
have [size_w w0 sum_w close] := adjust_close x_pos x0 c0.
have size_wy : size (adjust x c) = size y by rewrite size_w same.
have opt := intopt_optimal nonempty perm ran size_wy w0 sum_w.
have t1 := chebyshev_triangle (b := y) (c := output y final) same (esym size_z).
have t2 := chebyshev_triangle (a := y) (b := x) (c := adjust x c) (esym same) (esym size_w).
rewrite (chebyshev_sym x y) in t1.
move: t1 t2 opt close; clear; lia.
Qed.
