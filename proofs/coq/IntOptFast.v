(** * TDA's IntOpt, the fast version, machine-checked equal to the printed loop (hence valid and optimal).

    The fast version ([reference.tda.intopt.intopt]) skips the loop's full passes: with g(t) = sum_i max(-x_i, -t),
    a pass at level t that does not stop leaves every coordinate at its floor max(-x_i, -t), so the loop stops in
    the first pass P with g(t0 + P) <= D; the fast version starts that pass from z0 (P = 0) or from the floors at
    t0 + P - 1, and lowers the coordinates in the order of line 4, each by its gap to the floor, until the excess
    sum z - D is used up.  Here P is found by a linear search over 0 .. max(t0, max x) - t0 ([stop_pass]); the
    Python code finds the same smallest P by binary search (g does not increase), which is not modelled.

    Proved ([Print Assumptions] closed):
    - [intopt_fast_equals_loop]: for d >= 1, c >= 0 and every order, the printed loop (with the proved number of
      iterations) returns exactly the fast version's output;
    - [intopt_fast_valid], [intopt_fast_optimal]: hence the fast output is non-negative, sums to c, and is at
      minimal l-infinity distance from x. *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint intdiv.
From mathcomp Require Import zify.
From Reference Require Import ZifyOpaque.
From Reference Require Import IntOpt.
Import GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

(* [norm_nth] and [ilia] come from IntOpt (imported above). *)

(** The floors at level t, and g(t) = their sum. *)
Definition floors (x : seq int) (t : int) : seq int := [seq floor_at t xi | xi <- x].

(** P: the first p in 0 .. max(t0, max x) - t0 with g(t0 + p) <= D. *)
Definition stop_pass (x : seq int) (c : int) : nat :=
  let t0 := level (start x c) in
  find (fun p : nat => sumz (floors x (t0 + p%:Z)) <= deficit x c)
       (iota 0 (absz (Num.max t0 (max0 x) - t0)).+1).

(** The last pass as the fast version runs it: each coordinate, in [order], goes down by its gap to the floor
    at level t, until the excess is used up. *)
Fixpoint lower_pass (x : seq int) (t : int) (order : seq nat) (z : seq int) (excess : int) : seq int :=
  if order is k :: rest then
    let gap := nth 0 z k - floor_at t (nth 0 x k) in
    if excess <= gap then set_nth 0 z k (nth 0 z k - excess)
    else lower_pass x t rest (set_nth 0 z k (floor_at t (nth 0 x k))) (excess - gap)
  else z.

Definition intopt_fast_z (x : seq int) (c : int) (order : seq nat) : seq int :=
  let s0 := start x c in
  if sumz (zs s0) <= deficit x c then zs s0 else
  let P := stop_pass x c in
  let t := level s0 + P%:Z in
  let z := if P == 0%N then zs s0 else floors x (t - 1) in
  lower_pass x t order z (sumz z - deficit x c).

Definition intopt_fast (x : seq int) (c : int) (order : seq nat) : seq int :=
  [seq p.1 + p.2 | p <- zip x (intopt_fast_z x c order)].

(** ** Sums *)

Lemma sumz_big (s : seq int) : sumz s = \sum_(a <- s) a.
Proof. by elim: s => [|a s IH]; rewrite ?big_nil ?big_cons //= IH. Qed.

Lemma sumz_perm (s1 s2 : seq int) : perm_eq s1 s2 -> sumz s1 = sumz s2.
Proof. by move=> same; rewrite !sumz_big (perm_big _ same). Qed.

Lemma sumz_map_sub (T : Type) (f g : T -> int) (s : seq T) :
  sumz [seq f a - g a | a <- s] = sumz [seq f a | a <- s] - sumz [seq g a | a <- s].
Proof. by elim: s => [|a s IH] /=; ilia. Qed.

(** The gaps to the floors at level t of the coordinates in [rest]. *)
Definition gaps (x : seq int) (t : int) (z : seq int) (rest : seq nat) : int :=
  sumz [seq nth 0 z k - floor_at t (nth 0 x k) | k <- rest].

Lemma gaps_set_nth (x : seq int) (t : int) (z : seq int) (rest : seq nat) (k : nat) (v : int) : k \notin rest -> gaps x t (set_nth 0 z k v) rest = gaps x t z rest.
Proof.
move=> out; rewrite /gaps; congr sumz; apply/eq_in_map => m mem; rewrite nth_set_nth /=.
by case: eqP => // same; move: out; rewrite -same mem.
Qed.

Lemma gaps_ge0 (x : seq int) (t : int) (z : seq int) (rest : seq nat) :
  (forall m, m \in rest -> floor_at t (nth 0 x m) <= nth 0 z m) -> 0 <= gaps x t z rest.
Proof.
rewrite /gaps; elim: rest => [|m rest IH] above /=; first by ilia.
have head := above m (mem_head _ _).
have tail : 0 <= sumz [seq nth 0 z k - floor_at t (nth 0 x k) | k <- rest].
  by apply: IH => k mem; apply: above; rewrite inE mem orbT.
ilia.
Qed.

Section Passes.

Variables (x : seq int) (c : int) (order : seq nat).
Hypothesis nonempty : (0 < size x)%N.
Hypothesis permutation : perm_eq order (iota 0 (size x)).

Local Notation d := (size x).
Local Notation D := (deficit x c).
Local Notation step := (step x c order).

Lemma gaps_all t z : size z = d -> gaps x t z order = sumz z - sumz (floors x t).
Proof.
move=> size_z; rewrite /gaps (sumz_perm (perm_map _ permutation)) sumz_map_sub; congr (_ - _).
- by rewrite -[in RHS](mkseq_nth 0 z) size_z.
- by rewrite /floors -[in RHS](mkseq_nth 0 x) /mkseq -map_comp.
Qed.

Lemma drop_next j k rest : drop j order = k :: rest -> nth 0%N order j = k /\ drop j.+1 order = rest.
Proof.
move=> dropped; split; first by rewrite -[j]addn0 -nth_drop dropped.
by rewrite -addn1 addnC -drop_drop dropped /= drop0.
Qed.

Lemma drop_uniq j : uniq (drop j order).
Proof. by apply: drop_uniq; rewrite (perm_uniq permutation) iota_uniq. Qed.

Lemma drop_size j : (j <= d)%N -> (j + size (drop j order) = d)%N.
Proof. by rewrite size_drop (perm_size permutation) size_iota => le; rewrite subnKC. Qed.

Lemma drop_mem j k : k \in drop j order -> (k < d)%N.
Proof. by move=> /mem_drop; rewrite (perm_mem permutation) mem_iota add0n => /andP []. Qed.

(** The step at a coordinate whose gap the excess exceeds: it goes to its floor. *)
Lemma step_to_floor z j t (k : nat) :
  size z = d -> nth 0%N order j = k -> (k < d)%N ->
  floor_at t (nth 0 x k) <= nth 0 z k -> nth 0 z k - floor_at t (nth 0 x k) < sumz z - D ->
  zs (step (State z j t)) = set_nth 0 z k (floor_at t (nth 0 x k)).
Proof.
move=> size_z at_j lt above big; rewrite /= at_j; congr set_nth; rewrite /floor_at in above big *; ilia.
Qed.

(** A pass that does not stop: from position j at level t, if the excess exceeds the remaining gaps, the loop
    runs through the rest of the pass, sets every remaining coordinate to its floor, and starts the next pass. *)
Lemma full_pass t : forall rest j z,
  drop j order = rest -> (j < d)%N -> size z = d ->
  (forall i, (i < d)%N -> floor_at t (nth 0 x i) <= nth 0 z i) ->
  gaps x t z rest < sumz z - D ->
  (forall m, (m < size rest)%N -> running x c (iter m step (State z j t))) /\
  iter (size rest) step (State z j t) =
    State (foldl (fun z k => set_nth 0 z k (floor_at t (nth 0 x k))) z rest) 0 (t + 1).
Proof.
elim=> [|k rest IH] j z dropped lt size_z above big.
  by have := drop_size (ltnW lt); rewrite dropped /= addn0 => same; move: lt; rewrite same ltnn.
have [at_j next] := drop_next dropped.
have uniq_rest := drop_uniq j; rewrite dropped /= in uniq_rest; case/andP: uniq_rest => out uniq_rest.
have lt_k : (k < d)%N by apply: (drop_mem (j := j)); rewrite dropped mem_head.
have gap_k := above k lt_k.
have gaps_split : gaps x t z (k :: rest) = nth 0 z k - floor_at t (nth 0 x k) + gaps x t z rest by [].
have rest_ge : 0 <= gaps x t z rest.
  apply: gaps_ge0 => m mem; apply: above; apply: (drop_mem (j := j)).
  by rewrite dropped inE mem orbT.
have going : running x c (State z j t).
  by rewrite /running /= -subr_gt0 (Order.POrderTheory.le_lt_trans _ big) // gaps_split addr_ge0 ?subr_ge0.
set z' := set_nth 0 z k (floor_at t (nth 0 x k)).
have zs_step : zs (step (State z j t)) = z'.
  by apply: step_to_floor => //; apply: (Order.POrderTheory.le_lt_trans _ big); rewrite gaps_split ler_addl.
have sum' : sumz z' = sumz z - (nth 0 z k - floor_at t (nth 0 x k))
    by rewrite sumz_set_nth ?size_z // opprB addrA addrAC.
case: (ltnP j.+1 d) => [lt_next | last_pos].
- have step_is : step (State z j t) = State z' j.+1 t.
    by rewrite -zs_step /step /= modn_small // (negbTE (lt0n _)) //= at_j.
  have size' : size z' = d by rewrite size_set_nth size_z; apply/maxn_idPr.
  have above' : forall i, (i < d)%N -> floor_at t (nth 0 x i) <= nth 0 z' i.
    by move=> i lt_i; rewrite nth_set_nth /=; case: eqP => [->|_]; [exact: Order.POrderTheory.lexx | exact: above].
  have big' : gaps x t z' rest < sumz z' - D.
    by rewrite gaps_set_nth // sum' addrAC ltr_subr_addr addrC -gaps_split.
  have [running_rest iter_rest] := IH j.+1 z' next lt_next size' above' big'.
  split.
  + by case=> [|m] lt_m; [exact: going | rewrite iterSr step_is; apply: running_rest].
  + by rewrite iterSr step_is iter_rest.
- (* j + 1 = d: the last position of the pass, so [rest] is empty and the pass wraps to level t + 1 *)
  have full : j.+1 = d by apply/eqP; rewrite eqn_leq lt last_pos.
  have empty : rest = [::] by move: (drop_size (ltnW lt)); rewrite dropped /= -full => /eqP; rewrite addnS eqSS -{2}[j]addn0 eqn_add2l size_eq0 => /eqP.
  rewrite empty /=; split; first by case=> // _; exact: going.
  by rewrite -/z' -zs_step /step /= -full modnn /= at_j.
Qed.

(** The last pass: from position j at level t, if the loop runs and the remaining gaps cover the excess, the
    loop stops within the pass with the fast version's result. *)
Lemma last_pass t : forall rest j z fuel,
  drop j order = rest -> (j < d)%N -> size z = d ->
  (forall i, (i < d)%N -> floor_at t (nth 0 x i) <= nth 0 z i) ->
  running x c (State z j t) -> sumz z - D <= gaps x t z rest -> (size rest <= fuel)%N ->
  omap zs (run x c order fuel (State z j t)) = Some (lower_pass x t rest z (sumz z - D)).
Proof.
elim=> [|k rest IH] j z fuel dropped lt size_z above going enough fuel_ge.
  by move: going enough; rewrite /running /gaps /=; ilia.
have [at_j next] := drop_next dropped.
have uniq_rest := drop_uniq j; rewrite dropped /= in uniq_rest; case/andP: uniq_rest => out uniq_rest.
have lt_k : (k < d)%N by apply: (drop_mem (j := j)); rewrite dropped mem_head.
have gap_k := above k lt_k.
case: fuel fuel_ge => // fuel fuel_ge.
rewrite /= going /=.
case: (lerP (sumz z - D) (nth 0 z k - floor_at t (nth 0 x k))) => [covers | exceeds].
- (* the excess is used up at k: the loop stops with the same vector *)
  set z' := set_nth 0 z k (nth 0 z k - (sumz z - D)).
  have zs_step : zs (step (State z j t)) = z'.
    rewrite /= at_j; congr set_nth; rewrite -Order.TotalTheory.maxA Order.POrderTheory.max_l //.
    by move: covers; rewrite /floor_at ler_subr_addr addrC -ler_subr_addr.
  have stopped : ~~ running x c (step (State z j t)).
    by rewrite /running zs_step sumz_set_nth ?size_z // addrA subrK opprB addrC subrK Order.POrderTheory.ltxx.
  by case: fuel {fuel_ge} => [|fuel] /=; rewrite (negbTE stopped) -zs_step.
- have zs_step := step_to_floor size_z at_j lt_k gap_k exceeds.
  set z' := set_nth 0 z k (floor_at t (nth 0 x k)) in zs_step *.
  have sum' : sumz z' = sumz z - (nth 0 z k - floor_at t (nth 0 x k))
    by rewrite sumz_set_nth ?size_z // opprB addrA addrAC.
  have rest_cover : sumz z' - D <= gaps x t z' rest.
    by rewrite gaps_set_nth // sum' addrAC ler_subl_addl; move: enough; rewrite /gaps.
  have going' : running x c (State z' j.+1 t).
    by rewrite /running /= sum' ltr_subr_addr addrC -ltr_subr_addr.
  have lt_next : (j.+1 < d)%N.
    case: (ltnP j.+1 d) => // last_pos; have full : j.+1 = d by apply/eqP; rewrite eqn_leq lt last_pos.
    have := drop_size (ltnW lt); rewrite dropped /= -full addnS => /eqP; rewrite eqSS -{2}[j]addn0 eqn_add2l.
    rewrite size_eq0 => /eqP empty; move: rest_cover going'; rewrite empty /gaps /running /= sum' subr_le0 => le.
    by rewrite Order.TotalTheory.ltNge le.
  have step_is : step (State z j t) = State z' j.+1 t.
    by rewrite -zs_step /step /= modn_small // (negbTE (lt0n _)) //= at_j.
  have size' : size z' = d by rewrite size_set_nth size_z; apply/maxn_idPr.
  have above' : forall i, (i < d)%N -> floor_at t (nth 0 x i) <= nth 0 z' i.
    by move=> i lt_i; rewrite nth_set_nth /=; case: eqP => [->|_]; [exact: Order.POrderTheory.lexx | exact: above].
  rewrite step_is (IH j.+1 z' fuel next lt_next size' above' going' rest_cover fuel_ge) /=.
  by congr (Some (lower_pass _ _ _ _ _)); rewrite sum' addrAC.
Qed.

(** Setting every coordinate of [order] to its floor gives the floors. *)
Lemma nth_floor_all t z rest i :
  (forall k, k \in rest -> (k < size z)%N) ->
  nth 0 (foldl (fun z k => set_nth 0 z k (floor_at t (nth 0 x k))) z rest) i =
  if i \in rest then floor_at t (nth 0 x i) else nth 0 z i.
Proof.
elim: rest z => [|k rest IH] z inside //=.
have lt_k := inside k (mem_head _ _).
rewrite IH => [|m mem]; last by rewrite size_set_nth (maxn_idPr lt_k); apply: inside; rewrite inE mem orbT.
rewrite nth_set_nth /= inE; case: (i =P k) => [-> | _] /=; last by case: (i \in rest).
by case: (k \in rest).
Qed.

Lemma floor_all t z : size z = d ->
  foldl (fun z k => set_nth 0 z k (floor_at t (nth 0 x k))) z order = floors x t.
Proof.
move=> size_z.
have inside : forall k, k \in order -> (k < size z)%N by move=> k mem; rewrite size_z; apply: (drop_mem (j := 0)); rewrite drop0.
have size_all : forall rest z', (forall k, k \in rest -> (k < size z')%N) ->
    size (foldl (fun z k => set_nth 0 z k (floor_at t (nth 0 x k))) z' rest) = size z'.
  elim=> [|k rest IH] z' within //=; have lt_k := within k (mem_head _ _).
  have size' : size (set_nth 0 z' k (floor_at t (nth 0 x k))) = size z' by rewrite size_set_nth (maxn_idPr lt_k).
  rewrite IH; first by rewrite size'.
  by move=> m mem; rewrite size'; apply: within; rewrite inE mem orbT.
