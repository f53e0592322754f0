(** * CIP Proposition B.1: C_D is positive definite, with smallest eigenvalue 2^-D, machine-checked.

    For a vector x of the 2^D leaves, [quad D x] = x^T C_D x, [sumsq D x] = |x|^2 and [total D x] = the sum of
    the entries.  Splitting x into its two halves u, v (Definition 3.1's blocks, c = 2^-(2D+1)):
        x^T C_(D+1) x = u^T C_D u + v^T C_D v - 2 c (sum u) (sum v),
    and with (sum u)^2 <= 2^D |u|^2 (Cauchy-Schwarz, also by halves) the induction closes on
        x^T C_D x >= 2^-D |x|^2,
    the difference being a sum of non-negative terms (the identity in [quad_lower_bound]'s proof).

    Proved ([Print Assumptions] closed), for EVERY depth D and every rational vector x:
    - [quad_lower_bound]: x^T C_D x >= 2^-D |x|^2;
    - [covariance_positive_definite]: x^T C_D x > 0 whenever some entry of x is non-zero;
    - [lower_bound_attained]: the all-ones vector gives equality, so 2^-D is the smallest eigenvalue
      (the Python [spectrum]'s minimum). *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint rat.
From mathcomp Require Import ring.
From Reference Require Import CipMatrix.
Import GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

Definition total (depth : nat) (x : nat -> rat) : rat := \sum_(k < 2 ^ depth) x k.
Definition sumsq (depth : nat) (x : nat -> rat) : rat := \sum_(k < 2 ^ depth) x k ^+ 2.
Definition quad (depth : nat) (x : nat -> rat) : rat :=
  \sum_(i < 2 ^ depth) \sum_(j < 2 ^ depth) x i * cov depth i j * x j.

(** The same form written with folds, so that Coq computes it (MathComp's big sums are opaque to evaluation). *)
Definition sum_upto (n : nat) (f : nat -> rat) : rat := foldr (fun k acc => f k + acc) 0 (iota 0 n).
Definition quad_computed (depth : nat) (x : nat -> rat) : rat :=
  sum_upto (2 ^ depth) (fun i => sum_upto (2 ^ depth) (fun j => x i * cov depth i j * x j)).

Lemma sum_upto_big n f : sum_upto n f = \sum_(k < n) f k.
Proof.
rewrite /sum_upto -(big_mkord xpredT) /index_iota subn0.
by elim: (iota 0 n) => [|k s IH] /=; rewrite ?big_nil ?big_cons ?IH.
Qed.

Lemma quad_computed_eq depth x : quad_computed depth x = quad depth x.
Proof. by rewrite /quad_computed sum_upto_big; apply: eq_bigr => i _; rewrite sum_upto_big. Qed.

(** The two halves of a vector of 2^(D+1) leaves. *)
Definition high (depth : nat) (x : nat -> rat) : nat -> rat := fun k => x (2 ^ depth + k)%N.

Lemma total_split D x : total D.+1 x = total D x + total D (high D x).
Proof. exact: (sum_halves D x). Qed.

Lemma sumsq_split D x : sumsq D.+1 x = sumsq D x + sumsq D (high D x).
Proof. exact: (sum_halves D (fun k => x k ^+ 2)). Qed.

Lemma sumsq_ge0 D x : 0 <= sumsq D x.
Proof. by apply: sumr_ge0 => k _; rewrite sqr_ge0. Qed.

(** Cauchy-Schwarz for 2^D terms: (sum x)^2 <= 2^D |x|^2. *)
Lemma total_sq_le D x : total D x ^+ 2 <= pow2 D * sumsq D x.
Proof.
elim: D x => [|D IH] x.
  by rewrite /total /sumsq /pow2 expn0 !big_ord_recl !big_ord0 !addr0 expr0 mul1r.
rewrite total_split sumsq_split pow2S; set a := total D x; set b := total D (high D x).
set A := sumsq D x; set B := sumsq D (high D x).
have la : a ^+ 2 <= pow2 D * A by exact: IH.
have lb : b ^+ 2 <= pow2 D * B by exact: IH.
rewrite -subr_ge0.
have -> : 2%:R * pow2 D * (A + B) - (a + b) ^+ 2 =
          2%:R * (pow2 D * A - a ^+ 2) + 2%:R * (pow2 D * B - b ^+ 2) + (a - b) ^+ 2 by ring.
apply: addr_ge0; last exact: sqr_ge0.
by apply: addr_ge0; apply: mulr_ge0; rewrite ?ler0n ?subr_ge0.
Qed.

(** x^T C_(D+1) x by blocks. *)
Lemma quad_split D x :
  quad D.+1 x = quad D x + quad D (high D x) - 2%:R * (pow2 (2 * D + 1))^-1 * total D x * total D (high D x).
Proof.
set c := (pow2 (2 * D + 1))^-1.
rewrite /quad (halves_eq (f := fun i => \sum_(j < 2 ^ D.+1) x i * cov D.+1 i j * x j) (g1 := fun i => \sum_(j < 2 ^ D) x i * cov D i j * x j - c * x i * total D (high D x))
                         (g2 := fun i => \sum_(j < 2 ^ D) high D x i * cov D i j * high D x j
                                         - c * high D x i * total D x)) => [|i lt_i|i lt_i]; last 2 first.
- rewrite (halves_eq (f := fun j => x i * cov D.+1 i j * x j) (g1 := fun j => x i * cov D i j * x j) (g2 := fun j => - (c * x i * high D x j))) => [|j lt_j|j lt_j].
  + by rewrite sumrN /total mulr_sumr.
  + by rewrite cov_ll.
  + by rewrite cov_lh // /high -/c; ring.
- rewrite (halves_eq (f := fun j => x (2 ^ D + i)%N * cov D.+1 (2 ^ D + i) j * x j) (g1 := fun j => - (c * high D x i * x j)) (g2 := fun j => high D x i * cov D i j * high D x j)) => [|j lt_j|j lt_j].
  + by rewrite sumrN /total mulr_sumr addrC.
  + by rewrite cov_hl // /high -/c; ring.
  + by rewrite cov_hh.
rewrite !big_split /= !sumrN -!mulr_suml -!mulr_sumr /total.
set Sl := \sum_(k < 2 ^ D) x k; set Sh := \sum_(k < 2 ^ D) high D x k.
set Ql := \sum_(i < 2 ^ D) \sum_(j < 2 ^ D) x i * _ * _; set Qh := \sum_(i < 2 ^ D) \sum_(j < 2 ^ D) high D x i * _ * _.
clearbody Sl Sh Ql Qh; move: c => c; ring.
Qed.

(** x^T C_D x >= 2^-D |x|^2 for every depth and every vector. *)
Theorem quad_lower_bound D x : (pow2 D)^-1 * sumsq D x <= quad D x.
Proof.
elim: D x => [|D IH] x.
  by rewrite /quad /sumsq /pow2 !expn0 !big_ord_recl !big_ord0 !addr0 expr0 invr1 mul1r /= mulr1 expr2.
rewrite quad_split sumsq_split pow2S; have p0 := pow2_neq0 D.
have p_pos : 0 < pow2 D by rewrite exprn_gt0 ?ltr0n.
set p := pow2 D in p0 p_pos *; set Ql := quad D x; set Qh := quad D (high D x).
set A := sumsq D x; set B := sumsq D (high D x); set a := total D x; set b := total D (high D x).
have ql : p^-1 * A <= Ql by exact: IH.
have qh : p^-1 * B <= Qh by exact: IH.
have la : a ^+ 2 <= p * A by exact: total_sq_le.
have lb : b ^+ 2 <= p * B by exact: total_sq_le.
have p_ge0 : 0 <= p := Order.POrderTheory.ltW p_pos.
have c_pos : 0 <= (2%:R * p * p)^-1 by rewrite invr_ge0 !mulr_ge0 // ler0n.
rewrite pow2_odd -/p -subr_ge0.
have -> : Ql + Qh - 2%:R * (2%:R * p * p)^-1 * a * b - (2%:R * p)^-1 * (A + B) =
          (Ql - p^-1 * A) + (Qh - p^-1 * B) + (2%:R * p * p)^-1 * ((a - b) ^+ 2 + (p * A - a ^+ 2) + (p * B - b ^+ 2)).
  by field; rewrite p0.
apply: addr_ge0; first by apply: addr_ge0; rewrite subr_ge0.
apply: mulr_ge0 => //; apply: addr_ge0; first apply: addr_ge0; by rewrite ?sqr_ge0 ?subr_ge0.
Qed.

(** Proposition B.1's positive definiteness: x^T C_D x > 0 for every non-zero vector x. *)
Theorem covariance_positive_definite D x :
  (exists2 k, (k < 2 ^ D)%N & x k != 0) -> 0 < quad D x.
Proof.
move=> [k lt_k nonzero].
have pos : 0 < sumsq D x.
  rewrite /sumsq (bigD1 (Ordinal lt_k)) //=.
  apply: (@Order.POrderTheory.lt_le_trans _ _ (x k ^+ 2)); first by rewrite exprn_even_gt0 // nonzero.
  by rewrite ler_addl sumr_ge0 // => i _; rewrite sqr_ge0.
apply: Order.POrderTheory.lt_le_trans (quad_lower_bound D x).
by rewrite mulr_gt0 // invr_gt0 exprn_gt0 ?ltr0n.
Qed.

(** The bound is attained by the all-ones vector: 2^-D is the smallest eigenvalue of C_D. *)
Theorem lower_bound_attained D : quad D (fun _ => 1) = (pow2 D)^-1 * sumsq D (fun _ => 1).
Proof.
have p0 := pow2_neq0 D.
rewrite /quad /sumsq expr1n sum_const_half mulr1 mulVf //.
rewrite (eq_bigr (fun _ => (pow2 D)^-1)) => [|i _]; last first.
  by rewrite -(covariance_row_sum (ltn_ord i)); apply: eq_bigr => j _; rewrite mulr1 mul1r.
by rewrite sum_const_half mulfV.
Qed.
