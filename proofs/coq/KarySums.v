(** * KARY Lemmas 3.5 and 4.7: the sums of digit-vector l1 norms over a maximal horizon, as exact identities.

    With digits in a window of k consecutive integers [low, low + k - 1] (KaryDigits.v), every integer t of
    [low R_h, (low + k - 1) R_h] has one h-digit vector rep(t).  Summing ||rep(t)||_1 over that whole range is
    summing ||v||_1 over all k^h digit vectors, which gives h k^(h-1) S with S = sum of |d| over the window:
    - [window_l1_sum]: k * sum_t ||rep(t)||_1 = h k^h S, for every window and height;
    - [lemma_3_5_sum]: standard digits: 2 sum_(t = 0 .. k^h - 1) ||rep_k(t, h)||_1 = h (k - 1) k^h, so the average
      over t = 1 .. T = k^h - 1 is h (k - 1) k^h / (2T), Lemma 3.5's count;
    - [lemma_4_7_sum]: odd k, offset digits: 4 sum_(t = -T .. T) ||rep^_k(t, h)||_1 = h (k^2 - 1) k^(h-1)
      with T = (k^h - 1)/2, the count behind Lemma 4.7 ((1 - 1/k^h) a_[1,T] = h (k^2 - 1)/(4k)). *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint intdiv.
From mathcomp Require Import zify ring.
From Reference Require Import ZifyOpaque.
From Reference Require Import KaryDigits.
Import GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

Definition window (arity low : int) : seq int := [seq low + i%:Z | i <- iota 0 (absz arity)].

(** All digit vectors of a width, as a list. *)
Fixpoint vectors (arity low : int) (width : nat) : seq (seq int) :=
  if width is w.+1 then [seq d :: v | d <- window arity low, v <- vectors arity low w] else [:: [::]].

Definition norm1 (s : seq int) : int := \sum_(d <- s) `|d|.

(** The integers a, a + 1, ..., b (a <= b). *)
Definition int_range (a b : int) : seq int := [seq a + i%:Z | i <- iota 0 (absz (b - a)).+1].

Lemma sum_const_seq (T : Type) (s : seq T) (c : int) : \sum_(x <- s) c = c * (size s)%:Z.
Proof. by elim: s => [|x s IH]; rewrite ?big_nil ?big_cons ?IH /=; lia. Qed.

Lemma mem_window (arity low d : int) : 2 <= arity -> (d \in window arity low) = in_window arity low d.
Proof.
move=> two; apply/mapP/idP => [[i] | inside].
- by rewrite mem_iota add0n /in_window => /andP [_ lt] ->; lia.
- exists (absz (d - low)); last by move: inside; rewrite /in_window; lia.
  by rewrite mem_iota add0n; move: inside; rewrite /in_window; lia.
Qed.

Lemma window_uniq (arity low : int) : uniq (window arity low).
Proof. by rewrite map_inj_uniq ?iota_uniq // => i j; lia. Qed.

Lemma size_window (arity low : int) : size (window arity low) = absz arity.
Proof. by rewrite size_map size_iota. Qed.

Lemma mem_vectors (arity low : int) (width : nat) (v : seq int) :
  2 <= arity -> (v \in vectors arity low width) = (size v == width) && all (in_window arity low) v.
Proof.
move=> two; elim: width v => [|w IH] v /=; first by case: v.
apply/allpairsP/idP => [[[d u] [/= d_in u_in ->]] | ].
  by rewrite /= eqSS -(mem_window _ _ two) d_in andTb -IH.
case: v => [|d u] //=; rewrite eqSS => /andP [size_u /andP [d_ok u_ok]].
by exists (d, u); rewrite /= (mem_window _ _ two) d_ok IH // size_u.
Qed.

Lemma vectors_uniq (arity low : int) (width : nat) : uniq (vectors arity low width).
Proof.
elim: width => [|w IH] //=; apply: allpairs_uniq => //; first exact: window_uniq.
by move=> [d u] [d' u'] _ _ [-> ->].
Qed.

Lemma size_vectors (arity low : int) (width : nat) : 2 <= arity -> (size (vectors arity low width))%:Z = arity ^+ width.
Proof.
move=> two; elim: width => [|w IH] /=; first by rewrite expr0.
rewrite size_allpairs size_window exprS -IH; lia.
Qed.

(** The sum over all digit vectors. *)
Lemma vectors_l1_sum (arity low : int) (width : nat) : 2 <= arity ->
  arity * (\sum_(v <- vectors arity low width) norm1 v) =
    width%:Z * arity ^+ width * (\sum_(d <- window arity low) `|d|).
