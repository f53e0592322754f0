(** * CIP Appendix E.5: the Monte Carlo range sampler draws every contiguous range with the same probability.

    The printed scheme, over the cells 0 .. n - 1: 1. flip a coin with P(heads) = 2/(n + 1); 2. if heads, choose
    one cell uniformly and return the range [c, c]; 3. if tails, choose two distinct cells uniformly (an unordered
    pair {a, b}, uniform among the n(n - 1)/2 pairs) and return [min(a, b), max(a, b)].
    [sample_range] writes these steps in a finite distribution monad: a distribution is a list of
    (outcome, probability) pairs ([coin], [uniform], [bind], [ret]); [prob d E] is the total weight of the outcomes
    in E.  The law of the output range is then computed, not assumed.

    Proved ([Print Assumptions] closed), over the rationals, for EVERY n >= 1:
    - [range_probability]: each range [i, j] with i <= j < n has probability exactly 2/(n(n + 1));
    - [probabilities_sum_to_one]: these probabilities, over the n(n + 1)/2 ranges ([range_count]), sum to 1, and the
      scheme's whole mass is 1 (so nothing but a range is ever returned).
    n = 1 is included: there is no pair of distinct cells ([uniform] of the empty list has no outcome), but
    P(heads) = 2/2 = 1, so the tails branch carries weight 0 and the single cell [0, 0] gets probability 1. *)
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq bigop ssralg ssrnum rat.
Import GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

(** A finite distribution: outcomes with their probabilities (an outcome may be listed more than once). *)
Definition dist (T : Type) := seq (T * rat).
Definition ret (T : Type) (x : T) : dist T := [:: (x, 1)].
(** Draw x from d, then from f x: every pair of draws, with the product of their probabilities. *)
Definition bind (A B : Type) (d : dist A) (f : A -> dist B) : dist B :=
  flatten [seq [seq (y.1, x.2 * y.2) | y <- f x.1] | x <- d].
Definition coin (heads : rat) : dist bool := [:: (true, heads); (false, 1 - heads)].
Definition uniform (T : Type) (xs : seq T) : dist T := [seq (x, (size xs)%:R^-1) | x <- xs].
(** P(E) under d.  A fold, so that Coq computes it. *)
Definition prob (T : Type) (d : dist T) (E : pred T) : rat :=
  foldr (fun x acc => (if E x.1 then x.2 else 0) + acc) 0 d.

(** The scheme's ingredients: the n cells, the unordered pairs of distinct cells (each listed once, as (a, b) with
    a < b), and the span of a pair. *)
Definition cells (n : nat) : seq nat := iota 0 n.
Definition pairs (n : nat) : seq (nat * nat) := [seq (a, b) | b <- iota 0 n, a <- iota 0 b].
Definition span (ab : nat * nat) : nat * nat := (minn ab.1 ab.2, maxn ab.1 ab.2).
Definition heads_probability (n : nat) : rat := 2%:R / n.+1%:R.

