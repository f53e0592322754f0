(** * KARY Algorithm 2: its noise indices, Algorithm 3's signed vertices, lifetimes, space and updates.

    Algorithm 2 (lines 6-13) walks the offset digits of t from the most significant one with a position p
    (starting at 0): at 0-based level l (weight w = k^l) it repeats |t_l| times p <- p + sgn(t_l) w and adds
    the noise value z_p.  Algorithm 3 walks the same digits over the same positions and adds (digit > 0) or
    subtracts (digit < 0) the noisy count of a vertex ([walk_ms] of KaryUsedVertices).  The Python
    [algorithm_2_noise_indices] and [algorithm_3_signed_vertices] are these walks.

    Proved ([Print Assumptions] closed), for every arity k >= 2, every digit window [top - k + 1, top] with
    0 < top < k (top = k/2 rounded down: Definition 3.8 for odd k, C.1 for even k), every height and horizon:
    - [proposition_4_3]: one signed relabelling maps Algorithm 3's noise to Algorithm 2's, the same for every
      output: vertex v is always added or always subtracted ([added_vertex] v, whatever the output), output t of
      Algorithm 2 adds z_(noise_index v) for exactly the vertices v that output t of Algorithm 3 uses, in the
      same order, and [noise_index] is injective on the vertices the walks use.  So both algorithms apply the
      same linear map to i.i.d. noise up to a signed permutation of its coordinates; with symmetric noise
      (Laplace) the output laws are equal (that last, probabilistic step is not in Coq).
    - [proposition_4_10]: the times 0 <= t <= capacity that use a noise value (or a vertex) form an interval:
      if t1 <= t <= t2 and t1, t2 use it, t uses it.
    - [lemma_4_12]: at every time t <= T the noise values alive (used at some time <= t and some time >= t, with
      times 1 .. T) are among those t uses, so there are at most h * top of them: h (k - 1)/2 for odd k.
    - [lemma_4_14]: kept up to date from one time to the next (add the new values, drop the unused ones), the
      noise sum of times 1 .. T makes at most 2 D updates, D the number of distinct values used: each value is
      added once and removed at most once. *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint intdiv.
From mathcomp Require Import zify ring.
From Reference Require Import ZifyOpaque.
From Reference Require Import KaryDigits KaryHeight KaryUsedVertices.
Import GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

(** Algorithm 2's noise indices for the digits [ms] (most significant first) from position p. *)
Fixpoint indices_ms (arity : nat) (ms : seq int) (p : int) : seq int :=
  if ms is d :: rest then
    let w := (arity ^ size rest)%:Z in
    [seq (if 0 <= d then p + (i.+1)%:Z * w else p - (i.+1)%:Z * w) | i <- iota 0 `|d|]
      ++ indices_ms arity rest (p + d * w)
  else [::].

(** Algorithm 3's signed vertices: (true, v) adds the noisy count of v, (false, v) subtracts it. *)
Fixpoint signed_walk_ms (arity : nat) (ms : seq int) (p : int) : seq (bool * vertex) :=
  if ms is d :: rest then
    let w := (arity ^ size rest)%:Z in
    [seq (0 <= d, step_vertex (size rest) w p d i) | i <- iota 0 `|d|] ++ signed_walk_ms arity rest (p + d * w)
  else [::].

Definition noise_indices (arity top height t : nat) : seq int :=
  indices_ms arity (rev (digits_of arity top height t)) 0.

Definition signed_vertices_of (arity top height t : nat) : seq (bool * vertex) :=
  signed_walk_ms arity (rev (digits_of arity top height t)) 0.

(** The sign of a vertex (level l, index j) of any walk: added iff j mod k < top. *)
Definition added_vertex (arity top : nat) (v : vertex) : bool := ((v.2 %% arity%:Z)%Z < top%:Z).

(** The noise index Algorithm 2 uses where Algorithm 3 uses vertex v = (l, j) (width w = k^(l-1)): the right end
    (j + 1) w of an added vertex, one less than the left end, j w, of a subtracted one. *)
Definition noise_index (arity top : nat) (v : vertex) : int :=
  let w := (arity ^ v.1.-1)%:Z in if added_vertex arity top v then (v.2 + 1) * w else v.2 * w.

Section Walks.
Variables arity top : nat.
Hypothesis two : (2 <= arity)%N.
Hypothesis top_pos : (0 < top)%N.
Hypothesis top_lt : (top < arity)%N.

Let low := low_digit arity top.
Let k := arity%:Z.

Lemma k_pos : 0 < k. Proof. rewrite /k; lia. Qed.
Lemma k_neq0 : k != 0. Proof. rewrite /k; lia. Qed.

Lemma pow_pos n : 0 < (arity ^ n)%:Z.
Proof. by rewrite ltz_nat expn_gt0; apply/orP; left; lia. Qed.

Lemma pow_succ n : (arity ^ n.+1)%:Z = k * (arity ^ n)%:Z.
Proof. by rewrite expnS PoszM. Qed.

Lemma pow_cast n : k ^+ n = (arity ^ n)%:Z.
Proof. by elim: n => [|n IH] //; rewrite exprS IH pow_succ. Qed.

(** One digit's steps: (l, j) with j mod k < top are added at the index (j + 1) w, the others are subtracted at
    j w, and j mod k is never top. *)
Lemma step_facts n c d i :
  in_window k low d -> (i < `|d|)%N ->
  let v := step_vertex n (arity ^ n)%:Z (c * k * (arity ^ n)%:Z) d i in
  [/\ added_vertex arity top v = (0 <= d), (v.2 %% k)%Z != top%:Z &
      noise_index arity top v =
        (if 0 <= d then c * k * (arity ^ n)%:Z + (i.+1)%:Z * (arity ^ n)%:Z
         else c * k * (arity ^ n)%:Z - (i.+1)%:Z * (arity ^ n)%:Z)].
Proof.
rewrite /in_window /low /low_digit -/k => /andP [lo hi] lt_i /=.
have w_neq0 : (arity ^ n)%:Z != 0 := lt0r_neq0 (pow_pos n).
set w := (arity ^ n)%:Z in w_neq0 *.
rewrite /step_vertex /noise_index /added_vertex /=.
have kpos := k_pos.
case: (boolP (0 <= d)) => nonneg /=.
- have -> : ((c * k * w + i%:Z * w) %/ w)%Z = c * k + i%:Z by rewrite -mulrDl mulzK.
  have mod_i : ((c * k + i%:Z) %% k)%Z = i%:Z.
    rewrite modzMDl modz_small //; apply/andP; split; first by [].
    by rewrite /k; lia.
  rewrite mod_i.
  have i_top : i%:Z < top%:Z by lia.
  rewrite i_top; split => //; first by lia.
  rewrite -mulrDl; congr (_ * _); lia.
- have -> : ((c * k * w - i%:Z * w) %/ w)%Z - 1 = (c - 1) * k + (k - i%:Z - 1).
    rewrite -mulrBl mulzK //; lia.
  have mod_i : (((c - 1) * k + (k - i%:Z - 1)) %% k)%Z = k - i%:Z - 1.
    by rewrite modzMDl modz_small //; apply/andP; split; lia.
  rewrite mod_i.
  have not_top : (k - i%:Z - 1 < top%:Z) = false by rewrite /k; lia.
  rewrite not_top; split => //; first by rewrite /k; lia.
  have -> : (c - 1) * k + (k - i%:Z - 1) = c * k - i.+1%:Z by rewrite /k; lia.
  by rewrite mulrBl.
Qed.

(** The walks of any digits in the window, from a position that is a multiple of k^(number of digits). *)
Lemma walks_agree ms c :
  all (in_window k low) ms ->
  let p := c * (arity ^ size ms)%:Z in
  [/\ signed_walk_ms arity ms p = [seq (added_vertex arity top v, v) | v <- walk_ms arity ms p],
      indices_ms arity ms p = map (noise_index arity top) (walk_ms arity ms p) &
      all (fun v : vertex => (v.2 %% k)%Z != top%:Z) (walk_ms arity ms p)].
Proof.
elim: ms c => [|d rest IH] c //=.
move=> /andP [win all_rest].
set w := (arity ^ size rest)%:Z.
have p_eq : c * (arity ^ (size rest).+1)%:Z = c * k * w by rewrite pow_succ mulrA.
rewrite p_eq.
have [sw iw aw] := IH (c * k + d) all_rest.
have next : c * k * w + d * w = (c * k + d) * w by rewrite mulrDl.
rewrite next sw iw; split.
- rewrite map_cat -map_comp; congr (_ ++ _); apply/eq_in_map => i; rewrite mem_iota add0n => lt_i /=.
  by have [-> _ _] := step_facts (size rest) c win lt_i.
- rewrite map_cat -map_comp; congr (_ ++ _); apply/eq_in_map => i; rewrite mem_iota add0n => lt_i /=.
  by have [_ _ ->] := step_facts (size rest) c win lt_i.
- rewrite all_cat aw andbT; apply/allP => v /mapP [i]; rewrite mem_iota add0n => lt_i ->.
  by have [_ -> _] := step_facts (size rest) c win lt_i.
Qed.

Lemma digits_in_window height t : all (in_window k low) (digits_of arity top height t).
Proof.
rewrite /digits_of; elim: height t%:Z => [|h IH] x //=; rewrite IH andbT /in_window.
have := ltz_mod (x - low) k_neq0; have := modz_ge0 (x - low) k_neq0.
rewrite /k /low /low_digit; lia.
Qed.

Lemma walks_agree_at height t :
  [/\ signed_vertices_of arity top height t =
        [seq (added_vertex arity top v, v) | v <- vertices_of arity top height t],
      noise_indices arity top height t = map (noise_index arity top) (vertices_of arity top height t) &
      all (fun v : vertex => (v.2 %% k)%Z != top%:Z) (vertices_of arity top height t)].
Proof.
have := @walks_agree (rev (digits_of arity top height t)) 0.
by rewrite all_rev digits_in_window mul0r => /(_ isT).
Qed.

(** The noise index of a used vertex determines the vertex. *)
Lemma noise_index_inj (v1 v2 : vertex) :
  (0 < v1.1)%N -> (0 < v2.1)%N -> (v1.2 %% k)%Z != top%:Z -> (v2.2 %% k)%Z != top%:Z ->
  noise_index arity top v1 = noise_index arity top v2 -> v1 = v2.
Proof.
case: v1 v2 => [l1 j1] [l2 j2] /= pos1 pos2 ne1 ne2.
rewrite /noise_index /added_vertex /= -/k.
have factor : forall (b : bool) (x y w : int), (if b then x * w else y * w) = (if b then x else y) * w.
  by move=> [].
rewrite !factor.
set m1 := (if _ then j1 + 1 else j1); set m2 := (if _ then j2 + 1 else j2).
have kpos := k_pos.
(* m mod k lies in [1, top] for an added vertex and in [top + 1, k - 1] for a subtracted one *)
have mod_m : forall j : int, (j %% k)%Z != top%:Z ->
    let m := if ((j %% k)%Z < top%:Z) then j + 1 else j in
    [/\ (m %% k)%Z != 0, ((m %% k)%Z <= top%:Z) = ((j %% k)%Z < top%:Z) & j = m - (((j %% k)%Z < top%:Z) : int)].
  move=> j ne m; have ge := modz_ge0 j k_neq0; have lt := ltz_mod j k_neq0.
  have top_k : top%:Z < k by rewrite /k ltz_nat top_lt.
  rewrite /m; case: ifP => small /=.
  (* [lia] sees only the bounds on j mod k: the outer context's other remainders cost it a second per call *)
  - have -> : ((j + 1) %% k)%Z = (j %% k)%Z + 1.
      by rewrite -modzDml modz_small //; apply/andP; split; clear -ne ge lt small top_k; lia.
    by split; clear -ne ge lt small top_k; lia.
  - by split; clear -ne ge lt small top_k; lia.
have [nz1 type1 j1_eq] := mod_m j1 ne1; have [nz2 type2 j2_eq] := mod_m j2 ne2.
rewrite -/m1 -/m2 in nz1 type1 j1_eq nz2 type2 j2_eq.
(* m k^a = m' k^b with k dividing neither m nor m' forces a = b *)
have no_shift : forall (m m' : int) (a b : nat), (m %% k)%Z != 0 -> (a < b)%N ->
    m * (arity ^ a)%:Z != m' * (arity ^ b)%:Z.
  move=> m m' a b nz lt; apply/eqP => eq.
  have : m = m' * (arity ^ (b - a).-1)%:Z * k.
    have pa : (arity ^ a)%:Z != 0 := lt0r_neq0 (pow_pos a).
    apply: (mulIf pa).
    (* the exponents only: lia on the whole context (modz facts, products) took a minute of CPU *)
    rewrite eq -!mulrA; congr (_ * _); rewrite -pow_succ -PoszM -expnD; congr (Posz (_ ^ _)); clear -lt; lia.
  by move=> m_eq; move: nz; rewrite m_eq modzMl eqxx.
move=> eq.
have same_level : l1 = l2.
  case: (ltngtP l1.-1 l2.-1) => [lt | lt | same]; last by rewrite -(prednK pos1) -(prednK pos2) same.
  - by move: (no_shift m1 m2 _ _ nz1 lt); rewrite eq eqxx.
  - by move: (no_shift m2 m1 _ _ nz2 lt); rewrite eq eqxx.
have pw_neq0 : (arity ^ l2.-1)%:Z != 0 := lt0r_neq0 (pow_pos l2.-1).
move: eq; rewrite same_level => /(mulIf pw_neq0) same_m.
have same_j : j1 = j2 by rewrite j1_eq j2_eq -type1 -type2 same_m.
by rewrite same_j.
Qed.

(** ** The positions of the walks, as functions of t. *)

(** t with its n lowest digits removed: the integer the digits above level n denote. *)
Fixpoint upper (n : nat) (t : int) : int := if n is m.+1 then ((upper m t - low) %/ k)%Z else t.

Definition digit (n : nat) (t : int) : int := low + ((upper n t - low) %% k)%Z.

Lemma upper_shift n t : upper n.+1 t = upper n ((t - low) %/ k)%Z.
Proof. by elim: n => [|n IH] //=; rewrite -IH. Qed.

Lemma upper_digit n t : upper n t = k * upper n.+1 t + digit n t.
Proof.
rewrite /digit /=; have := divz_eq (upper n t - low) k.
set q := (_ %/ _)%Z; set r := (_ %% _)%Z; set u := upper n t; lia.
Qed.

(** The digits of width n + 1 are those of width n and one more on top. *)
Lemma rep_rcons n t : rep k low n.+1 t = rcons (rep k low n t) (digit n t).
Proof.
elim: n t => [|n IH] t; first by [].
have -> : rep k low n.+2 t = (low + ((t - low) %% k)%Z) :: rep k low n.+1 ((t - low) %/ k)%Z by [].
have -> : rep k low n.+1 t = (low + ((t - low) %% k)%Z) :: rep k low n ((t - low) %/ k)%Z by [].
by rewrite IH rcons_cons /digit upper_shift.
Qed.

Lemma value_rep n t : value k (rep k low n t) = t - (arity ^ n)%:Z * upper n t.
Proof.
elim: n => [|n IH]; first by rewrite /= expn0 mul1r; lia.
rewrite rep_rcons value_rcons rep_size IH pow_cast (upper_digit n t) pow_succ; ring.
Qed.

(** Inside the range of the width-n digits nothing is left above them. *)
Lemma upper_in_range n (t : nat) : (t <= capacity arity top n)%N -> upper n t%:Z = 0.
Proof.
move=> fits; have two' : 2 <= k by rewrite /k lez_nat.
have [_ val] := rep_spec two' (window_range two top_pos top_lt fits).
have e := value_rep n t%:Z; rewrite val in e.
have : (arity ^ n)%:Z * upper n t%:Z == 0 by apply/eqP; move: e; set x := _ * _; lia.
rewrite mulf_eq0 => /orP [/eqP w0 | /eqP //].
by have := pow_pos n; rewrite w0.
Qed.

Lemma upper_mono n t1 t2 : t1 <= t2 -> upper n t1 <= upper n t2.
Proof.
elim: n => [|n IH] //= le; have := IH le; set a := upper n t1; set b := upper n t2 => ab.
rewrite lez_divRL; last exact: k_pos.
have := divz_eq (a - low) k; have := modz_ge0 (a - low) k_neq0; lia.
Qed.

(** j lies between the positions b and a of a walk at width w: between them when walking up, or down. *)
Definition in_steps (w b a j : int) : bool := ((b <= j * w) && (j * w < a)) || ((a <= j * w) && (j * w < b)).

Lemma step_mem n c d (v : vertex) :
  let w := (arity ^ n)%:Z in
  (v \in [seq step_vertex n w (c * w) d i | i <- iota 0 `|d|]) = (v.1 == n.+1) && in_steps w (c * w) (c * w + d * w) v.2.
Proof.
move=> w; have wpos : 0 < w by exact: pow_pos.
have w_neq0 : w != 0 by lia.
rewrite /in_steps -mulrDl !ler_pmul2r // !ltr_pmul2r //.
case: v => [l j] /=; apply/idP/idP.
- move=> /mapP [i]; rewrite mem_iota add0n /step_vertex => lt_i; case: ifP => nonneg [-> ->].
  + by rewrite -mulrDl mulzK // eqxx /=; lia.
  + by rewrite -mulrBl mulzK // eqxx /=; lia.
- move=> /andP [/eqP -> range]; apply/mapP; rewrite /step_vertex.
  case: (boolP (0 <= d)) => nonneg.
  + pose e := j - c; exists (absz e); first by rewrite mem_iota add0n /e; lia.
    by rewrite -mulrDl mulzK //; congr (_, _); rewrite /e; lia.
  + pose e := c - j - 1; exists (absz e); first by rewrite mem_iota add0n /e; lia.
    by rewrite -mulrBl mulzK //; congr (_, _); rewrite /e; lia.
Qed.

(** A vertex (l, j) is on the walk of the width-n digits of t from p = c k^n iff 1 <= l <= n and j k^(l-1) lies
    between the positions before and after level l. *)
Lemma walk_mem n t c (v : vertex) :
  (v \in walk_ms arity (rev (rep k low n t)) (c * (arity ^ n)%:Z)) =
  (0 < v.1 <= n)%N &&
  in_steps (arity ^ v.1.-1)%:Z (c * (arity ^ n)%:Z + (arity ^ v.1)%:Z * upper v.1 t - (arity ^ n)%:Z * upper n t)
    (c * (arity ^ n)%:Z + (arity ^ v.1.-1)%:Z * upper v.1.-1 t - (arity ^ n)%:Z * upper n t) v.2.
Proof.
elim: n c => [|n IH] c; first by rewrite /= in_nil; case: v => [[|l] j] /=; rewrite ?andbF.
rewrite rep_rcons rev_rcons /= size_rev rep_size mem_cat.
have p_eq : c * (arity ^ n.+1)%:Z = (c * k) * (arity ^ n)%:Z by rewrite pow_succ mulrA.
have next : c * k * (arity ^ n)%:Z + digit n t * (arity ^ n)%:Z = (c * k + digit n t) * (arity ^ n)%:Z.
  by rewrite mulrDl.
rewrite p_eq step_mem next IH.
clear IH; case: v => [l j]; cbn [fst snd].
have [lt | gt | ->] := ltngtP l n.+1.
- rewrite ltnS in lt; rewrite andFb orFb lt andbT.
  case: (0 < l)%N; last by [].
  rewrite !andTb; congr in_steps; rewrite -[((upper n t - low) %/ k)%Z]/(upper n.+1 t) pow_succ (upper_digit n t); ring.
- have -> : (l <= n)%N = false by rewrite leqNgt (ltnW gt).
  by rewrite andFb orFb !andbF.
- rewrite ?ltnn ?andbF ?andFb ?orbF ?ltn0Sn ?leqnn ?andTb ?eqxx -[n.+1.-1]/n.
  by congr in_steps; rewrite -[((upper n t - low) %/ k)%Z]/(upper n.+1 t) ?pow_succ ?(upper_digit n t); ring.
Qed.

Lemma vertices_mem height (t : nat) (v : vertex) :
  (t <= capacity arity top height)%N ->
  (v \in vertices_of arity top height t) =
  (0 < v.1 <= height)%N && in_steps (arity ^ v.1.-1)%:Z ((arity ^ v.1)%:Z * upper v.1 t) ((arity ^ v.1.-1)%:Z * upper v.1.-1 t) v.2.
Proof.
move=> fits; rewrite /vertices_of /digits_of -/low -/k.
have := walk_mem height t%:Z 0 v; rewrite mul0r => ->.
by rewrite (upper_in_range fits) mulr0 !subr0 !add0r.
Qed.

(** ** Proposition 4.10 for vertices: the times that use a vertex form an interval. *)
Lemma vertex_interval height (t1 t t2 : nat) (v : vertex) :
  (t1 <= t <= t2)%N -> (t2 <= capacity arity top height)%N ->
  v \in vertices_of arity top height t1 -> v \in vertices_of arity top height t2 ->
  v \in vertices_of arity top height t.
Proof.
move=> /andP [le1 le2] fits.
have fits0 : (t <= capacity arity top height)%N := leq_trans le2 fits.
have fits1 : (t1 <= capacity arity top height)%N := leq_trans le1 fits0.
rewrite !vertices_mem // => /andP [lv in1] /andP [_ in2]; rewrite lv /=.
move: in1 in2; rewrite /in_steps.
set w := (arity ^ v.1.-1)%:Z; set W := (arity ^ v.1)%:Z.
have Wpos : 0 <= W := Order.POrderTheory.ltW (pow_pos v.1).
have wpos : 0 <= w := Order.POrderTheory.ltW (pow_pos v.1.-1).
have B1 : W * upper v.1 t1%:Z <= W * upper v.1 t%:Z by rewrite ler_wpmul2l // upper_mono // lez_nat.
have B2 : W * upper v.1 t%:Z <= W * upper v.1 t2%:Z by rewrite ler_wpmul2l // upper_mono // lez_nat.
have A1 : w * upper v.1.-1 t1%:Z <= w * upper v.1.-1 t%:Z by rewrite ler_wpmul2l // upper_mono // lez_nat.
have A2 : w * upper v.1.-1 t%:Z <= w * upper v.1.-1 t2%:Z by rewrite ler_wpmul2l // upper_mono // lez_nat.
move: B1 B2 A1 A2; set b1 := W * _; set b := W * _; set b2 := W * _.
set a1 := w * _; set a := w * _; set a2 := w * _; set x := v.2 * w.
(* the products as atoms: their definitions would only give [lia] more to read *)
clearbody w W b1 b b2 a1 a a2 x; lia.
Qed.

(** Time 0 has only zero digits, so it uses no noise value. *)
Lemma rep_zero n : rep k low n 0 = nseq n 0.
Proof.
have low_range : 0 <= - low < k by rewrite /low /low_digit /k; lia.
elim: n => [|n IH] //=; rewrite add0r modz_small // (_ : ((- low) %/ k)%Z = 0) ?IH; last first.
  by rewrite divz_small.
by rewrite addrN.
Qed.

Lemma indices_at_zero height : noise_indices arity top height 0 = [::].
Proof.
rewrite /noise_indices /digits_of rep_zero rev_nseq.
have zeros : forall n p, indices_ms arity (nseq n 0) p = [::].
  by move=> n; elim: n => [|n IH] p //=; rewrite ?mul0r ?addr0 IH.
exact: zeros.
Qed.

End Walks.

(** ** Proposition 4.3: one signed relabelling of the noise, the same for every output. *)
Theorem proposition_4_3 arity top height t :
  (2 <= arity)%N -> (0 < top < arity)%N ->
  [/\ signed_vertices_of arity top height t =
        [seq (added_vertex arity top v, v) | v <- vertices_of arity top height t],
      noise_indices arity top height t = map (noise_index arity top) (vertices_of arity top height t) &
      forall t' v v', v \in vertices_of arity top height t -> v' \in vertices_of arity top height t' ->
        noise_index arity top v = noise_index arity top v' -> v = v'].
Proof.
move=> two /andP [top_pos top_lt].
have [signs indices mods] := walks_agree_at two top_pos top_lt height t.
split=> // t' v v' walked walked'.
have [_ _ mods'] := walks_agree_at two top_pos top_lt height t'.
apply: noise_index_inj => //.
- by have /andP [] := walk_levels walked.
- by have /andP [] := walk_levels walked'.
- exact: (allP mods).
- exact: (allP mods').
Qed.

(** ** Proposition 4.10: the times that use a noise value form an interval. *)
Theorem proposition_4_10 arity top height (t1 t t2 : nat) q :
  (2 <= arity)%N -> (0 < top < arity)%N -> (t1 <= t <= t2)%N -> (t2 <= capacity arity top height)%N ->
  q \in noise_indices arity top height t1 -> q \in noise_indices arity top height t2 ->
  q \in noise_indices arity top height t.
Proof.
move=> two top_range between fits.
have [_ indices1 inj] := proposition_4_3 height t1 two top_range.
have [_ indices2 _] := proposition_4_3 height t2 two top_range.
have [_ indices _] := proposition_4_3 height t two top_range.
rewrite indices1 indices2 indices => /mapP [v walked1 ->] /mapP [v' walked2 same].
have e := inj _ _ _ walked1 walked2 same; subst v'.
move: top_range => /andP [top_pos top_lt].
by apply: map_f; apply: (vertex_interval two top_pos top_lt between fits).
Qed.

(** ** Lemma 4.12: the noise values alive at time t are among those t uses: at most h * top of them. *)
Definition uses (arity top height : nat) (q : int) (s : nat) : bool := q \in noise_indices arity top height s.

Definition used_indices (arity top height horizon : nat) : seq int :=
  undup (flatten [seq noise_indices arity top height s | s <- iota 1 horizon]).

(** Alive at t: used at some time in 1 .. t and at some time in t .. T (first use <= t <= last use). *)
Definition live (arity top height horizon t : nat) : seq int :=
  [seq q <- used_indices arity top height horizon
   | has (uses arity top height q) (iota 1 t) && has (uses arity top height q) (iota t (horizon - t).+1)].

Lemma size_indices arity top ms p :
  (arity <= 2 * top + 1)%N -> all (in_window arity%:Z (low_digit arity top)) ms ->
  (size (indices_ms arity ms p) <= size ms * top)%N.
Proof.
move=> half; elim: ms p => [|d rest IH] p //= /andP [win all_rest].
rewrite size_cat size_map size_iota mulSn leq_add ?IH //.
by move: win; rewrite /in_window /low_digit; lia.
Qed.

Theorem live_bound arity top height horizon t :
  (2 <= arity)%N -> (0 < top < arity)%N -> (arity <= 2 * top + 1)%N ->
  (horizon <= capacity arity top height)%N -> (1 <= t <= horizon)%N ->
  (size (live arity top height horizon t) <= height * top)%N.
Proof.
move=> two top_range half fits /andP [pos_t le_t].
have sub : {subset live arity top height horizon t <= undup (noise_indices arity top height t)}.
  move=> q; rewrite mem_filter mem_undup => /andP [/andP [/hasP [t1 in1 use1] /hasP [t2 in2 use2]] _].
  move: in1 in2; rewrite !mem_iota => range1 range2.
  apply: (proposition_4_10 (t1 := t1) (t2 := t2) two top_range) => //; lia.
apply: (leq_trans (uniq_leq_size _ sub)); first by rewrite filter_uniq // undup_uniq.
apply: (leq_trans (size_undup _)).
move: top_range => /andP [top_pos top_lt].
have win : all (in_window arity%:Z (low_digit arity top)) (rev (digits_of arity top height t)).
  by rewrite all_rev; exact: (digits_in_window two top_pos top_lt).
have := size_indices 0 half win.
by rewrite size_rev /digits_of rep_size.
Qed.

(** For odd k (Definition 3.8's digits, top = (k - 1)/2) at Algorithm 2's height h(T): at most h(k - 1)/2. *)
Corollary lemma_4_12 arity horizon t :
  (3 <= arity)%N -> odd arity -> (1 <= t <= horizon)%N ->
  (2 * size (live arity (arity %/ 2) (height arity (arity %/ 2) horizon) horizon t)
     <= height arity (arity %/ 2) horizon * (arity - 1))%N.
Proof.
move=> three odd_k range.
have pos_k : (0 < arity)%N by lia.
have top_pos : (0 < arity %/ 2)%N by rewrite divn_gt0 //; lia.
have [_ fits _] := height_is_least horizon pos_k top_pos.
have k_eq : (arity = 2 * (arity %/ 2) + 1)%N.
  by have := odd_double_half arity; rewrite odd_k divn2 -muln2 /=; lia.
have -> : (arity - 1 = 2 * (arity %/ 2))%N by lia.
rewrite mulnCA leq_pmul2l //; apply: live_bound => //; try lia.
Qed.

(** ** Lemma 4.14: kept up to date, the noise sum of times 1 .. T makes at most 2 D updates. *)
Definition added_at (arity top height t : nat) : seq int :=
  [seq q <- undup (noise_indices arity top height t) | q \notin noise_indices arity top height t.-1].

(** The values used at time t - 1 and not at t (removed from the sum before output t; time 0 uses none). *)
Definition removed_at (arity top height t : nat) : seq int :=
  [seq q <- undup (noise_indices arity top height t.-1) | q \notin noise_indices arity top height t].

Definition updates (arity top height horizon : nat) : nat :=
  sumn [seq (size (added_at arity top height t) + size (removed_at arity top height t))%N | t <- iota 1 horizon].

(** Lists that never share an element at two different times concatenate to a duplicate-free list. *)
Lemma flatten_uniq (f : nat -> seq int) (ts : seq nat) :
  uniq ts -> (forall t, uniq (f t)) ->
  {in ts &, forall t t' q, q \in f t -> q \in f t' -> t = t'} -> uniq (flatten (map f ts)).
Proof.
elim: ts => [|t ts IH] //= /andP [fresh uniq_ts] uniq_f once.
have once' : {in ts &, forall a b q, q \in f a -> q \in f b -> a = b}.
  by move=> a b ina inb; apply: once; rewrite in_cons ?ina ?inb orbT.
rewrite cat_uniq uniq_f (IH uniq_ts uniq_f once') andbT /=.
apply/negP => /hasP [q /flattenP [s /mapP [t' in' ->] in_t'] in_t].
have same : t = t'.
  by apply: (once t t' _ _ q in_t in_t'); rewrite in_cons ?eqxx ?in' ?orbT.
by move: fresh; rewrite same in'.
Qed.

Lemma sum_shift (f : nat -> nat) m n :
  (sumn [seq f t | t <- iota m n] + f (m + n) = f m + sumn [seq f t.+1 | t <- iota m n])%N.
Proof.
elim: n m => [|n IH] m /=; first by rewrite ?addn0 ?add0n.
by have := IH m.+1; rewrite addSnnS; lia.
Qed.

Theorem lemma_4_14 arity top height horizon :
  (2 <= arity)%N -> (0 < top < arity)%N -> (horizon <= capacity arity top height)%N ->
  (updates arity top height horizon <= 2 * size (used_indices arity top height horizon))%N.
Proof.
move=> two top_range fits.
have [top_pos top_lt] := andP top_range.
have interval := fun t1 t t2 q (r : (t1 <= t <= t2)%N) (le2 : (t2 <= horizon)%N) =>
  @proposition_4_10 arity top height t1 t t2 q two top_range r (leq_trans le2 fits).
(* the side conditions of [interval] below, as lemmas rather than [lia] over this proof's large context *)
have pred_between : forall a b, (a < b)%N -> (a <= b.-1 <= b)%N.
  by move=> a b ab; rewrite leq_pred andbT -ltnS prednK // (leq_ltn_trans (leq0n a) ab).
have step_between : forall a b, (a < b)%N -> (a <= a.+1 <= b)%N by move=> a b ab; rewrite leqnSn ab.
have upto : forall a, (0 < a < 1 + horizon)%N -> (a <= horizon)%N by move=> a /andP [_]; rewrite add1n ltnS.
(* the additions, and the removals, of all times are duplicate-free lists of used values *)
have bound : forall f : nat -> seq int,
    (forall t, uniq (f t)) -> (forall t, {subset f t <= noise_indices arity top height t}) ->
    {in iota 1 horizon &, forall t t' q, q \in f t -> q \in f t' -> t = t'} ->
    (size (flatten (map f (iota 1 horizon))) <= size (used_indices arity top height horizon))%N.
  move=> f uniq_f sub once; apply: uniq_leq_size; first by apply: flatten_uniq; rewrite ?iota_uniq.
  move=> q /flattenP [s /mapP [t in_t ->] in_s]; rewrite mem_undup; apply/flattenP.
  by exists (noise_indices arity top height t); [apply: map_f | apply: sub].
have adds := bound (added_at arity top height) (fun t => filter_uniq _ (undup_uniq _)).
have removes := bound (fun t => removed_at arity top height t.+1) (fun t => filter_uniq _ (undup_uniq _)).
have sub_a : forall t, {subset added_at arity top height t <= noise_indices arity top height t}.
  by move=> t q; rewrite mem_filter mem_undup => /andP [].
have sub_r : forall t, {subset removed_at arity top height t.+1 <= noise_indices arity top height t}.
  by move=> t q; rewrite mem_filter mem_undup => /andP [].
have once_a : {in iota 1 horizon &, forall t t' q,
    q \in added_at arity top height t -> q \in added_at arity top height t' -> t = t'}.
  move=> t t'; rewrite !mem_iota => r r' q; rewrite !mem_filter !mem_undup => /andP [new used] /andP [new' used'].
  case: (ltngtP t t') => [lt | lt | //].
  - by move: new'; rewrite (interval t t'.-1 t' q (pred_between _ _ lt) (upto _ r')).
  - by move: new; rewrite (interval t' t.-1 t q (pred_between _ _ lt) (upto _ r)).
have once_r : {in iota 1 horizon &, forall t t' q,
    q \in removed_at arity top height t.+1 -> q \in removed_at arity top height t'.+1 -> t = t'}.
  move=> t t'; rewrite !mem_iota => r r' q; rewrite !mem_filter !mem_undup => /andP [gone used] /andP [gone' used'].
  case: (ltngtP t t') => [lt | lt | //].
  - by move: gone; rewrite (interval t t.+1 t' q (step_between _ _ lt) (upto _ r')).
  - by move: gone'; rewrite (interval t' t'.+1 t q (step_between _ _ lt) (upto _ r)).
(* removals before times 1 .. T are those before 2 .. T + 1 but for the last, and there are none before 1 *)
have first_r : removed_at arity top height 1 = [::].
  by rewrite /removed_at /= (indices_at_zero two top_pos top_lt).
have := leq_add (adds sub_a once_a) (removes sub_r once_r).
rewrite !size_flatten /shape -!map_comp mul2n -addnn.
apply: leq_trans; rewrite /updates.
have shift : (sumn [seq size (removed_at arity top height t) | t <- iota 1 horizon] <=
             sumn [seq size (removed_at arity top height t.+1) | t <- iota 1 horizon])%N.
  have := sum_shift (fun t => size (removed_at arity top height t)) 1 horizon.
  by rewrite /= first_r add0n => <-; rewrite leq_addr.
apply: (leq_trans _ (leq_add (leqnn _) shift)).
by elim: (iota 1 horizon) => [|t ts IH] //=; lia.
Qed.