Proof.
move=> two; elim: width => [|w IH] /=; first by rewrite big_cons big_nil /norm1 big_nil; lia.
rewrite big_allpairs_dep.
have inner : forall d, \sum_(v <- vectors arity low w) norm1 (d :: v) =
    `|d| * arity ^+ w + (\sum_(v <- vectors arity low w) norm1 v).
  move=> d; rewrite (eq_bigr (fun v => `|d| + norm1 v)) => [|v _]; last by rewrite /norm1 big_cons.
  by rewrite big_split /= sum_const_seq size_vectors.
rewrite (eq_bigr _ (fun d _ => inner d)) big_split /= sum_const_seq size_window -mulr_suml.
set S := \sum_(d <- window arity low) `|d|.
set T := \sum_(v <- vectors arity low w) norm1 v.
rewrite exprS; move: IH; rewrite -/S -/T; nia.
Qed.

Lemma int_range_uniq (a b : int) : uniq (int_range a b).
Proof. by rewrite map_inj_uniq ?iota_uniq // => i j; lia. Qed.

Lemma mem_int_range (a b t : int) : a <= b -> (t \in int_range a b) = (a <= t <= b).
Proof.
move=> le; apply/mapP/idP => [[i] | inside].
- by rewrite mem_iota add0n ltnS => le_i ->; lia.
- by exists (absz (t - a)); [rewrite mem_iota add0n ltnS; lia | lia].
Qed.

(** Summing over the representable integers is summing over the digit vectors. *)
Theorem window_l1_sum (arity low : int) (height : nat) :
  2 <= arity ->
  arity * (\sum_(t <- int_range (low * repunit arity height) ((low + arity - 1) * repunit arity height))
             norm1 (rep arity low height t)) =
    height%:Z * arity ^+ height * (\sum_(d <- window arity low) `|d|).
Proof.
move=> two; rewrite -vectors_l1_sum //; congr (_ * _).
set a := low * repunit arity height; set b := (low + arity - 1) * repunit arity height.
have r0 : 0 <= repunit arity height by apply: repunit_ge0; lia.
have le : a <= b by rewrite /a /b; nia.
have same : perm_eq (int_range a b) [seq value arity v | v <- vectors arity low height].
  apply: uniq_perm; first exact: int_range_uniq.
  - rewrite map_inj_in_uniq ?vectors_uniq // => u v; rewrite !mem_vectors // => /andP [/eqP su au] /andP [/eqP sv av].
    by move=> same; apply: (window_unique two (conj su au) (conj sv av) same).
  - move=> t; rewrite mem_int_range //; apply/idP/mapP => [range | [v]].
    + have [[size_r all_r] val_r] := rep_spec two range.
      by exists (rep arity low height t); rewrite ?mem_vectors ?size_r ?eqxx.
    + rewrite mem_vectors // => /andP [/eqP size_v all_v] ->.
      by have := value_range two all_v; rewrite size_v.
rewrite (perm_big _ same) big_map big_seq_cond [RHS]big_seq_cond; apply: eq_bigr => v /andP [mem _].
move: mem; rewrite mem_vectors // => /andP [/eqP size_v all_v].
by rewrite rep_of_value //; split.
Qed.


(** ** The digit sums of the two windows *)

Lemma sum_abs_shift (low : int) (n : nat) :
  \sum_(i <- iota 0 n.+1) `|low + i%:Z| = `|low| + \sum_(i <- iota 0 n) `|(low + 1) + i%:Z|.
Proof.
rewrite /= big_cons; congr (_ + _); first by congr Num.norm; lia.
rewrite -[iota 1 n]/(iota (1 + 0) n) iotaDl big_map; apply: eq_bigr => i _; congr Num.norm; lia.
Qed.

Lemma sum_abs_nonneg (n : nat) : forall low : int, 0 <= low ->
  2 * (\sum_(i <- iota 0 n) `|low + i%:Z|) = n%:Z * (2 * low + n%:Z - 1).
Proof.
elim: n => [|n IH] low ge; first by rewrite big_nil; lia.
rewrite sum_abs_shift; have := IH (low + 1); lia.
Qed.

