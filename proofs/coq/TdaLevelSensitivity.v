(** * TDA Algorithm 1: the l2 sensitivity of a level's count vector under substitution is sqrt 2 (Delta^2 = 2).

    A level of the hierarchy is a partition of the record domain: [cell] sends a record to its cell (at level l
    of InfTDA, the index of the record's length-l prefix), and the level's count vector has one entry per cell
    0 .. cells - 1, the number of records in it ([level_counts]).  Substitution neighbours replace one record r by
    r' ([substitution]: s1 ++ r :: s2 and s1 ++ r' :: s2).  Proved ([Print Assumptions] closed), for every record
    type, every partition and every dataset:
    - [level_change_squared]: the squared l2 distance of the two count vectors is exactly 0 when r and r' lie in
      the same cell, else [cell r < cells] + [cell r' < cells] (a record leaves one cell and enters another);
    - [level_sensitivity_squared_le]: so it is at most 2 for every pair of substitution neighbours;
    - [level_sensitivity_squared_attained]: and exactly 2 when r and r' lie in two different cells of the level;
    - [level_sensitivity_single_cell]: a level with a single cell (the root, or prefixes that take one value)
      has Delta^2 = 0.
    Together: Delta^2 = max over neighbours = 2 on every level with two cells, i.e. Delta = sqrt 2.  One record per
    user (m = 1): the Python function's m records (Delta^2 = 2 m^2) are not in Coq. *)
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq div.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

(** |x - y| on the naturals. *)
Definition gap (x y : nat) : nat := (x - y) + (y - x).

(** The squared l2 distance of two count vectors (entries paired in order). *)
Definition squared_distance (x y : seq nat) : nat := sumn [seq gap p.1 p.2 ^ 2 | p <- zip x y].

Section Level.
Variables (T : Type) (cell : T -> nat) (cells : nat).

(** The level's count vector: entry j is the number of records in cell j, for j = 0 .. cells - 1. *)
Definition level_counts (data : seq T) : seq nat := [seq count (fun r => cell r == j) data | j <- iota 0 cells].

(** Substitution neighbours: one record replaced by another, the rest (and n) unchanged. *)
Definition substitution (data data' : seq T) : Prop :=
  exists s1 s2 r r', data = s1 ++ r :: s2 /\ data' = s1 ++ r' :: s2.

Lemma squared_distance_map (f g : nat -> nat) s :
  squared_distance [seq f j | j <- s] [seq g j | j <- s] = sumn [seq gap (f j) (g j) ^ 2 | j <- s].
Proof. by elim: s => [|j s IH] //=; rewrite /squared_distance /= -IH. Qed.

Lemma gap_shift a b x y : gap (a + x + b) (a + y + b) = gap x y.
Proof. by rewrite /gap !subnDr !subnDl. Qed.

(** Over distinct cells j, the squared changes of the indicators [a == j] and [b == j] add up to 0 when a = b,
    else to the number of a, b among the cells. *)
Lemma indicator_change (a b : nat) (s : seq nat) : uniq s ->
  sumn [seq gap (a == j) (b == j) ^ 2 | j <- s] = if a == b then 0 else (a \in s) + (b \in s).
Proof.
elim: s => [|j s IH] /=; first by case: (a == b).
move=> /andP [fresh /IH ->]; rewrite !in_cons.
case: (eqVneq a b) => [<-|ab]; first by rewrite /gap !subnn.
case: (eqVneq a j) => [aj|aj]; case: (eqVneq b j) => [bj|bj].
- by move: ab; rewrite aj bj eqxx.
- by subst j; rewrite (negPf fresh).
- by subst j; rewrite (negPf fresh) /= addn0 addnC.
- by [].
Qed.

(** The exact squared change of the count vector under one substitution r -> r'. *)
Theorem level_change_squared s1 s2 r r' :
  squared_distance (level_counts (s1 ++ r :: s2)) (level_counts (s1 ++ r' :: s2)) =
  if cell r == cell r' then 0 else (cell r < cells) + (cell r' < cells).
Proof.
rewrite /level_counts squared_distance_map.
under eq_map => j do rewrite !count_cat /= !addnA gap_shift.
by rewrite indicator_change ?iota_uniq // !mem_iota /=.
Qed.

Theorem level_sensitivity_squared_le data data' : substitution data data' ->
  squared_distance (level_counts data) (level_counts data') <= 2.
Proof.
move=> [s1 [s2 [r [r' [-> ->]]]]]; rewrite level_change_squared.
by case: (_ == _) => //; case: (_ < _); case: (_ < _).
Qed.

Theorem level_sensitivity_squared_attained s1 s2 r r' :
  cell r < cells -> cell r' < cells -> cell r != cell r' ->
  squared_distance (level_counts (s1 ++ r :: s2)) (level_counts (s1 ++ r' :: s2)) = 2.
Proof. by move=> in_r in_r' apart; rewrite level_change_squared (negPf apart) in_r in_r'. Qed.

Theorem level_sensitivity_single_cell data data' : (forall x y, cell x = cell y) -> substitution data data' ->
  squared_distance (level_counts data) (level_counts data') = 0.
Proof. by move=> one [s1 [s2 [r [r' [-> ->]]]]]; rewrite level_change_squared (one r r') eqxx. Qed.

End Level.
