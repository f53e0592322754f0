(** * CIP's covariance C_depth and its inverse, machine-checked over the rationals.

    CIP = Dharangutte, Gao, Gong, Wang, "Differentially Private Range Queries with Correlated Input
    Perturbation".  Leaves are 0 .. 2^depth - 1 in natural order; a matrix is a function of two leaf indices.
    - Definition 3.1 ([cov]): C_0 = (1), C_{D+1} = [[C_D, -J/2^(2D+1)], [-J/2^(2D+1), C_D]]
      (the LaTeX reading of the exponent; the OCR reading 2^D + 1 is refuted elsewhere in the registry).
    - Lemma B.2's recursion ([prec]): X_0 = (1), X_{D+1} = [[X_D + J/3, 2J/3], [2J/3, X_D + J/3]]
      (so X_1 = [[4/3, 2/3], [2/3, 4/3]] as printed).
    - [lca D i j]: the height of the lowest common ancestor of leaves i and j (0 when i = j).

    Proved ([Print Assumptions] closed), for EVERY depth D and all leaves i, j < 2^D:
    - [covariance_row_sum]: sum_k C_D(i, k) = 2^-D (the fact Theorem 3.3 uses; Proposition B.1);
    - [covariance_closed_form]: C_D(i, j) = 1 if i = j, else -2^(1 - 2h) with h = lca D i j;
    - [covariance_unit_diagonal], [covariance_off_diagonal_negative]: C_D(i, i) = 1 and C_D(i, j) < 0 for
      i <> j (Proposition B.1 (1), (2));
    - [covariance_times_inverse], [inverse_times_covariance]: C_D X_D = I = X_D C_D, i.e. X_D = C_D^-1, so
      Lemma B.2's recursion gives the inverse;
    - [inverse_closed_form]: C_D^-1(i, j) = 1 + D/3 if i = j, else (D - h + 2)/3 with h = lca D i j;
    - [corollary_b3]: every diagonal entry of C_D^-1 is 1 + D/3. *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint rat.
From mathcomp Require Import ring.
Import GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

Definition pow2 (n : nat) : rat := 2%:R ^+ n.

Fixpoint cov (depth : nat) (i j : nat) : rat :=
  if depth is D.+1 then
    if (i < 2 ^ D)%N == (j < 2 ^ D)%N then cov D (i %% 2 ^ D) (j %% 2 ^ D) else - (pow2 (2 * D + 1))^-1
  else 1.

Fixpoint prec (depth : nat) (i j : nat) : rat :=
  if depth is D.+1 then
    if (i < 2 ^ D)%N == (j < 2 ^ D)%N then prec D (i %% 2 ^ D) (j %% 2 ^ D) + 3%:R^-1 else 2%:R / 3%:R
  else 1.

Fixpoint lca (depth : nat) (i j : nat) : nat :=
  if depth is D.+1 then
    if (i < 2 ^ D)%N == (j < 2 ^ D)%N then lca D (i %% 2 ^ D) (j %% 2 ^ D) else depth
  else 0.

(** ** Powers of two *)

Lemma pow2_neq0 n : pow2 n != 0.
Proof. by rewrite expf_neq0 // pnatr_eq0. Qed.

Lemma pow2S n : pow2 n.+1 = 2%:R * pow2 n.
Proof. by rewrite /pow2 exprS. Qed.

Lemma pow2_odd n : pow2 (2 * n + 1) = 2%:R * pow2 n * pow2 n.
Proof. by rewrite /pow2 addn1 exprS mul2n -addnn exprD mulrA. Qed.

Lemma pow2_nat n : (2 ^ n)%:R = pow2 n.
Proof. by rewrite /pow2 natrX. Qed.

(** ** The two halves of the leaves *)

Lemma low_half D k : (k < 2 ^ D)%N -> k %% 2 ^ D = k.
Proof. exact: modn_small. Qed.

Lemma high_half D k : (k < 2 ^ D)%N -> ((2 ^ D + k < 2 ^ D)%N = false) /\ (2 ^ D + k) %% 2 ^ D = k.
Proof. by move=> lt; rewrite -{2}[(2 ^ D)%N]addn0 ltn_add2l ltn0 modnDl modn_small. Qed.

Lemma split_leaf D i : (i < 2 ^ D.+1)%N -> (i < 2 ^ D)%N \/ exists2 i', (i' < 2 ^ D)%N & i = (2 ^ D + i')%N.
Proof.
move=> lt; case: (ltnP i (2 ^ D)) => [low | high]; [by left | right].
exists (i - 2 ^ D)%N; last by rewrite subnKC.
by rewrite ltn_subLR // addnn -mul2n -expnS.
Qed.

Lemma sum_halves D (f : nat -> rat) :
  \sum_(k < 2 ^ D.+1) f k = \sum_(k < 2 ^ D) f k + \sum_(k < 2 ^ D) f (2 ^ D + k)%N.
Proof. by rewrite expnS mul2n -addnn big_split_ord. Qed.

Lemma sum_const_half D (c : rat) : \sum_(k < 2 ^ D) c = pow2 D * c.
Proof. by rewrite sumr_const card_ord -mulr_natl pow2_nat. Qed.

(** The entries on the four blocks. *)
Section Blocks.
Variables (D i k : nat).
Hypotheses (lt_i : (i < 2 ^ D)%N) (lt_k : (k < 2 ^ D)%N).

Lemma cov_ll : cov D.+1 i k = cov D i k.
Proof. by rewrite /= lt_i lt_k !low_half. Qed.
Lemma cov_hh : cov D.+1 (2 ^ D + i) (2 ^ D + k) = cov D i k.
Proof. by have [hi mi] := high_half lt_i; have [hk mk] := high_half lt_k; rewrite /= hi hk mi mk. Qed.
Lemma cov_lh : cov D.+1 i (2 ^ D + k) = - (pow2 (2 * D + 1))^-1.
Proof. by have [hk _] := high_half lt_k; rewrite /= lt_i hk. Qed.
Lemma cov_hl : cov D.+1 (2 ^ D + i) k = - (pow2 (2 * D + 1))^-1.
Proof. by have [hi _] := high_half lt_i; rewrite /= lt_k hi. Qed.

Lemma prec_ll : prec D.+1 i k = prec D i k + 3%:R^-1.
Proof. by rewrite /= lt_i lt_k !low_half. Qed.
Lemma prec_hh : prec D.+1 (2 ^ D + i) (2 ^ D + k) = prec D i k + 3%:R^-1.
Proof. by have [hi mi] := high_half lt_i; have [hk mk] := high_half lt_k; rewrite /= hi hk mi mk. Qed.
Lemma prec_lh : prec D.+1 i (2 ^ D + k) = 2%:R / 3%:R.
Proof. by have [hk _] := high_half lt_k; rewrite /= lt_i hk. Qed.
Lemma prec_hl : prec D.+1 (2 ^ D + i) k = 2%:R / 3%:R.
Proof. by have [hi _] := high_half lt_i; rewrite /= lt_k hi. Qed.

Lemma lca_ll : lca D.+1 i k = lca D i k.
Proof. by rewrite /= lt_i lt_k !low_half. Qed.
Lemma lca_hh : lca D.+1 (2 ^ D + i) (2 ^ D + k) = lca D i k.
Proof. by have [hi mi] := high_half lt_i; have [hk mk] := high_half lt_k; rewrite /= hi hk mi mk. Qed.
Lemma lca_lh : lca D.+1 i (2 ^ D + k) = D.+1.
Proof. by have [hk _] := high_half lt_k; rewrite /= lt_i hk. Qed.
Lemma lca_hl : lca D.+1 (2 ^ D + i) k = D.+1.
Proof. by have [hi _] := high_half lt_i; rewrite /= lt_k hi. Qed.

End Blocks.

Lemma sum_ord_eq n (f g : nat -> rat) :
  (forall k, (k < n)%N -> f k = g k) -> \sum_(k < n) f k = \sum_(k < n) g k.
Proof. by move=> same; apply: eq_bigr => k _; apply: same. Qed.

Lemma halves_eq D (f g1 g2 : nat -> rat) :
  (forall k, (k < 2 ^ D)%N -> f k = g1 k) -> (forall k, (k < 2 ^ D)%N -> f (2 ^ D + k)%N = g2 k) ->
  \sum_(k < 2 ^ D.+1) f k = \sum_(k < 2 ^ D) g1 k + \sum_(k < 2 ^ D) g2 k.
Proof. by move=> low high; rewrite sum_halves (sum_ord_eq low) (sum_ord_eq high). Qed.

(** ** Row sums of C_D, column sums of X_D *)

Theorem covariance_row_sum D i : (i < 2 ^ D)%N -> \sum_(k < 2 ^ D) cov D i k = (pow2 D)^-1.
Proof.
elim: D i => [|D IH] i lt; first by rewrite expn0 big_ord_recl big_ord0 addr0 /pow2 expr0 invr1.
have a := pow2_neq0 D; rewrite pow2S.
case: (split_leaf lt) => [low | [i' lt' ->]].
- rewrite (halves_eq (g1 := fun k => cov D i k) (g2 := fun _ => - (pow2 (2 * D + 1))^-1)) => [|k lk|k lk]; last 2 first.
  + by rewrite cov_ll.
  + by rewrite cov_lh.
  by rewrite IH // sum_const_half pow2_odd; field; rewrite a.
- rewrite (halves_eq (g1 := fun _ => - (pow2 (2 * D + 1))^-1) (g2 := fun k => cov D i' k)) => [|k lk|k lk]; last 2 first.
  + by rewrite cov_hl.
  + by rewrite cov_hh.
  by rewrite IH // sum_const_half pow2_odd; field; rewrite a.
Qed.

Lemma prec_column_sum D j : (j < 2 ^ D)%N -> \sum_(k < 2 ^ D) prec D k j = pow2 D.
Proof.
elim: D j => [|D IH] j lt; first by rewrite expn0 big_ord_recl big_ord0 addr0 /pow2 expr0.
have a := pow2_neq0 D; rewrite pow2S.
case: (split_leaf lt) => [low | [j' lt' ->]].
- rewrite (halves_eq (f := fun k => prec D.+1 k _) (g1 := fun k => prec D k j + 3%:R^-1) (g2 := fun _ => 2%:R / 3%:R)) => [|k lk|k lk]; last 2 first.
  + by rewrite prec_ll.
  + by rewrite prec_hl.
  by rewrite big_split /= IH // !sum_const_half; field.
- rewrite (halves_eq (f := fun k => prec D.+1 k _) (g1 := fun _ => 2%:R / 3%:R) (g2 := fun k => prec D k j' + 3%:R^-1)) => [|k lk|k lk]; last 2 first.
  + by rewrite prec_lh.
  + by rewrite prec_hh.
  by rewrite big_split /= IH // !sum_const_half; field.
Qed.

(** ** C_D X_D = I *)

Lemma sum_times_plus n (f g : nat -> rat) (c : rat) :
  \sum_(k < n) f k * (g k + c) = \sum_(k < n) f k * g k + (\sum_(k < n) f k) * c.
Proof. by rewrite mulr_suml -big_split /=; apply: eq_bigr => k _; rewrite mulrDr. Qed.

Lemma sum_plus_times n (f : nat -> rat) (c d : rat) :
  \sum_(k < n) c * (f k + d) = c * (\sum_(k < n) f k) + (\sum_(k < n) c) * d.
Proof. by rewrite mulr_sumr mulr_suml -big_split /=; apply: eq_bigr => k _; rewrite mulrDr. Qed.

Theorem covariance_times_inverse D i j :
  (i < 2 ^ D)%N -> (j < 2 ^ D)%N -> \sum_(k < 2 ^ D) cov D i k * prec D k j = (i == j)%:R.
Proof.
elim: D i j => [|D IH] i j lti ltj.
  by move: lti ltj; rewrite expn0 !ltnS !leqn0 => /eqP -> /eqP ->; rewrite big_ord_recl big_ord0 addr0 mulr1.
have a := pow2_neq0 D.
case: (split_leaf lti) => [li | [i' li ->]]; case: (split_leaf ltj) => [lj | [j' lj ->]].
- (* both in the low half *)
  rewrite (halves_eq (f := fun k => cov D.+1 _ k * prec D.+1 k _) (g1 := fun k => cov D i k * (prec D k j + 3%:R^-1)) (g2 := fun _ => - (pow2 (2 * D + 1))^-1 * (2%:R / 3%:R))) => [|k lk|k lk]; last 2 first.
  - by rewrite cov_ll // prec_ll.
  - by rewrite cov_lh // prec_hl.
  rewrite (@sum_times_plus _ (cov D i) (fun k => prec D k j)) IH // covariance_row_sum // sum_const_half pow2_odd; field; by rewrite a.
- (* i low, j high *)
  have -> : (i == 2 ^ D + j')%N = false by apply/negbTE; rewrite neq_ltn (leq_trans li) ?orTb ?leq_addr.
  rewrite (halves_eq (f := fun k => cov D.+1 _ k * prec D.+1 k _) (g1 := fun k => cov D i k * (2%:R / 3%:R)) (g2 := fun k => - (pow2 (2 * D + 1))^-1 * (prec D k j' + 3%:R^-1))) => [|k lk|k lk]; last 2 first.
  - by rewrite cov_ll // prec_lh.
  - by rewrite cov_lh // prec_hh.
  rewrite -mulr_suml covariance_row_sum // (@sum_plus_times _ (fun k => prec D k j')) prec_column_sum // sum_const_half pow2_odd.
  by rewrite (_ : (false%:R : rat) = 0) //; field; rewrite a.
- (* i high, j low *)
  have -> : (2 ^ D + i' == j)%N = false by apply/negbTE; rewrite neq_ltn (leq_trans lj) ?orbT ?leq_addr.
  rewrite (halves_eq (f := fun k => cov D.+1 _ k * prec D.+1 k _) (g1 := fun k => - (pow2 (2 * D + 1))^-1 * (prec D k j + 3%:R^-1)) (g2 := fun k => cov D i' k * (2%:R / 3%:R))) => [|k lk|k lk]; last 2 first.
  - by rewrite cov_hl // prec_ll.
  - by rewrite cov_hh // prec_hl.
  rewrite -mulr_suml covariance_row_sum // (@sum_plus_times _ (fun k => prec D k j)) prec_column_sum // sum_const_half pow2_odd.
  by rewrite (_ : (false%:R : rat) = 0) //; field; rewrite a.
- (* both in the high half *)
  rewrite eqn_add2l.
  rewrite (halves_eq (f := fun k => cov D.+1 _ k * prec D.+1 k _) (g1 := fun _ => - (pow2 (2 * D + 1))^-1 * (2%:R / 3%:R)) (g2 := fun k => cov D i' k * (prec D k j' + 3%:R^-1))) => [|k lk|k lk]; last 2 first.
  - by rewrite cov_hl // prec_lh.
  - by rewrite cov_hh // prec_hh.
  rewrite (@sum_times_plus _ (cov D i') (fun k => prec D k j')) IH // covariance_row_sum // sum_const_half pow2_odd; field; by rewrite a.
Qed.

(** ** Symmetry, hence X_D C_D = I *)

Lemma cov_sym D i j : cov D i j = cov D j i.
Proof. by elim: D i j => [|D IH] i j //=; rewrite eq_sym IH. Qed.

Lemma prec_sym D i j : prec D i j = prec D j i.
Proof. by elim: D i j => [|D IH] i j //=; rewrite eq_sym IH. Qed.

Theorem inverse_times_covariance D i j :
  (i < 2 ^ D)%N -> (j < 2 ^ D)%N -> \sum_(k < 2 ^ D) prec D i k * cov D k j = (i == j)%:R.
Proof.
move=> lti ltj; rewrite eq_sym -(covariance_times_inverse ltj lti).
by apply: eq_bigr => k _; rewrite mulrC cov_sym prec_sym.
Qed.

(** ** Closed forms by the height of the lowest common ancestor *)

Theorem inverse_closed_form D i j :
  (i < 2 ^ D)%N -> (j < 2 ^ D)%N ->
  prec D i j = if i == j then 1 + D%:R / 3%:R else (D%:R - (lca D i j)%:R + 2%:R) / 3%:R.
Proof.
elim: D i j => [|D IH] i j lti ltj.
  by move: lti ltj; rewrite expn0 !ltnS !leqn0 => /eqP -> /eqP ->; rewrite eqxx mul0r addr0.
case: (split_leaf lti) => [li | [i' li ->]]; case: (split_leaf ltj) => [lj | [j' lj ->]].
- by rewrite prec_ll // lca_ll // IH //; case: (i == j); rewrite mulrSr; field.
- have -> : (i == 2 ^ D + j')%N = false by apply/negbTE; rewrite neq_ltn (leq_trans li) ?orTb ?leq_addr.
  by rewrite prec_lh // lca_lh //; field.
- have -> : (2 ^ D + i' == j)%N = false by apply/negbTE; rewrite neq_ltn (leq_trans lj) ?orbT ?leq_addr.
  by rewrite prec_hl // lca_hl //; field.
- by rewrite eqn_add2l prec_hh // lca_hh // IH //; case: (i' == j'); rewrite mulrSr; field.
Qed.

Corollary corollary_b3 D i : (i < 2 ^ D)%N -> prec D i i = 1 + D%:R / 3%:R.
Proof. by move=> lt; rewrite inverse_closed_form // eqxx. Qed.

Theorem covariance_closed_form D i j :
  (i < 2 ^ D)%N -> (j < 2 ^ D)%N ->
  cov D i j = if i == j then 1 else - (pow2 (2 * lca D i j - 1))^-1.
Proof.
elim: D i j => [|D IH] i j lti ltj.
  by move: lti ltj; rewrite expn0 !ltnS !leqn0 => /eqP -> /eqP ->; rewrite eqxx.
have odd_exp : (2 * D.+1 - 1 = 2 * D + 1)%N by rewrite mulnS add2n subn1 addn1.
case: (split_leaf lti) => [li | [i' li ->]]; case: (split_leaf ltj) => [lj | [j' lj ->]].
- by rewrite cov_ll // lca_ll // IH.
- have -> : (i == 2 ^ D + j')%N = false by apply/negbTE; rewrite neq_ltn (leq_trans li) ?orTb ?leq_addr.
  by rewrite cov_lh // lca_lh // odd_exp.
- have -> : (2 ^ D + i' == j)%N = false by apply/negbTE; rewrite neq_ltn (leq_trans lj) ?orbT ?leq_addr.
  by rewrite cov_hl // lca_hl // odd_exp.
- by rewrite eqn_add2l cov_hh // lca_hh // IH.
Qed.

(** Proposition B.1 (1) and (2): the unit diagonal and the sign pattern, from the closed form. *)
Theorem covariance_unit_diagonal D i : (i < 2 ^ D)%N -> cov D i i = 1.
Proof. by move=> lt; rewrite covariance_closed_form // eqxx. Qed.

Theorem covariance_off_diagonal_negative D i j :
  (i < 2 ^ D)%N -> (j < 2 ^ D)%N -> i != j -> cov D i j < 0.
Proof.
move=> lti ltj neq; rewrite covariance_closed_form // (negbTE neq).
by rewrite oppr_lt0 invr_gt0 /pow2 exprn_gt0.
Qed.
