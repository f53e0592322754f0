(** * KARY Appendix C, Proof C.2's recursion: the exact noise count of Algorithm 2 with even arity.

    For even k = 2m >= 2 Algorithm 2 uses the digits {-m + 1, ..., m} (Definition C.1; [even_offset_digits] of
    KaryDigits.v) and output t adds ‖rep(t, h)‖₁ noise values ([indices_size] of KaryMse.v).  Proof C.2 counts them
    over t = 1 .. T_h, T_h = k (k^h - 1) / (2 (k - 1)) (the largest representable value), with the recursion
    c_h = ((k + 2)/4 + k (h - 1)/4) (k/2) k^(h-1) + c_(h-1), c_0 = 0 ([appendix_c_recursion], as printed).
    Proved here ([Print Assumptions] closed), for every even k >= 2 and every h >= 0:
    - [tvectors]: the digit vectors of width w, highest digit last (rcons), each once ([mem_tvectors],
      [tvectors_uniq]);
    - [positive_l1_step]: split by the highest digit d: d = 0 gives the vectors of width w with positive value;
      d >= 1 gives every vector of width w (|lower value| <= m R_w < k^w), each with weight |d| more; d <= -1 gives
      none.  So P(w + 1) = P(w) + m F(w) + (m (m + 1)/2) k^w, F(w) the sum over all vectors
      ([tvectors_l1_sum]: k F(w) = w k^w m², the window's digit sum being m²);
    - [positive_l1_closed]: 8 P(h) = Σ_(l=1..h) (k l + 2) k^l ([count8]);
    - [appendix_c_recursion_exact]: Σ_(t=1..T_h) (number of noise values of output t) = c_h, T_h given by
      2 (k - 1) T_h = k (k^h - 1).
    So the printed recursion is the exact count (its increment 8 I(l) = (k l + 2) k^l); Claim 1's o(h²) is a
    separate entry. *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint rat intdiv.
From mathcomp Require Import zify ring.
From Reference Require Import ZifyOpaque.
From Reference Require Import KaryDigits KarySums KaryUsedVertices KaryAlgorithm2 KaryMse.
Import GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

(** Proof C.2's recursion as printed: c_h = ((k + 2)/4 + k (h - 1)/4) (k/2) k^(h-1) + c_(h-1), c_0 = 0. *)
Fixpoint appendix_c_recursion (arity height : nat) : rat :=
  if height is h.+1 then
    ((arity + 2)%:R / 4 + (arity * h)%:R / 4) * (arity%:R / 2) * (arity ^ h)%:R + appendix_c_recursion arity h
  else 0.

Section EvenWindow.
Variable m : nat.
Hypothesis m_pos : (0 < m)%N.

Definition even_arity : int := (2 * m)%N%:Z.
Definition even_low : int := 1 - m%:Z.
Local Notation k := even_arity.
Local Notation low := even_low.

Lemma two_k : 2 <= k. Proof. by rewrite /k; lia. Qed.

(** The digit vectors of width w, highest digit last. *)
Fixpoint tvectors (width : nat) : seq (seq int) :=
  if width is w.+1 then [seq rcons v d | d <- window k low, v <- tvectors w] else [:: [::]].

Lemma mem_tvectors w v : (v \in tvectors w) = (size v == w) && all (in_window k low) v.
Proof.
elim: w v => [|w IH] v /=; first by case: v.
apply/allpairsP/idP => [[[d u] [/= d_in u_in ->]] | ].
  by rewrite size_rcons eqSS all_rcons -(mem_window _ _ two_k) d_in andTb -IH.
case/lastP: v => [|u d] //; rewrite size_rcons eqSS all_rcons => /andP [size_u /andP [d_ok u_ok]].
by exists (d, u); rewrite /= (mem_window _ _ two_k) d_ok IH // size_u.
Qed.

Lemma tvectors_uniq w : uniq (tvectors w).
Proof.
elim: w => [|w IH] //=; apply: allpairs_uniq => //; first exact: window_uniq.
by move=> [d u] [d' u'] _ _ /= /rcons_inj [-> ->].
Qed.

Lemma size_tvectors w : (size (tvectors w))%:Z = k ^+ w.
Proof.
elim: w => [|w IH] /=; first by rewrite expr0.
by rewrite size_allpairs size_window PoszM IH exprS.
Qed.

Lemma norm1_rcons v d : norm1 (rcons v d) = norm1 v + `|d|.
Proof. by rewrite /norm1 -cats1 big_cat big_seq1. Qed.

(** The digit sum of the window: Σ_(d=-m+1..m) |d| = m². *)
Lemma window_abs_sum : \sum_(d <- window k low) `|d| = m%:Z ^+ 2.
Proof.
have le : low <= 0 by rewrite /low; lia.
have ge : 0 <= low + (absz k)%:Z by rewrite /low /k absz_nat; lia.
have := sum_abs_straddle le ge; rewrite /window big_map /low /k absz_nat PoszM.
set S := \sum_(_ <- _) _.
have e : (1 - m%:Z) * (1 - m%:Z - 1) + (1 - m%:Z + 2%:Z * m%:Z - 1) * (1 - m%:Z + 2%:Z * m%:Z) = 2 * m%:Z ^+ 2.
  by ring.
by rewrite e => two_S; apply: (@mulfI _ 2) => //; rewrite two_S.
Qed.

(** F(w), the sum over all vectors: k F(w) = w k^w m². *)
Lemma tvectors_l1_sum w : k * (\sum_(v <- tvectors w) norm1 v) = w%:Z * k ^+ w * m%:Z ^+ 2.
Proof.
elim: w => [|w IH] /=; first by rewrite big_cons big_nil /norm1 big_nil mulr0 mul0r.
rewrite big_allpairs_dep.
have inner : forall d, \sum_(v <- tvectors w) norm1 (rcons v d) =
    `|d| * k ^+ w + (\sum_(v <- tvectors w) norm1 v).
  move=> d; rewrite (eq_bigr (fun v => `|d| + norm1 v)) => [|v _]; last by rewrite norm1_rcons addrC.
  by rewrite big_split /= sum_const_seq size_tvectors.
rewrite (eq_bigr _ (fun d _ => inner d)) big_split /= sum_const_seq size_window -mulr_suml window_abs_sum.
set T := \sum_(v <- tvectors w) norm1 v in IH *.
have ak : (absz k)%:Z = k by rewrite /even_arity absz_nat.
rewrite ak mulrDr (_ : k * (T * k) = (k * T) * k); last by ring.
by rewrite IH (exprS k w) -[w.+1]addn1 PoszD; ring.
Qed.

(** P(w): the sum of ‖v‖₁ over the vectors of width w with positive value. *)
Definition positive_l1 (width : nat) : int :=
  \sum_(v <- tvectors width) (if 0 < value k v then norm1 v else 0).

Lemma geometric w : k ^+ w = (k - 1) * repunit k w + 1.
Proof. by rewrite repunit_geometric subrK. Qed.

(** Every vector of width w has |value| <= m R_w < k^w. *)
Lemma value_bounds w v : v \in tvectors w ->
  (1 - m%:Z) * repunit k w <= value k v <= m%:Z * repunit k w.
Proof.
rewrite mem_tvectors => /andP [/eqP size_v all_v].
have := value_range two_k all_v; rewrite size_v /low.
by have -> : 1 - m%:Z + k - 1 = m%:Z by rewrite /k PoszM; lia.
Qed.

Lemma size_mem w v : v \in tvectors w -> size v = w.
Proof. by rewrite mem_tvectors => /andP [/eqP]. Qed.

(** The lower vectors under a highest digit d: all of them count when d >= 1, those of positive value when
    d = 0, none when d <= -1. *)
Lemma inner_step w d : d \in window k low ->
  \sum_(v <- tvectors w) (if 0 < value k (rcons v d) then norm1 (rcons v d) else 0) =
    (if d == 0 then positive_l1 w else 0) +
    (if 0 < d then \sum_(v <- tvectors w) norm1 v + d * k ^+ w else 0).
Proof.
move=> d_in; have [d_lo d_hi] : 1 - m%:Z <= d /\ d <= m%:Z.
  by move: d_in; rewrite (mem_window _ _ two_k) /in_window /low /k PoszM => /andP [a b]; split; lia.
have r0 : 0 <= repunit k w by apply: repunit_ge0; rewrite /k; lia.
have K0 : 0 <= k ^+ w by rewrite exprn_ge0 // /k.
have kw := geometric w; have km : k = 2 * m%:Z by rewrite /k PoszM.
have shift : forall v, v \in tvectors w -> value k (rcons v d) = value k v + k ^+ w * d.
  by move=> v mem; rewrite value_rcons (size_mem mem).
set R := repunit k w in r0 kw; set K := k ^+ w in K0 kw shift *.
case: (ltrgt0P d) => [d_pos | d_neg | d0].
- rewrite add0r (eq_big_seq (fun v => norm1 v + `|d|)); last first.
    move=> v mem; have /andP [lo _] := value_bounds mem; rewrite -/R in lo.
    have pos : 0 < value k v + K * d by clear -lo kw km r0 K0 d_pos m_pos; nia.
    by rewrite shift // pos norm1_rcons.
  by rewrite big_split /= sum_const_seq size_tvectors -/K gtr0_norm // mulrC.
- rewrite addr0 big1_seq // => v /andP [_ mem]; have /andP [_ hi] := value_bounds mem; rewrite -/R in hi.
  have neg : (0 < value k v + K * d) = false by clear -hi kw km r0 K0 d_neg m_pos; nia.
  by rewrite shift // neg.
- rewrite addr0 /positive_l1 big_seq [RHS]big_seq; apply: eq_bigr => v mem.
  by rewrite shift // d0 mulr0 addr0 norm1_rcons normr0 addr0.
Qed.

Lemma sum_first n : 2 * (\sum_(j <- iota 0 n) (1 + j%:Z)) = n%:Z * (n%:Z + 1).
Proof.
elim: n => [|n IH]; first by rewrite big_nil.
by rewrite -[n.+1]addn1 iotaD big_cat big_seq1 /= mulrDr IH PoszD; ring.
Qed.

(** P(w + 1) = P(w) + m F(w) + (m (m + 1)/2) k^w. *)
Lemma positive_l1_step w : 2 * positive_l1 w.+1 =
  2 * positive_l1 w + 2 * m%:Z * (\sum_(v <- tvectors w) norm1 v) + m%:Z * (m%:Z + 1) * k ^+ w.
Proof.
rewrite /positive_l1 /= big_allpairs_dep -/(positive_l1 w).
rewrite big_seq (eq_bigr _ (fun d mem => inner_step w mem)) -big_seq big_split /=.
have zero_in : 0 \in window k low by rewrite (mem_window _ _ two_k) /in_window /low /k PoszM; lia.
rewrite -big_mkcond big_const_seq (count_uniq_mem _ (window_uniq k low)) zero_in /= addr0.
have split_window : window k low = [seq low + i%:Z | i <- iota 0 m] ++ [seq 1 + j%:Z | j <- iota 0 m].
  rewrite /window /k absz_nat mul2n -addnn iotaD map_cat add0n; congr (_ ++ _).
  rewrite -[in LHS](addn0 m) iotaDl -map_comp addn0; apply: eq_map => j /=; rewrite /low PoszD; lia.
rewrite split_window big_cat /= !big_map big1_seq ?add0r; last first.
  by move=> i /andP [_]; rewrite mem_iota add0n /low => lt; rewrite ifF //; lia.
rewrite (eq_bigr (fun j => \sum_(v <- tvectors w) norm1 v + (1 + j%:Z) * k ^+ w)); last first.
  by [].  (* [/=] already decided 0 < 1 + j *)
rewrite big_split /= sum_const_seq size_iota -mulr_suml.
by rewrite -(sum_first m); ring.
Qed.

(** Proof C.2's increment times 8: 8 I(l) = (k l + 2) k^l. *)
Fixpoint count8 (w : nat) : int := if w is h.+1 then (k * h.+1%:Z + 2) * k ^+ h.+1 + count8 h else 0.

Lemma positive_l1_closed w : 8 * positive_l1 w = count8 w.
Proof.
elim: w => [|w IH]; first by rewrite /positive_l1 /= big_cons big_nil.
have step := positive_l1_step w; have full := tvectors_l1_sum w.
rewrite /= -IH exprS.
set F := \sum_(v <- tvectors w) norm1 v in step full; set K := k ^+ w in step full *.
set P := positive_l1 w in step *; set P' := positive_l1 w.+1 in step *.
have km : k = 2 * m%:Z by rewrite /k PoszM.
rewrite km in full *; clear -step full; nia.
Qed.

(** The integers 1 .. T with T = m R_w are the values of the vectors of positive value, each once. *)
Lemma positive_l1_range w T : T%:Z = m%:Z * repunit k w ->
  \sum_(t <- iota 1 T) norm1 (rep k low w t%:Z) = positive_l1 w.
Proof.
move=> T_eq; have r0 : 0 <= repunit k w by apply: repunit_ge0; rewrite /k; lia.
have top : low + k - 1 = m%:Z by rewrite /low /k PoszM; lia.
have same : perm_eq [seq t%:Z | t <- iota 1 T] [seq value k v | v <- tvectors w & 0 < value k v].
  apply: uniq_perm.
  - by rewrite map_inj_uniq ?iota_uniq // => i j; lia.
  - rewrite map_inj_in_uniq ?filter_uniq ?tvectors_uniq // => u v.
    rewrite !mem_filter !mem_tvectors => /andP [_ /andP [/eqP su au]] /andP [_ /andP [/eqP sv av]].
    by move=> same; apply: (window_unique two_k (conj su au) (conj sv av) same).
  - move=> t; apply/mapP/mapP => [[i] | [v]].
    + rewrite mem_iota => range ->.
      have inside : low * repunit k w <= i%:Z <= (low + k - 1) * repunit k w.
        by rewrite top -T_eq /low; move: range r0 m_pos; clear; nia.
      have [[size_r all_r] val_r] := rep_spec two_k inside.
      exists (rep k low w i%:Z) => //.
      by rewrite mem_filter val_r mem_tvectors size_r eqxx all_r andbT; lia.
    + rewrite mem_filter => /andP [pos mem] ->; exists (absz (value k v)); last by lia.
      by have /andP [_ hi] := value_bounds mem; rewrite mem_iota; lia.
have as_ints : \sum_(t <- iota 1 T) norm1 (rep k low w t%:Z) =
    \sum_(t <- [seq t%:Z | t <- iota 1 T]) norm1 (rep k low w t) by rewrite big_map.
rewrite as_ints (perm_big _ same) big_map big_filter /positive_l1 big_mkcond.
rewrite big_seq [RHS]big_seq; apply: eq_bigr => v mem; case: ifP => // _.
by move: mem; rewrite mem_tvectors => /andP [/eqP size_v all_v]; rewrite (rep_of_value two_k (conj size_v all_v)).
Qed.

End EvenWindow.

(** Σ_(l=1..h) (k l + 2) k^l over the naturals: 8 c_h. *)
Fixpoint appendix_c8 (arity height : nat) : nat :=
  if height is h.+1 then ((arity * h.+1 + 2) * arity ^ h.+1 + appendix_c8 arity h)%N else 0%N.

Lemma appendix_c_scaled arity height : appendix_c_recursion arity height * 8 = (appendix_c8 arity height)%:R.
Proof.
elim: height => [|h IH] /=; first by rewrite mul0r.
rewrite (mulrDl _ (appendix_c_recursion arity h)) IH expnS -[h.+1]addn1 !natrD !natrM !natrX; by field.
Qed.

(** KARY Appendix C, Proof C.2: for every even k >= 2 and every h, the total number of noise values Algorithm 2
    adds over t = 1 .. T_h, 2 (k - 1) T_h = k (k^h - 1), is the printed recursion's c_h. *)
Theorem appendix_c_recursion_exact arity height horizon : (2 <= arity)%N -> ~~ odd arity ->
  (2 * (arity - 1) * horizon = arity * (arity ^ height - 1))%N ->
  (sumn [seq size (noise_indices arity (arity %/ 2) height t) | t <- iota 1 horizon])%:R =
    appendix_c_recursion arity height.
Proof.
move=> two even_k T_eq; set m := (arity %/ 2)%N.
have k_eq : arity = (2 * m)%N by rewrite /m; have := odd_double_half arity; rewrite (negbTE even_k) -divn2 /=; lia.
have m_pos : (0 < m)%N by lia.
have ka : arity%:Z = even_arity m by rewrite /even_arity -k_eq.
have geo := repunit_geometric (even_arity m) height.
have K1 : (1 <= arity ^ height)%N by rewrite expn_gt0; lia.
have one : (1 <= arity)%N by lia.
have T_rep : horizon%:Z = m%:Z * repunit (even_arity m) height.
  have e1 := congr1 Posz T_eq; rewrite !PoszM -!subzn // -pow_posz ka -geo in e1.
  apply: (@mulfI _ (2 * (even_arity m - 1))); first by rewrite /even_arity; lia.
  by rewrite e1 /even_arity PoszM; ring.
have sum := positive_l1_range m_pos T_rep.
have counts : (sumn [seq size (noise_indices arity m height t) | t <- iota 1 horizon])%:Z =
    \sum_(t <- iota 1 horizon) norm1 (rep (even_arity m) (even_low m) height t%:Z).
  rewrite posz_sumn big_map; apply: eq_bigr => t _.
  rewrite /noise_indices indices_size (perm_big (digits_of arity m height t)); last by rewrite perm_rev.
  rewrite norm1_absz /digits_of /low_digit ka /even_low; congr (norm1 (rep _ _ _ _)).
  by rewrite /even_arity PoszM; lia.
have closed := positive_l1_closed m_pos height.
have c8 : (appendix_c8 arity height)%:Z = count8 m height.
  rewrite k_eq; elim: height {geo K1 T_eq T_rep sum counts closed} => [|h IH] //=.
  by rewrite PoszD IH !PoszM pow_posz /even_arity.
apply: (@mulIf _ 8) => //; rewrite appendix_c_scaled -natrM; congr (_%:R); apply/eqP; rewrite -eqz_nat.
by rewrite PoszM counts sum c8 -closed mulrC.
Qed.
