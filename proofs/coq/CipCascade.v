(** * CIP Equation (2), Algorithm 1 (Cascade Sampling) and Proposition 3.5, machine-checked.

    Algorithm 1 at depth D draws X_root and, at every internal node (l, q) (level l < D, position q < 2^l), a Y
    independent of everything else, all with variance sigma^2, and sets the children of (l, q) to
    X_(l+1, 2q) = X_(l, q)/2 + (sqrt 3/2) Y_(l, q) and X_(l+1, 2q+1) = X_(l, q)/2 - (sqrt 3/2) Y_(l, q).
    Every value is therefore a linear form in the draws.  Draws are numbered as the numeric sampler
    (reference.cip.numeric.cascade) draws them: 0 is X_root, 2^l + q is Y_(l, q) ([y_index]); a depth-D run uses
    draws 0 .. 2^D - 1.  [node l p d], over any real closed field R (the reals among them) with the real
    sqrt 3 / 2 ([noise_weight]), is the coefficient of draw d in the value of node (l, p), defined by the
    algorithm's recursion; it does not depend on D (the first l levels of a depth-D run are a depth-l run).

    The one modelling step (not proved here): for independent draws Z_d of variances var d, the covariance of
    sum_d u_d Z_d and sum_d v_d Z_d is sum_d u_d v_d var d (bilinearity of covariance); [form_cov] is that sum,
    [node_cov var l a b] the covariance of nodes (l, a) and (l, b).  Gaussianity (a linear form in independent
    normals is normal) is not stated.

    Proved ([Print Assumptions] closed), for every R, every variance and every depth:
    - [equation_2_coefficients], [equation_2_law]: X0 = X/2 + (sqrt 3/2) Y and X1 = X/2 - (sqrt 3/2) Y for
      independent X, Y of ANY variances have Var X0 = Var X1 = Var X/4 + (3/4) Var Y, Cov(X0, X1) =
      Var X/4 - (3/4) Var Y and X0 + X1 = X;
    - [equation_2]: for Var X = Var Y = 1: variances 1, covariance and correlation -1/2, sum X;
    - [algorithm_1_law]: Algorithm 1's law of (co)variances, for any variances of the draws: for a, b < 2^(l+1),
      Cov(X_(l+1, a), X_(l+1, b)) = Cov(X_(l, a/2), X_(l, b/2))/4 + [a/2 = b/2] s_a s_b (3/4) Var Y_(l, a/2),
      s_p = -1 for odd p (a right child), 1 otherwise;
    - [algorithm_1_parent_sum]: X_(l, p) = X_(l+1, 2p) + X_(l+1, 2p+1) (the consistency X_* = X_*0 + X_*1);
    - [proposition_3_5]: with every draw of variance sigma^2, Cov(X_(D, a), X_(D, b)) = sigma^2 C_D(a, b) for all
      leaves a, b < 2^D (C_D = CipMatrix.v's [cov], mapped into R by [ratr]);
    - [algorithm_1_node_variance]: every node of every level has variance sigma^2.
    The proof of Proposition 3.5 goes by the bottom bit ([cov_bottom]: C_(l+1)(a, b) = C_l(a/2, b/2)/4 +
    [a/2 = b/2] s_a s_b 3/4), the paper's inductive step with its k read as l.

    [split_coef] is the computable rational twin: node l p d = split_coef l p d, times sqrt 3/2 when d >= 1
    ([node_split]); Coq evaluates it in tests/coq/test_coq_cip_cascade.py. *)
From mathcomp Require Import all_ssreflect ssralg ssrnum rat.
From Reference Require Import CipMatrix.
Import GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

(** The draw Y_(level, position) (draw 0 is X_root). *)
Definition y_index (level position : nat) : nat := (2 ^ level + position)%N.

(** The sign of Y in a child: + for a left child (even position), - for a right one. *)
Definition sign {T : ringType} (position : nat) : T := if odd position then -1 else 1.

(** The coefficient of node (level, position) on draw d, with Y's coefficient counted in units of sqrt 3/2. *)

Fixpoint split_coef (level position d : nat) : rat :=
  if level is l.+1 then
    split_coef l position./2 d / 2%:R + sign position * (d == y_index l position./2)%:R
  else (d == 0%N)%:R.

Lemma half_lt l a : (a < 2 ^ l.+1)%N -> (a./2 < 2 ^ l)%N.
Proof. by move=> lt; rewrite ltnNge geq_half_double -ltnNge -mul2n -expnS. Qed.

Lemma half_high l a : ((2 ^ l.+1 + a)./2 = 2 ^ l + a./2)%N.
Proof. by rewrite expnS mul2n halfD odd_double doubleK. Qed.

Lemma odd_high l a : odd (2 ^ l.+1 + a) = odd a.
Proof. by rewrite expnS mul2n oddD odd_double. Qed.

(** The bottom-bit recursion of C: C_(l+1)(a, b) = C_l(a/2, b/2)/4 + [a/2 = b/2] s_a s_b 3/4. *)
Lemma cov_bottom l a b : (a < 2 ^ l.+1)%N -> (b < 2 ^ l.+1)%N ->
  cov l.+1 a b = cov l a./2 b./2 / 4%:R + (a./2 == b./2)%:R * sign a * sign b * (3%:R / 4%:R).
Proof.
elim: l a b => [|l IH] a b lta ltb.
  move: lta ltb; rewrite expn1.
  by case: a => [|[|//]]; case: b => [|[|//]] _ _; apply/eqP; vm_compute.
have q := pow2_neq0 (2 * l + 1).
have h4 : pow2 (2 * l.+1 + 1) = 4%:R * pow2 (2 * l + 1).
  by rewrite mulnS !add2n !pow2S mulrA -natrM.
case: (split_leaf lta) => [la | [a' la ->]]; case: (split_leaf ltb) => [lb | [b' lb ->]].
- by rewrite (cov_ll la lb) (IH _ _ la lb) (cov_ll (half_lt la) (half_lt lb)).
- rewrite (cov_lh la lb) half_high (cov_lh (half_lt la) (half_lt lb)).
  have -> : (a./2 == 2 ^ l + b'./2)%N = false.
    by apply/negbTE; rewrite neq_ltn (leq_trans (half_lt la)) ?leq_addr.
  by rewrite h4 mulr0n 3!mul0r addr0 invfM mulNr mulrC.
- rewrite (cov_hl la lb) half_high (cov_hl (half_lt la) (half_lt lb)).
  have -> : (2 ^ l + a'./2 == b./2)%N = false.
    by apply/negbTE; rewrite neq_ltn (leq_trans (half_lt lb)) ?orbT ?leq_addr.
  by rewrite h4 mulr0n 3!mul0r addr0 invfM mulNr mulrC.
- by rewrite (cov_hh la lb) !half_high eqn_add2l (cov_hh (half_lt la) (half_lt lb)) (IH _ _ la lb) /sign !odd_high.
Qed.

Section Real.
Variable R : rcfType.

(** The weight sqrt 3/2 of the fresh draw in equation (2). *)
Definition noise_weight : R := Num.sqrt 3%:R / 2%:R.

Lemma noise_weight_sq : noise_weight * noise_weight = 3%:R / 4%:R.
Proof.
by rewrite /noise_weight mulrACA -expr2 sqr_sqrtr ?ler0n // -invfM -natrM.
Qed.

(** Algorithm 1: the coefficient of draw d in the value of node (level, position). *)
Fixpoint node (level position d : nat) : R :=
  if level is l.+1 then
    node l position./2 d / 2%:R
      + (if odd position then - noise_weight else noise_weight) * (d == y_index l position./2)%:R
  else (d == 0%N)%:R.

Lemma node_step l p d : node l.+1 p d =
  node l p./2 d / 2%:R + (if odd p then - noise_weight else noise_weight) * (d == y_index l p./2)%:R.
Proof. by []. Qed.

(** Cov(sum_d u_d Z_d, sum_d v_d Z_d) for independent Z_0 .. Z_(n-1) of variances var d (bilinearity). *)
Definition form_cov (n : nat) (var : nat -> R) (u v : nat -> R) : R := \sum_(d < n) u d * v d * var d.

Definition node_cov (var : nat -> R) (level a b : nat) : R :=
  form_cov (2 ^ level) var (node level a) (node level b).

(** Node (l, p) uses only the draws below 2^l: X_root and the Y's of levels < l. *)
Lemma node_support l p d : (p < 2 ^ l)%N -> (2 ^ l <= d)%N -> node l p d = 0.
Proof.
elim: l p => [|l IH] p ltp led /=; first by move: led; rewrite expn0; case: d.
rewrite IH ?half_lt // ?(leq_trans _ led) ?leq_pexp2l //.
have -> : (d == y_index l p./2) = false.
  apply/negbTE; rewrite neq_ltn orbC (leq_trans _ led) //.
  by rewrite /y_index expnS mul2n -addnn ltn_add2l half_lt.
by rewrite mul0r mulr0 addr0.
Qed.

Lemma ratr_sign p : ratr (sign p : rat) = sign p :> R.
Proof. by rewrite /sign; case: (odd p); rewrite ?rmorphN rmorph1. Qed.

Lemma ratr_step (c s : rat) (i : nat) : ratr (c / 2%:R + s * i%:R) = ratr c / 2%:R + ratr s * i%:R :> R.
Proof.
pose f := ratr_rmorphism R.
by rewrite (rmorphD f) 2!(rmorphM f) (@fmorphV rat_fieldType R f) (rmorph_nat f) (rmorph_nat f).
Qed.

Lemma node_split l p d : node l p d = ratr (split_coef l p d) * (if d == 0%N then 1 else noise_weight).
Proof.
elim: l p => [|l IH] p /=; first by case: (d == 0%N); rewrite rmorph_nat ?mulr1 ?mul0r.
rewrite IH ratr_step ratr_sign mulrDl (mulrAC (ratr _)); congr (_ + _).
case: (eqVneq d (y_index l p./2)) => [-> | ne]; last by rewrite !(mulr0n, mulr0, mul0r).
have -> : (y_index l p./2 == 0%N) = false by rewrite /y_index addn_eq0 expn_eq0.
by rewrite !mulr1 /sign; case: (odd p); rewrite ?mulN1r ?mul1r.
Qed.

(** The Y drawn at level l enters level l + 1 only. *)
Lemma node_high l p k : (p < 2 ^ l.+1)%N ->
  node l.+1 p (2 ^ l + k) = (if odd p then - noise_weight else noise_weight) * (k == p./2)%:R.
Proof. by move=> lt; rewrite node_step node_support ?half_lt ?leq_addr // /y_index eqn_add2l mul0r add0r. Qed.

Lemma indicator_product (k x y : nat) (u v : R) (t : nat -> R) :
  u * (k == x)%:R * (v * (k == y)%:R) * t k = if k == x then (x == y)%:R * (u * v) * t x else 0.
Proof.
case: (eqVneq k x) => [-> | _]; last by rewrite mulr0n mulr0 !mul0r.
by rewrite mulr1; congr (_ * _); rewrite mulrA mulrC.
Qed.

Lemma sum_halves_r D (f : nat -> R) :
  \sum_(k < 2 ^ D.+1) f k = \sum_(k < 2 ^ D) f k + \sum_(k < 2 ^ D) f (2 ^ D + k)%N.
Proof. by rewrite expnS mul2n -addnn big_split_ord. Qed.

Lemma sum_indicator n x (c : R) : (x < n)%N -> \sum_(k < n) (if (k : nat) == x then c else 0) = c.
Proof.
move=> lt; rewrite (bigD1 (Ordinal lt)) //= eqxx big1 ?addr0 // => k neq.
by rewrite ifF //; apply: contraNF neq => /eqP eq; apply/eqP; apply: val_inj.
Qed.

Theorem algorithm_1_law (var : nat -> R) l a b : (a < 2 ^ l.+1)%N -> (b < 2 ^ l.+1)%N ->
  node_cov var l.+1 a b =
  node_cov var l a./2 b./2 / 4%:R + (a./2 == b./2)%:R * sign a * sign b * (3%:R / 4%:R) * var (y_index l a./2).
Proof.
move=> lta ltb; rewrite /node_cov /form_cov (@sum_halves_r l (fun d => node l.+1 a d * node l.+1 b d * var d)).
have la := half_lt lta; have lb := half_lt ltb.
congr (_ + _).
  rewrite mulr_suml; apply: eq_bigr => k _.
  have far x : (x < 2 ^ l)%N -> ((k : nat) == y_index l x) = false.
    by move=> _; apply/negbTE; rewrite neq_ltn /y_index (leq_trans (ltn_ord k)) ?leq_addr.
  by rewrite !node_step !far // !mulr0 !addr0 mulrACA -invfM -natrM (mulrAC (_ * _) _ (var k)).
pose sw p := if odd p then - noise_weight else noise_weight.
rewrite (eq_bigr (fun k : 'I_(2 ^ l) => if (k : nat) == a./2 then
    (a./2 == b./2)%:R * (sw a * sw b) * var (2 ^ l + a./2)%N else 0)); last first.
  by move=> k _; rewrite (node_high _ lta) (node_high _ ltb) (@indicator_product k a./2 b./2 _ _ (fun j => var (2 ^ l + j)%N)).
have -> : sw a * sw b = sign a * sign b * (3%:R / 4%:R).
  by rewrite /sw /sign -noise_weight_sq; case: (odd a); case: (odd b);
    rewrite ?(mulN1r, mul1r, mulrN, mulNr, opprK).
by rewrite sum_indicator // /y_index !mulrA.
Qed.

(** Pushing [ratr] through, with the numerals kept as variables (so that no rational numeral is computed). *)
Lemma ratr_affine (c x : rat) (i m n : nat) :
  ratr (c / n%:R + i%:R * x * (m%:R / n%:R)) = ratr c / n%:R + i%:R * ratr x * (m%:R / n%:R) :> R.
Proof. by rewrite rmorphD 4!rmorphM fmorphV 3!rmorph_nat. Qed.

Lemma ratr_bottom (c : rat) (i : nat) a b :
  ratr (c / 4%:R + i%:R * sign a * sign b * (3%:R / 4%:R)) =
  ratr c / 4%:R + i%:R * sign a * sign b * (3%:R / 4%:R) :> R.
Proof.
have sgn p : ratr_rmorphism R (sign p) = sign p by exact: ratr_sign.
by rewrite -(mulrA _%:R (sign a)) ratr_affine (rmorphM (ratr_rmorphism R)) !sgn (mulrA _%:R (sign a)).
Qed.

Theorem proposition_3_5 (sigma2 : R) level a b : (a < 2 ^ level)%N -> (b < 2 ^ level)%N ->
  node_cov (fun _ => sigma2) level a b = sigma2 * ratr (cov level a b).
Proof.
elim: level a b => [|l IH] a b lta ltb.
  move: lta ltb; rewrite expn0 !ltnS !leqn0 => /eqP -> /eqP ->.
  by rewrite /node_cov /form_cov expn0 big_ord_recl big_ord0 addr0 /= mulr1n !mul1r rmorph1 mulr1.
rewrite algorithm_1_law // IH ?half_lt // cov_bottom // ratr_bottom.
by rewrite mulrDr; congr (_ + _); [rewrite [RHS]mulrA | rewrite mulrC].
Qed.

Corollary algorithm_1_node_variance (sigma2 : R) level p : (p < 2 ^ level)%N ->
  node_cov (fun _ => sigma2) level p p = sigma2.
Proof. by move=> lt; rewrite proposition_3_5 // covariance_unit_diagonal // rmorph1 mulr1. Qed.

Theorem algorithm_1_parent_sum level p d : node level p d = node level.+1 p.*2 d + node level.+1 p.*2.+1 d.
Proof. by rewrite /= uphalf_double doubleK odd_double /= mulNr addrACA subrr addr0 -splitr. Qed.

(** Equation (2): the draws X (number 0) and Y (number 1) with variances varX and varY. *)
Definition two_draws (varX varY : R) (d : nat) : R := if d == 0%N then varX else varY.

Theorem equation_2_coefficients d :
  node 1 0 d = (d == 0%N)%:R / 2%:R + noise_weight * (d == 1%N)%:R /\
  node 1 1 d = (d == 0%N)%:R / 2%:R - noise_weight * (d == 1%N)%:R.
Proof. by rewrite /= /y_index expn0 addn0 mulNr. Qed.

Lemma root_cov var : node_cov var 0 0 0 = var 0%N.
Proof. by rewrite /node_cov /form_cov expn0 big_ord_recl big_ord0 addr0 /= mulr1n !mul1r. Qed.

Theorem equation_2_law (varX varY : R) :
  let var := two_draws varX varY in
  [/\ form_cov 2 var (node 1 0) (node 1 0) = varX / 4%:R + 3%:R / 4%:R * varY,
      form_cov 2 var (node 1 1) (node 1 1) = varX / 4%:R + 3%:R / 4%:R * varY,
      form_cov 2 var (node 1 0) (node 1 1) = varX / 4%:R - 3%:R / 4%:R * varY &
      forall d, node 1 0 d + node 1 1 d = node 0 0 d].
Proof.
move=> var; have law a b := @algorithm_1_law var 0 a b.
split; last by move=> d; rewrite [RHS]algorithm_1_parent_sum.
- by rewrite -[form_cov _ _ _ _]/(node_cov var 1 0 0) law // root_cov /sign /= mulr1n !mul1r.
- by rewrite -[form_cov _ _ _ _]/(node_cov var 1 1 1) law // root_cov /sign /= ?(mulr1n, mul1r, mulr1, mulrNN).
- by rewrite -[form_cov _ _ _ _]/(node_cov var 1 0 1) law // root_cov /sign /= mulr1n !mul1r mulN1r mulNr.
Qed.

Corollary equation_2 :
  let var := two_draws 1 1 in
  let variance0 := form_cov 2 var (node 1 0) (node 1 0) in
  let variance1 := form_cov 2 var (node 1 1) (node 1 1) in
  let covariance := form_cov 2 var (node 1 0) (node 1 1) in
  [/\ variance0 = 1, variance1 = 1, covariance = - 2%:R^-1,
      covariance / Num.sqrt (variance0 * variance1) = - 2%:R^-1 &
      forall d, node 1 0 d + node 1 1 d = node 0 0 d].
Proof.
have [v0 v1 c sum] := equation_2_law 1 1.
have quarters : 1 / 4%:R + 3%:R / 4%:R * 1 = 1 :> R.
  by rewrite mulr1 -mulrDl addrC -mulrSr mulfV // pnatr_eq0.
have half : 1 / 4%:R - 3%:R / 4%:R * 1 = - 2%:R^-1 :> R.
  rewrite mulr1 -mulrBl -opprB [3%:R]mulrSr addrK mulNr -[4%:R]/((2 * 2)%:R) natrM invfM mulrA.
  by rewrite mulfV ?mul1r // pnatr_eq0.
rewrite /= v0 v1 c quarters half mulr1 sqrtr1 divr1; split => //.
Qed.

End Real.
