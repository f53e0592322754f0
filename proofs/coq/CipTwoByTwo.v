(** * CIP Appendix D.3's 2 x 2 example: the coefficient identities behind "every cell, row sum, column sum and the
    total is standard normal, and the column sums are X0, X1".

    The model.  X, Y, Z, W are independent standard normals, and every quantity of the example is a linear
    combination of them, written as its coefficient vector on (X, Y, Z, W) ([form]).  Covariance is bilinear and
    the four sources are uncorrelated with variance 1, so the covariance of two such combinations is the inner
    product of their coefficient vectors (the Gram matrix, [gram]) and a variance is a squared norm.  The
    coefficients lie in Q(sqrt 3): a number a + b sqrt 3 is the pair (a, b) of rationals ([q3]), so that Coq
    computes every Gram entry exactly; [interp] reads such a number in any field R holding an s with s^2 = 3 (the
    reals with s = sqrt 3), and [interp_gram] shows that the Gram entry computed in Q(sqrt 3) is the one of the
    read-out coefficient vectors in R.

    The construction is the paper's, step by step: X0, X1 = X/2 +- (sqrt 3/2) Y (Equation (2)), X~0, X~1 the same
    on Z, W, and (X00, X01) = (X0, X1)/2 + (sqrt 3/2)(X~0, X~1), (X10, X11) = (X0, X1)/2 - (sqrt 3/2)(X~0, X~1).

    Proved ([Print Assumptions] closed), in every field R with an s such that s^2 = 3 (so for the reals):
    - [cells_printed]: the construction gives the printed coefficients (1/4, +-sqrt 3/4, +-sqrt 3/4, +-3/4);
    - [unit_variances]: each of the four cells, the two row sums, the two column sums and the total has
      variance 1;
    - [column_sums]: X00 + X10 = X0 and X01 + X11 = X1 as coefficient vectors, and X0, X1 have covariance -1/2
      (Equation (2)'s pair: variances 1, correlation -1/2);
    - [cell_covariance]: the covariance of the cells (row-major X00, X01, X10, X11) is C_1 (x) C_1 with
      C_1 = [[1, -1/2], [-1/2, 1]].
    Not in Coq: that a linear combination of independent standard normals is Gaussian (so variance 1 means
    N(0, 1)), and the bilinearity of covariance that makes the Gram matrix the covariance. *)
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq ssralg ssrnum rat.
Import GRing.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

(** a + b sqrt 3 as (a, b), with its sum and product (sqrt 3 * sqrt 3 = 3). *)
Definition q3 := (rat * rat)%type.
Definition q3_of (a : rat) : q3 := (a, 0).
Definition q3_add (x y : q3) : q3 := (x.1 + y.1, x.2 + y.2).
Definition q3_mul (x y : q3) : q3 := (x.1 * y.1 + 3%:R * (x.2 * y.2), x.1 * y.2 + x.2 * y.1).

(** A linear combination of X, Y, Z, W: its four coefficients. *)
Definition form := seq q3.
Definition add_forms (u v : form) : form := [seq q3_add uv.1 uv.2 | uv <- zip u v].
Definition scale (c : q3) (u : form) : form := map (q3_mul c) u.
(** The covariance of two combinations of independent standard normals: the inner product of their coefficients. *)
Definition gram (u v : form) : q3 := foldr q3_add (q3_of 0) [seq q3_mul uv.1 uv.2 | uv <- zip u v].

Definition source (index : nat) : form := [seq q3_of (index == k)%:R | k <- iota 0 4].
Definition X := source 0.
Definition Y := source 1.
Definition Z := source 2.
Definition W := source 3.

Definition one_half : q3 := (1 / 2%:R, 0).
Definition half_root3 : q3 := (0, 1 / 2%:R).
Definition minus_half_root3 : q3 := (0, - (1 / 2%:R)).

(** Equation (2) on (X, Y) and on (Z, W). *)
Definition X0 := add_forms (scale one_half X) (scale half_root3 Y).
Definition X1 := add_forms (scale one_half X) (scale minus_half_root3 Y).
Definition Xt0 := add_forms (scale one_half Z) (scale half_root3 W).
Definition Xt1 := add_forms (scale one_half Z) (scale minus_half_root3 W).

(** The cells: (X00, X01) = (X0, X1)/2 + (sqrt 3/2)(X~0, X~1), (X10, X11) = (X0, X1)/2 - (sqrt 3/2)(X~0, X~1). *)
Definition X00 := add_forms (scale one_half X0) (scale half_root3 Xt0).
Definition X01 := add_forms (scale one_half X1) (scale half_root3 Xt1).
Definition X10 := add_forms (scale one_half X0) (scale minus_half_root3 Xt0).
Definition X11 := add_forms (scale one_half X1) (scale minus_half_root3 Xt1).
Definition cells : seq form := [:: X00; X01; X10; X11].

Definition row_sums : seq form := [:: add_forms X00 X01; add_forms X10 X11].
Definition column_sums : seq form := [:: add_forms X00 X10; add_forms X01 X11].
Definition total : form := add_forms (add_forms X00 X01) (add_forms X10 X11).

(** The paper's printed cells, coefficient by coefficient on (X, Y, Z, W). *)
Definition quarter (a b : rat) : q3 := (a / 4%:R, b / 4%:R).
Definition printed_cells : seq form :=
  [:: [:: quarter 1 0; quarter 0 1; quarter 0 1; quarter 3%:R 0];
      [:: quarter 1 0; quarter 0 (-1); quarter 0 1; quarter (-3%:R) 0];
      [:: quarter 1 0; quarter 0 1; quarter 0 (-1); quarter (-3%:R) 0];
      [:: quarter 1 0; quarter 0 (-1); quarter 0 (-1); quarter 3%:R 0]].

(** C_1 (x) C_1, row-major. *)
Definition C1 (a b : nat) : rat := if a == b then 1 else - (1 / 2%:R).
Definition kron_entry (k l : nat) : rat := C1 k./2 l./2 * C1 (odd k) (odd l).

(** Reading Q(sqrt 3) in a field R with s^2 = 3. *)
Section Interpretation.
Variables (R : numFieldType) (s : R).
Hypothesis s_squared : s ^+ 2 = 3%:R.

Definition interp (x : q3) : R := ratr x.1 + ratr x.2 * s.
Definition real_gram (u v : seq R) : R := foldr +%R 0 [seq uv.1 * uv.2 | uv <- zip u v].

Lemma interp_add x y : interp (q3_add x y) = interp x + interp y.
Proof. by rewrite /interp /= !rmorphD mulrDl addrACA. Qed.

Lemma mul_root (a b c d : R) : a * c + s ^+ 2 * (b * d) + (a * d + b * c) * s = (a + b * s) * (c + d * s).
Proof.
rewrite [RHS]mulrDl !mulrDr (mulrAC b s c) (mulrACA b s d s) -expr2 (mulrC (b * d)) mulrDl -!addrA (mulrA a d s).
by congr (_ + _); rewrite addrC -addrA.
Qed.

Lemma interp_mul x y : interp (q3_mul x y) = interp x * interp y.
Proof. by rewrite /interp /= !rmorphD !rmorphM rmorph_nat -s_squared mul_root. Qed.

Lemma interp_gram u v : interp (gram u v) = real_gram (map interp u) (map interp v).
Proof.
elim: u v => [|x u IH] [|y v]; try by rewrite /interp /= rmorph0 mul0r addr0.
change (interp (q3_add (q3_mul x y) (gram u v)) = interp x * interp y + real_gram (map interp u) (map interp v)).
by rewrite interp_add interp_mul IH.
Qed.

(** The variance of a combination, read in R, is 1 when its squared norm in Q(sqrt 3) is (1, 0). *)
Lemma interp_unit u : gram u u = q3_of 1 -> real_gram (map interp u) (map interp u) = 1.
Proof. by rewrite -interp_gram => ->; rewrite /interp /= rmorph1 rmorph0 mul0r addr0. Qed.

End Interpretation.

(** The construction is the printed example. *)
Theorem cells_printed : cells = printed_cells.
Proof. by apply/eqP; vm_compute. Qed.

(** Every cell, row sum, column sum and the total has variance 1 (the coefficients read in R, s = sqrt 3). *)
Theorem unit_variances (R : numFieldType) (s : R) : s ^+ 2 = 3%:R ->
  forall u, u \in cells ++ row_sums ++ column_sums ++ [:: total] ->
  real_gram (map (interp s) u) (map (interp s) u) = 1.
Proof.
move=> s_squared u u_in; apply: interp_unit => //; apply/eqP; move: u u_in; apply/allP.
by vm_compute.
Qed.

(** The column sums are Equation (2)'s X0 and X1, whose covariance is -1/2. *)
Theorem column_sums_are_equation_2 (R : numFieldType) (s : R) : s ^+ 2 = 3%:R ->
  column_sums = [:: X0; X1] /\ real_gram (map (interp s) X0) (map (interp s) X1) = - (1 / 2%:R).
Proof.
move=> s_squared; split; first by apply/eqP; vm_compute.
rewrite -interp_gram // (_ : gram X0 X1 = q3_of (- (1 / 2%:R))); last by apply/eqP; vm_compute.
by rewrite /interp /= rmorph0 mul0r addr0 rmorphN rmorph_div ?rmorph1 ?rmorph_nat // unitfE pnatr_eq0.
Qed.

Lemma all_below_4 (P : pred nat) : all P (iota 0 4) -> forall k, (k < 4)%N -> P k.
Proof. by move=> /and5P [? ? ? ? _] [|[|[|[|k]]]]. Qed.

(** The covariance of the four cells is C_1 (x) C_1: computed entry by entry in Q(sqrt 3), then read in R. *)
Lemma gram_cells k l : (k < 4)%N -> (l < 4)%N -> gram (nth [::] cells k) (nth [::] cells l) = q3_of (kron_entry k l).
Proof.
have table : all (fun k => all (fun l => gram (nth [::] cells k) (nth [::] cells l) == q3_of (kron_entry k l))
  (iota 0 4)) (iota 0 4) by vm_compute.
by move=> /(all_below_4 table) row /(all_below_4 row) /eqP.
Qed.

Theorem cell_covariance (R : numFieldType) (s : R) : s ^+ 2 = 3%:R ->
  forall k l, (k < 4)%N -> (l < 4)%N ->
  real_gram (map (interp s) (nth [::] cells k)) (map (interp s) (nth [::] cells l)) = ratr (kron_entry k l).
Proof.
move=> s_squared k l lt_k lt_l; rewrite -interp_gram // gram_cells //.
by rewrite /interp /= rmorph0 mul0r addr0.
Qed.
