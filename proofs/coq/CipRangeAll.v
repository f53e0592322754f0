(** * CIP: the exact maximum range variance of C_D over ALL ranges, machine-checked.

    [rv D x len] is the variance of the sum of the leaves x .. x + len - 1 of N(0, C_D) (the sum of that block of
    [cov D]).  With [crossing_maximum] (CipRangeMax.v) for the ranges that cross the middle, this file adds the
    reflection symmetry of C_D, the reduction of every range of C_(D+1) to a range of C_D or a crossing one, and the
    induction on the depth.

    Proved ([Print Assumptions] closed):
    - [cov_reflect]: C_D(2^D - 1 - i, 2^D - 1 - j) = C_D(i, j);
    - [range_split]: a range of C_(D+1) containing the middle has variance crossing_variance D l1 l2, l1 = 2^D - x,
      l2 = x + len - 2^D;
    - [max_range_variance]: for every D >= 1 and every range (x + len <= 2^D), rv D x len <= (6D + 4)/9 - 4^(1-D)/9,
      with equality at the range [J, 2^D - 1 - J] of length 2 A (D - 1), J = 2^(D-1) - A (D-1)
      ([max_range_variance_attained]).
    The uniqueness of the maximiser: CipRangeUnique.v. *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint rat.
From mathcomp Require Import ring zify.
From Reference Require Import ZifyOpaque.
From Reference Require Import CipMatrix CipRangeMax.
Import Order.TTheory GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

Definition rv (D x len : nat) : rat := \sum_(i < len) \sum_(j < len) cov D (x + i) (x + j).

Definition cbound (D : nat) : rat := (6%:R * D%:R + 4%:R) / 9%:R - 4%:R / (9%:R * (pow2 D * pow2 D)).

(** ** Reflection *)

Lemma reflect_low D i : (i < 2 ^ D)%N -> (2 ^ D.+1 - i.+1 = 2 ^ D + (2 ^ D - i.+1))%N.
Proof. rewrite expnS mul2n -addnn => lt; rewrite addnBA //. Qed.

Lemma reflect_high D i : (i < 2 ^ D)%N -> (2 ^ D.+1 - (2 ^ D + i).+1 = 2 ^ D - i.+1)%N.
Proof. by rewrite expnS mul2n -addnn -addnS subnDl. Qed.

Lemma reflect_lt D i : (2 ^ D - i.+1 < 2 ^ D)%N.
Proof. by rewrite ltn_subrL expn_gt0. Qed.

Theorem cov_reflect D i j : (i < 2 ^ D)%N -> (j < 2 ^ D)%N -> cov D (2 ^ D - i.+1) (2 ^ D - j.+1) = cov D i j.
Proof.
elim: D i j => [|D IH] i j lti ltj //.
have r := reflect_lt D.
case: (split_leaf lti) => [li | [i' li ->]]; case: (split_leaf ltj) => [lj | [j' lj ->]].
- by rewrite !reflect_low // cov_hh // IH // cov_ll.
- by rewrite reflect_low // reflect_high // cov_hl // cov_lh.
- by rewrite reflect_high // reflect_low // cov_lh // cov_hl.
- by rewrite !reflect_high // cov_ll // IH // cov_hh.
Qed.

Lemma suffix_variance K l : (l <= 2 ^ K)%N ->
  \sum_(i < l) \sum_(j < l) cov K (2 ^ K - l + i) (2 ^ K - l + j) = pv K l.
Proof.
move=> le; rewrite /pv (reindex_inj rev_ord_inj) /=; apply: eq_bigr => i _.
rewrite (reindex_inj rev_ord_inj) /=; apply: eq_bigr => j _.
have e : forall k : 'I_l, (2 ^ K - l + (l - k.+1) = 2 ^ K - k.+1)%N.
  by move=> k; have := ltn_ord k; lia.
by rewrite !e cov_reflect // (leq_trans (ltn_ord _) le).
Qed.

(** ** Ranges of C_(D+1) *)

Lemma range_low D x len : (x + len <= 2 ^ D)%N -> rv D.+1 x len = rv D x len.
Proof.
move=> le; apply: eq_bigr => i _; apply: eq_bigr => j _; rewrite cov_ll //.
  by apply: leq_trans le; rewrite ltn_add2l.
by apply: leq_trans le; rewrite ltn_add2l.
Qed.

Lemma range_high D x len : (2 ^ D <= x)%N -> (x + len <= 2 ^ D.+1)%N -> rv D.+1 x len = rv D (x - 2 ^ D) len.
Proof.
move=> ge le; apply: eq_bigr => i _; apply: eq_bigr => j _.
have e : forall k : 'I_len, (x + k = 2 ^ D + (x - 2 ^ D + k))%N by move=> k; lia.
have lt : forall k : 'I_len, (x - 2 ^ D + k < 2 ^ D)%N.
  by move=> k; have := ltn_ord k; move: le; rewrite expnS; lia.
by rewrite (e i) (e j) cov_hh.
Qed.

Lemma sum_const_plus' n c (F : nat -> rat) : \sum_(i < n) (c + F i) = n%:R * c + \sum_(i < n) F i.
Proof. by rewrite big_split /= sumr_const card_ord mulr_natl. Qed.

Lemma sum_plus_const n c (F : nat -> rat) : \sum_(i < n) (F i + c) = \sum_(i < n) F i + n%:R * c.
Proof. by rewrite big_split /= sumr_const card_ord mulr_natl. Qed.

Theorem range_split D x len : (x <= 2 ^ D)%N -> (2 ^ D <= x + len <= 2 ^ D.+1)%N ->
  rv D.+1 x len = crossing_variance D (2 ^ D - x) (x + len - 2 ^ D).
Proof.
move=> lx /andP [ge le].
set l1 := (2 ^ D - x)%N; set l2 := (x + len - 2 ^ D)%N.
have l1le : (l1 <= 2 ^ D)%N by rewrite /l1 leq_subr.
have l2le : (l2 <= 2 ^ D)%N by rewrite /l2; move: le; rewrite expnS; lia.
have xl1 : (x = 2 ^ D - l1)%N by rewrite /l1; lia.
have split_len : len = (l1 + l2)%N by rewrite /l1 /l2; lia.
have low : forall k, (k < l1)%N -> (x + k < 2 ^ D)%N by move=> k; rewrite /l1; lia.
have high : forall k, (x + (l1 + k) = 2 ^ D + k)%N by move=> k; rewrite /l1; lia.
have c := - (pow2 (2 * D + 1))^-1.
(* one row of the block: its low part and its high part *)
have row_low : forall i, (i < l1)%N ->
    \sum_(j < l1 + l2) cov D.+1 (x + i) (x + j) = \sum_(j < l1) cov D (x + i) (x + j) + l2%:R * - (pow2 (2 * D + 1))^-1.
  move=> i li; rewrite (@sum_split _ _ (fun j => cov D.+1 (x + i) (x + j))).
  congr (_ + _).
    by apply: eq_bigr => j _; rewrite cov_ll // low.
  rewrite (eq_bigr (fun _ => - (pow2 (2 * D + 1))^-1)) => [|j _]; last by rewrite high cov_lh //; first [apply: low | apply: (leq_trans (ltn_ord j) l2le)].
  by rewrite sumr_const card_ord mulr_natl.
have row_high : forall i, (i < l2)%N ->
    \sum_(j < l1 + l2) cov D.+1 (x + (l1 + i)) (x + j) = l1%:R * - (pow2 (2 * D + 1))^-1 + \sum_(j < l2) cov D i j.
  move=> i li; rewrite (@sum_split _ _ (fun j => cov D.+1 (x + (l1 + i)) (x + j))).
  congr (_ + _).
    rewrite (eq_bigr (fun _ => - (pow2 (2 * D + 1))^-1)) => [|j _]; last by rewrite high cov_hl ?low // (leq_trans li).
    by rewrite sumr_const card_ord mulr_natl.
  by apply: eq_bigr => j _; rewrite !high cov_hh // (leq_trans _ l2le).
rewrite (_ : rv D.+1 x len = rv D.+1 x (l1 + l2)); last by rewrite -split_len.
rewrite /rv (@sum_split _ _ (fun i => \sum_(j < l1 + l2) cov D.+1 (x + i) (x + j))).
rewrite (eq_bigr (fun i : 'I_l1 => \sum_(j < l1) cov D (x + i) (x + j) + l2%:R * - (pow2 (2 * D + 1))^-1)) => [|i _];
  last by rewrite row_low.
rewrite (eq_bigr (fun i : 'I_l2 => l1%:R * - (pow2 (2 * D + 1))^-1 + \sum_(j < l2) cov D i j)) => [|i _];
  last by rewrite row_high.
rewrite (@sum_plus_const l1 _ (fun i => \sum_(j < l1) cov D (x + i) (x + j))).
rewrite (@sum_const_plus' l2 _ (fun i => \sum_(j < l2) cov D i j)) xl1 suffix_variance // /crossing_variance pow2_odd natrM.
have n := pow2_neq0 D.
by rewrite -/(pv D l2); field; rewrite n.
Qed.

(** ** The maximum *)

Lemma cbound_step K : cbound K.+1 = (6%:R * K.+1%:R + 4%:R) / 9%:R - (pow2 K * pow2 K)^-1 / 9%:R.
Proof. have n := pow2_neq0 K; by rewrite /cbound pow2S; field; rewrite n. Qed.

Lemma cbound_grows_strictly K : cbound K.+1 < cbound K.+2.
Proof.
have n := pow2_neq0 K.
rewrite -subr_gt0 (_ : cbound K.+2 - cbound K.+1 = 2%:R / 3%:R + (3%:R * (pow2 K.+1 * pow2 K.+1))^-1); last first.
  by rewrite /cbound !pow2S -[K.+2]addn1 -[K.+1]addn1 !natrD; field; rewrite n.
by rewrite ltr_paddr ?divr_gt0 ?ltr0n // invr_ge0 mulr_ge0 ?ler0n // mulr_ge0 // ltW // pow2_gt0.
Qed.

Lemma cbound_grows K : cbound K.+1 <= cbound K.+2.
Proof. exact: ltW (cbound_grows_strictly K). Qed.

Definition bound (D : nat) : rat := if D is 0 then 1 else cbound D.

Lemma bound_le D : bound D <= cbound D.+1.
Proof.
case: D => [|K]; last exact: cbound_grows.
by rewrite /bound /cbound /pow2 expr1; rewrite le_eqVlt; apply/orP; left; apply/eqP; field.
Qed.

Lemma all_ranges D x len : (x + len <= 2 ^ D)%N -> rv D x len <= bound D.
Proof.
elim: D x len => [|D IH] x len le.
  case: len le => [|[|len]] le; first by rewrite /rv big_ord0 ler01.
    move: le; rewrite expn0 addn1 ltnS leqn0 => /eqP ->.
    by rewrite /rv big_ord_recl big_ord0 big_ord_recl big_ord0 !addr0.
  by move: le; rewrite expn0; lia.
rewrite /bound.
case: (leqP (x + len) (2 ^ D)) => [low | notlow].
  by rewrite range_low //; apply: le_trans (IH _ _ low) (bound_le D).
case: (leqP (2 ^ D) x) => [high | nothigh].
  rewrite range_high //; apply: le_trans (IH _ _ _) (bound_le D).
  by move: le; rewrite expnS; lia.
have h1 : (x <= 2 ^ D)%N := ltnW nothigh.
have h2 : (2 ^ D <= x + len <= 2 ^ D.+1)%N by rewrite (ltnW notlow) le.
rewrite range_split // cbound_step.
have l2le : (x + len - 2 ^ D <= 2 ^ D)%N by move: le; rewrite expnS; lia.
have [bnd _] := crossing_maximum (leq_subr x (2 ^ D)) l2le.
exact: bnd.
Qed.

Theorem max_range_variance D x len : (0 < D)%N -> (x + len <= 2 ^ D)%N ->
  rv D x len <= (6%:R * D%:R + 4%:R) / 9%:R - 4%:R / (9%:R * (pow2 D * pow2 D)).
Proof. by case: D => [|D] // _; exact: all_ranges. Qed.

Theorem max_range_variance_attained K :
  rv K.+1 (2 ^ K - A K) (2 * A K) = (6%:R * K.+1%:R + 4%:R) / 9%:R - 4%:R / (9%:R * (pow2 K.+1 * pow2 K.+1)).
Proof.
have le := A_le K.
rewrite range_split; last first.
- by apply/andP; split; rewrite ?expnS; lia.
- exact: leq_subr.
have -> : (2 ^ K - (2 ^ K - A K) = A K)%N by lia.
have -> : (2 ^ K - A K + 2 * A K - 2 ^ K = A K)%N by lia.
have [_ attained] := crossing_maximum (leqnn (2 ^ K)) (leqnn (2 ^ K)).
by rewrite attained -cbound_step.
Qed.
