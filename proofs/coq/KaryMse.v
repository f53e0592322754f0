(** * KARY Lemmas 3.5 and 4.7: ε²·MSE of Algorithms 1 and 2 at their full horizons, as exact identities.

    Algorithm 1 at height h adds, for output t, the noisy counts of the vertices of its digit walk
    ([vertices_of] of KaryUsedVertices.v with top digit k - 1, i.e. standard digits, Definition 3.2); Algorithm 2
    adds the noise values z_p of [noise_indices] (KaryAlgorithm2.v, offset digits of Definition 3.8 for odd k).
    Each noise value is an independent Laplace(h/ε) value, of variance 2(h/ε)², so ε²·MSE over t = 1 .. T is
    (1/T) Σ_(t=1..T) 2h² n(t), n(t) the number of noise values output t sums ([scaled_mse]).  Proved ([Print
    Assumptions] closed):
    - [walk_size], [indices_size]: n(t) = ‖rep(t, h)‖₁ (digit d at a level contributes |d| values);
    - [lemma_3_5_count]: 2 Σ_(t=1..T) n(t) = h (k - 1) k^h at T = k^h - 1 (from [lemma_3_5_sum] of KarySums.v;
      t = 0 adds nothing);
    - [lemma_3_5_mse]: for every k >= 2 and h >= 1, (1/T) Σ_(t=1..T) 2h² n(t) = (k - 1) h³ / (1 - 1/k^h);
    - [rep_neg]: with the window [-m, m] (k = 2m + 1) the digits of -t are those of t negated, so the sum over
      -T .. T of [lemma_4_7_sum] is twice the sum over 1 .. T ([int_range_sym]);
    - [lemma_4_7_count]: 8 Σ_(t=1..T) n(t) = h (k² - 1) k^(h-1) at T = (k^h - 1)/2, odd k >= 3, h >= 1;
    - [lemma_4_7_mse]: there (1/T) Σ_(t=1..T) 2h² n(t) = k (1 - 1/k²) h³ / (2 (1 - 1/k^h)).
    Outside Coq: that the MSE of a sum of n independent Laplace(h/ε) values is n · 2(h/ε)² (the variance of the
    Laplace law and the additivity of variances of independent values). *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint rat intdiv.
From mathcomp Require Import zify ring.
From Reference Require Import ZifyOpaque.
From Reference Require Import KaryDigits KarySums KaryUsedVertices KaryAlgorithm2.
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

(** ** KARY Lemma 4.7: Algorithm 2's ε²·MSE at T = (k^h - 1)/2, odd k. *)

(** Algorithm 2 (offset digits, top digit (k - 1)/2 for odd k) at height h: output t adds the noise values of
    [noise_indices] (KaryAlgorithm2.v). *)
Definition algorithm_2_scaled_mse (arity height horizon : nat) : rat :=
  scaled_mse height horizon (fun t => size (noise_indices arity (arity %/ 2) height t)).

Lemma indices_size arity ms p : size (indices_ms arity ms p) = (\sum_(d <- ms) absz d)%N.
Proof.
elim: ms p => [|d ms IH] p /=; first by rewrite big_nil.
by rewrite big_cons size_cat size_map size_iota IH.
Qed.

(** With the window [-m, m] (k = 2m + 1), the digits of -t are those of t negated. *)
Lemma rep_neg (arity m height : nat) (t : int) : arity = (2 * m).+1 ->
  rep arity%:Z (- m%:Z) height (- t) = map -%R (rep arity%:Z (- m%:Z) height t).
Proof.
move=> k_eq; elim: height t => [|h IH] t //=.
have k0 : arity%:Z != 0 by rewrite k_eq.
have kpos : 0 < arity%:Z by rewrite k_eq.
have eq := divz_eq (t - - m%:Z) arity%:Z.
set q := ((t - - m%:Z) %/ arity%:Z)%Z in eq *; set r := ((t - - m%:Z) %% arity%:Z)%Z in eq *.
have r0 : 0 <= r := modz_ge0 _ k0.
have rk : r < arity%:Z := ltz_pmod _ kpos.
have flip : - t - - m%:Z = (- q) * arity%:Z + (arity%:Z - 1 - r).
  by move: eq; rewrite k_eq; clear; lia.
have small : 0 <= arity%:Z - 1 - r < arity%:Z by clear -r0 rk; lia.
rewrite flip divzMDl // modzMDl (divz_small (m := arity%:Z - 1 - r)) ?gtz0_abs //.
rewrite (modz_small small) addr0 IH; congr (_ :: _).
by rewrite k_eq; clear; lia.
Qed.

Lemma norm1_neg (s : seq int) : norm1 (map -%R s) = norm1 s.
Proof. by rewrite /norm1 big_map; apply: eq_bigr => d _; rewrite normrN. Qed.

Lemma rep_zero_sym (arity m height : nat) : arity = (2 * m).+1 -> norm1 (rep arity%:Z (- m%:Z) height 0) = 0.
Proof.
move=> k_eq; rewrite /norm1; elim: height => [|h IH] /=; first by rewrite big_nil.
have small : 0 <= m%:Z < arity%:Z by rewrite k_eq; lia.
rewrite big_cons sub0r opprK (modz_small small) (divz_small (m := m%:Z)) ?gtz0_abs ?addNr ?normr0 ?add0r //.
by rewrite k_eq; lia.
Qed.

(** The range -T .. T as 0, then 1 .. T, then -1 .. -T. *)
Lemma int_range_sym (horizon : nat) :
  perm_eq (int_range (- horizon%:Z) horizon%:Z)
          (0 :: [seq i%:Z | i <- iota 1 horizon] ++ [seq - i%:Z | i <- iota 1 horizon]).
Proof.
apply: uniq_perm; first exact: int_range_uniq.
- have inj_pos : injective (fun i : nat => i%:Z) by move=> i j; lia.
  have inj_neg : injective (fun i : nat => - i%:Z) by move=> i j; lia.
  rewrite /= cat_uniq (map_inj_uniq inj_pos) (map_inj_uniq inj_neg) iota_uniq /= andbT.
  rewrite mem_cat; apply/andP; split.
  + by apply/norP; split; apply/mapP => [[i]]; rewrite mem_iota; lia.
  + by apply/hasP => [[x /mapP [i _ ->] /mapP [j]]]; rewrite mem_iota; lia.
- move=> t; rewrite mem_int_range; last by lia.
  rewrite in_cons mem_cat; apply/idP/idP.
  + move=> range; have [t0 | [tpos | tneg]] : t = 0 \/ 0 < t \/ t < 0 by lia.
    * by rewrite t0.
    * by apply/orP; right; apply/orP; left; apply/mapP; exists (absz t); rewrite ?mem_iota; lia.
    * by apply/orP; right; apply/orP; right; apply/mapP; exists (absz t); rewrite ?mem_iota; lia.
  + case/orP => [/eqP -> | /orP [/mapP [i] | /mapP [i]]]; rewrite ?mem_iota; lia.
Qed.

(** Lemma 4.7's count over t = 1 .. T, T = (k^h - 1)/2: 8 Σ_t n(t) = h (k² - 1) k^(h-1). *)
Theorem lemma_4_7_count arity height : (3 <= arity)%N -> odd arity -> (0 < height)%N ->
  (8 * sumn [seq size (noise_indices arity (arity %/ 2) height t) | t <- iota 1 ((arity ^ height).-1 %/ 2)] =
   height * (arity ^ 2 - 1) * arity ^ height.-1)%N.
Proof.
move=> three odd_k pos_h.
set m := (arity %/ 2)%N.
have k_eq : arity = (2 * m).+1 by rewrite /m; have := odd_double_half arity; rewrite odd_k -divn2 /=; lia.
set T := ((arity ^ height).-1 %/ 2)%N.
have sum := @lemma_4_7_sum arity%:Z height ltac:(lia) ltac:(rewrite k_eq; lia) pos_h.
have half : ((arity%:Z - 1) %/ 2)%Z = m%:Z by rewrite k_eq -addn1 PoszD addrK divz_nat mulKn.
have K_odd : odd (arity ^ height) by rewrite oddX odd_k orbT.
have top : ((arity%:Z ^+ height - 1) %/ 2)%Z = T%:Z.
  by rewrite pow_posz /T; move: K_odd; case: (arity ^ height)%N => [//|K] _ /=; rewrite -addn1 PoszD addrK divz_nat.
rewrite half top (perm_big _ (int_range_sym T)) /= big_cons big_cat /= !big_map in sum.
have neg : \sum_(j <- iota 1 T) norm1 (rep arity%:Z (- m%:Z) height (- j%:Z)) =
            \sum_(j <- iota 1 T) norm1 (rep arity%:Z (- m%:Z) height j%:Z).
  by apply: eq_bigr => j _; rewrite rep_neg // norm1_neg.
rewrite neg rep_zero_sym // add0r in sum.
apply/eqP; rewrite -eqz_nat PoszM posz_sumn big_map.
rewrite (eq_bigr (fun t => norm1 (rep arity%:Z (- m%:Z) height t%:Z))); last first.
  move=> t _; rewrite /noise_indices indices_size (perm_big (digits_of arity m height t)); last by rewrite perm_rev.
  by rewrite norm1_absz /digits_of /low_digit; congr (norm1 (rep _ _ _ _)); rewrite k_eq; lia.
have sq : (1 <= arity ^ 2)%N by rewrite expn_gt0; lia.
rewrite !PoszM -subzn // -!pow_posz; apply/eqP; move: sum; set S := \sum_(_ <- _) _; lia.
Qed.

(** KARY Lemma 4.7: for odd k >= 3, at T = (k^h - 1)/2, Algorithm 2's ε²·MSE (1/T) Σ_t 2h² n(t) is
    k (1 - 1/k²) h³ / (2 (1 - 1/k^h)). *)
Theorem lemma_4_7_mse arity height : (3 <= arity)%N -> odd arity -> (0 < height)%N ->
  algorithm_2_scaled_mse arity height ((arity ^ height).-1 %/ 2) =
  arity%:R * (1 - ((arity ^ 2)%:R)^-1) * (height ^ 3)%:R / (2 * (1 - ((arity ^ height)%:R)^-1)).
Proof.
move=> three odd_k pos_h; rewrite /algorithm_2_scaled_mse /scaled_mse.
have count := lemma_4_7_count three odd_k pos_h.
set N := sumn _ in count *.
have K_odd : odd (arity ^ height) by rewrite oddX odd_k orbT.
have KT : (arity ^ height = 2 * ((arity ^ height).-1 %/ 2) + 1)%N.
  by have := odd_double_half (arity ^ height); rewrite K_odd -muln2; lia.
set T := ((arity ^ height).-1 %/ 2)%N in KT *.
have Kpow : (arity ^ height = arity * arity ^ height.-1)%N by rewrite -expnS prednK.
set B := (arity ^ height.-1)%N in count Kpow.
have NE : (2 * height ^ 2 * N)%:R = (height ^ 2 * (height * (arity ^ 2 - 1) * B))%:R / 4 :> rat.
  by rewrite -count !natrM; field.
have TE : T%:R = ((arity ^ height)%:R - 1) / 2 :> rat.
  by rewrite KT natrD natrM; field.
(* the side conditions from 3 <= k and 0 < h by lemmas: [lia] here also read [count]'s sum *)
have k_pos : (0 < arity)%N := leq_trans (isT : (0 < 3)%N) three.
have sq : (1 <= arity ^ 2)%N by rewrite expn_gt0 k_pos.
have k0 : (arity%:R : rat) != 0 by rewrite pnatr_eq0 -lt0n k_pos.
have B0 : (B%:R : rat) != 0 by rewrite pnatr_eq0 /B expn_eq0 (gtn_eqF k_pos).
have K3 : (3 <= arity ^ height)%N.
  by apply: (leq_trans three); rewrite -{1}(expn1 arity); apply: leq_pexp2l.
have KB1 : (arity%:R * B%:R - 1 : rat) != 0.
  by rewrite subr_eq0 -natrM -Kpow pnatr_eq1 gtn_eqF // (leq_trans _ K3).
rewrite NE TE Kpow !natrM natrB // !natrX; field.
by rewrite -natrX k0 B0 KB1.
Qed.
