(** * CIP: the exact maximum of S(l1) + S(l2) - l1 l2 / 4^K over prefix variances of C_K, machine-checked.

    [pv K l] is the variance of the sum of the first l leaves of N(0, C_K): the sum of the leading l x l block
    of [cov K] (CipMatrix.v).  A range of C_(K+1) that crosses the middle takes the last l1 leaves of the left
    half and the first l2 of the right one; its variance is pv K l1 + pv K l2 - l1 l2 / 4^K (the suffix of the
    left half has the variance of the prefix of the same length by reflection; that reduction, and the ranges
    inside one half, are in CipRangeAll.v).

    Proved ([Print Assumptions] closed), for EVERY K and all l, l1, l2 <= 2^K:
    - [prefix_variance_digits]: pv K l = phi K l, the digit programme phi (K+1) l = phi K l for l <= 2^K and
      phi (K+1) (2^K + r) = 1 - r / 2^K + phi K r;
    - [conjugate_two_pieces]: for a slope 0 <= s <= 1, phi K l - s l / 2^K <= alpha K - s a K, and for 1 <= s <= 2,
      phi K l - s l / 2^K <= beta K - s b K, with the grid points a K = A K / 2^K (0.1010..1 in binary) and
      b K = B K / 2^K (0.0101..1), alpha K = phi K (A K), beta K = phi K (B K): two affine pieces at every K;
    - [crossing_maximum]: pv K l1 + pv K l2 - l1 l2 / 4^K <= (6(K+1) + 4)/9 - 4^(-K)/9, with equality at
      l1 = l2 = A K = (2^(K+1) + (-1)^K)/3 ([crossing_maximum_attained], [A_closed]).
    The ranges of C_D: CipRangeAll.v; the uniqueness of the maximiser: CipRangeUnique.v. *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint rat.
From mathcomp Require Import ring.
From Reference Require Import CipMatrix.
Import Order.TTheory GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

(** ** The prefix variances and their digit programme *)

Definition pv (K l : nat) : rat := \sum_(i < l) \sum_(j < l) cov K i j.

Fixpoint phi (K l : nat) : rat :=
  if K is K'.+1 then
    if (l < 2 ^ K')%N then phi K' l else 1 - (l - 2 ^ K')%:R / pow2 K' + phi K' (l - 2 ^ K')
  else (l != 0%N)%:R.

Lemma phi0 K : phi K 0 = 0.
Proof. by elim: K => [|K IH] //=; rewrite expn_gt0 IH. Qed.

Lemma double_minus K : (2 ^ K.+1 - 2 ^ K = 2 ^ K)%N.
Proof. by rewrite expnS mul2n -addnn addnK. Qed.

Lemma phi_top K : phi K (2 ^ K) = 1.
Proof.
elim: K => [|K IH] //=.
have -> : (2 ^ K.+1 < 2 ^ K)%N = false by rewrite ltn_exp2l // ltnNge leqnSn.
by rewrite double_minus IH pow2_nat divff ?pow2_neq0 // subrr add0r.
Qed.

Lemma phi_high K r : phi K.+1 (2 ^ K + r) = 1 - r%:R / pow2 K + phi K r.
Proof. by rewrite /= ltnNge leq_addr /= addKn. Qed.

Lemma pow2_gt0 K : 0 < pow2 K.
Proof. by rewrite exprn_gt0 // ltr0n. Qed.

(* the conjugate at a grid point of the upper half, through the top digit 1: slope s at level K + 1 becomes
   1 + s/2 at level K *)
Lemma conjugate_high K r s : phi K.+1 (2 ^ K + r) - s * ((2 ^ K + r)%:R / pow2 K.+1)
    = 1 - s / 2%:R + (phi K r - (1 + s / 2%:R) * (r%:R / pow2 K)).
Proof. have n := pow2_neq0 K; by rewrite phi_high natrD pow2_nat pow2S; field; rewrite n. Qed.

Lemma phi_low K l : (l <= 2 ^ K)%N -> phi K.+1 l = phi K l.
Proof.
rewrite leq_eqVlt => /orP [/eqP -> | lt]; last by rewrite /= lt.
by rewrite -[(2 ^ K)%N]addn0 phi_high phi0 addn0 phi_top; ring.
Qed.

Lemma sum_split n r (f : nat -> rat) : \sum_(i < n + r) f i = \sum_(i < n) f i + \sum_(i < r) f (n + i)%N.
Proof. by rewrite big_split_ord. Qed.

Lemma sum_const_plus n c (F : nat -> rat) : \sum_(i < n) (c + F i) = n%:R * c + \sum_(i < n) F i.
Proof. by rewrite big_split /= sumr_const card_ord mulr_natl. Qed.

Lemma sum_low K l (f : nat -> nat -> rat) :
  (l <= 2 ^ K)%N -> (forall i j, (i < 2 ^ K)%N -> (j < 2 ^ K)%N -> f i j = cov K i j) ->
  \sum_(i < l) \sum_(j < l) f i j = pv K l.
Proof.
move=> le same; apply: eq_bigr => i _; apply: eq_bigr => j _.
by apply: same; apply: leq_trans le.
Qed.

Theorem prefix_variance_digits K l : (l <= 2 ^ K)%N -> pv K l = phi K l.
Proof.
elim: K l => [|K IH] l le.
  move: le; rewrite expn0 leq_eqVlt ltnS leqn0 => /orP [] /eqP ->.
    by rewrite /pv big_ord_recl big_ord0 big_ord_recl big_ord0 !addr0.
  by rewrite /pv big_ord0.
case: (leqP l (2 ^ K)) => [low | high].
  by rewrite phi_low // -IH // {1}/pv; apply: sum_low => // i j li lj; apply: cov_ll.
have [r el] : exists r, l = (2 ^ K + r)%N by exists (l - 2 ^ K)%N; rewrite subnKC // ltnW.
subst l.
have lr : (r <= 2 ^ K)%N by move: le; rewrite expnS mul2n -addnn leq_add2l.
rewrite phi_high -IH // /pv (@sum_split _ _ (fun i => \sum_(j < 2 ^ K + r) cov K.+1 i j)).
have rows_low : forall i, (i < 2 ^ K)%N ->
    \sum_(j < 2 ^ K + r) cov K.+1 i j = (pow2 K)^-1 + r%:R * - (pow2 (2 * K + 1))^-1.
  move=> i li; rewrite (@sum_split _ _ (fun j => cov K.+1 i j)) (eq_bigr (fun j : 'I_(2 ^ K) => cov K i j)) => [|j _]; last by rewrite cov_ll.
  rewrite covariance_row_sum // (eq_bigr (fun _ => - (pow2 (2 * K + 1))^-1)) => [|j _]; last first.
    by rewrite cov_lh // (leq_trans (ltn_ord j)).
  by rewrite sumr_const card_ord mulr_natl.
have rows_high : forall i, (i < r)%N ->
    \sum_(j < 2 ^ K + r) cov K.+1 (2 ^ K + i) j
    = pow2 K * - (pow2 (2 * K + 1))^-1 + \sum_(j < r) cov K i j.
  move=> i li; have lk : (i < 2 ^ K)%N by apply: leq_trans li lr.
  rewrite (@sum_split _ _ (fun j => cov K.+1 (2 ^ K + i) j)) (eq_bigr (fun _ => - (pow2 (2 * K + 1))^-1)) => [|j _]; last by rewrite cov_hl.
  rewrite sumr_const card_ord -mulr_natl pow2_nat; congr (_ + _); apply: eq_bigr => j _.
  by rewrite cov_hh // (leq_trans (ltn_ord j)).
rewrite (eq_bigr (fun i : 'I_(2 ^ K) => (pow2 K)^-1 + r%:R * - (pow2 (2 * K + 1))^-1)) => [|i _]; last first.
  by rewrite rows_low.
rewrite (eq_bigr (fun i : 'I_r => pow2 K * - (pow2 (2 * K + 1))^-1 + \sum_(j < r) cov K i j)) => [|i _]; last first.
  by rewrite rows_high.
rewrite sum_const_half (@sum_const_plus r _ (fun i => \sum_(j < r) cov K i j)) pow2_odd.
have a := pow2_neq0 K.
by field; rewrite a.
Qed.

(** ** The two pieces *)

Fixpoint AB (K : nat) : nat * nat := if K is K'.+1 then ((2 ^ K' + (AB K').2)%N, (AB K').1) else (1%N, 0%N).
Definition A K := (AB K).1.
Definition B K := (AB K).2.

Fixpoint values (K : nat) : rat * rat :=
  if K is K'.+1 then (1 - (B K')%:R / pow2 K' + (values K').2, (values K').1) else (1, 0).
Definition alpha K := (values K).1.
Definition beta K := (values K).2.
Definition a K : rat := (A K)%:R / pow2 K.
Definition b K : rat := (B K)%:R / pow2 K.

Lemma A_S K : A K.+1 = (2 ^ K + B K)%N. Proof. by []. Qed.
Lemma B_S K : B K.+1 = A K. Proof. by []. Qed.
Lemma alpha_S K : alpha K.+1 = 1 - (B K)%:R / pow2 K + beta K. Proof. by []. Qed.
Lemma beta_S K : beta K.+1 = alpha K. Proof. by []. Qed.

Lemma pieces_sum K : (A K + B K = 2 ^ K)%N /\ (B K <= A K)%N.
Proof.
elim: K => [|K [sum le]] //; rewrite A_S B_S; split.
  by rewrite -addnA [(B K + _)%N]addnC sum expnS mul2n addnn.
by rewrite -sum -addnA leq_addr.
Qed.

Lemma A_le K : (A K <= 2 ^ K)%N.
Proof. by have [<- _] := pieces_sum K; rewrite leq_addr. Qed.

Lemma B_le K : (B K <= 2 ^ K)%N.
Proof. by have [<- _] := pieces_sum K; rewrite leq_addl. Qed.

Lemma pieces_on_the_grid K : phi K (A K) = alpha K /\ phi K (B K) = beta K.
Proof.
elim: K => [|K [IHa IHb]] //; split.
  by rewrite A_S phi_high IHb alpha_S.
by rewrite B_S beta_S phi_low ?A_le.
Qed.

Lemma crossing K : alpha K - beta K = a K - b K.
Proof.
elim: K => [|K IH]; first by rewrite /alpha /beta /a /b /= /pow2 expr0 !divr1 subr0.
have [sum _] := pieces_sum K.
have e : (A K)%:R = pow2 K - (B K)%:R :> rat by rewrite -pow2_nat -sum natrD addrK.
move: IH; rewrite alpha_S beta_S /a /b A_S B_S natrD pow2_nat pow2S e => IH.
have n := pow2_neq0 K.
rewrite (_ : alpha K = beta K + ((pow2 K - (B K)%:R) / pow2 K - (B K)%:R / pow2 K)); last first.
  by rewrite -IH addrC subrK.
by field; rewrite n.
Qed.

Lemma a_ge_b K : b K <= a K.
Proof. by have [_ le] := pieces_sum K; rewrite /a /b ler_pmul2r ?invr_gt0 ?exprn_gt0 ?ltr0n // ler_nat. Qed.

Lemma unit_fraction K n : (n <= 2 ^ K)%N -> 0 <= n%:R / pow2 K <= 1.
Proof.
move=> le; have p : 0 < pow2 K by rewrite exprn_gt0 // ltr0n.
apply/andP; split; first by rewrite divr_ge0 ?ler0n ?(ltW p).
by rewrite ler_pdivr_mulr // mul1r -pow2_nat ler_nat.
Qed.

(** ** The conjugate w |-> phi K w - s w has two affine pieces on [0, 2] *)

Theorem conjugate_two_pieces K s l : (l <= 2 ^ K)%N ->
  (0 <= s <= 1 -> phi K l - s * (l%:R / pow2 K) <= alpha K - s * a K) /\
  (1 <= s <= 2 -> phi K l - s * (l%:R / pow2 K) <= beta K - s * b K).
Proof.
elim: K s l => [|K IH] s l le.
  move: le; rewrite expn0 leq_eqVlt ltnS leqn0 => /orP [] /eqP ->;
    rewrite /alpha /beta /a /b /A /B /pow2 /= expr0 !divr1; split => /andP [s0 s1].
  - by rewrite lexx.
  - by rewrite mulr0 subr0 subr_le0.
  - by rewrite mulr0 subr0 subr_ge0.
  - by rewrite lexx.
have n := pow2_neq0 K.
have cross := crossing K.
have ab : 0 <= a K - b K by rewrite subr_ge0 a_ge_b.
(* the value of the piece reached through the top digit 0 is beta (K+1) - s b (K+1), through 1 alpha (K+1) - s a (K+1) *)
have low_value : alpha K - s / 2%:R * a K = beta K.+1 - s * b K.+1.
  by rewrite beta_S /a /b B_S pow2S; field; rewrite n.
have high_value : 1 - s / 2%:R + (beta K - (1 + s / 2%:R) * b K) = alpha K.+1 - s * a K.+1.
  by rewrite alpha_S /a /b A_S natrD pow2_nat pow2S; field; rewrite n.
(* the two pieces of level K + 1 differ by (1 - s) (a K.+1 - b K.+1) *)
have pieces_gap : (alpha K.+1 - s * a K.+1) - (beta K.+1 - s * b K.+1) = (1 - s) * (a K.+1 - b K.+1).
  by rewrite -[alpha K.+1](subrK (beta K.+1)) crossing; ring.
have ab1 : 0 <= a K.+1 - b K.+1 by rewrite subr_ge0 a_ge_b.
case: (leqP l (2 ^ K)) => [low | high].
  have shape : phi K.+1 l - s * (l%:R / pow2 K.+1) = phi K l - s / 2%:R * (l%:R / pow2 K).
    by rewrite phi_low // pow2S; field; rewrite n.
  rewrite shape; split => /andP [s0 s1].
  - have [first _] := IH (s / 2%:R) l low.
    have half : 0 <= s / 2%:R <= 1 by rewrite divr_ge0 ?ler0n //= ler_pdivr_mulr ?ltr0n // mul1r (le_trans s1) ?ler1n.
    apply: le_trans (first half) _; rewrite low_value -subr_ge0 pieces_gap.
    by rewrite mulr_ge0 // subr_ge0.
  - have [first _] := IH (s / 2%:R) l low.
    have half : 0 <= s / 2%:R <= 1.
      by rewrite divr_ge0 ?(le_trans ler01 s0) //= ler_pdivr_mulr ?ltr0n // mul1r.
    by rewrite -low_value; apply: first.
have [r el] : exists r, l = (2 ^ K + r)%N by exists (l - 2 ^ K)%N; rewrite subnKC // ltnW.
subst l.
have lr : (r <= 2 ^ K)%N by move: le; rewrite expnS mul2n -addnn leq_add2l.
rewrite conjugate_high; split => /andP [s0 s1].
- have [_ second] := IH (1 + s / 2%:R) r lr.
  have slope : 1 <= 1 + s / 2%:R <= 2.
    rewrite ler_addl divr_ge0 ?ler0n //= -ler_subr_addl (_ : 2%:R - 1 = 1 :> rat); last by rewrite mulrS addrK.
    by rewrite ler_pdivr_mulr ?ltr0n // mul1r (le_trans s1) ?ler1n.
  by rewrite -high_value ler_add2l; apply: second.
- have [_ second] := IH (1 + s / 2%:R) r lr.
  have slope : 1 <= 1 + s / 2%:R <= 2.
    rewrite ler_addl divr_ge0 ?(le_trans ler01 s0) //= -ler_subr_addl (_ : 2%:R - 1 = 1 :> rat); last by rewrite mulrS addrK.
    by rewrite ler_pdivr_mulr ?ltr0n // mul1r.
  apply: le_trans (_ : _ <= alpha K.+1 - s * a K.+1) _.
    by rewrite -high_value ler_add2l; apply: second.
  by rewrite -subr_ge0 -opprB pieces_gap -mulNr opprB mulr_ge0 // subr_ge0.
Qed.

(** ** The maximum over crossing ranges *)

Definition crossing_variance K l1 l2 : rat := pv K l1 + pv K l2 - (l1 * l2)%:R / (pow2 K * pow2 K).

Theorem crossing_upper_bound K l1 l2 : (l1 <= 2 ^ K)%N -> (l2 <= 2 ^ K)%N ->
  crossing_variance K l1 l2 <= 2%:R * alpha K - a K * a K.
Proof.
move=> le1 le2; rewrite /crossing_variance !prefix_variance_digits //.
have [first _] := conjugate_two_pieces (l2%:R / pow2 K) le1.
have [second _] := conjugate_two_pieces (a K) le2.
have bound := ler_add (first (unit_fraction le2)) (second (unit_fraction (A_le K))).
have n := pow2_neq0 K.
rewrite -(ler_add2r (- (a K * (l2%:R / pow2 K)))).
apply: le_trans (_ : _ <= alpha K - l2%:R / pow2 K * a K + (alpha K - a K * a K)) _.
  by apply: le_trans bound; rewrite le_eqVlt; apply/orP; left; apply/eqP; rewrite natrM; field; rewrite n.
by rewrite le_eqVlt; apply/orP; left; apply/eqP; ring.
Qed.

Lemma crossing_maximum_attained K : crossing_variance K (A K) (A K) = 2%:R * alpha K - a K * a K.
Proof.
have [pa _] := pieces_on_the_grid K.
rewrite /crossing_variance prefix_variance_digits ?A_le // pa natrM /a.
have n := pow2_neq0 K.
by field; rewrite n.
Qed.

(** ** Closed forms *)

Definition sign K : rat := (-1) ^+ K.

Lemma closed_forms K :
  3%:R * (A K)%:R = 2%:R * pow2 K + sign K /\ 3%:R * (B K)%:R = pow2 K - sign K /\
  9%:R * pow2 K * alpha K = (3%:R * K%:R + 7%:R) * pow2 K + 2%:R * sign K /\
  9%:R * pow2 K * beta K = (3%:R * K%:R + 4%:R) * pow2 K - 4%:R * sign K.
Proof.
elim: K => [|K [IA [IB [Ial Ibe]]]].
  by rewrite /sign /A /B /alpha /beta /pow2 /= !expr0; split; [|split; [|split]]; ring.
have n := pow2_neq0 K.
have sS : sign K.+1 = - sign K by rewrite /sign exprS mulN1r.
rewrite A_S B_S alpha_S beta_S natrD pow2_nat pow2S sS; split; [|split; [|split]].
- by rewrite mulrDr IB; ring.
- by rewrite IA; ring.
- have eb : (B K)%:R = (pow2 K - sign K) / 3%:R by rewrite -IB; field.
  have ebe : beta K = ((3%:R * K%:R + 4%:R) * pow2 K - 4%:R * sign K) / (9%:R * pow2 K) by rewrite -Ibe; field; rewrite n.
  by rewrite eb ebe -[K.+1]addn1 natrD; field; rewrite n.
- have eal : alpha K = ((3%:R * K%:R + 7%:R) * pow2 K + 2%:R * sign K) / (9%:R * pow2 K) by rewrite -Ial; field; rewrite n.
  by rewrite eal -[K.+1]addn1 natrD; field; rewrite n.
Qed.

Lemma A_closed K : (A K)%:R = (2%:R * pow2 K + sign K) / 3%:R :> rat.
Proof. by have [IA _] := closed_forms K; rewrite -IA; field. Qed.

Theorem crossing_maximum K l1 l2 : (l1 <= 2 ^ K)%N -> (l2 <= 2 ^ K)%N ->
  crossing_variance K l1 l2 <= (6%:R * K.+1%:R + 4%:R) / 9%:R - (pow2 K * pow2 K)^-1 / 9%:R /\
  crossing_variance K (A K) (A K) = (6%:R * K.+1%:R + 4%:R) / 9%:R - (pow2 K * pow2 K)^-1 / 9%:R.
Proof.
have [IA [_ [Ial _]]] := closed_forms K.
have n := pow2_neq0 K.
have ss : sign K * sign K = 1 by rewrite /sign -exprMn mulrNN mulr1 expr1n.
have value : 2%:R * alpha K - a K * a K = (6%:R * K.+1%:R + 4%:R) / 9%:R - (pow2 K * pow2 K)^-1 / 9%:R.
  have eal : alpha K = ((3%:R * K%:R + 7%:R) * pow2 K + 2%:R * sign K) / (9%:R * pow2 K) by rewrite -Ial; field; rewrite n.
  have ea : a K = (2%:R * pow2 K + sign K) / (3%:R * pow2 K) by rewrite /a A_closed; field; rewrite n.
  rewrite eal ea -[K.+1]addn1 natrD.
  rewrite (_ : (2%:R * pow2 K + sign K) / (3%:R * pow2 K) * ((2%:R * pow2 K + sign K) / (3%:R * pow2 K))
             = (4%:R * pow2 K * pow2 K + 4%:R * pow2 K * sign K + sign K * sign K) / (9%:R * pow2 K * pow2 K)); last first.
    by field; rewrite n.
  by rewrite ss; field; rewrite n.
move=> le1 le2; rewrite -value; split; first exact: crossing_upper_bound.
exact: crossing_maximum_attained.
Qed.