apply: (@eq_from_nth _ 0); first by rewrite size_all // size_map size_z.
move=> i; rewrite size_all // size_z => lt; rewrite nth_floor_all // (perm_mem permutation) mem_iota add0n lt.
by rewrite (nth_map 0).
Qed.

Local Notation t0 := (level (start x c)).
Local Notation z0 := (zs (start x c)).
Local Notation P := (stop_pass x c).

(** The state at the start of pass p. *)
Definition pass_start (p : nat) : state :=
  State (if p == 0%N then z0 else floors x (t0 + p%:Z - 1)) 0 (t0 + p%:Z).

Lemma pass_start0 : pass_start 0 = start x c.
Proof. by rewrite /pass_start /start /= addr0. Qed.

Lemma size_pass_start p : size (zs (pass_start p)) = d.
Proof. by rewrite /pass_start /=; case: (p == 0%N); rewrite size_map. Qed.

Lemma above_pass_start p :
  forall i, (i < d)%N -> floor_at (t0 + p%:Z) (nth 0 x i) <= nth 0 (zs (pass_start p)) i.
Proof.
move=> i lt; rewrite /pass_start /=; case: eqP => [-> | _].
- have := maxabs_ge (s := z_start x c) (i := i); rewrite size_map => /(_ lt).
  by rewrite /z_start (nth_map 0) // /floor_at; ilia.
