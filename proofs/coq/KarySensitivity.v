(** * KARY: the l1 sensitivity of the tree strategy R is the height, machine-checked.

    KARY Definition 3.1: the k-ary tree of height h has k^h leaves 1 .. k^h; level l + 1 (l = 0 .. h - 1; the
    root, level h + 1, is never used) holds k^(h - l) vertices, vertex j covering the leaves
    j k^l + 1 .. (j + 1) k^l.  The strategy matrix R has one row per used vertex and one column per leaf,
    entry 1 when the vertex covers the leaf.  With a horizon T <= k^h only the vertices whose first leaf is at
    most T are used.  [column_l1 arity height horizon t] is the l1 norm of column t of R.

    Proved ([Print Assumptions] closed): [sensitivity_is_height]: for every arity k >= 1, height h, horizon
    T <= k^h and leaf 1 <= t <= T, column t of R has exactly h ones (one per level), so the l1 sensitivity of R
    (the largest column norm; neighbouring inputs differ in one leaf) is exactly h.  The Python [strategy_matrix]
    keeps only the vertices Algorithm 1 or 3 actually uses; KaryUsedVertices.v proves that its l1 sensitivity
    is exactly the height too. *)
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq div choice fintype bigop.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

(** Vertex j of level l + 1 covers leaf t. *)
Definition covers (arity l j t : nat) : bool := (j * arity ^ l < t <= j.+1 * arity ^ l).

(** Vertex j of level l + 1 is used for horizon T: its first leaf j k^l + 1 is at most T. *)
Definition used (arity l j horizon : nat) : bool := j * arity ^ l < horizon.

Definition column_l1 (arity height horizon t : nat) : nat :=
  \sum_(l < height) \sum_(j < arity ^ (height - l)) (used arity l j horizon && covers arity l j t).

(** The vertex of a level that covers leaf t is the one numbered (t - 1) / k^l. *)
Lemma covers_iff arity l j t : 0 < arity -> 0 < t -> covers arity l j t = (j == (t.-1) %/ arity ^ l).
Proof.
move=> pos_k pos_t; have pos_m : 0 < arity ^ l by rewrite expn_gt0 pos_k.
have below : (j * arity ^ l < t) = (j <= (t.-1) %/ arity ^ l).
  by rewrite leq_divRL // -[t in LHS](prednK pos_t) ltnS.
have above : (t <= j.+1 * arity ^ l) = ((t.-1) %/ arity ^ l <= j).
  by rewrite -(ltnS ((t.-1) %/ arity ^ l) j) ltn_divLR // -[t in LHS](prednK pos_t).
by rewrite /covers below above eqn_leq.
Qed.

Lemma one_per_level arity height horizon t l :
  0 < arity -> 0 < t -> t <= horizon -> horizon <= arity ^ height -> l < height ->
  \sum_(j < arity ^ (height - l)) (used arity l j horizon && covers arity l j t) = 1.
Proof.
move=> pos_k pos_t t_le horizon_le lt_l.
have pos_m : 0 < arity ^ l by rewrite expn_gt0 pos_k.
set q := (t.-1) %/ arity ^ l.
have q_lt : q < arity ^ (height - l).
  rewrite ltn_divLR // -expnD subnK ?(ltnW lt_l) //.
  by rewrite prednK // (leq_trans t_le horizon_le).
rewrite (bigD1 (Ordinal q_lt)) //= big1 => [|j not_q].
- rewrite addn0 covers_iff // eqxx andbT /used.
  rewrite (leq_ltn_trans (leq_trunc_div _ _)) //; first by rewrite -[t.-1]/(t.-1) prednK // (leq_trans _ t_le).
- rewrite covers_iff // andbC; case: eqP => // same; move: not_q.
  by rewrite -val_eqE /= same eqxx.
Qed.

(** Every column of R restricted to the horizon has exactly one 1 per level: its l1 norm is the height. *)
Theorem sensitivity_is_height arity height horizon t :
  0 < arity -> horizon <= arity ^ height -> 0 < t <= horizon -> column_l1 arity height horizon t = height.
Proof.
move=> pos_k horizon_le /andP [pos_t t_le].
rewrite /column_l1 (eq_bigr (fun _ => 1)) => [|l _]; last exact: one_per_level.
by rewrite sum1_card card_ord.
Qed.
