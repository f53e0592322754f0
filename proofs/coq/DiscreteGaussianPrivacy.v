(** * The discrete Gaussian on Z^n: normalisation, privacy loss, Renyi divergence and rho-zCDP.

    HEADER *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint matrix.
From mathcomp.classical Require Import boolp classical_sets functions cardinality fsbigop.
From mathcomp.analysis Require Import reals ereal esum sequences exp.
From mathcomp Require Import ring.
From Reference Require Import DiscreteLaplacePrivacy.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import Order.TTheory GRing.Theory Num.Def Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.

(** Scaling a sum over a set by a positive constant, both directions (the discrete Laplace file has one). *)
Lemma esum_scale (R : realType) (T : choiceType) (c : R) (I : set T) (f : T -> \bar R) :
  0 < c -> (forall i, 0 <= f i)%E ->
  \esum_(i in I) (c%:E * f i)%E = (c%:E * \esum_(i in I) f i)%E.
Proof.
move=> c0 f0; apply/eqP; rewrite eq_le esum_scale_ge// andbT.
have ci0 : 0 < c^-1 by rewrite invr_gt0.
rewrite -lee_pdivr_mull//; apply: le_trans (esum_scale_ge _ ci0 _) _.
  by move=> i; rewrite mule_ge0// lee_fin ltW.
by apply: le_esum => i _; rewrite muleA -EFinM mulVf ?gt_eqF// mul1e.
Qed.

Section gaussian.
Variables (R : realType) (n : nat) (sigma : R).
Hypothesis sigma_gt0 : 0 < sigma.

(** An integer vector as a real one, the squared distance of an integer point z from a real centre m, the
    unnormalised discrete Gaussian weight exp(-||z - m||^2 / (2 sigma^2)) and its total mass over Z^n. *)
Definition real_vector (u : 'cV[int]_n) : 'cV[R]_n := map_mx intr u.
Definition sqdist (z : 'cV[int]_n) (m : 'cV[R]_n) : R := \sum_(i < n) ((z i ord0)%:~R - m i ord0) ^+ 2.
Definition gweight (m : 'cV[R]_n) (z : 'cV[int]_n) : R := expR (- sqdist z m / (2 * sigma ^+ 2)).
Definition gmass (m : 'cV[R]_n) : \bar R := \esum_(z in [set: 'cV[int]_n]) (gweight m z)%:E.

Let c2_gt0 : 0 < 2 * sigma ^+ 2.
Proof. by rewrite mulr_gt0 ?exprn_gt0// ltr0n. Qed.

(** The weight is the product of the one-dimensional weights: the coordinates are independent. *)
Lemma gweight_prod m z :
  gweight m z = \prod_(i < n) expR (- ((z i ord0)%:~R - m i ord0) ^+ 2 / (2 * sigma ^+ 2)).
Proof.
rewrite /gweight /sqdist -sumrN mulr_suml.
by rewrite (big_morph expR (@expRD R) (expR0 R)).
Qed.

Lemma gweight_gt0 m z : 0 < gweight m z. Proof. exact: expR_gt0. Qed.

Lemma gweight_ge0 m z : (0 <= (gweight m z)%:E)%E.
Proof. by rewrite lee_fin ltW// gweight_gt0. Qed.

(** (1) Translating the centre by an integer vector u and the points by u leaves the weight unchanged, so the
    mass is invariant under integer shifts (re-indexing z |-> z + u, a bijection of Z^n). *)
Lemma sqdist_shift z u m : sqdist (z + u) (m + real_vector u) = sqdist z m.
Proof.
apply: eq_bigr => i _; rewrite !mxE intrD; congr (_ ^+ 2).
by rewrite opprD addrACA subrr addr0.
Qed.

Theorem gmass_shift m u : gmass (m + real_vector u) = gmass m.
Proof.
rewrite /gmass (@reindex_esum _ _ _ setT setT (fun z => z + u)).
  by apply: eq_esum => z _; rewrite /gweight sqdist_shift.
split=> //; first by move=> z1 z2 _ _ /addIr.
by move=> z _; exists (z - u); rewrite // subrK.
Qed.

Lemma gmass_integer u : gmass (real_vector u) = gmass 0.
Proof. by rewrite -[real_vector u]add0r gmass_shift. Qed.

Lemma gmass_gt0 m : (0 < gmass m)%E.
Proof.
apply: (@lt_le_trans _ _ (gweight m 0)%:E); first by rewrite lte_fin gweight_gt0.
apply: esum_ge; exists [set 0]; first by split; [exact: finite_set1|by []].
by rewrite fsbig_set1.
Qed.

(** (1) The weights are summable: coordinatewise -(x - m)^2/(2 sigma^2) <= 1/2 + |m|/sigma - |x|/sigma (from
    (|x - m|/sigma - 1)^2 >= 0 and |x - m| >= |x| - |m|), so the weight is at most a constant times the
    discrete Laplace weight of scale sigma, whose mass is finite. *)
Lemma coordinate_bound (x c : R) :
  - (x - c) ^+ 2 / (2 * sigma ^+ 2) <= (2^-1 + `|c| / sigma) - `|x| / sigma.
Proof.
have s0 : sigma != 0 by rewrite gt_eqF.
set a := `|x - c|.
have -> : (x - c) ^+ 2 = a ^+ 2 by rewrite real_normK// num_real.
have gap : a ^+ 2 / (2 * sigma ^+ 2) - (a / sigma - 2^-1) = (a / sigma - 1) ^+ 2 / 2.
  by field.
have le1 : a / sigma - 2^-1 <= a ^+ 2 / (2 * sigma ^+ 2).
  by rewrite -subr_ge0 gap divr_ge0 ?sqr_ge0 ?ler0n.
rewrite mulNr ler_oppl opprB; apply: le_trans le1.
rewrite opprD addrCA addrC ler_add2r -mulrBl ler_pmul2r ?invr_gt0//.
exact: ler_sub_dist.
Qed.
End gaussian.
