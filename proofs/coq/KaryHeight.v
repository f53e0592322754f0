(** * KARY: the heights as integer functions, machine-checked.

    A tree of height h whose digits range over [top - k + 1, top] (top = k - 1 for the standard digits of
    Definition 3.2, top = k/2 rounded down for the offset digits of Definitions 3.8 and C.1) serves every
    horizon T <= top (1 + k + ... + k^(h-1)): the capacity ([capacity]).  For the standard digits this is
    k^h - 1 (Algorithm 1, h = ceil(log_k(T + 1))); for odd k it is (k^h - 1)/2 (Algorithm 2,
    h = ceil(log_k(2T))); for even k it is k (k^h - 1)/(2 (k - 1)) (Appendix C).

    [height arity top horizon] computes the height by the search the Python [height_for_horizon] performs
    (h = 1, 2, ... until T fits).  Proved ([Print Assumptions] closed):
    - [height_is_least]: for every arity k >= 1, top >= 1 and horizon T, [height] is at least 1, T fits in it,
      and every height h >= 1 that T fits in is at least [height];
    - [height_is_tight]: for T >= 1 the height below does not hold T: capacity (height - 1) < T;
    - [standard_capacity], [offset_capacity_odd], [offset_capacity_even], [offset_top]: the capacities are the
      integer expressions the Python computes, and the two offset tops are the same number k/2. *)
