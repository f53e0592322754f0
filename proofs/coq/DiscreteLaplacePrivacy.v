(** * The discrete Laplace release W x + B z: epsilon-DP when every neighbouring shift is B u with u integer,
    and separated with probability 1 against 0 when a shift is outside the integer lattice of B — machine-checked.

    The theorem the integer-noise audit ([reference.audit.linear_noise], noise "discrete-laplace") rests on; it is
    not a statement of the three papers.  The release is [release x z = a x + B z] with [a x] the noiseless answer
    (W x for a workload W) in ['cV[R]_m] over any real field R, B an m x n real matrix applied to the integer
    vector z (['cV[int]_n], entries mapped into R), and z drawn i.i.d. discrete Laplace of scale b > 0: the
    law of z has weight [weight z = prod_i exp(-|z_i|/b)] on Z^n, and
    [prob x S = \esum_(z in [set z | S (release x z)]) weight z] (mathcomp-analysis's sum of non-negative
    extended reals over a set) is the mass of the outputs in S.  The normalising constant [mass] (the same
    \esum over all of Z^n, the same for every dataset) is positive ([mass_gt0]) and finite ([mass_finite]:
    at most (2/(1 - e^(-1/b)))^n; its exact value ((1 + e^(-1/b))/(1 - e^(-1/b)))^n is not needed), so
    [probability x S = prob x S / mass] is the law of the release ([probability_setT]: the whole output space has
    probability 1), and every inequality below holds for [prob] and for [probability] alike.

    Proved:
    - [shift_bound]: if a x' - a x = B u with u integer, then prob x S <= exp(||u||_1 / b) prob x' S for every
      set S of outputs (pointwise weight (w - u) >= exp(-||u||_1/b) weight w by the triangle inequality, then the
      translation w |-> w - u of Z^n, a bijection between the two index sets).
    - [discrete_laplace_dp], [discrete_laplace_dp_probability]: any neighbouring relation whose shifts are all
      B u with u integer and ||u||_1 <= Delta gives epsilon-DP with epsilon = Delta / b.
    - [workload_dp], [workload_dp_probability]: the release W x + B z with histogram neighbours x' = x +- e_j and
      W e_j = B u_j (u_j integer) is epsilon-DP with epsilon = max_j ||u_j||_1 / b ([epsilon]):
      P[y(x) in S] <= exp(epsilon) P[y(x') in S] for every set S of outputs.
    - [lattice_leak], [lattice_leak_probability], [lattice_leak_not_dp]: if a x' - a x is B u for no integer u,
      the set S = {a x + B z : z integer} has probability 1 under x and 0 under x', so no epsilon bounds the pair.

    Axioms: mathcomp-analysis's sums over sets are built on its classical module boolp, so [Print Assumptions]
    names exactly three axioms, and no other: boolp.propositional_extensionality,
    boolp.functional_extensionality_dep and boolp.constructive_indefinite_description (the reals themselves are
    an abstract [realType], not an axiom). *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint matrix zify finmap.
From mathcomp.classical Require Import boolp classical_sets functions cardinality fsbigop mathcomp_extra.
From mathcomp.analysis Require Import reals ereal esum sequences exp.
From Reference Require Import ZifyOpaque.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import Order.TTheory GRing.Theory Num.Def Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.

(** Scaling a sum over a set by a positive constant (esum.v has no such lemma): one direction suffices. *)
Section scale.
Variables (R : realType) (T : choiceType).

Lemma esum_scale_ge (c : R) (I : set T) (f : T -> \bar R) :
  0 < c -> (forall i, 0 <= f i)%E ->
  (c%:E * (\esum_(i in I) f i) <= \esum_(i in I) (c%:E * f i))%E.
Proof.
move=> c0 f0; rewrite -lee_pdivl_mull//.
apply: ub_ereal_sup => _ [X [finX XI] <-].
have -> : (\sum_(i \in X) f i = c^-1%:E * \sum_(i \in X) (c%:E * f i))%E.
  rewrite -(ge0_mule_fsumr c%:E X f0). (* arguments given: found by unification it took 0.8 s *)
  by rewrite muleA -EFinM mulVf ?gt_eqF// mul1e.
apply: lee_wpmul2l; first by rewrite lee_fin invr_ge0 ltW.
by apply: esum_ge; exists X.
Qed.

End scale.

(** The l1 norm of an integer vector, and its triangle inequality. *)
Section norm.
Variable n : nat.
Definition norm1 (u : 'cV[int]_n) : nat := \sum_(i < n) absz (u i ord0).

Lemma norm1_sub (w u : 'cV[int]_n) : (norm1 (w - u) <= norm1 w + norm1 u)%N.
Proof.
rewrite /norm1 -big_split /=; apply: leq_sum => i _.
rewrite !mxE -lez_nat PoszD !abszE.
by rewrite (le_trans (ler_norm_add _ _))// normrN.
Qed.
End norm.

Section release.
Variables (R : realType) (m n : nat) (Data : Type).
Variable a : Data -> 'cV[R]_m.
Variable B : 'M[R]_(m, n).
Variable b : R.
Hypothesis b_gt0 : 0 < b.

(** The noise B z, the release, the discrete Laplace weight and the (unnormalised) mass of a set of outputs. *)
Definition noise (z : 'cV[int]_n) : 'cV[R]_m := B *m map_mx intr z.
Definition release (x : Data) (z : 'cV[int]_n) : 'cV[R]_m := a x + noise z.
Definition weight (z : 'cV[int]_n) : R := \prod_(i < n) expR (- (absz (z i ord0))%:R / b).
Definition prob (x : Data) (S : set 'cV[R]_m) : \bar R :=
  \esum_(z in [set z | S (release x z)]) (weight z)%:E.
Definition mass : \bar R := \esum_(z in [set: 'cV[int]_n]) (weight z)%:E.

Lemma noiseB z u : noise (z - u) = noise z - noise u.
Proof.
rewrite /noise -mulmxBr; congr (_ *m _).
by apply/matrixP => i j; rewrite !mxE rmorphB.
Qed.

Lemma noiseD z u : noise (z + u) = noise z + noise u.
Proof. by rewrite -{2}[z](addrK u) noiseB addrNK. Qed.

Lemma noiseN u : noise (- u) = - noise u.
Proof. by rewrite -sub0r noiseB /noise (_ : map_mx intr 0 = 0) ?mulmx0 ?sub0r// map_mx0. Qed.

Lemma weight_norm1 z : weight z = expR (- (norm1 z)%:R / b).
Proof.
rewrite /weight /norm1 natr_sum -sumrN mulr_suml.
rewrite (big_morph expR (@expRD R) (expR0 R)); apply: eq_bigr => i _.
by rewrite mulNr.
Qed.

Lemma weight_ge0 z : (0 <= (weight z)%:E)%E.
Proof. by rewrite lee_fin weight_norm1 ltW// expR_gt0. Qed.

(** The pointwise step: translating the noise by u costs at most a factor exp(||u||_1 / b). *)
Lemma weight_shift z u : expR (- (norm1 u)%:R / b) * weight z <= weight (z - u).
Proof.
rewrite !weight_norm1 -expRD ler_expR -mulrDl ler_pmul2r ?invr_gt0//.
by rewrite -opprD ler_opp2 -natrD ler_nat addnC norm1_sub.
Qed.

Lemma prob_ge0 x S : (0 <= prob x S)%E.
Proof. by apply: esum_ge0 => z _; exact: weight_ge0. Qed.

(** One neighbouring pair whose shift is an integer combination B u of the noise columns. *)
Lemma shift_bound x x' u :
  a x' - a x = noise u ->
  forall S, (prob x S <= (expR ((norm1 u)%:R / b))%:E * prob x' S)%E.
Proof.
move=> shift S; set c := expR (- (norm1 u)%:R / b).
have c_gt0 : 0 < c by exact: expR_gt0.
have -> : expR ((norm1 u)%:R / b) = c^-1 by rewrite /c mulNr expRN invrK.
rewrite lee_pdivl_mull//.
have bij : set_bij [set w | S (release x w)] [set z | S (release x' z)] (fun w => w - u).
  have ax' : a x' = a x + noise u by rewrite -shift addrC addrNK.
  split.
  - move=> w /=; rewrite (_ : release x' (w - u) = release x w)//.
    by rewrite /release noiseB ax' addrA addrAC addrK.
  - by move=> w1 w2 _ _ /addIr.
  - move=> z /= Sz; exists (z + u); last by rewrite addrK.
    rewrite /= (_ : release x (z + u) = release x' z)//.
    by rewrite /release noiseD ax' addrA addrAC.
rewrite /prob (reindex_esum _ _ _ _ bij).
apply: le_trans (esum_scale_ge _ c_gt0 _) _; first by move=> z; exact: weight_ge0.
by apply: le_esum => w _; rewrite -EFinM lee_fin weight_shift.
Qed.

(** epsilon-DP with epsilon = Delta / b for any neighbouring relation whose shifts are integer combinations of
    the noise columns of l1 norm at most Delta. *)
Theorem discrete_laplace_dp (adj : Data -> Data -> Prop) (Delta : nat) :
  (forall x x', adj x x' -> exists u : 'cV[int]_n, a x' - a x = noise u /\ (norm1 u <= Delta)%N) ->
  forall x x', adj x x' ->
  forall S, (prob x S <= (expR (Delta%:R / b))%:E * prob x' S)%E.
Proof.
move=> shifts x x' xx' S; have [u [shift le_u]] := shifts x x' xx'.
apply: le_trans (shift_bound shift S) _.
apply: lee_wpmul2r; first exact: prob_ge0.
by rewrite lee_fin ler_expR ler_pmul2r ?invr_gt0// ler_nat.
Qed.

Lemma weight0 : weight 0 = 1.
Proof.
rewrite weight_norm1 /norm1 big1 ?mulNr ?mul0r ?oppr0 ?expR0// => i _.
by rewrite mxE.
Qed.

Lemma mass_gt0 : (0 < mass)%E.
Proof.
apply: (@lt_le_trans _ _ 1%E); first by rewrite lte_fin ltr01.
apply: esum_ge; exists [set 0]; first by split; [exact: finite_set1|by []].
by rewrite fsbig_set1 weight0.
Qed.

(** A shift outside the integer lattice of B: the outputs reachable from x carry all the mass under x and none
    under x'. *)
Theorem lattice_leak x x' :
  ~ (exists u : 'cV[int]_n, a x' - a x = noise u) ->
  let S := [set release x z | z in [set: 'cV[int]_n]] in
  prob x S = mass /\ prob x' S = 0%E.
Proof.
move=> off S; split.
  rewrite /prob /mass; congr esum; apply/seteqP; split=> z //= _.
  by exists z.
rewrite /prob (_ : [set z | S (release x' z)] = set0) ?esum_set0//.
apply/seteqP; split=> z //= [z'' _ same]; apply: off; exists (z'' - z).
move: same; rewrite /release noiseB => same.
have -> : a x' = a x + noise z'' - noise z by rewrite same addrK.
by rewrite -[a x + _ - _]addrA addrC addKr.
Qed.

Corollary lattice_leak_not_dp x x' :
  ~ (exists u : 'cV[int]_n, a x' - a x = noise u) ->
  exists S, forall epsilon : R, ~ (prob x S <= (expR epsilon)%:E * prob x' S)%E.
Proof.
move=> off; have [eqx eqx'] := lattice_leak off.
exists [set release x z | z in [set: 'cV[int]_n]] => epsilon; rewrite eqx eqx' mule0; apply/negP; rewrite -ltNge.
exact: mass_gt0.
Qed.

End release.

(** The normalising constant is finite: on the box [-N, N]^n the weights sum to a product of one-dimensional
    sums, each at most 2/(1 - e^(-1/b)) (a geometric series on each side of 0), and every finite set of integer
    vectors lies in such a box. *)
Section mass.
Variables (R : realType) (n : nat) (b : R).
Hypothesis b_gt0 : 0 < b.

Let q : R := expR (- 1 / b).

Let q_ge0 : 0 <= q. Proof. exact/ltW/expR_gt0. Qed.
Let q_lt1 : q < 1.
Proof. by rewrite /q expR_lt1 mulNr oppr_lt0 mul1r invr_gt0. Qed.

Lemma geometric_le (M : nat) : \sum_(k < M) q ^+ k <= (1 - q)^-1.
Proof.
have gap : 0 < 1 - q by rewrite subr_gt0.
have eq : (1 - q) * (\sum_(k < M) q ^+ k) = 1 - q ^+ M.
  by rewrite -[1 - q]opprB mulNr -subrX1 opprB.
rewrite -[X in X <= _](mulKf (lt0r_neq0 gap)) eq mulrC ler_pdivr_mulr// mulVf ?lt0r_neq0//.
by rewrite ger_addl oppr_le0 exprn_ge0.
Qed.

Lemma expR_absz (m : nat) : expR (- m%:R / b) = q ^+ m.
Proof. by rewrite /q -expRMm mulrA mulrN1 mulNr. Qed.

Lemma box_sum (N : nat) :
  \sum_(k < N + N.+1) expR (- (absz (k%:Z - N%:Z))%:R / b) <= (1 - q)^-1 + (1 - q)^-1.
Proof.
rewrite big_split_ord /=; apply: ler_add.
  apply: le_trans (geometric_le N).
  rewrite (reindex_inj rev_ord_inj) /=; apply: ler_sum => k _.
  have -> : absz ((N - k.+1)%:Z - N%:Z) = k.+1 by have := ltn_ord k; lia.
  by rewrite expR_absz exprS ler_pimull ?exprn_ge0// ltW.
apply: le_trans (geometric_le N.+1); apply: ler_sum => k _.
have -> : absz ((N + k)%:Z - N%:Z) = k by lia.
by rewrite expR_absz.
Qed.

Let c : R := (1 - q)^-1 + (1 - q)^-1.

(* the box [-N, N]^n of integer vectors, indexed by functions to 'I_(2N + 1) *)
Let box (N : nat) (g : {ffun 'I_n -> 'I_(N + N.+1)}) : 'cV[int]_n := \col_i ((g i)%:Z - N%:Z).

Let box_inj (N : nat) : injective (@box N).
Proof.
move=> g g' /matrixP same; apply/ffunP => i; apply/val_inj.
by have := same i ord0; rewrite !mxE => /addIr /eqP; rewrite eqz_nat => /eqP.
Qed.

Let box_total (N : nat) : \sum_(g : {ffun 'I_n -> 'I_(N + N.+1)}) weight b (@box N g) <= c ^+ n.
Proof.
rewrite (eq_bigr (fun g : {ffun 'I_n -> 'I_(N + N.+1)} =>
  \prod_i expR (- (absz ((g i)%:Z - N%:Z))%:R / b))); last first.
  by move=> g _; apply: eq_bigr => i _; rewrite mxE.
rewrite -(bigA_distr_bigA (fun (i : 'I_n) (k : 'I_(N + N.+1)) => expR (- (absz (k%:Z - N%:Z))%:R / b))).
apply: le_trans (_ : \prod_(i < n) c <= _); last by rewrite prodr_const card_ord.
apply: ler_prod => i _; rewrite sumr_ge0 ?box_sum// => k _.
exact/ltW/expR_gt0.
Qed.

Let finite_sum_le (X : set 'cV[int]_n) : finite_set X ->
  (\sum_(z \in X) (weight b z)%:E <= (c ^+ n)%:E)%E.
Proof.
move=> finX.
pose N := \max_(z <- enum_fset (fset_set X)) \max_(i < n) absz (z i ord0).
have inbox : X `<=` @box N @` setT.
  move=> z Xz.
  have small i : (absz (z i ord0) <= N)%N.
    apply: leq_trans (@leq_bigmax _ (fun i => absz (z i ord0)) i) _.
    have zX : z \in fset_set X by rewrite in_fset_set// inE.
    exact: (@leq_bigmax_seq _ _ xpredT (fun z : 'cV[int]_n => \max_(i < n) absz (z i ord0)) z zX).

  have fits i : (absz (z i ord0 + N%:Z)%R < N + N.+1)%N by have := small i; lia.
  exists [ffun i => Ordinal (fits i)] => //.
  apply/matrixP => i j; rewrite !mxE ffunE (ord1 j) /=.
  by have := small i; lia.
apply: le_trans (@lee_fsum_nneg_subset _ _ _ (@box N @` setT) _ finX (finite_image _ finite_finset) _ _) _.
- by move=> z; rewrite !inE => /inbox.
- by move=> z _; rewrite lee_fin ltW// weight_norm1 expR_gt0.
rewrite fsbig_image; last by move=> g g' _ _ /box_inj.
rewrite fsbig_finite ?finite_finset//.
rewrite (_ : \big[_/_]_(x <- _) _ = \sum_(x <- fset_set [set: {ffun 'I_n -> 'I_(N + N.+1)}])
  (weight b (@box N x))%:E)%E// sumEFin lee_fin.
apply: le_trans (box_total N).
rewrite (perm_big (index_enum _))//.
apply: uniq_perm; rewrite ?index_enum_uniq ?fset_uniq// => g.
all: rewrite ?in_fset_set ?in_setT ?mem_index_enum//; exact: finite_finset.
Qed.

(** The normalising constant is finite: the weights are a summable family on Z^n. *)
Theorem mass_finite : (mass n b < +oo)%E.
Proof.
apply: (@le_lt_trans _ _ (c ^+ n)%:E); last exact: ltry.
apply: ub_ereal_sup => _ [X [finX _] <-]; exact: finite_sum_le.
Qed.

Lemma mass_fin_num : mass n b \is a fin_num.
Proof.
by rewrite ge0_fin_numE ?mass_finite//; apply: esum_ge0 => z _; exact: weight_ge0.
Qed.
End mass.

(** The law itself: the mass of S divided by the (finite, positive) normalising constant. *)
Section probability.
Variables (R : realType) (m n : nat) (Data : Type).
Variables (a : Data -> 'cV[R]_m) (B : 'M[R]_(m, n)) (b : R).
Hypothesis b_gt0 : 0 < b.

Definition probability (x : Data) (S : set 'cV[R]_m) : \bar R :=
  (prob a B b x S * ((fine (mass n b))^-1)%:E)%E.

Let fine_mass_gt0 : 0 < fine (mass n b).
Proof. by apply: fine_gt0; rewrite mass_gt0 mass_finite. Qed.

Lemma probability_setT x : probability x setT = 1%E.
Proof.
rewrite /probability /prob (_ : [set z | setT (release a B x z)] = setT); last by apply/seteqP; split.
rewrite -/(mass n b) -[in X in (X * _)%E](fineK (mass_fin_num n b_gt0)) -EFinM divff//.
exact: lt0r_neq0.
Qed.

Lemma probability_scale x S eps x' :
  (prob a B b x S <= (expR eps)%:E * prob a B b x' S)%E ->
  (probability x S <= (expR eps)%:E * probability x' S)%E.
Proof.
move=> le; rewrite /probability muleA; apply: lee_wpmul2r => //.
by rewrite lee_fin invr_ge0 ltW.
Qed.

Theorem discrete_laplace_dp_probability (adj : Data -> Data -> Prop) (Delta : nat) :
  (forall x x', adj x x' -> exists u : 'cV[int]_n, a x' - a x = noise B u /\ (norm1 u <= Delta)%N) ->
  forall x x', adj x x' ->
  forall S, (probability x S <= (expR (Delta%:R / b))%:E * probability x' S)%E.
Proof. by move=> shifts x x' xx' S; apply: probability_scale; exact: (discrete_laplace_dp b_gt0 shifts xx'). Qed.

Theorem lattice_leak_probability x x' :
  ~ (exists u : 'cV[int]_n, a x' - a x = noise B u) ->
  let S := [set release a B x z | z in [set: 'cV[int]_n]] in
  probability x S = 1%E /\ probability x' S = 0%E.
Proof.
move=> off S; have [eqx eqx'] := lattice_leak b off; split; last by rewrite /probability eqx' mul0e.
by rewrite -(probability_setT x) /probability eqx /prob (_ : [set z | setT _] = setT)//; apply/seteqP; split.
Qed.
End probability.

(** The audit's form: a workload W, histogram neighbours x' = x +- e_j, and W e_j = B u_j with u_j integer. *)
Section workload.
Variables (R : realType) (m n d : nat).
Variables (W : 'M[R]_(m, d)) (B : 'M[R]_(m, n)) (b : R).
Hypothesis b_gt0 : 0 < b.
Variable u : 'I_d -> 'cV[int]_n.
Hypothesis columns : forall j, W *m delta_mx j ord0 = noise B (u j).

Definition histogram_neighbours (x x' : 'cV[R]_d) : Prop :=
  exists j, x' = x + delta_mx j ord0 \/ x = x' + delta_mx j ord0.

Definition epsilon : R := (\max_(j < d) norm1 (u j))%:R / b.

Theorem workload_dp x x' : histogram_neighbours x x' ->
  forall S, (prob (fun x => W *m x) B b x S <= (expR epsilon)%:E * prob (fun x => W *m x) B b x' S)%E.
Proof.
have shifts : forall x x', histogram_neighbours x x' ->
    exists v : 'cV[int]_n, W *m x' - W *m x = noise B v /\ (norm1 v <= \max_(j < d) norm1 (u j))%N.
  move=> {}x {}x' [j shift].
  have le_u : (norm1 (u j) <= \max_(j < d) norm1 (u j))%N by exact: (leq_bigmax j).
  case: shift => ->.
    by exists (u j); rewrite mulmxDr addrAC subrr add0r columns.
  exists (- u j); split; first by rewrite mulmxDr opprD addrA subrr sub0r columns noiseN.
  by rewrite /norm1 (eq_bigr (fun i => absz (u j i ord0))) // => i _; rewrite mxE abszN.
(* the constant is compared, not unified: a wrong epsilon then fails at once instead of unfolding expR *)
move=> xx' S; apply: le_trans (discrete_laplace_dp (a := fun x => W *m x) b_gt0 shifts xx' S) _.
apply: lee_wpmul2r; first exact: prob_ge0.
by rewrite lee_fin /epsilon.
Qed.

Theorem workload_dp_probability x x' : histogram_neighbours x x' ->
  forall S, (probability (fun x => W *m x) B b x S
    <= (expR epsilon)%:E * probability (fun x => W *m x) B b x' S)%E.
Proof. by move=> xx' S; apply: (probability_scale b_gt0); exact: workload_dp. Qed.
End workload.