- by rewrite /floors (nth_map 0) // /floor_at; ilia.
Qed.

(** P's defining facts: g(t0 + p) > D before it, g(t0 + P) <= D, and P <= max(t0, max x) - t0. *)
Lemma stop_pass_facts : 0 <= c ->
  [/\ (P <= absz (Num.max t0 (max0 x) - t0))%N,
      sumz (floors x (t0 + P%:Z)) <= D &
      forall p, (p < P)%N -> D < sumz (floors x (t0 + p%:Z))].
Proof.
move=> c_ge; set span := absz (Num.max t0 (max0 x) - t0).
set stops := fun p : nat => sumz (floors x (t0 + p%:Z)) <= D.
have found : has stops (iota 0 span.+1).
  apply/hasP; exists span; first by rewrite mem_iota add0n ltnSn.
  have [_ top] := top_radius x c_ge; rewrite /stops /floors.
  have -> : t0 + span%:Z = Num.max t0 (max0 x) by rewrite /span; ilia.
  exact: top.
have lt_find : (find stops (iota 0 span.+1) < span.+1)%N by have := found; rewrite has_find size_iota.
split.
- by rewrite -ltnS.
- by have := nth_find 0%N found; rewrite nth_iota.
- move=> p lt; have := before_find 0%N lt; rewrite nth_iota ?add0n; last exact: (ltn_trans lt).
  by rewrite /stops => /negbT; ilia.
Qed.

Lemma iter_passes : 0 <= c -> forall p, (p <= P)%N ->
  (forall k, (k < p * d)%N -> running x c (iter k step (start x c))) /\
  iter (p * d) step (start x c) = pass_start p.
Proof.
move=> c_ge; have [_ _ before] := stop_pass_facts c_ge.
elim=> [|p IH] le; first by rewrite pass_start0.
have [running_p iter_p] := IH (ltnW le).
have big : gaps x (t0 + p%:Z) (zs (pass_start p)) order < sumz (zs (pass_start p)) - D.
  by rewrite gaps_all ?size_pass_start //; have := before p le; ilia.
have [running_pass iter_pass] := full_pass (drop0 order) nonempty (size_pass_start p) (above_pass_start p) big.
rewrite (perm_size permutation) size_iota in running_pass iter_pass.
have pass_is : pass_start p = State (zs (pass_start p)) 0 (t0 + p%:Z) by [].
split.
- move=> k lt; case: (ltnP k (p * d)) => [early | late]; first exact: running_p.
  rewrite -(subnK late) iterD iter_p pass_is; apply: running_pass.
  by rewrite ltn_subLR // addnC -mulSn.
- rewrite mulSn iterD iter_p pass_is iter_pass floor_all ?size_pass_start // /pass_start /=.
  by congr State; [congr floors | ]; ilia.
Qed.

Lemma run_skip fuel n s :
  (forall k, (k < n)%N -> running x c (iter k step s)) -> (n <= fuel)%N ->
  run x c order fuel s = run x c order (fuel - n) (iter n step s).
Proof.
elim: n fuel s => [|n IH] fuel s before le; first by rewrite subn0.
case: fuel le => // fuel le; rewrite iterSr /= (before 0%N isT) subSS; apply: IH => // k lt.
by rewrite -iterSr; exact: (before k.+1).
Qed.

End Passes.

Lemma omap_output x (r : option state) :
  omap (output x) r = omap (fun z => [seq p.1 + p.2 | p <- zip x z]) (omap zs r).
Proof. by case: r. Qed.

(** ** The fast version is the printed loop *)
Theorem intopt_fast_equals_loop x c order :
  (0 < size x)%N -> perm_eq order (iota 0 (size x)) -> 0 <= c ->
  omap (output x) (run x c order (iteration_bound x c) (start x c)) = Some (intopt_fast x c order).
Proof.
move=> nonempty perm c_ge; rewrite omap_output /intopt_fast /intopt_fast_z.
case: ifP => [settled | unsettled].
  have stopped : running x c (start x c) = false by rewrite /running; ilia.
  by case: (iteration_bound x c) => [|fuel]; rewrite /= stopped.
have [le_span stops before] := stop_pass_facts nonempty perm c_ge.
have [running_P iter_P] := iter_passes nonempty perm c_ge (leqnn (stop_pass x c)).
set P := stop_pass x c in le_span stops before running_P iter_P *.
have fuel_ge : (P * size x + size x <= iteration_bound x c)%N.
  by rewrite /iteration_bound; move: le_span; set span := absz _; nia.
rewrite (run_skip running_P (leq_trans (leq_addr _ _) fuel_ge)) iter_P.
have going : running x c (pass_start x c P).
  rewrite /running /pass_start /=; case: eqP => [_ | nonzero]; first by move: unsettled => /=; ilia.
  have lt_pred : (P.-1 < P)%N by rewrite ltn_predL lt0n; apply/eqP.
  have := before P.-1 lt_pred.
  by have -> : level (start x c) + (P.-1)%:Z = maxabs (z_start x c) + P%:Z - 1 by rewrite /=; ilia.
have enough : sumz (zs (pass_start x c P)) - deficit x c <= gaps x (level (start x c) + P%:Z) (zs (pass_start x c P)) order.
  by rewrite gaps_all ?size_pass_start //; ilia.
have fuel_left : (size order <= iteration_bound x c - P * size x)%N.
  by rewrite (perm_size perm) size_iota leq_subRL // ?addnC // (leq_trans (leq_addr _ _) fuel_ge).
rewrite (last_pass nonempty perm (drop0 order) nonempty (size_pass_start x c P) (above_pass_start c nonempty perm P) going enough fuel_left).
by [].
Qed.

Theorem intopt_fast_valid x c order :
  (0 < size x)%N -> perm_eq order (iota 0 (size x)) -> 0 <= c ->
  [/\ size (intopt_fast x c order) = size x, all (fun v => 0 <= v) (intopt_fast x c order)
    & sumz (intopt_fast x c order) = c].
Proof.
move=> nonempty perm c_ge; have same := intopt_fast_equals_loop nonempty perm c_ge.
have [final ran] := intopt_terminates nonempty perm c_ge.
move: same; rewrite ran /= => [[<-]]; exact: intopt_output_valid ran.
Qed.

Theorem intopt_fast_optimal x c order y :
  (0 < size x)%N -> perm_eq order (iota 0 (size x)) -> 0 <= c ->
  size y = size x -> all (fun v => 0 <= v) y -> sumz y = c ->
  chebyshev x (intopt_fast x c order) <= chebyshev x y.
Proof.
move=> nonempty perm c_ge size_y y_ge sum_y; have same := intopt_fast_equals_loop nonempty perm c_ge.
have [final ran] := intopt_terminates nonempty perm c_ge.
move: same; rewrite ran /= => [[<-]]; exact: intopt_optimal ran size_y y_ge sum_y.
Qed.
