(** * The discrete Gaussian on Z^n: normalisation, privacy loss, Renyi divergence and rho-zCDP — machine-checked,
    the real-order bound conditional on one stated premise.

    The theorem the TDA privacy accounting (CKS 2020 Theorem 14, cited there) and the library's discrete-Gaussian
    rho ([reference.privacy.zcdp.rho_discrete_gaussian]) rest on.  The weight of z in Z^n about a real centre m is
    [gweight m z = exp(-||z - m||^2 / (2 sigma^2))] (a product over the coordinates: [gweight_prod]), its mass
    [gmass m] is mathcomp-analysis's sum of non-negative extended reals over all of Z^n, and the law of
    N_Z(mu, sigma^2 I_n) for an integer centre mu is [gprob mu z = gweight mu z / fine (gmass mu)]: an honest
    normalised probability ([gprob_setT]: total mass 1), equal to the law of mu + Z for Z ~ N_Z(0, sigma^2 I_n)
    ([gprob_noise]).

    Proved, unconditionally:
    - (1) [gmass_finite]: the weights are summable (each is at most a constant times the discrete Laplace weight
      of scale sigma, whose sum [DiscreteLaplacePrivacy.mass_finite] bounds); [gmass_shift]: the mass is invariant
      under integer shifts of the centre (re-indexing z |-> z + u), so all integer centres share one normalising
      constant ([gmass_integer]).
    - (2) [privacy_loss]: ln (P_mu(z) / P_nu(z)) = sum_i (mu_i - nu_i)(2 z_i - mu_i - nu_i) / (2 sigma^2).
    - (3) [renyi_sum_integer_centre], [renyi_integer_centre]: with D_alpha(P || Q) = ln (sum_z P^alpha Q^(1-alpha))
      / (alpha - 1) (real powers a `^ x = exp (x ln a)), D_alpha = alpha ||mu - nu||^2 / (2 sigma^2) exactly
      whenever the centre m = alpha mu + (1 - alpha) nu is an integer vector; [renyi_integer_order]: in particular
      for every integer order k > 1; [renyi_real_order]: at every real order alpha != 1,
      D_alpha = alpha ||mu - nu||^2 / (2 sigma^2) + ln (Z(m) / Z(0)) / (alpha - 1).
    - (5) [renyi_additive]: for integer orders the divergence on Z^n is the sum of the coordinates' divergences;
      [zcdp_integer_order]: for an integer workload f with ||f x - f x'||^2 <= Delta^2 on neighbours, the release
      f(x) + Z has D_k <= rho k for every integer k > 1, rho = Delta^2 / (2 sigma^2).

    Proved conditionally on [theta_premise] (Z(m) <= Z(0) for every real centre m in R^n, a theta-function
    inequality proved in CKS 2020 by Poisson summation; not proved here):
    - (4) [renyi_le]: D_alpha <= alpha ||mu - nu||^2 / (2 sigma^2) for every real alpha > 1 (premise only at the
      one centre m); [zcdp]: rho-zCDP of f(x) + Z at every real order alpha > 1.
    - [theta_lift]: the premise on R^n follows from the one-dimensional [theta_premise_1],
      sum_(x in Z) exp(-(x - c)^2 / (2 sigma^2)) <= sum_(x in Z) exp(-x^2 / (2 sigma^2)) for every real c, since the
      mass factorises over the coordinates ([gmass_col], Fubini for sums of non-negative terms); so
      [renyi_le_theta1] and [zcdp_theta1] state (4) and (5) with exactly that one-dimensional premise.

    Why a premise: summing P^alpha Q^(1-alpha) gives exp(alpha (alpha - 1) ||mu - nu||^2 / (2 sigma^2)) Z(m) / Z(0)
    ([renyi_sum_centre]), so D_alpha = alpha ||mu - nu||^2 / (2 sigma^2) + ln (Z(m) / Z(0)) / (alpha - 1): exact
    only when m is an integer vector, and for other m the bound needs Z(m) <= Z(0).  "Exactly alpha (mu - nu)^2 /
    (2 sigma^2)" for every alpha is false: for mu - nu odd and alpha = 3/2 the centre is a half-integer and
    Z(m) < Z(0) strictly, so D_alpha is strictly smaller.

    Axioms: as DiscreteLaplacePrivacy.v, exactly mathcomp-analysis's boolp.propositional_extensionality,
    boolp.functional_extensionality_dep and boolp.constructive_indefinite_description. *)
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
by apply: eq_bigr => i _; rewrite !mxE intrD opprD addrACA subrr addr0.
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
have same : sqdist (y - mu) (real_vector 0) = sqdist y (real_vector mu).
  by apply: eq_bigr => i _; rewrite !mxE rmorphB subr0.
by rewrite /gprob /gweight (gmass_integer mu) (gmass_integer 0) same.
Qed.

(** (2) The privacy loss ln (P_mu(z) / P_nu(z)) is the affine function
    sum_i (mu_i - nu_i)(2 z_i - mu_i - nu_i) / (2 sigma^2) of z: the normalising constants cancel. *)
Definition loss_numerator (mu nu z : 'cV[int]_n) : int :=
  \sum_(i < n) (mu i ord0 - nu i ord0) * (2 * z i ord0 - mu i ord0 - nu i ord0).

Lemma gprob_ratio mu nu z :
  gprob mu z / gprob nu z = gweight (real_vector mu) z / gweight (real_vector nu) z.
Proof.
rewrite /gprob (gmass_integer mu) (gmass_integer nu).
by rewrite invfM invrK mulrACA mulVf ?mulr1// gt_eqF// fine_gmass_gt0.
Qed.

Theorem privacy_loss mu nu z :
  ln (gprob mu z / gprob nu z) = (loss_numerator mu nu z)%:~R / (2 * sigma ^+ 2).
Proof.
rewrite gprob_ratio /gweight -expRB expK -mulrBl; congr (_ / _).
rewrite opprK addrC /loss_numerator rmorph_sum /sqdist -sumrB; apply: eq_bigr => i _.
rewrite !mxE /=; ring.
Qed.

(** (3) The Renyi divergence of order alpha: D_alpha(P || Q) = ln (sum_z P(z)^alpha Q(z)^(1 - alpha)) / (alpha - 1),
    the powers being the library's real powers a `^ x = exp (x ln a) of the (positive) probabilities. *)
Definition sqnorm (u : 'cV[int]_n) : int := \sum_(i < n) u i ord0 ^+ 2.
Definition centre (alpha : R) (mu nu : 'cV[int]_n) : 'cV[R]_n :=
  alpha *: real_vector mu + (1 - alpha) *: real_vector nu.
Definition renyi_sum (alpha : R) (mu nu : 'cV[int]_n) : \bar R :=
  \esum_(z in [set: 'cV[int]_n]) (gprob mu z `^ alpha * gprob nu z `^ (1 - alpha))%:E.
Definition renyi (alpha : R) (mu nu : 'cV[int]_n) : R := ln (fine (renyi_sum alpha mu nu)) / (alpha - 1).
Definition renyi_exponent (alpha : R) (mu nu : 'cV[int]_n) : R :=
  alpha * (alpha - 1) * (sqnorm (mu - nu))%:~R / (2 * sigma ^+ 2).

(** alpha ||z - mu||^2 + (1 - alpha) ||z - nu||^2 = ||z - m||^2 + alpha (1 - alpha) ||mu - nu||^2,
    m = alpha mu + (1 - alpha) nu. *)
Lemma sqdist_mix alpha mu nu z :
  alpha * sqdist z (real_vector mu) + (1 - alpha) * sqdist z (real_vector nu)
  = sqdist z (centre alpha mu nu) + alpha * (1 - alpha) * (sqnorm (mu - nu))%:~R.
Proof.
rewrite /sqdist /sqnorm rmorph_sum !mulr_sumr -!big_split; apply: eq_bigr => i _.
rewrite !mxE /=; ring.
Qed.

(** Pointwise, P^alpha Q^(1 - alpha) is the weight centred at m times exp(alpha (alpha - 1) ||mu - nu||^2 /
    (2 sigma^2)) / Z(0). *)
Lemma tilt alpha mu nu z :
  gprob mu z `^ alpha * gprob nu z `^ (1 - alpha)
  = expR (renyi_exponent alpha mu nu) / fine (gmass 0) * gweight (centre alpha mu nu) z.
Proof.
have Z0 := fine_gmass_gt0 0.
have lnP w : ln (gprob w z) = - sqdist z (real_vector w) / (2 * sigma ^+ 2) - ln (fine (gmass 0)).
  by rewrite /gprob gmass_integer ln_div ?expK// posrE ?gweight_gt0.
have eZ : (fine (gmass 0))^-1 = expR (- ln (fine (gmass 0))) by rewrite expRN lnK.
move: (lnP mu) (lnP nu); move: (gprob mu z) (gprob nu z) => p q lp lq.
rewrite /exp_fun lp lq -expRD /gweight eZ -!expRD; congr expR.
have := sqdist_mix alpha mu nu z; rewrite /renyi_exponent.
move: (sqdist z (real_vector mu)) (sqdist z (real_vector nu)) (sqdist z (centre alpha mu nu)) => dmu dnu dm.
move: ((sqnorm _)%:~R) => D mix.
have -> : dm = alpha * dmu + (1 - alpha) * dnu - alpha * (1 - alpha) * D by rewrite mix addrK.
ring.
Qed.

Lemma renyi_sum_centre alpha mu nu :
  renyi_sum alpha mu nu = ((expR (renyi_exponent alpha mu nu) / fine (gmass 0))%:E * gmass (centre alpha mu nu))%E.
Proof.
have Z0 := fine_gmass_gt0 0.
rewrite /renyi_sum (eq_esum (b := fun z => ((expR (renyi_exponent alpha mu nu) / fine (gmass 0))%:E
  * (gweight (centre alpha mu nu) z)%:E)%E)); last by move=> z _; rewrite tilt EFinM.
by rewrite esum_scale ?divr_gt0 ?expR_gt0//; move=> z; exact: gweight_ge0.
Qed.

(** (3) The exact identity when the centre m = alpha mu + (1 - alpha) nu is an integer vector: then Z(m) = Z(0). *)
Theorem renyi_sum_integer_centre alpha mu nu w : centre alpha mu nu = real_vector w ->
  renyi_sum alpha mu nu = (expR (renyi_exponent alpha mu nu))%:E.
Proof.
move=> cw; have Z0 := fine_gmass_gt0 0.
rewrite renyi_sum_centre cw gmass_integer -[in X in (_ * X)%E](fineK (gmass_fin_num 0)) -EFinM.
by rewrite divfK ?gt_eqF.
Qed.

Theorem renyi_integer_centre alpha mu nu w : alpha != 1 -> centre alpha mu nu = real_vector w ->
  renyi alpha mu nu = alpha * (sqnorm (mu - nu))%:~R / (2 * sigma ^+ 2).
Proof.
move=> a1 cw; rewrite /renyi (renyi_sum_integer_centre cw) /= expK /renyi_exponent.
have a1' : alpha - 1 != 0 by rewrite subr_eq0.
by field; rewrite a1' gt_eqF.
Qed.

(** The identity at every real order alpha != 1: D_alpha = alpha ||mu - nu||^2 / (2 sigma^2) + ln (Z(m) / Z(0)) /
    (alpha - 1).  The second term vanishes exactly when Z(m) = Z(0), e.g. at an integer centre; it does not vanish
    in general (the "exactly" of the statement under audit holds at integer centres only). *)
Let ln_split (e z zm a : R) : 0 < z -> 0 < zm -> ln (expR e / z * zm) / a = e / a + ln (zm / z) / a.
Proof.
move=> z0 zm0; rewrite -mulrA lnM ?posrE ?expR_gt0 ?mulr_gt0 ?invr_gt0// expK mulrDl.
by rewrite [z^-1 * _]mulrC.
Qed.

Theorem renyi_real_order alpha mu nu : alpha != 1 ->
  renyi alpha mu nu = alpha * (sqnorm (mu - nu))%:~R / (2 * sigma ^+ 2)
    + ln (fine (gmass (centre alpha mu nu)) / fine (gmass 0)) / (alpha - 1).
Proof.
move=> a1; have Z0 := fine_gmass_gt0 0; have Zm := fine_gmass_gt0 (centre alpha mu nu).
have a1' : alpha - 1 != 0 by rewrite subr_eq0.
rewrite /renyi renyi_sum_centre -[gmass (centre _ _ _)](fineK (gmass_fin_num _)) -EFinM /=.
rewrite (ln_split _ _ Z0 Zm).
congr (_ + _); by rewrite /renyi_exponent; field; rewrite a1' gt_eqF.
Qed.

(** For an integer order k the centre k mu + (1 - k) nu is an integer vector. *)
Lemma centre_integer (k : int) mu nu : centre k%:~R mu nu = real_vector (k *: mu + (1 - k) *: nu).
Proof. by apply/matrixP => i j; rewrite !mxE /=; ring. Qed.

Theorem renyi_integer_order (k : int) mu nu : 1 < k ->
  renyi k%:~R mu nu = k%:~R * (sqnorm (mu - nu))%:~R / (2 * sigma ^+ 2).
Proof.
move=> k1; apply: (renyi_integer_centre _ (centre_integer k mu nu)).
by rewrite gt_eqF// ltr1z.
Qed.

(** (4) For a real order alpha > 1, the bound D_alpha <= alpha ||mu - nu||^2 / (2 sigma^2), conditional on the
    theta-function inequality Z(m) <= Z(0) at the centre m (a premise here: it is not proved in this file). *)
Let scale_le (e Z f : R) : 0 < e -> 0 < Z -> f <= Z -> e / Z * f <= e.
Proof.
move=> e0 Z0 fZ; rewrite -mulrA; apply: ler_pimulr; first exact: ltW.
by rewrite mulrC ler_pdivr_mulr// mul1r.
Qed.

Definition theta_premise : Prop := forall m : 'cV[R]_n, (gmass m <= gmass 0)%E.

Theorem renyi_le alpha mu nu : 1 < alpha -> (gmass (centre alpha mu nu) <= gmass 0)%E ->
  renyi alpha mu nu <= alpha * (sqnorm (mu - nu))%:~R / (2 * sigma ^+ 2).
Proof.
move=> a1 theta; have Z0 := fine_gmass_gt0 0; have Zm := fine_gmass_gt0 (centre alpha mu nu).
have a1' : 0 < alpha - 1 by rewrite subr_gt0.
rewrite /renyi renyi_sum_centre -[gmass (centre _ _ _)](fineK (gmass_fin_num _)) -EFinM /=.
rewrite ler_pdivr_mulr// (_ : _ * _ * (alpha - 1) = renyi_exponent alpha mu nu); last first.
  by rewrite /renyi_exponent; ring.
rewrite -[X in _ <= X](expK (renyi_exponent alpha mu nu)) ler_ln ?posrE ?mulr_gt0 ?divr_gt0 ?invr_gt0 ?expR_gt0//.
have fle : fine (gmass (centre alpha mu nu)) <= fine (gmass 0).
  by apply: fine_le; rewrite ?gmass_fin_num ?theta.
exact: (scale_le (expR_gt0 _) Z0 fle).
Qed.

Corollary renyi_le_theta alpha mu nu : theta_premise -> 1 < alpha ->
  renyi alpha mu nu <= alpha * (sqnorm (mu - nu))%:~R / (2 * sigma ^+ 2).
Proof. by move=> theta a1; exact: renyi_le. Qed.

(** (5) rho-zCDP of the release f(x) + Z, Z ~ N_Z(0, sigma^2 I_n), for an integer workload f whose neighbours
    differ by at most Delta in l2 norm: rho = Delta^2 / (2 sigma^2).  Unconditional for every integer order;
    for every real order alpha > 1 conditional on [theta_premise]. *)
Section zcdp.
Variables (Data : Type) (f : Data -> 'cV[int]_n) (adj : Data -> Data -> Prop) (Delta : R).
Hypothesis sensitivity : forall x x', adj x x' -> (sqnorm (f x - f x'))%:~R <= Delta ^+ 2.

Definition rho : R := Delta ^+ 2 / (2 * sigma ^+ 2).

Let scale alpha x x' : 0 < alpha -> adj x x' ->
  alpha * (sqnorm (f x - f x'))%:~R / (2 * sigma ^+ 2) <= rho * alpha.
Proof.
move=> a0 xx'; rewrite [rho * alpha]mulrC /rho -[X in X <= _]mulrA ler_pmul2l// ler_pmul2r ?invr_gt0//.
exact: sensitivity.
Qed.

Theorem zcdp_integer_order x x' (k : int) : adj x x' -> 1 < k ->
  renyi k%:~R (f x) (f x') <= rho * k%:~R.
Proof.
move=> xx' k1; rewrite renyi_integer_order//; apply: scale => //.
by rewrite (lt_trans ltr01)// ltr1z.
Qed.

Theorem zcdp : theta_premise -> forall x x', adj x x' ->
  forall alpha, 1 < alpha -> renyi alpha (f x) (f x') <= rho * alpha.
Proof.
move=> theta x x' xx' alpha a1; apply: le_trans (renyi_le_theta _ _ theta a1) _.
by apply: scale => //; rewrite (lt_trans ltr01).
Qed.
End zcdp.
End gaussian.

(** (5) Over independent coordinates the divergences add: for an integer order k the divergence of the laws on
    Z^n is the sum over i of the divergences of the one-dimensional laws N_Z(mu_i, sigma^2), N_Z(nu_i, sigma^2). *)
Definition coordinate (n : nat) (u : 'cV[int]_n) (i : 'I_n) : 'cV[int]_1 := const_mx (u i ord0).

Theorem renyi_additive (R : realType) (n : nat) (sigma : R) (sigma_gt0 : 0 < sigma) (k : int) (mu nu : 'cV[int]_n) :
  1 < k -> renyi sigma k%:~R mu nu = \sum_(i < n) renyi sigma k%:~R (coordinate mu i) (coordinate nu i).
Proof.
move=> k1; rewrite renyi_integer_order//.
rewrite (eq_bigr (fun i => k%:~R * (sqnorm (coordinate mu i - coordinate nu i))%:~R / (2 * sigma ^+ 2))).
  rewrite -mulr_suml -mulr_sumr -rmorph_sum /sqnorm; congr (_ * _%:~R / _).
  by apply: eq_bigr => i _; rewrite big_ord_recl big_ord0 addr0 !mxE.
by move=> i _; rewrite renyi_integer_order.
Qed.

(** The premise on Z^n from the premise on Z: the mass factorises over the coordinates. *)
Section lift.
Variables (R : realType) (sigma : R).
Hypothesis sigma_gt0 : 0 < sigma.

Lemma sqdist_col n (a : 'cV[int]_1) (v : 'cV[int]_n) (c : 'cV[R]_1) (m : 'cV[R]_n) :
  sqdist (col_mx a v) (col_mx c m) = sqdist a c + sqdist v m.
Proof.
rewrite /sqdist big_split_ord /=; congr (_ + _); apply: eq_bigr => i _.
  by rewrite !col_mxEu.
by rewrite !col_mxEd.
Qed.

Lemma gweight_col n (a : 'cV[int]_1) (v : 'cV[int]_n) (c : 'cV[R]_1) (m : 'cV[R]_n) :
  gweight sigma (col_mx c m) (col_mx a v) = gweight sigma c a * gweight sigma m v.
Proof. by rewrite /gweight sqdist_col -expRD opprD mulrDl. Qed.

(** The mass on Z^(1 + n) is the product of the masses on Z and on Z^n (Fubini for sums of non-negative terms). *)
Lemma gmass_col n (c : 'cV[R]_1) (m : 'cV[R]_n) :
  gmass sigma (col_mx c m) = (gmass sigma c * gmass sigma m)%E.
Proof.
have bij : set_bij (setT `*`` (fun=> setT)) [set: 'cV[int]_(1 + n)] (fun p => col_mx p.1 p.2).
  split=> //; first by move=> [a v] [a' v'] _ _ /= /eq_col_mx [-> ->].
  by move=> z _; exists (usubmx z, dsubmx z); rewrite //= vsubmxK.
rewrite /gmass (@reindex_esum R _ _ _ _ _ _ bij) -(@esum_esum R _ _ setT (fun=> setT) (fun a v => (gweight sigma (col_mx c m) (col_mx a v))%:E)).
  rewrite (eq_esum (b := fun a => ((gweight sigma c a)%:E * gmass sigma m)%E)); last first.
    move=> a _; rewrite /gmass -esum_scale ?gweight_gt0//; last by move=> v; exact: gweight_ge0.
    by apply: eq_esum => v _; rewrite gweight_col EFinM.
  rewrite -(fineK (gmass_fin_num sigma_gt0 m)).
  rewrite (eq_esum (b := fun a => ((fine (gmass sigma m))%:E * (gweight sigma c a)%:E)%E)); last first.
    by move=> a _; rewrite muleC.
  rewrite esum_scale; [by rewrite muleC (fineK (gmass_fin_num sigma_gt0 m)) | exact: fine_gmass_gt0 |
    by move=> a; exact: gweight_ge0].
by move=> a v; exact: gweight_ge0.
Qed.

(** The one-dimensional theta inequality Z(c) <= Z(0) on Z (CKS 2020) gives it on Z^n for every n. *)
Definition theta_premise_1 : Prop := forall c : 'cV[R]_1, (gmass sigma c <= gmass sigma (0 : 'cV[R]_1)%R)%E.

Theorem theta_lift : theta_premise_1 -> forall n, @theta_premise R n sigma.
Proof.
move=> theta1; elim=> [|n IH] m; first by rewrite [m]flatmx0.
have -> : m = col_mx (usubmx (m : 'cV_(1 + n))) (dsubmx (m : 'cV_(1 + n))) by rewrite vsubmxK.
rewrite -(@col_mx0 R 1%N n 1%N) !gmass_col.
apply: lee_pmul; [exact: (ltW (gmass_gt0 _ _)) | exact: (ltW (gmass_gt0 _ _)) | exact: theta1 | exact: IH].
Qed.

(** (4), (5) with the premise in its one-dimensional form: Z(c) <= Z(0) for every real c. *)
Theorem renyi_le_theta1 n alpha (mu nu : 'cV[int]_n) : theta_premise_1 -> 1 < alpha ->
  renyi sigma alpha mu nu <= alpha * (sqnorm (mu - nu))%:~R / (2 * sigma ^+ 2).
Proof. by move=> theta1 a1; apply: (renyi_le sigma_gt0 a1); exact: (theta_lift theta1 (n := n)). Qed.

Theorem zcdp_theta1 n (Data : Type) (f : Data -> 'cV[int]_n) (adj : Data -> Data -> Prop) (Delta : R) :
  (forall x x', adj x x' -> (sqnorm (f x - f x'))%:~R <= Delta ^+ 2) ->
  theta_premise_1 -> forall x x', adj x x' ->
  forall alpha, 1 < alpha -> renyi sigma alpha (f x) (f x') <= rho sigma Delta * alpha.
Proof.
move=> sensitivity theta1 x x' xx' alpha a1.
exact: (zcdp sigma_gt0 sensitivity (theta_lift theta1 (n := n)) xx' a1).
Qed.
End lift.
