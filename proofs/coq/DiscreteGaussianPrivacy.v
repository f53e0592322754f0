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

Let shift_const (m : 'cV[R]_n) : R := \prod_(i < n) expR (2^-1 + `|m i ord0| / sigma).

Lemma gweight_le_laplace m z : gweight m z <= shift_const m * weight sigma z.
Proof.
rewrite gweight_prod /shift_const /weight -big_split /=; apply: ler_prod => i _.
rewrite ltW ?expR_gt0//= -expRD ler_expR natr_absz intr_norm.
by rewrite [in X in _ <= X]mulNr; exact: coordinate_bound.
Qed.

Let shift_const_gt0 m : 0 < shift_const m.
Proof. by apply: prodr_gt0 => i _; exact: expR_gt0. Qed.

Theorem gmass_finite m : (gmass m < +oo)%E.
Proof.
apply: (@le_lt_trans _ _ ((shift_const m)%:E * mass n sigma)%E).
  rewrite /mass -esum_scale//; last by move=> z; exact: weight_ge0.
  by apply: le_esum => z _; rewrite -EFinM lee_fin gweight_le_laplace.
rewrite -(fineK (mass_fin_num n sigma_gt0)) -EFinM; exact: ltry.
Qed.

Lemma gmass_fin_num m : gmass m \is a fin_num.
Proof. by rewrite ge0_fin_numE ?gmass_finite// ltW// gmass_gt0. Qed.

Lemma fine_gmass_gt0 m : 0 < fine (gmass m).
Proof. by apply: fine_gt0; rewrite gmass_gt0 gmass_finite. Qed.

(** The law of N_Z(mu, sigma^2 I_n) for an integer centre mu: the weight divided by its own normalising constant
    ([gmass_integer]: the same constant for every integer centre). *)
Definition gprob (mu : 'cV[int]_n) (z : 'cV[int]_n) : R := gweight (real_vector mu) z / fine (gmass (real_vector mu)).

Lemma gprob_gt0 mu z : 0 < gprob mu z.
Proof. by rewrite divr_gt0 ?gweight_gt0 ?fine_gmass_gt0. Qed.

Theorem gprob_setT mu : \esum_(z in [set: 'cV[int]_n]) (gprob mu z)%:E = 1%E.
Proof.
have Zgt0 := fine_gmass_gt0 (real_vector mu).
rewrite (eq_esum (b := fun z => ((fine (gmass (real_vector mu)))^-1%:E * (gweight (real_vector mu) z)%:E)%E)).
  rewrite esum_scale ?invr_gt0//; last by move=> z; exact: gweight_ge0.
  by rewrite -/(gmass _) -[gmass _]fineK ?gmass_fin_num// -EFinM mulVf ?gt_eqF.
by move=> z _; rewrite -EFinM mulrC.
Qed.

(** The release mu + Z with Z ~ N_Z(0, sigma^2 I_n): P[mu + Z = y] = P[Z = y - mu] is the law [gprob mu]. *)
Lemma gprob_noise mu y : gprob mu y = gprob 0 (y - mu).
Proof.
rewrite /gprob !gmass_integer; congr (expR _ / _); congr (- _ / _).
by apply: eq_bigr => i _; rewrite !mxE rmorphB subr0.
Qed.
End gaussian.
