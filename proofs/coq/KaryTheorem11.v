(** * KARY Theorem 1.1's error bound for ε²·MSE of Algorithm 2 itself, machine-checked up to the Laplace variance.

    KARY Algorithm 2 at height h draws i.i.d. z_p ~ Laplace(h/ε) (line 3) and adds to output t the values z_p at
    the positions [noise_indices] of KaryAlgorithm2.v (lines 6-13), so output t's error is the sum of those
    values.  The MSE over t = 1 .. T is (1/T) Σ_t E[error_t²] = (1/T) Σ_t Var(error_t) (the noise has mean 0),
    and a sum of distinct independent values has the sum of their variances as its variance.  Here the
    variance of Laplace(b) is the number 2b² ([laplace_variance]), output t's variance is the sum of that number
    over the noise values t adds ([noise_variance]) and the MSE is the mean of those over t = 1 .. T
    ([algorithm_2_mse]; folds, so that Coq computes them).  Proved ([Print Assumptions] closed):
    - [noise_count]: output t adds ‖rep(t, h)‖₁ noise values (each offset digit d contributes |d|), for every
      arity, height and t;
    - [noise_indices_uniq]: for arity k >= 2 those values are distinct (Proposition 4.3's injective relabelling
      of the walk's vertices, which are distinct), so adding their variances is the variance of their sum;
    - [algorithm_2_mse_scaled]: for ε ≠ 0, ε²·MSE(T) is [algorithm_2_scaled_mse] of KaryMse.v, the count form
      (1/T) Σ_t 2h² n(t) behind Lemma 4.7;
    - [algorithm_2_mse_identity]: for ε ≠ 0, every arity, height and horizon, ε²·MSE(T) = 2h² S(T)/T with
      S(T) = Σ_(t=1..T) ‖rep(t, h)‖₁, the [digit_sum] that KaryDigitCount.v bounds;
    - [theorem_1_1_mse]: for odd k = 2m + 1 >= 3, T >= 1, ε ≠ 0 and Algorithm 2's height h = h(T) ([height]):
      |ε²·MSE(T) - (k² - 1)h³/(2k)| <= 2k(m + 1)h² (with [theorem_1_1_error] of KaryDigitCount.v).
    Outside Coq: that Laplace(b) has mean 0 and variance 2b² (an integral), that the z_p are independent so the
    variances of distinct ones add (probability), Theorem 1.1's asymptotic form (log_k(2T) < h < log_k(2T) + 1
    turns (k² - 1)h³/(2k) into k(1 - 1/k²) log(T)³/(2 log(k)³) + O(log(T)²)), and its privacy, time and space
    claims (other entries). *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint rat intdiv.
From Reference Require Import KaryUsedVertices KaryHeight KaryAlgorithm2 KaryMse KaryDigitCount.
Import GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

(** The variance of Laplace(b): 2b². *)
Definition laplace_variance (scale : rat) : rat := 2 * scale ^+ 2.

(** The scale of every noise value of Algorithm 2 at height h (line 3): h/ε. *)
Definition noise_scale (height : nat) (epsilon : rat) : rat := height%:R / epsilon.

(** Output t's variance: the variances of the noise values it adds, summed (they are distinct: [noise_indices_uniq]). *)
Definition noise_variance (arity height : nat) (epsilon : rat) (t : nat) : rat :=
  foldr +%R 0 [seq laplace_variance (noise_scale height epsilon) | q <- noise_indices arity (arity %/ 2) height t].

(** The MSE over t = 1 .. T: the mean of the outputs' variances (the noise has mean 0). *)
Definition algorithm_2_mse (arity height : nat) (epsilon : rat) (horizon : nat) : rat :=
  foldr +%R 0 [seq noise_variance arity height epsilon t | t <- iota 1 horizon] / horizon%:R.

(** ** How many noise values output t adds, and that they are distinct. *)
Theorem noise_count arity height t :
  size (noise_indices arity (arity %/ 2) height t) = sumn (map absz (digits_of arity (arity %/ 2) height t)).
Proof.
rewrite /noise_indices indices_size sumnE big_map.
by apply: perm_big; rewrite perm_rev.
Qed.

(** The steps of one digit visit distinct vertices: the index moves by one per step. *)
Lemma step_inj n w p d : w != 0 -> injective (step_vertex n w p d).
Proof.
move=> w0 i j; rewrite /step_vertex; case: ifP => _ [].
  by rewrite !(addrC p) !divzMDl // => /addIr [].
by rewrite -!mulNr !(addrC p) !divzMDl // => /addIr /addIr /oppr_inj [].
Qed.

Lemma walk_uniq arity ms p : (0 < arity)%N -> uniq (walk_ms arity ms p).
Proof.
move=> pos; elim: ms p => [|d rest IH] p //=; rewrite cat_uniq IH andbT.
have w0 : (arity ^ size rest)%:Z != 0 by apply: lt0r_neq0; rewrite ltz_nat expn_gt0 pos.
rewrite (map_inj_uniq (step_inj (n := size rest) (p := p) (d := d) w0)) iota_uniq /=.
apply/hasP => [[v /walk_levels /andP [_ low] /mapP [i _ e]]].
by move: low; rewrite e /step_vertex; case: ifP => _; rewrite /= ltnn.
Qed.

Theorem noise_indices_uniq arity height t : (2 <= arity)%N -> uniq (noise_indices arity (arity %/ 2) height t).
Proof.
move=> two.
have top_range : (0 < arity %/ 2 < arity)%N.
  by rewrite divn_gt0 // two /= ltn_Pdiv // ltnW.
have [_ -> inj] := proposition_4_3 height t two top_range.
rewrite (map_inj_in_uniq (fun v v' walked walked' => inj t v v' walked walked')).
exact: walk_uniq (ltnW two).
Qed.

(** ** ε²·MSE as a count. *)
Lemma fold_const (s : seq int) (x : rat) : foldr +%R 0 [seq x | _ <- s] = (size s)%:R * x.
Proof. by elim: s => [|q s IH] /=; rewrite ?mul0r // IH -add1n natrD mulrDl mul1r. Qed.

Lemma fold_counts (f : nat -> nat) (ts : seq nat) (x : rat) :
  foldr +%R 0 [seq (f t)%:R * x | t <- ts] = (sumn [seq f t | t <- ts])%:R * x.
Proof. by elim: ts => [|t ts IH] /=; rewrite ?mul0r // IH natrD mulrDl. Qed.

Lemma scaled_variance height (epsilon : rat) :
  epsilon != 0 -> epsilon ^+ 2 * laplace_variance (noise_scale height epsilon) = (2 * height ^ 2)%:R.
Proof.
move=> e0; rewrite /laplace_variance /noise_scale expr_div_n mulrCA (mulrCA (epsilon ^+ 2)).
by rewrite divff ?expf_neq0 // mulr1 natrM natrX.
Qed.

Theorem algorithm_2_mse_scaled arity height (epsilon : rat) horizon : epsilon != 0 ->
  epsilon ^+ 2 * algorithm_2_mse arity height epsilon horizon = algorithm_2_scaled_mse arity height horizon.
Proof.
move=> e0; rewrite /algorithm_2_mse /algorithm_2_scaled_mse /scaled_mse /noise_variance.
rewrite (eq_map (fun t => fold_const _ _)) fold_counts mulrA mulrCA scaled_variance //.
by rewrite -natrM mulnC.
Qed.

(** ** KARY Theorem 1.1's error term: ε²·MSE(T) = 2h² S(T)/T, and its distance to (k² - 1)h³/(2k). *)
Theorem algorithm_2_mse_identity arity height (epsilon : rat) horizon : epsilon != 0 ->
  epsilon ^+ 2 * algorithm_2_mse arity height epsilon horizon =
  (2 * height ^ 2 * digit_sum arity height horizon)%:R / horizon%:R.
Proof.
move=> e0; rewrite algorithm_2_mse_scaled // /algorithm_2_scaled_mse /scaled_mse /digit_sum.
by rewrite (eq_map (@noise_count arity height)).
Qed.

Theorem theorem_1_1_mse arity (epsilon : rat) horizon :
  (3 <= arity)%N -> odd arity -> (0 < horizon)%N -> epsilon != 0 ->
  `|epsilon ^+ 2 * algorithm_2_mse arity (height arity (arity %/ 2) horizon) epsilon horizon
    - ((arity ^ 2 - 1) * height arity (arity %/ 2) horizon ^ 3)%:R / (2 * arity)%:R|
    <= (2 * arity * (arity %/ 2).+1 * height arity (arity %/ 2) horizon ^ 2)%:R.
Proof.
by move=> three odd_k pos_T e0; rewrite algorithm_2_mse_identity //; apply: theorem_1_1_error.
Qed.
