(** * KARY Lemma 3.5: Algorithm 1's ε²·MSE at T = k^h - 1 as an exact identity over the rationals.

    Algorithm 1 at height h adds, for output t, the noisy counts of the vertices of its digit walk
    ([vertices_of] of KaryUsedVertices.v with top digit k - 1, i.e. standard digits, Definition 3.2); each noisy
    count carries its own Laplace(h/ε) value, of variance 2(h/ε)².  So ε²·MSE over t = 1 .. T is
    (1/T) Σ_(t=1..T) 2h² n(t), n(t) the number of vertices output t sums ([scaled_mse]).  Proved ([Print
    Assumptions] closed):
    - [walk_size]: n(t) = ‖rep_k(t, h)‖₁ (digit d at a level contributes |d| vertices);
    - [lemma_3_5_count]: 2 Σ_(t=1..T) n(t) = h (k - 1) k^h at T = k^h - 1 (from [lemma_3_5_sum] of KarySums.v;
      t = 0 adds nothing);
    - [lemma_3_5_mse]: for every k >= 2 and h >= 1, (1/T) Σ_(t=1..T) 2h² n(t) = (k - 1) h³ / (1 - 1/k^h).
    Outside Coq: that the MSE of a sum of n independent Laplace(h/ε) values is n · 2(h/ε)² (the variance of the
    Laplace law and the additivity of variances of independent values). *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint rat intdiv.
From mathcomp Require Import zify ring.
From Reference Require Import ZifyOpaque.
From Reference Require Import KaryDigits KarySums KaryUsedVertices.
Import GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

(** ε²·MSE over t = 1 .. T of a counter whose output t sums [count t] independent noise values of variance
    2(h/ε)² each: (1/T) Σ_t 2h² count(t).  A fold, so that Coq computes it. *)
Definition scaled_mse (height horizon : nat) (count : nat -> nat) : rat :=
  (2 * height ^ 2 * sumn [seq count t | t <- iota 1 horizon])%:R / horizon%:R.

(** Algorithm 1 (standard digits: top digit k - 1) at height h: output t sums the vertices of its walk. *)
Definition algorithm_1_scaled_mse (arity height horizon : nat) : rat :=
  scaled_mse height horizon (fun t => size (vertices_of arity arity.-1 height t)).

(** The walk visits |d| vertices for each digit d. *)
Lemma walk_size arity ms p : size (walk_ms arity ms p) = (\sum_(d <- ms) absz d)%N.
Proof.
elim: ms p => [|d ms IH] p /=; first by rewrite big_nil.
by rewrite big_cons size_cat size_map size_iota IH.
Qed.

Lemma norm1_absz (s : seq int) : (\sum_(d <- s) absz d)%:Z = norm1 s.
Proof.
rewrite /norm1; elim: s => [|d s IH]; first by rewrite !big_nil.
by rewrite !big_cons PoszD IH abszE.
Qed.

Lemma rep_zero arity height : norm1 (rep arity 0 height 0) = 0.
Proof.
rewrite /norm1; elim: height => [|h IH] /=; first by rewrite big_nil.
by rewrite big_cons subr0 mod0z div0z add0r normr0 add0r.
Qed.

(** The vertices output t sums, counted: ‖rep_k(t, h)‖₁ (standard digits). *)
Lemma vertex_count arity height t : (0 < arity)%N ->
  (size (vertices_of arity arity.-1 height t))%:Z = norm1 (rep arity%:Z 0 height t%:Z).
Proof.
move=> pos; rewrite /vertices_of walk_size (perm_big (digits_of arity arity.-1 height t)); last by rewrite perm_rev.
rewrite norm1_absz /digits_of /low_digit; congr (norm1 (rep _ _ _ _)); lia.
Qed.

Lemma posz_sumn (s : seq nat) : (sumn s)%:Z = \sum_(n <- s) n%:Z.
Proof. by elim: s => [|n s IH]; rewrite ?big_nil ?big_cons //= PoszD IH. Qed.

Lemma pow_posz (arity height : nat) : arity%:Z ^+ height = (arity ^ height)%N%:Z.
Proof. by rewrite -!natz natrX. Qed.

(** Lemma 3.5's count over t = 1 .. k^h - 1 (output 0 would sum nothing). *)
Theorem lemma_3_5_count arity height : (2 <= arity)%N ->
  (2 * sumn [seq size (vertices_of arity arity.-1 height t) | t <- iota 1 (arity ^ height).-1] =
   height * (arity - 1) * arity ^ height)%N.
Proof.
move=> two; have two' : 2 <= arity%:Z by rewrite lez_nat.
have := lemma_3_5_sum height two'.
have K_pos : (0 < arity ^ height)%N by rewrite expn_gt0; case: arity two {two'}.
have top : arity%:Z ^+ height - 1 = ((arity ^ height).-1)%N%:Z by rewrite pow_posz -subn1 -subzn.
rewrite top /int_range subr0 absz_nat big_map /= big_cons add0r rep_zero add0r pow_posz.
under eq_bigr => i _ do rewrite add0r.
move=> sum; apply/eqP; rewrite -eqz_nat PoszM posz_sumn big_map.
rewrite (eq_bigr (fun t => norm1 (rep arity%:Z 0 height t%:Z))); last by move=> t _; rewrite vertex_count //; lia.
rewrite sum !PoszM -subzn //; lia.
Qed.

(** KARY Lemma 3.5: at T = k^h - 1, Algorithm 1's ε²·MSE (1/T) Σ_t 2h² n(t) is (k - 1) h³ / (1 - 1/k^h). *)
Theorem lemma_3_5_mse arity height : (2 <= arity)%N -> (0 < height)%N ->
  algorithm_1_scaled_mse arity height (arity ^ height).-1 =
  ((arity - 1) * height ^ 3)%:R / (1 - ((arity ^ height)%:R)^-1).
Proof.
move=> two pos_h; rewrite /algorithm_1_scaled_mse /scaled_mse.
have count := lemma_3_5_count height two.
set N := sumn _ in count *; set K := (arity ^ height)%N in count *.
have K2 : (2 <= K)%N.
  by apply: (leq_trans two); rewrite /K -{1}(expn1 arity); apply: leq_pexp2l; lia.
have -> : (2 * height ^ 2 * N = height ^ 2 * (height * (arity - 1) * K))%N by rewrite -count mulnAC mulnC.
have K0 : (K%:R : rat) != 0 by rewrite pnatr_eq0; lia.
have KE : (K.-1%:R : rat) = K%:R - 1 by rewrite -subn1 natrB //; lia.
have K1' : (K%:R - 1 : rat) != 0 by rewrite -KE pnatr_eq0; lia.
have KK : (1 - (K%:R)^-1 : rat) = (K%:R - 1) / K%:R by field.
rewrite KK KE !natrM !natrX; field.
by rewrite -natrX K0 K1'.
Qed.
