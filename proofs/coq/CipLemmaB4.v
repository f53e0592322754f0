(** * CIP Lemma B.4: sums of the noise over disjoint leaf sets have non-positive covariance.

    Under the noise Z ~ N(0, σ² C_D) (CipMatrix.v's [cov]) the covariance of Z_1 = Σ_(i ∈ S1) Z_i and
    Z_2 = Σ_(j ∈ S2) Z_j is σ² Σ_(i ∈ S1, j ∈ S2) C_D(i, j) (bilinearity: what a covariance matrix is);
    [set_covariance] is that double sum.  The printed proof argues from "only positive entries on the diagonal";
    the sign of the off-diagonal entries is what the sum needs ([covariance_off_diagonal_negative] of
    CipMatrix.v: C_D(i, j) < 0 for i <> j).  Proved ([Print Assumptions] closed), for every depth D, every σ² >= 0
    and all lists S1, S2 of leaves < 2^D with no leaf in both:
    - [lemma_b4]: σ² Σ_(i ∈ S1, j ∈ S2) C_D(i, j) <= 0;
    - [lemma_b4_strict]: and < 0 when σ² > 0 and both lists are non-empty (so "<= 0" cannot be improved to
      "= 0" for any non-empty pair). *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint rat.
From Reference Require Import CipMatrix.
Import GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

(** Σ_(i ∈ S1, j ∈ S2) C_D(i, j): the covariance of the two sums at σ² = 1.  Folds, so that Coq computes it
    (a big operator is locked); [set_covariance_big] gives the sum. *)
Definition row_sum (depth i : nat) (S2 : seq nat) : rat := foldr (fun j acc => cov depth i j + acc) 0 S2.
Definition set_covariance (depth : nat) (S1 S2 : seq nat) : rat :=
  foldr (fun i acc => row_sum depth i S2 + acc) 0 S1.

Lemma set_covariance_big depth S1 S2 :
  set_covariance depth S1 S2 = \sum_(i <- S1) \sum_(j <- S2) cov depth i j.
Proof.
have row : forall i, row_sum depth i S2 = \sum_(j <- S2) cov depth i j.
  by move=> i; elim: S2 => [|j S2 IH]; rewrite ?big_nil ?big_cons //= IH.
by elim: S1 => [|i S1 IH]; rewrite ?big_nil ?big_cons //= IH row.
Qed.

(** A sum of negative terms over a non-empty list is negative; over any list, non-positive. *)
Lemma sum_neg (r : seq nat) (F : nat -> rat) : (forall i, i \in r -> F i < 0) ->
  \sum_(i <- r) F i <= 0 /\ (r != [::] -> \sum_(i <- r) F i < 0).
Proof.
elim: r => [|a r IH] neg; first by rewrite big_nil.
have [le _] := IH (fun i mem => neg i (ltac:(by rewrite in_cons mem orbT))).
have Fa : F a < 0 by apply: neg; rewrite mem_head.
have lt : F a + \sum_(i <- r) F i < 0 by rewrite -[0](addr0 0); apply: ltr_le_add.
by rewrite big_cons; split => //; apply: Order.POrderTheory.ltW.
Qed.

Lemma inner_neg depth (S1 S2 : seq nat) :
  all (fun i => i < 2 ^ depth)%N S1 -> all (fun j => j < 2 ^ depth)%N S2 -> ~~ has (fun i => i \in S2) S1 ->
  S2 != [::] -> forall i, i \in S1 -> \sum_(j <- S2) cov depth i j < 0.
Proof.
move=> /allP lt1 /allP lt2 /hasPn apart nonempty i i_in.
have neg : forall j, j \in S2 -> cov depth i j < 0.
  move=> j j_in; apply: covariance_off_diagonal_negative; [exact: lt1 | exact: lt2 |].
  by apply/eqP => same; move: (apart i i_in); rewrite same j_in.
by have [_ strict] := sum_neg neg; apply: strict.
Qed.

(** CIP Lemma B.4 for every depth, σ² >= 0 and disjoint leaf lists. *)
Theorem lemma_b4 depth (S1 S2 : seq nat) (sigma2 : rat) : 0 <= sigma2 ->
  all (fun i => i < 2 ^ depth)%N S1 -> all (fun j => j < 2 ^ depth)%N S2 -> ~~ has (fun i => i \in S2) S1 ->
  sigma2 * set_covariance depth S1 S2 <= 0.
Proof.
move=> s0 all1 all2 apart; rewrite set_covariance_big.
have [-> | nonempty] := eqVneq S2 [::].
  by rewrite (eq_bigr (fun _ => 0)) ?big1 ?mulr0 // => i _; rewrite big_nil.
have [le _] := sum_neg (inner_neg all1 all2 apart nonempty).
by rewrite mulr_ge0_le0.
Qed.

Theorem lemma_b4_strict depth (S1 S2 : seq nat) (sigma2 : rat) : 0 < sigma2 ->
  all (fun i => i < 2 ^ depth)%N S1 -> all (fun j => j < 2 ^ depth)%N S2 -> ~~ has (fun i => i \in S2) S1 ->
  S1 != [::] -> S2 != [::] ->
  sigma2 * set_covariance depth S1 S2 < 0.
Proof.
move=> s0 all1 all2 apart ne1 ne2; rewrite set_covariance_big.
have [_ lt] := sum_neg (inner_neg all1 all2 apart ne2).
by rewrite pmulr_rlt0 // lt.
Qed.