(** CIP Appendix E.5's sampler: the law of the range [first, last] it returns. *)
Definition sample_range (n : nat) : dist (nat * nat) :=
  bind (coin (heads_probability n)) (fun heads =>
    if heads then bind (uniform (cells n)) (fun c => ret (c, c))
    else bind (uniform (pairs n)) (fun ab => ret (span ab))).

(** Every contiguous range [i, j], 0 <= i <= j < n, listed once. *)
Definition ranges (n : nat) : seq (nat * nat) := [seq (i, j) | j <- iota 0 n, i <- iota 0 j.+1].

(** The monad's laws for [prob]. *)
Lemma prob_cat T (d1 d2 : dist T) E : prob (d1 ++ d2) E = prob d1 E + prob d2 E.
Proof. by elim: d1 => [|x d1 IH] /=; rewrite ?add0r // IH addrA. Qed.

Lemma prob_scale T (c : rat) (d : dist T) E : prob [seq (y.1, c * y.2) | y <- d] E = c * prob d E.
Proof. by elim: d => [|y d IH] /=; rewrite ?mulr0 // IH mulrDr; case: (E y.1); rewrite ?mulr0. Qed.

Lemma prob_bind A B (d : dist A) (f : A -> dist B) E :
  prob (bind d f) E = foldr (fun x acc => x.2 * prob (f x.1) E + acc) 0 d.
Proof. by elim: d => [|x d IH] //=; rewrite prob_cat prob_scale IH. Qed.

(** Choosing uniformly from xs, then applying g: P(E) = #{x in xs : g x in E} / #xs. *)
Lemma prob_uniform_map A B (xs : seq A) (g : A -> B) E :
  prob (bind (uniform xs) (fun x => ret (g x))) E = (count (fun x => E (g x)) xs)%:R / (size xs)%:R.
Proof.
rewrite prob_bind /uniform; move: (size xs)%:R^-1 => w.
elim: xs => [|x xs IH] /=; first by rewrite mul0r.
rewrite IH addr0 natrD mulrDl; case: (E (g x)); by rewrite /= ?mulr1n ?mulr1 ?mul1r ?mul0r ?mulr0 ?add0r.
Qed.

Lemma prob_sample_range n E :
  prob (sample_range n) E =
    heads_probability n * ((count (fun c => E (c, c)) (cells n))%:R / (size (cells n))%:R) +
    (1 - heads_probability n) * ((count (fun ab => E (span ab)) (pairs n))%:R / (size (pairs n))%:R).
Proof. by rewrite prob_bind /= !prob_uniform_map addr0. Qed.

(** Counting in a list [(y, x) | x <- s, y <- t x] with s and every t x duplicate-free. *)
Lemma count_pairs (s : seq nat) (t : nat -> seq nat) (x0 y0 : nat) :
  uniq s -> (forall x, uniq (t x)) ->
  count (pred1 (y0, x0)) [seq (y, x) | x <- s, y <- t x] = ((x0 \in s) && (y0 \in t x0)).
Proof.
move=> + uniq_t; elim: s => [|x s IH] //= /andP [x_new /IH {}IH].
rewrite count_cat IH count_map in_cons.
case: (eqVneq x x0) => [<-|ne] /=.
  rewrite (negbTE x_new) addn0 -count_uniq_mem //.
  by apply: eq_count => y /=; rewrite xpair_eqE eqxx andbT.
rewrite (@eq_count _ _ pred0) ?count_pred0 // => y /=.
by rewrite xpair_eqE (negbTE ne) andbF.
Qed.

Lemma double_sumn_iota n : ((sumn (iota 0 n)).*2 = n * n.-1)%N.
Proof.
elim: n => // n IH; rewrite -addn1 iotaD sumn_cat /= add0n addn0 doubleD IH addn1 /=.
by case: n {IH} => // m; rewrite /= -mul2n (mulnC m.+1 m) -mulnDl addn2.
Qed.

Lemma size_pairs n : ((size (pairs n)).*2 = n * n.-1)%N.
Proof.
rewrite size_allpairs_dep -double_sumn_iota; congr (_.*2); congr sumn.
by rewrite -{2}(map_id (iota 0 n)); apply: eq_map => b; rewrite size_iota.
Qed.

(** There are n(n + 1)/2 ranges. *)
Theorem range_count n : ((size (ranges n)).*2 = n * n.+1)%N.
Proof.
have -> : size (ranges n) = (size (pairs n) + n)%N.
  rewrite !size_allpairs_dep; elim: n => // n IH.
  by rewrite -addn1 !iotaD !map_cat !sumn_cat IH /= !size_iota !add0n !addn0 addn1.
rewrite doubleD size_pairs; case: n => // m.
by rewrite /= -mul2n (mulnC 2%N) -mulnDr addn2.
Qed.

Lemma mem_ranges n i j : ((i, j) \in ranges n) = (i <= j < n)%N.
Proof.
apply/allpairsPdep/idP => [[b [a [b_in a_in [-> ->]]]] | /andP [le_ij lt_j]].
  by move: b_in a_in; rewrite !mem_iota !add0n ltnS !leq0n /= => -> ->.
by exists j, i; rewrite !mem_iota !add0n ltnS !leq0n le_ij lt_j.
Qed.

(** A range's two counts: [c, c] for one cell c, and [a, b] (a < b) for exactly one pair. *)
Lemma count_cells n i j : (i <= j < n)%N ->
  count (fun c => pred1 (i, j) (c, c)) (cells n) = (i == j).
Proof.
case/andP=> _; case: (eqVneq i j) => [<- lt_i|ne _] /=.
  rewrite (@eq_count _ _ (pred1 i)) => [|c /=]; last by rewrite xpair_eqE andbb.
  by rewrite count_uniq_mem ?iota_uniq // mem_iota add0n lt_i.
rewrite (@eq_count _ _ pred0) ?count_pred0 // => c /=; rewrite xpair_eqE.
by apply/andP => -[/eqP ci /eqP cj]; rewrite -ci -cj eqxx in ne.
Qed.

Lemma count_spans n i j : (i <= j < n)%N ->
  count (fun ab => pred1 (i, j) (span ab)) (pairs n) = (i < j)%N.
Proof.
move=> /andP [le_ij lt_j].
have -> : count (fun ab => pred1 (i, j) (span ab)) (pairs n) = count (pred1 (i, j)) (pairs n).
  apply: eq_in_count => -[a b] /allpairsPdep [b' [a' [_ /=]]]; rewrite mem_iota add0n => lt_ab [-> ->].
  by rewrite /span /= (minn_idPl (ltnW lt_ab)) (maxn_idPr (ltnW lt_ab)).
rewrite count_pairs; [|exact: iota_uniq|by move=> x; exact: iota_uniq].
by rewrite !mem_iota !add0n !leq0n lt_j.
Qed.

Lemma nat_neq0 (m : nat) : (m.+1%:R : rat) != 0.
Proof. by rewrite pnatr_eq0. Qed.

(** CIP Appendix E.5: every range [i, j] of the n cells is returned with probability 2/(n(n + 1)). *)
Theorem range_probability n i j :
  (i <= j < n)%N -> prob (sample_range n) (pred1 (i, j)) = 2%:R / (n * n.+1)%:R.
Proof.
move=> range; rewrite prob_sample_range count_cells // count_spans // size_iota /heads_probability.
case/andP: range => le_ij lt_j; case: (ltnP i j) => [lt_ij | ge_ij].
  have two_le_n : (1 < n)%N := leq_ltn_trans (leq_ltn_trans (leq0n i) lt_ij) lt_j.
  rewrite ltn_eqF //; case: n {lt_j} two_le_n => [|[|m]] // _.
  have double_S : ((size (pairs m.+2)).*2 = m.+2 * m.+1)%N := size_pairs m.+2.
  set S := size (pairs _) in double_S *.
  have -> : S%:R = ((m.+2 * m.+1)%:R / 2%:R : rat) by rewrite -double_S -mul2n natrM mulrAC mulfV ?mul1r.
  rewrite mulr0n mulr1n mul0r mulr0 add0r mul1r.
  have -> : 1 - 2%:R / m.+3%:R = m.+1%:R / m.+3%:R :> rat.
    by rewrite -{1}(divff (nat_neq0 m.+2)) -mulrBl -natrB.
  rewrite invf_div !natrM invfM mulrA -(mulrA _ _ 2%:R) (mulrC _ 2%:R) mulrA -mulrA -mulrA.
  by rewrite mulrCA (mulrCA m.+1%:R) mulfV ?nat_neq0 // mulr1 invfM -mulrA (mulrC m.+3%:R^-1).
have -> : i = j by apply/eqP; rewrite eqn_leq le_ij ge_ij.
rewrite eqxx; case: n lt_j => [|m] // _.
rewrite mulr0n mulr1n mul0r mulr0 addr0 mul1r natrM invfM mulrA; exact: mulrAC.
Qed.

(** The probabilities of the n(n + 1)/2 ranges sum to 1, and so does the scheme's whole mass: for n = 1 too,
    where there is no pair of distinct cells and the coin shows heads with probability 2/2 = 1. *)
Theorem probabilities_sum_to_one n : (0 < n)%N ->
  \sum_(r <- ranges n) prob (sample_range n) (pred1 r) = 1 /\ prob (sample_range n) predT = 1.
Proof.
case: n => [|m] // _; split.
  rewrite (eq_big_seq (fun _ => 2%:R / (m.+1 * m.+2)%:R)) => [|[i j]]; last first.
    by rewrite mem_ranges => /range_probability.
  have count_ranges : (size (ranges m.+1))%:R * 2%:R = (m.+1 * m.+2)%:R :> rat.
    by rewrite -natrM muln2 range_count.
  rewrite big_const_seq count_predT iter_addr_0 -mulr_natr mulrAC (mulrC 2%:R) count_ranges.
  by rewrite mulfV // natrM mulf_neq0 ?nat_neq0.
rewrite prob_sample_range /cells !count_predT size_iota mulfV ?nat_neq0 // mulr1.
case: m => [|m]; first by rewrite /heads_probability mulfV ?nat_neq0 // subrr mul0r addr0.
have S_neq0 : (size (pairs m.+2))%:R != 0 :> rat by rewrite pnatr_eq0 -double_eq0 size_pairs.
by rewrite mulfV // mulr1 addrC subrK.
Qed.
