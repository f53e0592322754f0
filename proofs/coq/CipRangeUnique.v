(** * CIP: the maximiser of the range variance of C_D is unique (D >= 2), machine-checked.

    Proved ([Print Assumptions] closed):
    - [conjugate_strict]: for 0 < s < 1 the only l <= 2^K with phi K l - s l / 2^K = alpha K - s a K is A K, and
      for 1 < s < 2 the only one with value beta K - s b K is B K (the strict form of [conjugate_two_pieces]);
    - [max_range_variance_unique]: for D >= 2, a range x .. x + len - 1 of C_D whose variance equals
      (6D + 4)/9 - 4^(1-D)/9 is the range of [max_range_variance_attained]: x = 2^(D-1) - A (D-1),
      len = 2 A (D-1). *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint rat.
From mathcomp Require Import ring zify.
From Reference Require Import ZifyOpaque.
From Reference Require Import CipMatrix CipRangeMax CipRangeAll.
Import Order.TTheory GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

Lemma a_gt_b K : A K != B K -> b K < a K.
Proof.
move=> ne; have [_ le] := pieces_sum K.
by rewrite /a /b ltr_pmul2r ?invr_gt0 ?pow2_gt0 // ltr_nat ltn_neqAle eq_sym ne le.
Qed.

Lemma half_in (s : rat) : 0 < s < 2 -> 0 < s / 2%:R < 1.
Proof.
case/andP => s0 s2; rewrite divr_gt0 ?ltr0n //= ltr_pdivr_mulr ?ltr0n // mul1r.
Qed.

Lemma shifted_in (s : rat) : 0 < s < 2 -> 1 < 1 + s / 2%:R < 2.
Proof.
move=> /half_in /andP [h0 h1]; rewrite ltr_addl h0 /= -ltr_subr_addl.
by rewrite (_ : 2%:R - 1 = 1 :> rat) // mulrS addrK.
Qed.

Theorem conjugate_strict K s l : (l <= 2 ^ K)%N ->
  (0 < s < 1 -> l != A K -> phi K l - s * (l%:R / pow2 K) < alpha K - s * a K) /\
  (1 < s < 2 -> l != B K -> phi K l - s * (l%:R / pow2 K) < beta K - s * b K).
Proof.
elim: K s l => [|K IH] s l le.
  move: le; rewrite expn0 leq_eqVlt ltnS leqn0 => /orP [] /eqP ->;
    rewrite /alpha /beta /a /b /A /B /pow2 /= expr0 !divr1; split => /andP [s0 s1] //.
  - by move=> _; rewrite mulr0 subr0 subr_lt0.
  - by move=> _; rewrite mulr0 subr0 subr_gt0.
have n := pow2_neq0 K.
have low_value : alpha K - s / 2%:R * a K = beta K.+1 - s * b K.+1.
  by rewrite beta_S /a /b B_S pow2S; field; rewrite n.
have high_value : 1 - s / 2%:R + (beta K - (1 + s / 2%:R) * b K) = alpha K.+1 - s * a K.+1.
  by rewrite alpha_S /a /b A_S natrD pow2_nat pow2S; field; rewrite n.
have pieces_gap : (alpha K.+1 - s * a K.+1) - (beta K.+1 - s * b K.+1) = (1 - s) * (a K.+1 - b K.+1).
  by rewrite -[alpha K.+1](subrK (beta K.+1)) crossing; ring.
have ab1 : 0 <= a K.+1 - b K.+1 by rewrite subr_ge0 a_ge_b.
have [pa pb] := pieces_on_the_grid K.
case: (leqP l (2 ^ K)) => [low | high].
  have shape : phi K.+1 l - s * (l%:R / pow2 K.+1) = phi K l - s / 2%:R * (l%:R / pow2 K).
    by rewrite phi_low // pow2S; field; rewrite n.
  rewrite shape; split => /andP [s0 s1] ne.
  - have half : 0 < s / 2%:R < 1 by apply: half_in; rewrite s0 (lt_trans s1) // ltr1n.
    have below : beta K.+1 - s * b K.+1 < alpha K.+1 - s * a K.+1 + 0 -> phi K l - s / 2%:R * (l%:R / pow2 K) <= beta K.+1 - s * b K.+1 ->
        phi K l - s / 2%:R * (l%:R / pow2 K) < alpha K.+1 - s * a K.+1.
      by rewrite addr0 => lt1 le1; apply: le_lt_trans le1 lt1.
    case: (eqVneq l (A K)) => [el | nel].
      have gap : b K.+1 < a K.+1 by apply: a_gt_b; rewrite B_S -el eq_sym.
      apply: below; last by rewrite el pa /a -low_value.
      by rewrite addr0 -subr_gt0 pieces_gap mulr_gt0 // subr_gt0.
    have [first _] := IH (s / 2%:R) l low.
    apply: lt_le_trans (first half nel) _; rewrite low_value -subr_ge0 pieces_gap.
    by rewrite mulr_ge0 // subr_ge0 ltW.
  - have half : 0 < s / 2%:R < 1 by apply: half_in; rewrite s1 (lt_trans ltr01 s0).
    have [first _] := IH (s / 2%:R) l low.
    by rewrite -low_value; apply: first; rewrite // -B_S.
have [r el] : exists r, l = (2 ^ K + r)%N by exists (l - 2 ^ K)%N; rewrite subnKC // ltnW.
subst l.
have lr : (r <= 2 ^ K)%N by move: le; rewrite expnS mul2n -addnn leq_add2l.
rewrite conjugate_high; split => /andP [s0 s1] ne.
- have slope : 1 < 1 + s / 2%:R < 2 by apply: shifted_in; rewrite s0 (lt_trans s1) // ltr1n.
  have [_ second] := IH (1 + s / 2%:R) r lr.
  rewrite -high_value ltr_add2l; apply: second => //.
  by apply: contra ne => /eqP ->; rewrite A_S.
- have slope : 1 < 1 + s / 2%:R < 2 by apply: shifted_in; rewrite s1 (lt_trans ltr01 s0).
  have [_ second] := IH (1 + s / 2%:R) r lr.
  have not_less : alpha K.+1 - s * a K.+1 <= beta K.+1 - s * b K.+1.
    by rewrite -subr_ge0 -opprB pieces_gap -mulNr opprB mulr_ge0 // subr_ge0 ltW.
  case: (eqVneq r (B K)) => [er | ner].
    have gap : b K.+1 < a K.+1 by apply: a_gt_b; rewrite A_S -er.
    rewrite er pb high_value -subr_gt0 -opprB pieces_gap -mulNr opprB mulr_gt0 // subr_gt0 //.
  apply: (lt_le_trans _ not_less); rewrite -high_value ltr_add2l; exact: second.
Qed.

(** ** Uniqueness *)

Lemma A_pos K : (0 < A K)%N.
Proof. by case: K => [|K] //; rewrite A_S addn_gt0 expn_gt0. Qed.

Lemma A_lt K : (A K.+1 < 2 ^ K.+1)%N.
Proof. by have [sum _] := pieces_sum K.+1; have := A_pos K; rewrite B_S in sum; lia. Qed.

Lemma a_in K : 0 < a K.+1 < 1.
Proof.
rewrite /a divr_gt0 ?pow2_gt0 ?ltr0n ?A_pos //= ltr_pdivr_mulr ?pow2_gt0 // mul1r -pow2_nat ltr_nat.
exact: A_lt.
Qed.

Lemma crossing_strict K l1 l2 : (l1 <= 2 ^ K.+1)%N -> (l2 <= 2 ^ K.+1)%N -> (l1 != A K.+1) || (l2 != A K.+1) ->
  crossing_variance K.+1 l1 l2 < 2%:R * alpha K.+1 - a K.+1 * a K.+1.
Proof.
move=> le1 le2 ne; rewrite /crossing_variance !prefix_variance_digits //.
have [first _] := conjugate_two_pieces (l2%:R / pow2 K.+1) le1.
have [second _] := conjugate_two_pieces (a K.+1) le2.
have [sfirst _] := conjugate_strict (l2%:R / pow2 K.+1) le1.
have [ssecond _] := conjugate_strict (a K.+1) le2.
have n := pow2_neq0 K.+1.
have u2 := unit_fraction le2.
have ua : 0 <= a K.+1 <= 1 by have /andP [p q] := a_in K; rewrite ltW // ltW.
set lhs := phi K.+1 l1 + phi K.+1 l2 - (l1 * l2)%:R / (pow2 K.+1 * pow2 K.+1).
have e : lhs = (phi K.+1 l1 - l2%:R / pow2 K.+1 * (l1%:R / pow2 K.+1)) + (phi K.+1 l2 - a K.+1 * (l2%:R / pow2 K.+1))
    + a K.+1 * (l2%:R / pow2 K.+1).
  by rewrite /lhs natrM; field; rewrite n.
have f : 2%:R * alpha K.+1 - a K.+1 * a K.+1
    = (alpha K.+1 - l2%:R / pow2 K.+1 * a K.+1) + (alpha K.+1 - a K.+1 * a K.+1) + a K.+1 * (l2%:R / pow2 K.+1).
  by ring.
rewrite e f ltr_add2r.
case: (eqVneq l2 (A K.+1)) => [e2 | ne2].
  have ne1 : l1 != A K.+1 by move: ne; rewrite e2 eqxx orbF.
  have s_in : 0 < l2%:R / pow2 K.+1 < 1 by rewrite e2; exact: a_in.
  by apply: ltr_le_add; [exact: sfirst | exact: second].
by apply: ler_lt_add; [exact: first | exact: ssecond (a_in K) ne2].
Qed.


Theorem max_range_variance_unique K x len : (x + len <= 2 ^ K.+2)%N -> rv K.+2 x len = cbound K.+2 ->
  x = (2 ^ K.+1 - A K.+1)%N /\ len = (2 * A K.+1)%N.
Proof.
move=> le eq.
have inside : forall y, (y <= cbound K.+1) -> y < cbound K.+2 by move=> y h; apply: le_lt_trans h (cbound_grows_strictly K).
case: (leqP (x + len) (2 ^ K.+1)) => [low | notlow].
  by move: eq; rewrite range_low // => eq; have := inside _ (all_ranges low); rewrite eq ltxx.
case: (leqP (2 ^ K.+1) x) => [high | nothigh].
  move: eq; rewrite range_high // => eq; have hl : (x - 2 ^ K.+1 + len <= 2 ^ K.+1)%N by move: le; rewrite expnS; lia.
  by have := inside _ (all_ranges hl); rewrite eq ltxx.
have h1 : (x <= 2 ^ K.+1)%N := ltnW nothigh.
have h2 : (2 ^ K.+1 <= x + len <= 2 ^ K.+2)%N by rewrite (ltnW notlow) le.
move: eq; rewrite range_split // => eq.
have l2le : (x + len - 2 ^ K.+1 <= 2 ^ K.+1)%N by move: le; rewrite (expnS 2 K.+1); lia.
case: (eqVneq (2 ^ K.+1 - x)%N (A K.+1)) => [e1 | ne1]; case: (eqVneq (x + len - 2 ^ K.+1)%N (A K.+1)) => [e2 | ne2].
- by split; lia.
(* the disjunction on its own: rewriting with ne1, ne2 in the whole goal took a third of a second *)
all: have ne : ((2 ^ K.+1 - x)%N != A K.+1) || ((x + len - 2 ^ K.+1)%N != A K.+1) by rewrite ?ne1 ?ne2 ?orbT.
all: have := crossing_strict (leq_subr x (2 ^ K.+1)) l2le ne.
all: have [_ attained] := crossing_maximum (leqnn (2 ^ K.+1)) (leqnn (2 ^ K.+1)).
all: by rewrite eq -(crossing_maximum_attained K.+1) attained -cbound_step ltxx.
Qed.
