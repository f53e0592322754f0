(** * KARY: the l1 sensitivity of the strategy R over the vertices the algorithms use is the height.

    KARY Algorithm 1 (standard digits) and Algorithm 3 (offset digits, Definition 3.8 for odd arity and C.1
    for even arity) produce output t by walking the h digits of t from the most significant one, keeping a
    position p (starting at 0): at level l (1-based, width w = k^(l-1)), a digit d > 0 adds the vertices
    (l, p/w), (l, p/w + 1), ... while p grows by w at each step, and a digit d < 0 subtracts the vertices
    (l, p/w - 1), (l, p/w - 2), ... while p falls by w.  Vertex (l, j) covers the leaves j w + 1 .. (j + 1) w.
    The strategy R has one row per vertex some output t = 1 .. T uses and one column per leaf 1 .. T: the
    Python [strategy_matrix] and [used_vertices] are this construction.

    The digits range over [top - k + 1, top]: top = k - 1 for Algorithm 1, top = k/2 (rounded down) for
    Algorithm 3 at any arity; [rep] of KaryDigits computes them.  A horizon T has height h when
    capacity (h - 1) < T <= capacity h (KaryHeight: the least h that holds T, [height_is_least]).

    Proved ([Print Assumptions] closed):
    - [column_count_le_height]: every leaf lies in at most h used vertices (one per level 1 .. h);
    - [first_leaf_count]: leaf 1 lies in exactly h used vertices;
    - [used_sensitivity_is_height]: so the l1 sensitivity of R (its largest column sum: neighbouring inputs
      differ in one leaf) is exactly the height, for every arity k >= 2, both digit systems and every horizon;
    - [used_sensitivity_at_height]: the same with h computed by [height] (the Python [height_for_horizon]);
    - [used_sensitivity_taller]: in a taller tree (any height above that of T, which the Python [strategy_matrix]
      also accepts) the top levels are never used and the l1 sensitivity is still the height of T;
    - [algorithm_1_sensitivity], [algorithm_3_sensitivity]: the two digit systems the Python builds. *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint intdiv.
From mathcomp Require Import zify.
From Reference Require Import ZifyOpaque.
From Reference Require Import KaryDigits KaryHeight.
Import GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

(** A vertex: (level l >= 1, index j). *)
Definition vertex := (nat * int)%type.

(** The i-th vertex (i = 0, 1, ...) that digit d at 0-based level [lvl] visits from position p. *)
Definition step_vertex (lvl : nat) (w p d : int) (i : nat) : vertex :=
  if 0 <= d then (lvl.+1, ((p + i%:Z * w) %/ w)%Z) else (lvl.+1, ((p - i%:Z * w) %/ w)%Z - 1).

(** The walk over digits given most significant first: the head digit sits at 0-based level [size rest]. *)
Fixpoint walk_ms (arity : nat) (ms : seq int) (p : int) : seq vertex :=
  if ms is d :: rest then
    let w := (arity ^ size rest)%:Z in
    [seq step_vertex (size rest) w p d i | i <- iota 0 `|d|] ++ walk_ms arity rest (p + d * w)
  else [::].

Definition low_digit (arity top : nat) : int := top%:Z - arity%:Z + 1.

(** The digits of t (least significant first) and the vertices output t uses. *)
Definition digits_of (arity top height t : nat) : seq int := rep arity%:Z (low_digit arity top) height t%:Z.
Definition vertices_of (arity top height t : nat) : seq vertex := walk_ms arity (rev (digits_of arity top height t)) 0.

(** The vertices some output t = 1 .. T uses: the rows of R. *)
Definition used (arity top height horizon : nat) : seq vertex :=
  undup (flatten [seq vertices_of arity top height t | t <- iota 1 horizon]).

Definition covers (arity : nat) (v : vertex) (leaf : nat) : bool :=
  let w := (arity ^ v.1.-1)%:Z in (v.2 * w < leaf%:Z) && (leaf%:Z <= (v.2 + 1) * w).

(** Column [leaf] of R: how many used vertices cover the leaf; the l1 sensitivity is the largest column. *)
Definition column_count (arity top height horizon leaf : nat) : nat :=
  count (covers arity ^~ leaf) (used arity top height horizon).

Definition l1_sensitivity (arity top height horizon : nat) : nat :=
  foldr maxn 0%N [seq column_count arity top height horizon leaf | leaf <- iota 1 horizon].

(** ** Every walked vertex has a level in 1 .. h. *)
Lemma walk_levels arity ms p v : v \in walk_ms arity ms p -> (0 < v.1 <= size ms)%N.
Proof.
elim: ms p => [|d rest IH] p //=; rewrite mem_cat => /orP [/mapP [i _ ->] | /IH /andP [pos le]].
- by rewrite /step_vertex; case: ifP => _ /=; rewrite ltnSn.
- by rewrite pos ltnW.
Qed.

(** At one level a leaf lies in one vertex only. *)
Lemma covers_same_level arity v1 v2 leaf :
  (0 < arity)%N -> covers arity v1 leaf -> covers arity v2 leaf -> v1.1 = v2.1 -> v1 = v2.
Proof.
case: v1 v2 => [l1 j1] [l2 j2] pos /= c1 c2 same; move: c1 c2; rewrite same.
have : 0 < (arity ^ l2.-1)%:Z by rewrite ltz_nat expn_gt0 pos.
set w := (arity ^ l2.-1)%:Z => pos_w /andP [lo1 hi1] /andP [lo2 hi2].
have a : j1 * w < (j2 + 1) * w by exact: (Order.POrderTheory.lt_le_trans lo1 hi2).
have b : j2 * w < (j1 + 1) * w by exact: (Order.POrderTheory.lt_le_trans lo2 hi1).
rewrite ltr_pmul2r // in a; rewrite ltr_pmul2r // in b.
by have -> : j1 = j2 by lia.
Qed.

Lemma rep_size arity low width t : size (rep arity low width t) = width.
Proof. by elim: width t => [|w IH] t //=; rewrite IH. Qed.

Theorem column_count_le_height arity top height horizon leaf :
  (0 < arity)%N -> (column_count arity top height horizon leaf <= height)%N.
Proof.
move=> pos; rewrite /column_count -size_filter.
set C := filter _ _.
have uniq_C : uniq C by rewrite filter_uniq // undup_uniq.
have inj : {in C &, injective (fun v : vertex => v.1)}.
  move=> v1 v2; rewrite !mem_filter => /andP [c1 _] /andP [c2 _]; exact: (covers_same_level pos c1 c2).
rewrite -(size_map (fun v : vertex => v.1)) -(size_iota 1 height).
apply: uniq_leq_size; first by rewrite map_inj_in_uniq.
move=> l /mapP [v]; rewrite mem_filter mem_undup => /andP [_ /flattenP [vs /mapP [t _ ->]]] walked ->.
have := walk_levels walked; rewrite size_rev /digits_of.
by rewrite rep_size mem_iota add1n ltnS.
Qed.

(** ** Leaf 1 lies in h used vertices. *)

Lemma walk_zeros arity n ms p : walk_ms arity (nseq n 0 ++ ms) p = walk_ms arity ms p.
Proof. by elim: n p => [|n IH] p //=; rewrite mul0r addr0 IH. Qed.

(** Below zeros only, a positive digit at 0-based level l visits vertex (l + 1, 0) first. *)
Lemma walk_first arity n d rest :
  (0 < arity)%N -> 0 < d -> ((size rest).+1, 0) \in walk_ms arity (nseq n 0 ++ d :: rest) 0.
Proof.
move=> pos pos_d; rewrite walk_zeros /= mem_cat; apply/orP; left.
have size_d : (0 < `|d|)%N by rewrite absz_gt0; lia.
apply/mapP; exists 0%N; first by rewrite mem_iota.
have nonneg : (0 <= d) = true by lia.
by rewrite /step_vertex nonneg /= mul0r addr0 div0z.
Qed.

Lemma repunit_units arity width : repunit arity%:Z width = (units arity width)%:Z.
Proof. by elim: width => [|w IH] //=; rewrite IH. Qed.

Lemma value_zeros arity n s : value arity (nseq n 0 ++ s) = arity ^+ n * value arity s.
Proof.
elim: n => [|n IH] /=; first by rewrite expr0 mul1r.
by rewrite add0r IH exprS mulrA.
Qed.

Lemma value_nseq0 arity n : value arity (nseq n 0) = 0.
Proof. by elim: n => [|n IH] //=; rewrite IH mulr0 addr0. Qed.

Lemma value_rcons arity s d : value arity (rcons s d) = value arity s + arity ^+ size s * d.
Proof.
elim: s => [|e s IH] /=; first by rewrite expr0 mul1r mulr0 addr0 add0r.
by rewrite IH exprS mulrDr addrA -mulrA.
Qed.

Lemma units_ge_power arity n m : (n < m)%N -> (arity ^ n <= units arity m)%N.
Proof.
elim: m n => [|m IH] [|n] //= lt.
by rewrite expnS (leq_trans _ (leq_addl 1 _)) // leq_mul2l IH ?orbT.
Qed.

Lemma value_cat arity s1 s2 : value arity (s1 ++ s2) = value arity s1 + arity ^+ size s1 * value arity s2.
Proof.
elim: s1 => [|d s1 IH] /=; first by rewrite expr0 mul1r add0r.
by rewrite IH exprS mulrDr addrA mulrA.
Qed.

(** Standing hypotheses: arity k >= 2 and a digit window [top - k + 1, top] that holds 0 and 1. *)
Section Walks.
Variables arity top : nat.
Hypothesis two : (2 <= arity)%N.
Hypothesis top_pos : (0 < top)%N.
Hypothesis top_lt : (top < arity)%N.

Let low := low_digit arity top.

Lemma window_range width t :
  (t <= capacity arity top width)%N ->
  low * repunit arity%:Z width <= t%:Z <= (low + arity%:Z - 1) * repunit arity%:Z width.
Proof.
move=> fits; rewrite repunit_units /low /low_digit.
have -> : top%:Z - arity%:Z + 1 + arity%:Z - 1 = top%:Z by lia.
move: fits; rewrite /capacity; set u := units arity width => fits.
have hi : top%:Z * u%:Z >= t%:Z by rewrite -PoszM lez_nat.
have u0 : 0 <= u%:Z by [].
have : top%:Z - arity%:Z + 1 <= 0 by lia.
nia.
Qed.

Lemma digits_size height t : size (digits_of arity top height t) = height.
Proof. exact: rep_size. Qed.

(** The digits of k^(l-1) at width h >= l: a single 1 at level l. *)
Lemma digits_of_power height lvl :
  (lvl < height)%N ->
  digits_of arity top height (arity ^ lvl) = nseq lvl 0 ++ 1 :: nseq (height - lvl.+1) 0.
Proof.
move=> lt; rewrite /digits_of.
set s := nseq lvl 0 ++ _.
have valid_s : valid arity%:Z low height s.
  split; first by rewrite size_cat size_nseq /= size_nseq; lia.
  have w0 : in_window arity%:Z low 0.
  by rewrite /in_window /low /low_digit; apply/andP; split; clear -top_pos top_lt; lia.
  have w1 : in_window arity%:Z low 1 by rewrite /in_window /low /low_digit; apply/andP; split; lia.
  by rewrite all_cat /= !all_nseq w0 w1 !orbT.
have val_s : value arity%:Z s = (arity ^ lvl)%N%:Z.
  by rewrite value_zeros /= value_nseq0 mulr0 addr0 mulr1 -!natz natrX.
have two' : 2 <= arity%:Z by rewrite lez_nat.
by rewrite -val_s (rep_of_value two' valid_s).
Qed.

Lemma power_vertex height lvl :
  (lvl < height)%N -> (lvl.+1, 0) \in vertices_of arity top height (arity ^ lvl).
Proof.
move=> lt; rewrite /vertices_of digits_of_power // rev_cat /= rev_cons rev_nseq.
rewrite -cats1 -catA /=.
have := @walk_first arity (height - lvl.+1) 1 (nseq lvl 0) (ltac:(lia)) (ltac:(lia)).
by rewrite size_nseq rev_nseq.
Qed.

(** The most significant digit of a horizon beyond the capacity of h - 1 levels is positive. *)
Lemma top_vertex height horizon :
  (0 < height)%N -> (capacity arity top height.-1 < horizon <= capacity arity top height)%N ->
  (height, 0) \in vertices_of arity top height horizon.
Proof.
move=> pos_h /andP [above fits]; rewrite /vertices_of.
have two' : 2 <= arity%:Z by rewrite lez_nat.
have [valid_s val_s] := rep_spec two' (window_range fits).
move: valid_s val_s; rewrite -/(digits_of _ _ _ _).
have := digits_size height horizon.
case/lastP: (digits_of arity top height horizon) => [|s d]; first by move=> /= eq; rewrite -eq in pos_h.
rewrite size_rcons => size_S [_ all_ok] val.
have size_s : size s = height.-1 by rewrite -size_S.
move: all_ok; rewrite all_rcons => /andP [_ all_s].
have range_s := value_range two' all_s.
move: range_s; rewrite size_s => /andP [_ hi_s].
move: val; rewrite value_rcons size_s => val.
have hi_s' : value arity%:Z s <= (capacity arity top height.-1)%:Z.
  move: hi_s; rewrite repunit_units /low /low_digit /capacity PoszM.
  by have -> : top%:Z - arity%:Z + 1 + arity%:Z - 1 = top%:Z by lia.
have pos_w : 0 < arity%:Z ^+ height.-1 by rewrite exprn_gt0 // ltz_nat; lia.
have pos_d : 0 < d.
  have above' : (capacity arity top height.-1)%:Z < horizon%:Z by rewrite ltz_nat.
  move: val; set v := value arity%:Z s; set w := arity%:Z ^+ height.-1 => val; nia.
rewrite rev_rcons -size_S -(size_rev s).
exact: (@walk_first arity 0 d (rev s) (ltac:(lia)) pos_d).
Qed.

Theorem first_leaf_count height horizon :
  (0 < height)%N -> (capacity arity top height.-1 < horizon <= capacity arity top height)%N ->
  column_count arity top height horizon 1 = height.
Proof.
move=> pos_h range; apply/eqP; rewrite eqn_leq column_count_le_height; last by lia.
rewrite /column_count -size_filter.
apply: (@leq_trans (size [seq (l, 0 : int) | l <- iota 1 height])); first by rewrite size_map size_iota.
apply: uniq_leq_size; first by rewrite map_inj_uniq ?iota_uniq // => a b [].
move=> v /mapP [l]; rewrite mem_iota add1n ltnS => /andP [pos_l le_l] ->.
rewrite mem_filter mem_undup; apply/andP; split.
  by rewrite /covers /= add0r mul1r lez_nat expn_gt0 (ltnW two).
apply/flattenP.
have [lt | eq] : (l < height)%N \/ l = height by lia.
- exists (vertices_of arity top height (arity ^ l.-1)); last by rewrite -{1}(prednK pos_l); apply: power_vertex; lia.
  apply: map_f; rewrite mem_iota add1n ltnS expn_gt0 (ltnW two) /=.
  move: range => /andP [above _]; apply: leq_trans (ltnW above).
  rewrite /capacity; apply: (leq_trans _ (leq_pmull _ top_pos)).
  apply: units_ge_power; lia.
- exists (vertices_of arity top height horizon); last by rewrite eq; exact: top_vertex.
  by apply: map_f; rewrite mem_iota add1n ltnS leqnn; move: range => /andP [above _]; lia.
Qed.
(** A taller tree adds zero digits on top, and zero digits add no vertex: the walks do not change. *)
Lemma digits_taller height n t :
  (t <= capacity arity top height)%N ->
  digits_of arity top (height + n) t = digits_of arity top height t ++ nseq n 0.
Proof.
move=> fits; have two' : 2 <= arity%:Z by rewrite lez_nat.
have [[size_s all_s] val_s] := rep_spec two' (window_range fits).
rewrite /digits_of; set s := rep _ _ height _ in size_s all_s val_s *.
have w0 : in_window arity%:Z low 0.
  by rewrite /in_window /low /low_digit; apply/andP; split; clear -top_pos top_lt; lia.
have valid_pad : valid arity%:Z low (height + n) (s ++ nseq n 0).
  by split; [rewrite size_cat size_nseq size_s | rewrite all_cat all_s all_nseq w0 orbT].
have val_pad : value arity%:Z (s ++ nseq n 0) = t%:Z by rewrite value_cat value_nseq0 mulr0 addr0.
by rewrite -[in LHS]val_pad (rep_of_value two' valid_pad).
Qed.

Lemma vertices_taller height n t :
  (t <= capacity arity top height)%N -> vertices_of arity top (height + n) t = vertices_of arity top height t.
Proof.
by move=> fits; rewrite /vertices_of digits_taller // rev_cat rev_nseq walk_zeros.
Qed.

Lemma used_taller height n horizon :
  (horizon <= capacity arity top height)%N -> used arity top (height + n) horizon = used arity top height horizon.
Proof.
move=> fits; rewrite /used; congr (undup (flatten _)); apply/eq_in_map => t.
rewrite mem_iota add1n ltnS => /andP [_ le_t]; apply: vertices_taller; exact: leq_trans le_t fits.
Qed.
End Walks.

Lemma foldr_max_le (s : seq nat) m : all (fun x => x <= m)%N s -> (foldr maxn 0%N s <= m)%N.
Proof. by elim: s => [|x s IH] //= /andP [x_le /IH rest_le]; rewrite geq_max x_le. Qed.

Lemma foldr_max_ge (s : seq nat) x : x \in s -> (x <= foldr maxn 0%N s)%N.
Proof.
elim: s => [|y s IH] //=; rewrite in_cons => /orP [/eqP -> | /IH le]; first exact: leq_maxl.
by rewrite leq_max le orbT.
Qed.

(** The l1 sensitivity of R over the used vertices is the height, for both digit systems and every horizon of
    that height. *)
Theorem used_sensitivity_is_height arity top height horizon :
  (2 <= arity)%N -> (0 < top < arity)%N -> (0 < height)%N ->
  (capacity arity top height.-1 < horizon <= capacity arity top height)%N ->
  l1_sensitivity arity top height horizon = height.
Proof.
move=> two /andP [top_pos top_lt] pos_h range; apply/eqP; rewrite eqn_leq; apply/andP; split.
  apply: foldr_max_le; apply/allP => c /mapP [leaf _ ->]; apply: column_count_le_height; lia.
rewrite -{1}(first_leaf_count two top_pos top_lt pos_h range); apply: foldr_max_ge; apply: map_f.
by rewrite mem_iota leqnn add1n ltnS; lia.
Qed.

(** The same at the height the Python [height_for_horizon] computes: for every horizon T >= 1. *)
Theorem used_sensitivity_at_height arity top horizon :
  (2 <= arity)%N -> (0 < top < arity)%N -> (0 < horizon)%N ->
  l1_sensitivity arity top (height arity top horizon) horizon = height arity top horizon.
Proof.
move=> two /andP [top_pos top_lt] pos_T.
have pos_k : (0 < arity)%N by lia.
have [pos_h fits _] := height_is_least horizon pos_k top_pos.
have tight := height_is_tight pos_k top_pos pos_T.
by apply: used_sensitivity_is_height => //; [rewrite top_pos | rewrite tight].
Qed.

(** A tree taller than the height of T (the Python [strategy_matrix] accepts any height whose capacity holds T):
    its top levels are never used, and the l1 sensitivity of R is still the height of T. *)
Theorem used_sensitivity_taller arity top horizon extra :
  (2 <= arity)%N -> (0 < top < arity)%N -> (0 < horizon)%N ->
  l1_sensitivity arity top (height arity top horizon + extra) horizon = height arity top horizon.
Proof.
move=> two /andP [top_pos top_lt] pos_T.
have pos_k : (0 < arity)%N by lia.
have [_ fits _] := height_is_least horizon pos_k top_pos.
rewrite /l1_sensitivity /column_count used_taller // -/(column_count _ _ _ _ _) -[RHS](used_sensitivity_at_height two _ pos_T).
  by [].
by rewrite top_pos.
Qed.

(** Algorithm 1 (standard digits, top = k - 1) and Algorithm 3 (offset digits, top = k/2): l1 sensitivity h. *)
Corollary algorithm_1_sensitivity arity horizon :
  (2 <= arity)%N -> (0 < horizon)%N ->
  l1_sensitivity arity arity.-1 (height arity arity.-1 horizon) horizon = height arity arity.-1 horizon.
Proof. by move=> two pos_T; apply: used_sensitivity_at_height => //; lia. Qed.

Corollary algorithm_3_sensitivity arity horizon :
  (2 <= arity)%N -> (0 < horizon)%N ->
  l1_sensitivity arity (arity %/ 2) (height arity (arity %/ 2) horizon) horizon = height arity (arity %/ 2) horizon.
Proof. by move=> two pos_T; apply: used_sensitivity_at_height => //; lia. Qed.