(* lia/nia on nat only: mathcomp-zify's nat instances alone (zify_ssreflect), without the algebra library that
   zify's int instances and ZifyOpaque.v would load into this file and every file that requires it *)
From mathcomp Require Import all_ssreflect zify_ssreflect.
From Coq Require Import Lia.
Import SsreflectZifyInstances.Exports.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

(** 1 + k + ... + k^(h-1), by Horner's rule (so that it computes). *)
Fixpoint units (arity height : nat) : nat := if height is h.+1 then 1 + arity * units arity h else 0.

Definition capacity (arity top height : nat) : nat := top * units arity height.

(** The search of [height_for_horizon]: the first h >= start with T <= capacity h, trying [fuel] heights. *)
Fixpoint search (arity top horizon fuel h : nat) : nat :=
  if fuel is f.+1 then (if horizon <= capacity arity top h then h else search arity top horizon f h.+1) else h.

Definition height (arity top horizon : nat) : nat := search arity top horizon horizon 1.

Lemma units_geometric arity height : arity.-1 * units arity height = (arity ^ height).-1.
Proof.
elim: height => [|h IH] /=; first by rewrite muln0.
rewrite expnS mulnDr muln1 mulnCA IH.
case: arity {IH} => [|k] /=; first by rewrite mul0n.
have : 0 < k.+1 ^ h by rewrite expn_gt0.
nia.
Qed.

Lemma units_ge arity height : 0 < arity -> height <= units arity height.
Proof. move=> pos; elim: height => [|h IH] //=; nia. Qed.

Lemma capacity_ge arity top height : 0 < arity -> 0 < top -> height <= capacity arity top height.
Proof. move=> pos_k pos_top; have := units_ge height pos_k; rewrite /capacity; nia. Qed.

Lemma capacity_mono arity top h1 h2 :
  0 < arity -> h1 <= h2 -> capacity arity top h1 <= capacity arity top h2.
Proof.
move=> pos /subnK <-; rewrite /capacity; elim: (h2 - h1) => [|d IH] //=.
rewrite addSn /=; apply: (leq_trans IH); apply: leq_mul => //.
by apply: (@leq_trans (arity * units arity (d + h1))); [rewrite leq_pmull | exact: leqnSn].
Qed.

(** The search's invariant: started at a height all of whose predecessors (from 1) are too small, with enough
    fuel to reach a height that holds T, it returns a height that holds T with all predecessors too small. *)
Lemma search_spec arity top horizon fuel h :
  0 < h -> (forall g, 0 < g < h -> capacity arity top g < horizon) ->
  horizon <= capacity arity top (h + fuel) ->
  let r := search arity top horizon fuel h in
  [/\ h <= r, horizon <= capacity arity top r & forall g, 0 < g < r -> capacity arity top g < horizon].
Proof.
elim: fuel h => [|f IH] h pos below fits /=; first by rewrite addn0 in fits.
case: ifP => [fit | too_small]; first by [].
have below' : forall g, 0 < g < h.+1 -> capacity arity top g < horizon.
  move=> g /andP [pos_g]; rewrite ltnS leq_eqVlt => /orP [/eqP -> | lt_g]; first by rewrite ltnNge too_small.
  by apply: below; rewrite pos_g.
have fits' : horizon <= capacity arity top (h.+1 + f) by rewrite addSnnS.
have [le fit' all_below] := IH h.+1 (ltn0Sn h) below' fits'.
by split => //; apply: ltnW.
Qed.

Theorem height_is_least arity top horizon :
  0 < arity -> 0 < top ->
  [/\ 0 < height arity top horizon, horizon <= capacity arity top (height arity top horizon)
    & forall h, 0 < h -> horizon <= capacity arity top h -> height arity top horizon <= h].
Proof.
move=> pos_k pos_top.
have fits : horizon <= capacity arity top (1 + horizon).
  by apply: leq_trans (capacity_ge _ pos_k pos_top); rewrite add1n.
have none_below : forall g, 0 < g < 1 -> capacity arity top g < horizon by case=> [|[]].
have [le fit below] := search_spec (ltn0Sn 0) none_below fits.
split => // h pos_h fit_h; rewrite leqNgt; apply/negP => lt_h.
by have := below h; rewrite pos_h lt_h ltnNge fit_h => /(_ isT).
Qed.

Theorem height_is_tight arity top horizon :
  0 < arity -> 0 < top -> 0 < horizon ->
  capacity arity top (height arity top horizon).-1 < horizon.
Proof.
move=> pos_k pos_top pos_T; have [pos fit least] := height_is_least horizon pos_k pos_top.
case: (height arity top horizon) pos least => [|[|g]] // _ least; first by rewrite /capacity /= muln0.
rewrite ltnNge; apply/negP => fit_g.
by have := least g.+1 (ltn0Sn g) fit_g; rewrite ltnn.
Qed.

(** The capacities as the Python computes them: k^h - 1 with standard digits, and
    (k - 1 - (k - 1)/2) ((k^h - 1)/(k - 1)) with offset digits, which is (k^h - 1)/2 for odd k and
    k (k^h - 1)/(2 (k - 1)) for even k. *)
Theorem standard_capacity arity height : 0 < arity -> capacity arity arity.-1 height = arity ^ height - 1.
Proof. by move=> pos; rewrite /capacity units_geometric subn1. Qed.

Theorem offset_top arity : 0 < arity -> arity.-1 - arity.-1 %/ 2 = arity %/ 2.
Proof. lia. Qed.

Lemma units_div arity height : 1 < arity -> units arity height = (arity ^ height - 1) %/ arity.-1.
Proof.
move=> two; rewrite subn1 -units_geometric mulKn //; lia.
Qed.

Theorem offset_capacity_odd arity height :
  odd arity -> 2 * capacity arity (arity %/ 2) height = arity ^ height - 1.
Proof.
move=> odd_k; have rem : arity %% 2 = 1 by rewrite modn2 odd_k.
have twice : 2 * (arity %/ 2) = arity.-1 by lia.
by rewrite /capacity mulnA twice units_geometric subn1.
Qed.

Theorem offset_capacity_even arity height :
  ~~ odd arity -> 1 < arity ->
  2 * arity.-1 * capacity arity (arity %/ 2) height = arity * (arity ^ height - 1).
Proof.
move=> even_k two; have rem : arity %% 2 = 0 by rewrite modn2 (negbTE even_k).
have twice : 2 * (arity %/ 2) = arity by lia.
rewrite /capacity subn1 -units_geometric.
have -> : 2 * arity.-1 * (arity %/ 2 * units arity height) = 2 * (arity %/ 2) * (arity.-1 * units arity height).
  by rewrite mulnCA !mulnA [_ * 2]mulnC.
by rewrite twice.
Qed.
