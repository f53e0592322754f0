(** * TDA's IntOpt, machine-checked: the printed loop, its termination, its output, its optimality.

    TDA = Boninsegna, "InfTDA: A Simple TopDown Mechanism for Hierarchical Differentially Private Counting
    Queries".  IntOpt takes integers x_1..x_d (d >= 1) and a total c, and returns non-negative integers summing
    to c at minimum l-infinity distance from x.  The printed procedure, with D = c - sum x:
      z <- max(ceil(D/d), -x) (elementwise); t <- max |z_i|; I <- an order of the indices; j <- 0;
      while sum z > D: z[I_j] <- max(z[I_j] - (sum z - D), -x[I_j], -t); j <- (j+1) mod d; if j = 0 then t <- t+1;
      return x + z.
    Here the loop is [run]: [step] is one iteration, and [run] takes a number of iterations it may use (Coq
    functions must stop); [run ... = None] means the loop was still running when they were used up.
    Every theorem holds for EVERY order I of the indices (any permutation), so in particular for the one the
    Python code uses (value, then index, ascending: [tie_order]).

    Proved ([Print Assumptions] closed):
    - [intopt_terminates]: for c >= 0 the loop stops within d (max(t0, max x) - t0 + 1) iterations;
    - [intopt_output_valid]: when it stops (c >= 0) the output is non-negative, sums to c, has d entries;
    - [intopt_optimal]: no non-negative integer vector with total c is closer to x in l-infinity distance;
    - [intopt_iterations]: for every non-negative integer y with total c (an optimal one: distance alpha),
      t0 <= |x - y|_inf and the loop stops within d (|x - y|_inf - t0 + 1) iterations: d (alpha - t0 + 1);
    - [intopt_diverges]: for c < 0 the loop never stops: [run] returns [None] for every number of iterations. *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint intdiv.
From mathcomp Require Import zify.
From Reference Require Import ZifyOpaque.
Import GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

(** [lia]/[nia] after writing every [nth] on integer lists with the same type and default element: the
    MathComp structures give [int] several names ([GRing.Zmodule.sort int_ZmodType], ...), and two [nth]
    terms that differ only in how their type is written would be distinct atoms for [lia]. *)
Ltac canonical_nth T d := constr_eq T int; constr_eq d (GRing.zero int_ZmodType).
Ltac norm_nth :=
  repeat match goal with
  | H : context [@nth ?T ?d] |- _ =>
      tryif canonical_nth T d then fail else
        (unify T int; change (@nth T d) with (@nth int (GRing.zero int_ZmodType)) in H)
  | |- context [@nth ?T ?d] =>
      tryif canonical_nth T d then fail else
        (unify T int; change (@nth T d) with (@nth int (GRing.zero int_ZmodType)))
  end.
(** Hypotheses with [%%] on nat (the pass counter wrapping around) make zify add quotient and remainder
    equations at every call; a goal that mentions no [%%] never needs them, so they are dropped first. *)
Ltac drop_mod := repeat match goal with H : context [modn _ _] |- _ =>
  lazymatch goal with |- context [modn _ _] => fail | _ => clear H end end.
(** ([lia] and [nia] here are ZifyOpaque.v's: they also drop the hypotheses quantified over a type first.) *)
Ltac ilia := drop_mod; try (change (GRing.Zmodule.sort int_ZmodType) with (int : Type) in * ); norm_nth; lia.
Ltac inia := try (change (GRing.Zmodule.sort int_ZmodType) with (int : Type) in * ); norm_nth; nia.

Definition sumz (s : seq int) : int := foldr (fun a b => a + b) 0 s.

(** D = c - sum x *)
Definition deficit (x : seq int) (c : int) : int := c - sumz x.

(** ceil(a / d) for d > 0 *)
Definition ceil_div (a : int) (d : nat) : int := (- ((- a) %/ d%:Z))%Z.

Definition z_start (x : seq int) (c : int) : seq int :=
  [seq Num.max (ceil_div (deficit x c) (size x)) (- xi) | xi <- x].

Definition maxabs (s : seq int) : int := foldr (fun a m => Num.max `|a| m) 0 s.

(** The lowest value line 8 can give coordinate i while t = [level]: max(-x_i, -t). *)
Definition floor_at (level xi : int) : int := Num.max (- xi) (- level).

Record state := State { zs : seq int; pos : nat; level : int }.

Definition start (x : seq int) (c : int) : state := State (z_start x c) 0 (maxabs (z_start x c)).

(** The loop's condition: sum z > D. *)
Definition running (x : seq int) (c : int) (s : state) : bool := deficit x c < sumz (zs s).

(** One iteration of the loop (lines 7-10). *)
Definition step (x : seq int) (c : int) (order : seq nat) (s : state) : state :=
  let i := nth 0%N order (pos s) in
  let zi := nth 0 (zs s) i in
  let lowered := Num.max (Num.max (zi - (sumz (zs s) - deficit x c)) (- nth 0 x i)) (- level s) in
  let next := ((pos s).+1 %% size x)%N in
  State (set_nth 0 (zs s) i lowered) next (if next == 0%N then level s + 1 else level s).

(** The loop with at most [fuel] iterations: [Some] final state if it stopped, [None] if still running. *)
Fixpoint run (x : seq int) (c : int) (order : seq nat) (fuel : nat) (s : state) : option state :=
  if running x c s then (if fuel is f.+1 then run x c order f (step x c order s) else None) else Some s.

Definition output (x : seq int) (s : state) : seq int := [seq p.1 + p.2 | p <- zip x (zs s)].

(** max_i |a_i - b_i| (0 for empty vectors) *)
Fixpoint chebyshev (a b : seq int) : int :=
  if (a, b) is (p :: a', q :: b') then Num.max `|p - q| (chebyshev a' b') else 0.

(** max(0, x_1, ..., x_d) *)
Definition max0 (s : seq int) : int := foldr Num.max 0 s.

(** The number of iterations within which the loop stops for c >= 0: d (max(t0, max x) - t0 + 1). *)
Definition iteration_bound (x : seq int) (c : int) : nat :=
  (size x * (absz (Num.max (level (start x c)) (max0 x) - level (start x c)) + 1))%N.

(** Line 4 as the Python code breaks ties: indices by (value, index) ascending. *)
Definition tie_order (x : seq int) : seq nat :=
  sort (fun i j => (nth 0 x i < nth 0 x j) || ((nth 0 x i == nth 0 x j) && (i <= j)%N)) (iota 0 (size x)).

(** The printed IntOpt as the Python code runs it (used to compare the two on examples). *)
Definition intopt_literal (x : seq int) (c : int) : option (seq int) :=
  omap (output x) (run x c (tie_order x) (iteration_bound x c) (start x c)).

(** ** Facts about lists of integers *)

Lemma sumz_set_nth (s : seq int) i (v : int) :
  (i < size s)%N -> sumz (set_nth 0 s i v) = sumz s - nth 0 s i + v.
Proof.
elim: s i => [|a s IH] [|i] //= lt; try ilia.
by rewrite IH //; ilia.
Qed.

Lemma sumz_le (a b : seq int) :
  size a = size b -> (forall i, (i < size a)%N -> nth 0 a i <= nth 0 b i) -> sumz a <= sumz b.
Proof.
elim: a b => [|p a IH] [|q b] //= [same] le.
have /= head := le 0%N isT.
have tail : sumz a <= sumz b by apply: IH => // i lt; exact: (le i.+1).
ilia.
Qed.

Lemma sumz_const (s : seq int) v : (forall i, (i < size s)%N -> nth 0 s i = v) -> sumz s = (size s)%:Z * v.
Proof.
elim: s => [|a s IH] //= same; first by ilia.
have /= -> := same 0%N isT; rewrite IH; first by ilia.
by move=> i lt; exact: (same i.+1).
Qed.

Lemma sumz_le_const (s : seq int) (v : int) :
  (forall i, (i < size s)%N -> nth 0 s i <= v) -> sumz s <= (size s)%:Z * v.
Proof.
elim: s => [|a s IH] /= le; first by ilia.
have /= head := le 0%N isT; have tail : sumz s <= (size s)%:Z * v by apply: IH => i lt; exact: (le i.+1).
ilia.
Qed.

Lemma sumz_ge_const (s : seq int) (v : int) :
  (forall i, (i < size s)%N -> v <= nth 0 s i) -> (size s)%:Z * v <= sumz s.
Proof.
elim: s => [|a s IH] /= le; first by ilia.
have /= head := le 0%N isT; have tail : (size s)%:Z * v <= sumz s by apply: IH => i lt; exact: (le i.+1).
ilia.
Qed.

Lemma sumz_map_ge (s : seq int) (f : int -> int) (b : int) :
  (forall v, b <= f v) -> (size s)%:Z * b <= sumz (map f s).
Proof. by move=> ge; elim: s => [|a s IH] /=; [ilia | have := ge a; move: IH; ilia]. Qed.

Lemma sumz_plus (a b : seq int) :
  size a = size b -> sumz [seq p.1 + p.2 | p <- zip a b] = sumz a + sumz b.
Proof. by elim: a b => [|p a IH] [|q b] //= [same]; rewrite IH //; ilia. Qed.

Lemma sumz_minus (a b : seq int) :
  size a = size b -> sumz [seq p.1 - p.2 | p <- zip a b] = sumz a - sumz b.
Proof. by elim: a b => [|p a IH] [|q b] //= [same]; rewrite IH //; ilia. Qed.

Lemma nth_zip_map (f : int -> int -> int) (a b : seq int) i :
  size a = size b -> (i < size a)%N ->
  nth 0 [seq f p.1 p.2 | p <- zip a b] i = f (nth 0 a i) (nth 0 b i).
Proof. by move=> same lt; rewrite (nth_map (0, 0)) ?size_zip ?nth_zip ?same ?minnn // -same. Qed.

Lemma maxabs_ge (s : seq int) i : (i < size s)%N -> `|nth 0 s i| <= maxabs s.
Proof. by elim: s i => [|a s IH] [|i] //= lt; [ilia | have := IH i lt; ilia]. Qed.

Lemma maxabs_ge0 (s : seq int) : 0 <= maxabs s.
Proof. by elim: s => [|a s IH] //=; ilia. Qed.

Lemma maxabs_le (s : seq int) r : 0 <= r -> (forall i, (i < size s)%N -> `|nth 0 s i| <= r) -> maxabs s <= r.
Proof.
move=> pos; elim: s => [|a s IH] //= le.
have /= head := le 0%N isT; have tail : maxabs s <= r by apply: IH => i lt; exact: (le i.+1).
ilia.
Qed.

Lemma max0_ge (s : seq int) i : (i < size s)%N -> nth 0 s i <= max0 s.
Proof. by elim: s i => [|a s IH] [|i] //= lt; [ilia | have := IH i lt; ilia]. Qed.

Lemma chebyshev_ge (a b : seq int) i :
  size a = size b -> (i < size a)%N -> `|nth 0 a i - nth 0 b i| <= chebyshev a b.
Proof.
elim: a b i => [|p a IH] [|q b] [|i] //= [same] lt; first by ilia.
have := IH b i same lt; ilia.
Qed.

Lemma chebyshev_ge0 (a b : seq int) : 0 <= chebyshev a b.
Proof. by elim: a b => [|p a IH] [|q b] //=; ilia. Qed.

Lemma chebyshev_le (a b : seq int) r :
  size a = size b -> 0 <= r -> (forall i, (i < size a)%N -> `|nth 0 a i - nth 0 b i| <= r) -> chebyshev a b <= r.
Proof.
move=> + pos; elim: a b => [|p a IH] [|q b] //= [same] le.
have /= head := le 0%N isT; have tail : chebyshev a b <= r by apply: IH => // i lt; exact: (le i.+1).
ilia.
Qed.

(** g(t) = sum_i max(-x_i, -t) does not increase with t. *)
Lemma floor_sum_antitone (x : seq int) (t r : int) :
  r <= t -> sumz [seq floor_at t xi | xi <- x] <= sumz [seq floor_at r xi | xi <- x].
Proof. by move=> le; elim: x => [|a x IH] //=; move: IH; rewrite /floor_at; ilia. Qed.

(** ** Iterating the loop *)

Lemma run_stops x c order fuel s m :
  (m <= fuel)%N -> (forall k, (k < m)%N -> running x c (iter k (step x c order) s)) ->
  ~~ running x c (iter m (step x c order) s) -> run x c order fuel s = Some (iter m (step x c order) s).
Proof.
elim: m fuel s => [|m IH] [|fuel] s //= le before stopped.
- by rewrite (negbTE stopped).
- by rewrite (negbTE stopped).
- have := before 0%N isT => /= ->.
  rewrite -iterS iterSr; apply: IH => [//| k lt | ]; first by rewrite -iterSr; exact: (before k.+1 lt).
  by rewrite -iterSr iterS.
Qed.

Lemma run_some x c order fuel s final :
  run x c order fuel s = Some final ->
  exists m, [/\ (forall k, (k < m)%N -> running x c (iter k (step x c order) s)),
               ~~ running x c final & final = iter m (step x c order) s].
Proof.
elim: fuel s => [|fuel IH] s /=.
  by case: ifP => // stopped [<-]; exists 0%N; split => //; rewrite stopped.
case: ifP => [going /IH [m [before stopped eq_final]] | stopped [<-]]; last by exists 0%N; rewrite stopped.
exists m.+1; split => //; last by rewrite eq_final iterSr.
by case=> [|k] lt; [rewrite /= going | rewrite iterSr; exact: before].
Qed.

Lemma run_none x c order fuel s :
  (forall k, running x c (iter k (step x c order) s)) -> run x c order fuel s = None.
Proof.
elim: fuel s => [|fuel IH] s always /=; first by have := always 0%N => /= ->.
have := always 0%N => /= ->; apply: IH => k; rewrite -iterSr; exact: always.
Qed.

(** ** The loop's invariants *)

Section Loop.

Variables (x : seq int) (c : int) (order : seq nat).
Hypothesis nonempty : (0 < size x)%N.
Hypothesis permutation : perm_eq order (iota 0 (size x)).

Local Notation d := (size x).
Local Notation D := (deficit x c).
Local Notation z0 := (z_start x c).
Local Notation t0 := (level (start x c)).
Local Notation base := (ceil_div (deficit x c) (size x)).

Lemma order_size : size order = d.
Proof. by rewrite (perm_size permutation) size_iota. Qed.

Lemma order_uniq : uniq order.
Proof. by rewrite (perm_uniq permutation) iota_uniq. Qed.

Lemma order_lt p : (p < d)%N -> (nth 0%N order p < d)%N.
Proof.
move=> lt; have : nth 0%N order p \in order by rewrite mem_nth // order_size.
by rewrite (perm_mem permutation) mem_iota add0n => /andP [].
Qed.

Lemma order_onto i : (i < d)%N -> exists2 p, (p < d)%N & nth 0%N order p = i.
Proof.
move=> lt; have : i \in order by rewrite (perm_mem permutation) mem_iota add0n lt.
by move=> mem; exists (index i order); rewrite ?index_mem ?nth_index // -order_size index_mem.
Qed.

Lemma z0_size : size z0 = d.
Proof. by rewrite size_map. Qed.

Lemma nth_z0 i : (i < d)%N -> nth 0 z0 i = Num.max base (- nth 0 x i).
Proof. by move=> lt; rewrite (nth_map 0). Qed.

(** The invariants that need nothing but the shape of the state. *)
Record basic (s : state) : Prop := Basic {
  basic_size : size (zs s) = d;
  basic_pos : (pos s < d)%N;
  basic_above_x : forall i, (i < d)%N -> - nth 0 x i <= nth 0 (zs s) i }.

Lemma basic_start : basic (start x c).
Proof.
split => //= [|i lt]; first by rewrite z0_size.
by rewrite nth_z0 //; ilia.
Qed.

Lemma nth_step_zs s k : basic s ->
  nth 0 (zs (step x c order s)) k =
  if k == nth 0%N order (pos s) then
    Num.max (Num.max (nth 0 (zs s) k - (sumz (zs s) - D)) (- nth 0 x k)) (- level s)
  else nth 0 (zs s) k.
Proof. by move=> _; rewrite /= nth_set_nth /=; case: eqP => [->|]. Qed.

Lemma basic_step s : basic s -> basic (step x c order s).
Proof.
move=> b; have [size_s pos_s above] := b; have lt_i := order_lt pos_s.
split => /=.
- by rewrite size_set_nth size_s; apply/maxn_idPr.
- by rewrite ltn_mod.
- move=> i lt; have := nth_step_zs i b; rewrite /= => ->.
  by case: eqP => [->|_]; [ilia | exact: above].
Qed.

Lemma basic_iter k : basic (iter k (step x c order) (start x c)).
Proof. by elim: k => [|k IH] /=; [exact: basic_start | exact: basic_step]. Qed.

Lemma sum_step s : basic s ->
  sumz (zs (step x c order s)) = sumz (zs s) - nth 0 (zs s) (nth 0%N order (pos s))
    + Num.max (Num.max (nth 0 (zs s) (nth 0%N order (pos s)) - (sumz (zs s) - D))
                       (- nth 0 x (nth 0%N order (pos s)))) (- level s).
Proof. by move=> [size_s pos_s _]; rewrite /= sumz_set_nth // size_s; exact: order_lt. Qed.

(** A radius [r] that the loop never needs to pass: t0 <= r and g(r) <= D. *)
Definition radius (r : int) : Prop := t0 <= r /\ sumz [seq floor_at r xi | xi <- x] <= D.

(** The invariants, [n] the number of iterations made so far (all while running). *)
Record invariant (r : int) (n : nat) (s : state) : Prop := Invariant {
  inv_basic : basic s;
  inv_above_t : forall i, (i < d)%N -> - level s <= nth 0 (zs s) i;
  inv_below_start : forall i, (i < d)%N -> nth 0 (zs s) i <= nth 0 z0 i;
  inv_sum : D <= sumz (zs s);
  inv_level : t0 <= level s;
  inv_level_r : running x c s -> level s <= r;
  inv_pass : running x c s -> forall p, (p < pos s)%N ->
               nth 0 (zs s) (nth 0%N order p) = floor_at (level s) (nth 0 x (nth 0%N order p));
  inv_above_r : forall i, (i < d)%N -> - r <= nth 0 (zs s) i;
  inv_count : n%:Z = d%:Z * (level s - t0) + (pos s)%:Z }.

Lemma base_sum : D <= sumz z0.
Proof.
have : (d%:Z * base <= sumz z0) by apply: sumz_map_ge => v; ilia.
move: nonempty; rewrite /ceil_div -/D; inia.
Qed.

Lemma invariant_start r : radius r -> invariant r 0 (start x c).
Proof.
move=> [t0_r _]; have b := basic_start.
have above_t0 : forall i, (i < d)%N -> - t0 <= nth 0 z0 i.
  by move=> i lt; have := maxabs_ge (s := z0) (i := i); rewrite z0_size /= => /(_ lt); ilia.
split => //=; try ilia.
- exact: base_sum.
- by move=> i lt; have := above_t0 i lt; ilia.
Qed.

Lemma all_at_floor s t :
  size (zs s) = d -> (forall i, (i < d)%N -> nth 0 (zs s) i = floor_at t (nth 0 x i)) ->
  sumz (zs s) = sumz [seq floor_at t xi | xi <- x].
Proof.
move=> size_s at_floor; congr sumz; apply: (@eq_from_nth _ 0); first by rewrite size_s size_map.
by move=> i; rewrite size_s => lt; rewrite at_floor // (nth_map 0).
Qed.

Lemma invariant_step r n s : radius r -> invariant r n s -> running x c s -> invariant r n.+1 (step x c order s).
Proof.
move=> [t0_r floor_r] [b above_t below sum_ge t0_le level_r pass above_r count] going.
have [size_s pos_s above_x] := b; have b' := basic_step b.
set i := nth 0%N order (pos s).
have lt_i : (i < d)%N by exact: order_lt.
have t_r := level_r going.
have sum' := sum_step b; rewrite -/i in sum'.
have z' := nth_step_zs _ b; rewrite -/i in z'.
set new := Num.max (Num.max (nth 0 (zs s) i - (sumz (zs s) - D)) (- nth 0 x i)) (- level s) in sum' z'.
have new_le : new <= nth 0 (zs s) i.
  by rewrite /new !Order.TotalTheory.le_maxl ger_addl oppr_le0 subr_ge0 sum_ge (above_x _ lt_i) (above_t _ lt_i).
have wrap_or_not : ((pos s).+1 %% d = (pos s).+1 /\ (pos s).+1 < d \/ (pos s).+1 %% d = 0 /\ (pos s).+1 = d)%N.
  case: (ltngtP (pos s).+1 d) => [lt | | eq]; [by left; rewrite modn_small | by rewrite ltnNge pos_s |].
  by right; rewrite eq modnn.
(* after the step, while running, the lowered coordinate sits at its floor *)
have at_floor : running x c (step x c order s) -> new = floor_at (level s) (nth 0 x i).
  rewrite /running sum'; rewrite /new /floor_at; ilia.
(* ... and every coordinate visited earlier in the pass is still there *)
have earlier : running x c (step x c order s) -> forall p, (p <= pos s)%N ->
    nth 0 (zs (step x c order s)) (nth 0%N order p) = floor_at (level s) (nth 0 x (nth 0%N order p)).
  move=> going' p le; rewrite z'.
  case: (ltngtP p (pos s)) le => // [lt _ | -> _]; last by rewrite eqxx -/new (at_floor going').
  have -> : (nth 0%N order p == i) = false.
    rewrite /i nth_uniq ?order_size ?order_uniq //; first by rewrite ltn_eqF.
    exact: (ltn_trans lt).
  exact: pass.
split => //.
- (* the level never falls and the lowered value is at least -level: explicit steps, as one [lia] call over the
     three nested maxima took over a second *)
  have drop : - (if ((pos s).+1 %% d == 0)%N then level s + 1 else level s) <= - level s.
    by case: ifP => _; rewrite ?ler_opp2 ?ler_addl.
  move=> k lt; rewrite z'; apply: Order.POrderTheory.le_trans drop _; case: eqP => [_|_] /=; last exact: above_t.
  by rewrite /new Order.TotalTheory.le_maxr Order.POrderTheory.lexx orbT.
- move=> k lt; rewrite z'; case: eqP => [-> | _]; last exact: below.
  exact: Order.POrderTheory.le_trans new_le (below i lt_i).
- rewrite sum' -[X in X <= _](_ : sumz (zs s) - nth 0 (zs s) i + (nth 0 (zs s) i - (sumz (zs s) - D)) = D).
    by rewrite ler_add2l /new !Order.TotalTheory.le_maxr Order.POrderTheory.lexx.
  by rewrite addrA subrK opprB addrC subrK.
- (* explicit steps: [lia] here also read the lowered value's nested maxima from the context *)
  move: t0_le => /= t0_le; case: ifP => _ //.
  by apply: Order.POrderTheory.le_trans t0_le _; rewrite ler_addl.
- move=> going' /=; case: wrap_or_not => [[-> _] | [-> full]]; first exact: t_r.
  (* a full pass ended and the loop still runs: every coordinate is at its floor, so g(t) > D >= g(r) *)
  rewrite eqxx.
  have all_floor : forall k, (k < d)%N -> nth 0 (zs (step x c order s)) k = floor_at (level s) (nth 0 x k).
    move=> k lt; have [p lt_p <-] := order_onto lt; apply: earlier => //.
    by rewrite -ltnS full.
  have sum_floor := all_at_floor (basic_size b') all_floor.
  rewrite lez_addr1 Order.TotalTheory.ltNge; apply/negP => le.
  move: going'; rewrite /running sum_floor Order.TotalTheory.ltNge.
  by rewrite (Order.POrderTheory.le_trans (floor_sum_antitone x le) floor_r).
- move=> going' p /=; case: wrap_or_not => [[-> lt] | [-> _]] //.
  by rewrite ltnS => le; exact: (earlier going' p le).
- move=> k lt; rewrite z'; case: eqP => [_|_]; last exact: above_r.
  by rewrite /new Order.TotalTheory.le_maxr ler_opp2 t_r orbT.
- move: count t0_le => /= count _; case: wrap_or_not => [[-> _] | [-> full]] /=.
    by rewrite !intS count addrCA.
  by rewrite addr0 addrAC mulrDr mulr1 intS count addrCA -intS full.
Qed.

Lemma invariant_iter r n : radius r ->
  (forall k, (k < n)%N -> running x c (iter k (step x c order) (start x c))) ->
  invariant r n (iter n (step x c order) (start x c)).
Proof.
move=> rad; elim: n => [|n IH] before /=; first exact: invariant_start.
apply: invariant_step => //; last exact: before.
by apply: IH => k lt; apply: before; exact: ltnW.
Qed.

(** While running, n = d (t - t0) + j <= d (r - t0) + d - 1: the loop stops within d (r - t0 + 1) iterations. *)
Lemma stops_within r : radius r ->
  exists2 m, (m <= d * (absz (r - t0) + 1))%N &
    (forall k, (k < m)%N -> running x c (iter k (step x c order) (start x c))) /\
    ~~ running x c (iter m (step x c order) (start x c)).
Proof.
move=> rad; set bound := (d * (absz (r - t0) + 1))%N.
set stopped := fun m => ~~ running x c (iter m (step x c order) (start x c)).
case: (boolP (has stopped (iota 0 bound.+1))) => [/hasP [m_stop] | /hasPn always].
- rewrite mem_iota add0n => /andP [_ le_stop] stop.
  have ex : exists m, (m <= bound)%N && stopped m by exists m_stop; rewrite -ltnS le_stop stop.
  case: (ex_minnP ex) => m /andP [le stopped_m] least; exists m => //; split => // k lt.
  apply/negPn/negP => stopped_k; have := least k; rewrite (leq_trans (ltnW lt) le) /= => /(_ stopped_k).
  by rewrite leqNgt lt.
- have all_running : forall k, (k <= bound)%N -> running x c (iter k (step x c order) (start x c)).
    by move=> k le; apply/negPn; apply: always; rewrite mem_iota add0n ltnS le.
  have inv := invariant_iter rad (n := bound) (fun k lt => all_running k (ltnW lt)).
  have [_ _ _ _ t0_le level_r _ _ count] := inv.
  have := level_r (all_running bound (leqnn _)).
  have := basic_pos (inv_basic inv).
  move: count t0_le; rewrite /bound; case: rad => t0_r _; inia.
Qed.

(** The loop's result for a radius [r]: it stops, and the final z is in [-r, z0] and above -x, with sum D. *)
Lemma final_state r fuel final : radius r -> run x c order fuel (start x c) = Some final ->
  [/\ size (zs final) = d, sumz (zs final) = D &
      forall i, (i < d)%N -> [/\ - nth 0 x i <= nth 0 (zs final) i, - r <= nth 0 (zs final) i &
                                nth 0 (zs final) i <= nth 0 z0 i]].
Proof.
move=> rad /run_some [m [before stopped eq_final]].
have inv := invariant_iter rad before; rewrite -eq_final in inv.
have [[size_s _ above_x] _ below sum_ge _ _ _ above_r _] := inv.
split => //; first by move: stopped; rewrite /running; ilia.
by move=> i lt; split; [exact: above_x | exact: above_r | exact: below].
Qed.

End Loop.

(** ** The main theorems *)

(** The radius max(t0, max(0, x_1, ..., x_d)) is never passed when c >= 0 (then g = -sum x <= D there). *)
Lemma sumz_opp (s : seq int) : sumz [seq - v | v <- s] = - sumz s.
Proof. by elim: s => [|a s IH] /=; ilia. Qed.

Lemma top_radius x c : (0 <= c) -> radius x c (Num.max (level (start x c)) (max0 x)).
Proof.
move=> c_ge; split; first by ilia.
set R := Num.max _ _.
have -> : [seq floor_at R xi | xi <- x] = [seq - xi | xi <- x].
  apply/eq_in_map => xi mem; rewrite /floor_at.
  have : xi <= max0 x by rewrite -(nth_index 0 mem); apply: max0_ge; rewrite index_mem.
  rewrite /R; ilia.
by rewrite sumz_opp /deficit; ilia.
Qed.

(** For c >= 0 the printed loop stops within d (max(t0, max x) - t0 + 1) iterations, for every order. *)
Theorem intopt_terminates x c order :
  (0 < size x)%N -> perm_eq order (iota 0 (size x)) -> 0 <= c ->
  exists final, run x c order (iteration_bound x c) (start x c) = Some final.
Proof.
move=> nonempty perm c_ge.
have [m le [before stopped]] := stops_within nonempty perm (top_radius x c_ge).
by exists (iter m (step x c order) (start x c)); apply: run_stops.
Qed.

(** When it stops (c >= 0), the output has d entries, all non-negative, summing to c. *)
Theorem intopt_output_valid x c order fuel final :
  (0 < size x)%N -> perm_eq order (iota 0 (size x)) -> 0 <= c ->
  run x c order fuel (start x c) = Some final ->
  [/\ size (output x final) = size x, all (fun v => 0 <= v) (output x final) & sumz (output x final) = c].
Proof.
move=> nonempty perm c_ge ran.
have [size_z sum_z bounds] := final_state nonempty perm (top_radius x c_ge) ran.
have size_out : size (output x final) = size x by rewrite size_map size_zip size_z minnn.
split => //; last by rewrite sumz_plus ?size_z // sum_z /deficit; ilia.
apply/(all_nthP 0) => i; rewrite size_out => lt.
by rewrite nth_zip_map ?size_z //; have [above_x _ _] := bounds i lt; ilia.
Qed.

(** Any non-negative integer vector y with total c gives a radius the loop never passes: its distance to x. *)
Lemma valid_radius x c y :
  (0 < size x)%N -> size y = size x -> all (fun v => 0 <= v) y -> sumz y = c -> radius x c (chebyshev x y).
Proof.
move=> nonempty size_y y_ge sum_y.
set r := chebyshev x y.
have close : forall i, (i < size x)%N -> `|nth 0 x i - nth 0 y i| <= r.
  by move=> i lt; apply: chebyshev_ge.
have y_nonneg : forall i, (i < size x)%N -> 0 <= nth 0 y i by move=> i lt; apply: (all_nthP 0 y_ge); rewrite size_y.
have D_is : deficit x c = sumz [seq p.1 - p.2 | p <- zip y x] by rewrite sumz_minus // /deficit sum_y.
set diffs := [seq p.1 - p.2 | p <- zip y x].
have size_diffs : size diffs = size x by rewrite size_map size_zip size_y minnn.
have nth_diffs : forall i, (i < size x)%N -> nth 0 diffs i = nth 0 y i - nth 0 x i.
  by move=> i lt; rewrite (nth_zip_map (fun a b => a - b)) // size_y.
have D_le : deficit x c <= (size x)%:Z * r.
  rewrite D_is -size_diffs; apply: sumz_le_const => i; rewrite size_diffs => lt.
  by rewrite nth_diffs //; have := close i lt; ilia.
have D_ge : - ((size x)%:Z * r) <= deficit x c.
  have : (size x)%:Z * (- r) <= deficit x c.
    rewrite D_is -size_diffs; apply: sumz_ge_const => i; rewrite size_diffs => lt.
    by rewrite nth_diffs //; have := close i lt; ilia.
  ilia.
have base_r : `|ceil_div (deficit x c) (size x)| <= r by rewrite /ceil_div; inia.
split.
- apply: maxabs_le => [|i]; first exact: chebyshev_ge0.
  rewrite size_map => lt; rewrite (nth_map 0) //.
  by have := close i lt; have := y_nonneg i lt; ilia.
- rewrite D_is; apply: sumz_le => [|i]; first by rewrite size_map size_map size_zip size_y minnn.
  rewrite size_map => lt; rewrite (nth_map 0) // (nth_zip_map (fun a b => a - b) size_y) ?size_y //.
  by have := close i lt; have := y_nonneg i lt; rewrite /floor_at; ilia.
Qed.

(** Optimality: every non-negative integer vector y with total c is at least as far from x (l-infinity). *)
Theorem intopt_optimal x c order fuel final y :
  (0 < size x)%N -> perm_eq order (iota 0 (size x)) ->
  run x c order fuel (start x c) = Some final ->
  size y = size x -> all (fun v => 0 <= v) y -> sumz y = c ->
  chebyshev x (output x final) <= chebyshev x y.
Proof.
move=> nonempty perm ran size_y y_ge sum_y.
have rad := valid_radius nonempty size_y y_ge sum_y.
have [t0_r _] := rad.
have [size_z _ bounds] := final_state nonempty perm rad ran.
apply: chebyshev_le.
- by rewrite size_map size_zip size_z minnn.
- exact: chebyshev_ge0.
- move=> i lt; rewrite nth_zip_map ?size_z //; have [_ above_r below] := bounds i lt.
  have := @maxabs_ge (z_start x c) i; rewrite size_map => /(_ lt) z0_le.
  by move: t0_r => /= t0_r; ilia.
Qed.

(** The number of iterations: for every non-negative integer vector y with total c (for instance an optimal one,
    at distance alpha), t0 <= |x - y|_inf and the loop stops within d (|x - y|_inf - t0 + 1) iterations. *)
Theorem intopt_iterations x c order y :
  (0 < size x)%N -> perm_eq order (iota 0 (size x)) ->
  size y = size x -> all (fun v => 0 <= v) y -> sumz y = c ->
  (level (start x c) <= chebyshev x y) /\
  (exists final,
     run x c order (size x * (absz (chebyshev x y - level (start x c)) + 1))%N (start x c) = Some final).
Proof.
move=> nonempty perm size_y y_ge sum_y.
have rad := valid_radius nonempty size_y y_ge sum_y.
split; first by case: rad.
have [m le [before stopped]] := stops_within nonempty perm rad.
by exists (iter m (step x c order) (start x c)); apply: run_stops.
Qed.

(** For c < 0 the printed loop never stops: every coordinate stays >= -x_i, so sum z >= -sum x > c - sum x = D. *)
Theorem intopt_diverges x c order :
  (0 < size x)%N -> perm_eq order (iota 0 (size x)) -> c < 0 ->
  forall fuel, run x c order fuel (start x c) = None.
Proof.
move=> nonempty perm c_lt fuel; apply: run_none => k.
have [size_z _ above] := @basic_iter x c order nonempty perm k.
have : - sumz x <= sumz (zs (iter k (step x c order) (start x c))).
  rewrite -sumz_opp; apply: sumz_le => [|i]; first by rewrite size_map size_z.
  by rewrite size_map => lt; rewrite (nth_map 0) //; exact: above.
by rewrite /running /deficit; ilia.
Qed.

(** The order the Python code uses is one of the orders the theorems cover. *)
Lemma tie_order_perm x : perm_eq (tie_order x) (iota 0 (size x)).
Proof. by rewrite /tie_order perm_sort. Qed.