Lemma sum_abs_straddle (n : nat) : forall low : int, low <= 0 -> 0 <= low + n%:Z ->
  2 * (\sum_(i <- iota 0 n) `|low + i%:Z|) = low * (low - 1) + (low + n%:Z - 1) * (low + n%:Z).
Proof.
elim: n => [|n IH] low le ge; first by rewrite big_nil; lia.
case: (ltrP low 0) => [neg | nonneg].
- rewrite sum_abs_shift; have := IH (low + 1); lia.
- have zero : low = 0 by lia.
  have le0 : (0 : int) <= 0 by lia.
  by rewrite zero (sum_abs_nonneg n.+1 le0); nia.
Qed.

Lemma standard_window_sum (arity : int) : 2 <= arity ->
  2 * (\sum_(d <- window arity 0) `|d|) = arity * (arity - 1).
Proof.
move=> two; have le0 : (0 : int) <= 0 by lia.
by rewrite /window big_map (sum_abs_nonneg _ le0); lia.
Qed.

Lemma odd_window_sum (arity : int) : 3 <= arity -> (arity %% 2)%Z = 1 ->
  4 * (\sum_(d <- window arity (- ((arity - 1) %/ 2)%Z)) `|d|) = arity ^+ 2 - 1.
Proof.
move=> three odd; set half := ((arity - 1) %/ 2)%Z.
have two_half : 2 * half = arity - 1 by rewrite /half; lia.
have le : - half <= 0 by lia.
have ge : 0 <= - half + (absz arity)%:Z by lia.
rewrite /window big_map; have := sum_abs_straddle le ge; rewrite expr2; nia.
Qed.

(** Lemma 3.5's count: standard digits over t = 0 .. k^h - 1 (t = 0 adds nothing):
    2 sum_t ||rep_k(t, h)||_1 = h (k - 1) k^h. *)
Theorem lemma_3_5_sum (arity : int) (height : nat) : 2 <= arity ->
  2 * (\sum_(t <- int_range 0 (arity ^+ height - 1)) norm1 (rep arity 0 height t)) =
    height%:Z * (arity - 1) * arity ^+ height.
Proof.
move=> two; have main := window_l1_sum 0 height two.
rewrite mul0r add0r repunit_geometric in main.
have S := standard_window_sum two.
apply: (@mulfI _ arity); first by lia.
rewrite mulrCA main.
set K := arity ^+ height; set W := \sum_(d <- window arity 0) `|d| in S *.
have -> : 2 * (height%:Z * K * W) = height%:Z * K * (2 * W) by ring.
by rewrite S; ring.
Qed.

(** Lemma 4.7's count: odd k, offset digits over t = -T .. T with T = (k^h - 1)/2:
    4 sum_t ||rep^_k(t, h)||_1 = h (k^2 - 1) k^(h-1). *)
Theorem lemma_4_7_sum (arity : int) (height : nat) : 3 <= arity -> (arity %% 2)%Z = 1 -> (0 < height)%N ->
  4 * (\sum_(t <- int_range (- ((arity ^+ height - 1) %/ 2)%Z) ((arity ^+ height - 1) %/ 2)%Z)
         norm1 (rep arity (- ((arity - 1) %/ 2)%Z) height t)) =
    height%:Z * (arity ^+ 2 - 1) * arity ^+ height.-1.
Proof.
move=> three odd pos; have two : 2 <= arity by lia.
set half := ((arity - 1) %/ 2)%Z.
have two_half : 2 * half = arity - 1 by rewrite /half; lia.
have main := window_l1_sum (- half) height two.
have geo := repunit_geometric arity height.
have bounds : (- half * repunit arity height = - ((arity ^+ height - 1) %/ 2)%Z) /\
              ((- half + arity - 1) * repunit arity height = ((arity ^+ height - 1) %/ 2)%Z).
  (* (k^h - 1) / 2 = (2 half R) / 2 = half R, in explicit steps ([nia] took 0.6 s) *)
  have whole : ((arity ^+ height - 1) %/ 2)%Z = half * repunit arity height.
    by rewrite -geo -two_half -mulrA mulKz.
  have upper : - half + arity - 1 = half by clear -two_half; lia.
  by rewrite whole upper mulNr.
rewrite (proj1 bounds) (proj2 bounds) in main.
have S := odd_window_sum three odd; rewrite -/half in S.
apply: (@mulfI _ arity); first by lia.
rewrite mulrCA main.
have power : arity ^+ height = arity * arity ^+ height.-1 by rewrite -exprS prednK.
rewrite power.
set K := arity ^+ height.-1; set W := \sum_(d <- window arity (- half)) `|d| in S *.
have -> : 4 * (height%:Z * (arity * K) * W) = arity * (height%:Z * K * (4 * W)) by ring.
by rewrite S; ring.
Qed.
