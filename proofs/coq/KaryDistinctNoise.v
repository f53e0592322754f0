(** * KARY Lemma 4.14's count: Algorithm 2 uses at most k T distinct noise values over times 1 .. T.

    Proof 4.15 bounds the running time by the number D of distinct noise values (each added once and removed at
    most once: [lemma_4_14] of KaryAlgorithm2) and bounds D by the capacity T' of the tree ("p takes on all values
    in [1, T']"), then T' <= k T.  Here, for every arity k >= 2 and every digit window [top - k + 1, top] with
    0 < top < k (Definition 3.8 for odd k, C.1 for even k):
    - [noise_index_range]: every noise index output t <= capacity(h) uses lies in [1, capacity(h)];
    - [distinct_le_capacity]: so D <= capacity(h) for T <= capacity(h);
    - [capacity_le_arity_horizon]: at Algorithm 2's height h(T) (the least h with T <= capacity(h)), for T >= 1,
      capacity(h(T)) <= k T;
    - [lemma_4_14_distinct]: D <= k T, and with [lemma_4_14] the incremental noise sum makes at most 2 k T updates.
    The cost model (one update and one digit increment per unit of time) is not in Coq. *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint intdiv.
From mathcomp Require Import zify.
From Reference Require Import ZifyOpaque.
From Reference Require Import KaryDigits KaryHeight KaryUsedVertices KaryAlgorithm2.
Import GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

(** k^n (1 + k + ... + k^(m-1)) <= 1 + k + ... + k^(n+m-1): the top m digits' weights are among the n + m. *)
Lemma pow_units arity n m : (arity ^ n * units arity m <= units arity (n + m))%N.
Proof.
elim: n => [|n IH]; first by rewrite expn0 mul1n add0n.
rewrite expnS -mulnA addSn /=; apply: (leq_trans _ (leq_addl _ _)).
by rewrite leq_mul2l IH orbT.
Qed.

Section Range.
Variables arity top : nat.
Hypothesis two : (2 <= arity)%N.
Hypothesis top_pos : (0 < top)%N.
Hypothesis top_lt : (top < arity)%N.

Local Notation upper := (upper arity top).
Local Notation cap := (capacity arity top).

(** The digits above level n of a non-negative t denote a non-negative integer (the window's low digit is <= 0). *)
Lemma upper_ge0 n (t : int) : 0 <= t -> 0 <= upper n t.
Proof.
move=> pos; elim: n => [|n IH] //=.
rewrite divz_ge0; last by rewrite ltz_nat; lia.
by move: IH; rewrite /low_digit; lia.
Qed.

(** ... and if t <= capacity(n + m), at most capacity(m). *)
Lemma upper_le n m (t : int) : t <= (cap (n + m))%:Z -> upper n t <= (cap m)%:Z.
Proof.
elim: n t => [|n IH] t fits; first by rewrite add0n in fits.
rewrite upper_shift; apply: IH.
have kpos : 0 < arity%:Z by rewrite ltz_nat; lia.
have k0 : arity%:Z != 0 by lia.
have := divz_eq (t - low_digit arity top) arity%:Z; have := modz_ge0 (t - low_digit arity top) k0.
set q := ((_ - _) %/ _)%Z; set r := ((_ - _) %% _)%Z.
move: fits; rewrite addSn /capacity /low_digit /= PoszM PoszD PoszM; nia.
Qed.

(** The walk's positions k^n * upper n t lie in [0, capacity(h)] for n <= h and 0 <= t <= capacity(h). *)
Lemma position_range height n (t : nat) : (n <= height)%N -> (t <= cap height)%N ->
  0 <= (arity ^ n)%:Z * upper n t%:Z <= (cap height)%:Z.
Proof.
move=> le fits; apply/andP; split; first by apply: mulr_ge0 => //; exact: upper_ge0.
have := @upper_le n (height - n) t%:Z; rewrite subnKC // lez_nat => /(_ fits) up.
have pos : 0 <= (arity ^ n)%:Z by [].
apply: (Order.POrderTheory.le_trans (ler_wpmul2l pos up)).
rewrite -PoszM lez_nat /capacity mulnCA leq_mul2l.
by have := pow_units arity n (height - n); rewrite subnKC // => ->; rewrite orbT.
Qed.

(** Every noise value output t uses has an index in [1, capacity(h)]. *)
Theorem noise_index_range height (t : nat) q :
  (t <= cap height)%N -> q \in noise_indices arity top height t -> 1 <= q <= (cap height)%:Z.
Proof.
move=> fits.
have top_range : (0 < top < arity)%N by rewrite top_pos top_lt.
have [_ -> _] := proposition_4_3 height t two top_range.
move=> /mapP [[l j] walked ->]; move: walked; rewrite (vertices_mem two top_pos top_lt _ fits) /=.
move=> /andP [/andP [pos_l le_l] steps].
have := position_range (leq_trans (leq_pred l) le_l) fits.
have := position_range le_l fits.
have wpos : 0 < (arity ^ l.-1)%:Z by rewrite ltz_nat expn_gt0; apply/orP; left; lia.
have W_eq : (arity ^ l)%:Z = arity%:Z * (arity ^ l.-1)%:Z by rewrite -PoszM -expnS prednK.
move: steps; rewrite /in_steps W_eq /noise_index /added_vertex /=.
set w := (arity ^ l.-1)%:Z; set B := upper l t%:Z; set A := upper l.-1 t%:Z.
have kpos : 0 < arity%:Z by rewrite ltz_nat; lia.
have j_mod0 : j = 0 -> (j %% arity%:Z)%Z < top%:Z by move=> ->; rewrite mod0z ltz_nat.
(* j w lies between two multiples of w, so j lies between the two multipliers *)
move=> steps rangeA rangeB.
have between : (arity%:Z * B <= j < A) || (A <= j < arity%:Z * B).
  move: steps; rewrite (mulrAC _ w) (mulrC w A).
  by rewrite !(ler_pmul2r wpos) !(ltr_pmul2r wpos).
have B0 : 0 <= B by exact: upper_ge0.
have A0 : 0 <= A by exact: upper_ge0.
have kB0 : 0 <= arity%:Z * B by exact: mulr_ge0.
clear steps; have j0 : 0 <= j by clear -between kB0 A0; lia.
have w0 : 0 <= w by rewrite le0r wpos orbT.
case: ifP => added.
- (* (j + 1) w, with 0 <= j and j + 1 <= max(A, k B) *)
  have j1 : j + 1 <= Num.max A (arity%:Z * B) by clear -between; lia.
  apply/andP; split; first by have := mulr_ge0 j0 w0; rewrite mulrDl mul1r; clear -wpos; lia.
  have [m1 | m2] : j + 1 <= A \/ j + 1 <= arity%:Z * B by clear -j1; lia.
  + by move: rangeB => /andP [_]; apply: Order.POrderTheory.le_trans; rewrite mulrC ler_wpmul2l.
  + by move: rangeA => /andP [_]; apply: Order.POrderTheory.le_trans; rewrite mulrAC ler_wpmul2r.
- (* j w, with 1 <= j (j = 0 would be added) and j <= max(A, k B) *)
  have j_pos : 0 < j.
    have [j_eq | //] : j = 0 \/ 0 < j by clear -j0; lia.
    by move: added; rewrite (j_mod0 j_eq).
  have j1 : j + 1 <= Num.max A (arity%:Z * B) by clear -between; lia.
  apply/andP; split; first by have := mulr_gt0 j_pos wpos; clear; lia.
  have [m1 | m2] : j <= A \/ j <= arity%:Z * B by clear -j1; lia.
  + by move: rangeB => /andP [_]; apply: Order.POrderTheory.le_trans; rewrite mulrC ler_wpmul2l.
  + by move: rangeA => /andP [_]; apply: Order.POrderTheory.le_trans; rewrite mulrAC ler_wpmul2r.
Qed.

End Range.

(** D, the number of distinct noise values times 1 .. T use, is at most capacity(h) when T <= capacity(h): they
    are distinct integers in [1, capacity(h)]. *)
Theorem distinct_le_capacity arity top height horizon :
  (2 <= arity)%N -> (0 < top < arity)%N -> (horizon <= capacity arity top height)%N ->
  (size (used_indices arity top height horizon) <= capacity arity top height)%N.
Proof.
move=> two /andP [top_pos top_lt] fits.
have sub : {subset used_indices arity top height horizon <= [seq i%:Z | i <- iota 1 (capacity arity top height)]}.
  move=> q; rewrite mem_undup => /flattenP [s /mapP [t in_t ->] used].
  have t_fits : (t <= capacity arity top height)%N by move: in_t; rewrite mem_iota; lia.
  have /andP [q1 q2] := noise_index_range two top_pos top_lt t_fits used.
  apply/mapP; exists (absz q); last by rewrite gez0_abs //; lia.
  by rewrite mem_iota; lia.
by have := uniq_leq_size (undup_uniq _) sub; rewrite size_map size_iota.
Qed.

(** At Algorithm 2's height h(T) (the least h >= 1 with T <= capacity(h)), capacity(h(T)) <= k T for T >= 1:
    capacity(h) = top + k capacity(h - 1), top <= k and capacity(h - 1) < T. *)
Theorem capacity_le_arity_horizon arity top horizon :
  (0 < arity)%N -> (0 < top <= arity)%N -> (1 <= horizon)%N ->
  (capacity arity top (height arity top horizon) <= arity * horizon)%N.
Proof.
move=> pos_k /andP [top_pos top_le] pos_T.
have [pos_h fits least] := height_is_least horizon pos_k top_pos.
case h_eq : (height arity top horizon) pos_h fits least => [// | g] _ _ least.
have below : (capacity arity top g < horizon)%N.
  case: g h_eq least => [|g] h_eq least; first by rewrite /capacity /= muln0.
  by rewrite ltnNge; apply/negP => /(least g.+1 isT); rewrite ltnn.
rewrite /capacity /= mulnDr muln1 mulnCA.
have := leq_mul (leqnn arity) below; rewrite /capacity mulnS; lia.
Qed.

(** KARY Lemma 4.14's counts together: for T >= 1 at Algorithm 2's height, D <= k T, so the incremental noise sum
    of [lemma_4_14] makes at most 2 D <= 2 k T updates. *)
Theorem lemma_4_14_distinct arity top horizon :
  (2 <= arity)%N -> (0 < top < arity)%N -> (1 <= horizon)%N ->
  let height := height arity top horizon in
  (size (used_indices arity top height horizon) <= arity * horizon)%N /\
  (updates arity top height horizon <= 2 * (arity * horizon))%N.
Proof.
move=> two top_range pos_T height.
have [top_pos top_lt] := andP top_range.
have [_ fits _] := height_is_least horizon (ltnW two) top_pos.
have cap_le := capacity_le_arity_horizon (ltnW two) (introT andP (conj top_pos (ltnW top_lt))) pos_T.
have distinct := leq_trans (distinct_le_capacity two top_range fits) cap_le.
split => //; apply: (leq_trans (lemma_4_14 two top_range fits)).
by rewrite leq_mul2l distinct orbT.
Qed.
