(** * KARY Theorem 1.1: the digit count of Algorithm 2 at every horizon, machine-checked.

    KARY = Andersson, Pagh, Steiner, Torkamani, "Count on Your Elders: Laplace vs Gaussian Noise".
    For odd arity k = 2m + 1 >= 3, Algorithm 2 at height h adds |t_l| noise values at 0-based level l for output
    t (t_l its level-l offset digit, Definition 3.8: [digits_of] with top digit m), so with Laplace(h/ε) noise
    ε²·MSE = (1/T) Σ_(t=1..T) 2h² ‖rep(t, h)‖₁ = 2h² S(T)/T, S(T) = Σ_(t=1..T) ‖rep(t, h)‖₁ ([digit_sum]).
    Write F = Σ_(a=-m..m) |a| = m(m + 1) ([window_l1]).  Proved ([Print Assumptions] closed), for every odd
    k >= 3, every height h and every horizon T (no bound T <= (k^h - 1)/2 is needed for the first two):
    - [digit_count_level]: for each level l < h, |k Σ_(t=1..T) |t_l| - F T| <= k F k^l, i.e. the level's digit
      total is within F k^l of F T/k.  Route: t_l = ((t + m R_(l+1)) div k^l mod k) - m (R_n = 1 + k + ... +
      k^(n-1), [nth_rep]), a function of t of period k^(l+1) whose total over one period is k^l F
      ([level_block]); T consecutive terms are q full periods and a partial one ([periodic_count]);
    - [digit_count_all_levels]: (k - 1)|k S(T) - h F T| <= k F (k^h - 1) (the levels summed, Σ_l k^l = R_h);
    - [digit_count_at_height]: at Algorithm 2's height (h minimal with T <= (k^h - 1)/2, [height] of
      KaryHeight.v, so k^(h-1) <= 2T) and T >= 1: |k S(T) - h F T| <= k²(m + 1) T;
    - [theorem_1_1_error]: the same in Theorem 1.1's form, in the rationals:
      |2h² S(T)/T - (k² - 1)h³/(2k)| <= 2k(m + 1)h².  The algebra: k² - 1 = 4F, so
      2h² S(T)/T - (k² - 1)h³/(2k) = 2h² S(T)/T - 2h³F/k = (2h²/(kT)) (k S(T) - h F T), whose absolute value is
      at most (2h²/(kT)) k²(m + 1) T = 2k(m + 1)h².
    Outside Coq: that 2h² S(T)/T is ε²·MSE (independent Laplace(h/ε) noise values, variance 2(h/ε)² each: the
    proof program reference_verification.kary.proofs.theorem_1_1 and the Python digit programme) and the
    asymptotic steps 4-5 of that program: log_k(2T) < h < log_k(2T) + 1, so
    (k² - 1)h³/(2k) = k(1 - 1/k²) log(T)³/(2 log(k)³) + O(log(T)²). *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint rat intdiv zify ring.
From Reference Require Import ZifyOpaque.
From Reference Require Import KaryDigits KaryHeight KaryUsedVertices.
Import GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

(** |x - y| on the naturals (the digits below are shifted to naturals: |t_l| = |r - m| with r in [0, k)). *)
Definition distance (x y : nat) : nat := (x - y) + (y - x).

(** ** Sums of a periodic function of naturals over T consecutive arguments. *)
Section Periodic.
Variables (g : nat -> nat) (period : nat).
Hypothesis period_pos : 0 < period.
Hypothesis periodic : forall x, g (x + period) = g x.

(** g(a) + g(a + 1) + ... + g(a + n - 1). *)
Definition run (a n : nat) : nat := \sum_(i < n) g (a + i).

Lemma run_split a n1 n2 : run a (n1 + n2) = run a n1 + run (a + n1) n2.
Proof. by rewrite /run big_split_ord /=; congr (_ + _); apply: eq_bigr => i _; rewrite addnA. Qed.

Lemma block_shift a : run a period = run 0 period.
Proof.
elim: a => [|a IH] //; rewrite -IH /run.
case: period period_pos periodic => [|p] // _ per.
rewrite big_ord_recr big_ord_recl /= addn0.
have -> : a.+1 + p = a + p.+1 by rewrite addSnnS.
rewrite per addnC; congr (_ + _); apply: eq_bigr => i _; by rewrite addSnnS.
Qed.

Lemma run_partial a r : r <= period -> run a r <= run a period.
Proof. by move=> le; rewrite -(subnKC le) run_split leq_addr. Qed.

(** With A the total over one period P: P·run(a, T) and A·T differ by at most P·A (T = qP + r: q whole periods,
    then r < P terms whose total lies in [0, A]). *)
Lemma periodic_count a n :
  period * run a n <= run 0 period * n + period * run 0 period /\
  run 0 period * n <= period * run a n + period * run 0 period.
Proof.
set A := run 0 period.
rewrite (divn_eq n period); set r := n %% period; have lt_r : r < period by rewrite ltn_mod.
elim: (n %/ period) a => [|q IH] a.
  rewrite mul0n add0n; have := run_partial a (ltnW lt_r); rewrite block_shift -/A => le; split; nia.
rewrite mulSn -addnA run_split block_shift -/A; have [IH1 IH2] := IH (a + period); split; nia.
Qed.
End Periodic.

(** ** The level-l digit of t >= 0 (digit window [-c, k - 1 - c]): the standard digit of t + c R_(l+1), minus c. *)
Lemma nth_rep arity c height l x :
  (0 < arity)%N -> (l < height)%N ->
  nth 0%R (rep arity%:Z (- c%:Z) height x%:Z) l =
    ((((x + c * units arity l.+1) %/ arity ^ l) %% arity)%N%:Z - c%:Z)%R.
Proof.
move=> pos; elim: l height x => [|l IH] [|h] x // lt.
  by rewrite /= muln0 addn0 muln1 expn0 divn1 opprK -PoszD modz_nat addrC.
rewrite [rep _ _ _ _]/= [nth _ _ _]/= opprK -PoszD divz_nat IH //.
rewrite expnS divnMA; congr (Posz (_ %/ _ %% _) - _)%R.
rewrite [units _ l.+2]/= -[1 + arity * units arity l]/(units arity l.+1).
have -> : x + c * (1 + arity * units arity l.+1) = c * units arity l.+1 * arity + (x + c) by nia.
by rewrite divnMDl // addnC.
Qed.

(** Each value of i div w occurs w times among i < n w. *)
Lemma sum_levels (f : nat -> nat) n width :
  \sum_(i < n * width) f (i %/ width) = width * \sum_(r < n) f r.
Proof.
elim: n => [|n IH]; first by rewrite mul0n !big_ord0 muln0.
rewrite mulSnr big_split_ord IH big_ord_recr /= mulnDr; congr (_ + _).
have -> : \sum_(i < width) f ((rshift (n * width) i) %/ width) = \sum_(i < width) f n.
  apply: eq_bigr => i _ /=; have pos := leq_ltn_trans (leq0n i) (ltn_ord i).
  by rewrite divnMDl // divn_small ?addn0.
by rewrite sum_nat_const card_ord.
Qed.

(** F: the window of 2n + 1 digits around its centre has Σ|d| = n(n + 1). *)
Lemma window_mass a n : \sum_(i < (2 * n).+1) distance (a + i) (a + n) = n * n.+1.
Proof.
elim: n a => [|n IH] a; first by rewrite big_ord_recl big_ord0 /distance /=; lia.
rewrite mulnS !addSn big_ord_recl big_ord_recr /=.
have -> : \sum_(i < (2 * n).+1) distance (a + bump 0 (widen_ord (leqnSn _) i)) (a + n.+1) =
          \sum_(i < (2 * n).+1) distance (a.+1 + i) (a.+1 + n).
  by apply: eq_bigr => i _; rewrite /distance /bump /=; lia.
rewrite (IH a.+1) /distance /bump /=; lia.
Qed.

Definition window_l1 (arity : nat) : nat := arity %/ 2 * (arity %/ 2).+1.

(** The level-l digit total and S(T) over t = 1..T at height [height] (as lists, so that Coq evaluates them). *)
Definition level_sum (arity height l horizon : nat) : nat :=
  sumn [seq absz (nth 0%R (digits_of arity (arity %/ 2) height t) l) | t <- iota 1 horizon].

Definition digit_sum (arity height horizon : nat) : nat :=
  sumn [seq sumn (map absz (digits_of arity (arity %/ 2) height t)) | t <- iota 1 horizon].

Lemma level_sum_big arity height l horizon :
  level_sum arity height l horizon = \sum_(1 <= t < horizon.+1) absz (nth 0%R (digits_of arity (arity %/ 2) height t) l).
Proof. by rewrite /level_sum sumnE big_map /index_iota subn1. Qed.

Lemma digit_sum_big arity height horizon :
  digit_sum arity height horizon =
  \sum_(1 <= t < horizon.+1) \sum_(d <- digits_of arity (arity %/ 2) height t) absz d.
Proof.
rewrite /digit_sum sumnE big_map /index_iota subn1; apply: eq_bigr => t _.
by rewrite sumnE big_map.
Qed.

Section OddArity.
Variable arity : nat.
Hypothesis three : 3 <= arity.
Hypothesis odd_arity : odd arity.

Let half := arity %/ 2.
Lemma arity_half : arity = (2 * half).+1.
Proof. by rewrite /half; have := odd_double_half arity; rewrite odd_arity -divn2 /=; lia. Qed.

Lemma low_half : low_digit arity half = (- half%:Z)%R.
Proof. by rewrite /low_digit {1}arity_half; lia. Qed.

(** |level-l offset digit of y - shift| as a function of the integer y = t + shift. *)
Definition level_digit (l y : nat) : nat := distance (y %/ arity ^ l %% arity) half.

Lemma level_sum_run height l horizon :
  l < height -> level_sum arity height l horizon = run (level_digit l) (half * units arity l.+1).+1 horizon.
Proof.
move=> lt; rewrite level_sum_big /run big_add1 -[horizon.+1.-1]/horizon big_mkord.
apply: eq_bigr => i _; rewrite /digits_of low_half nth_rep //; last by lia.
rewrite /level_digit /distance addSnnS addnC; move: (_ %% arity) => digit; clear -digit; lia.
Qed.

Lemma arity_pow_pos l : 0 < arity ^ l.
Proof. by rewrite expn_gt0; apply/orP; left; lia. Qed.

Lemma level_digit_periodic l y : level_digit l (y + arity * arity ^ l) = level_digit l y.
Proof. by rewrite /level_digit divnDMl ?arity_pow_pos // modnDr. Qed.

(** One period, k^(l+1) consecutive integers, holds each digit value k^l times: its total is k^l F. *)
Lemma level_block l : run (level_digit l) 0 (arity * arity ^ l) = arity ^ l * window_l1 arity.
Proof.
have -> : run (level_digit l) 0 (arity * arity ^ l) = \sum_(i < arity * arity ^ l) distance (i %/ arity ^ l %% arity) half.
  by apply: eq_bigr => i _; rewrite add0n.
rewrite (sum_levels (fun r => distance (r %% arity) half)); congr (_ * _).
rewrite (eq_bigr (fun r : 'I_arity => distance (0 + r) (0 + half))); last by move=> r _; rewrite modn_small ?add0n.
by rewrite /window_l1 -/half arity_half window_mass.
Qed.

Lemma level_bound height l horizon : l < height ->
  arity * level_sum arity height l horizon <= window_l1 arity * horizon + arity * window_l1 arity * arity ^ l /\
  window_l1 arity * horizon <= arity * level_sum arity height l horizon + arity * window_l1 arity * arity ^ l.
Proof.
move=> lt; rewrite level_sum_run //.
have period_pos : 0 < arity * arity ^ l by rewrite muln_gt0 arity_pow_pos; lia.
have [] := periodic_count period_pos (@level_digit_periodic l) (half * units arity l.+1).+1 horizon.
rewrite level_block; set S := run _ _ _; have w_pos := arity_pow_pos l; set w := arity ^ l in w_pos *.
move=> low high; split; rewrite -(leq_pmul2l w_pos); nia.
Qed.

Lemma units_sum n : units arity n = \sum_(l < n) arity ^ l.
Proof.
elim: n => [|n IH]; first by rewrite big_ord0.
by rewrite big_ord_recl /= IH big_distrr /=; congr (_ + _); apply: eq_bigr => i _; rewrite expnS.
Qed.

Lemma digit_sum_levels height horizon :
  digit_sum arity height horizon = \sum_(l < height) level_sum arity height l horizon.
Proof.
rewrite digit_sum_big (eq_bigr _ (fun (l : 'I_height) _ => level_sum_big arity height l horizon)).
rewrite (eq_bigr (fun t => \sum_(l < height) absz (nth 0%R (digits_of arity (arity %/ 2) height t) l)));
  last by move=> t _; rewrite (big_nth 0%R) /digits_of rep_size big_mkord.
exact: exchange_big.
Qed.


Lemma all_levels_bound height horizon :
  arity * digit_sum arity height horizon <= height * window_l1 arity * horizon + arity * window_l1 arity * units arity height /\
  height * window_l1 arity * horizon <= arity * digit_sum arity height horizon + arity * window_l1 arity * units arity height.
Proof.
rewrite digit_sum_levels units_sum !big_distrr /=.
have <- : \sum_(l < height) (window_l1 arity * horizon) = height * window_l1 arity * horizon.
  by rewrite sum_nat_const card_ord mulnA.
rewrite -!big_split /=; split; apply: leq_sum => l _; have [lo hi] := level_bound horizon (ltn_ord l).
- exact: lo.
- exact: hi.
Qed.
End OddArity.

Local Open Scope ring_scope.

Theorem digit_count_level arity height l horizon :
  (3 <= arity)%N -> odd arity -> (l < height)%N ->
  `|(arity * level_sum arity height l horizon)%:Z - (window_l1 arity * horizon)%:Z|
    <= (arity * window_l1 arity * arity ^ l)%:Z.
Proof. by move=> three odd_k lt; have [lo hi] := level_bound three odd_k horizon lt; lia. Qed.

Theorem digit_count_all_levels arity height horizon :
  (3 <= arity)%N -> odd arity ->
  (arity - 1)%:Z * `|(arity * digit_sum arity height horizon)%:Z - (height * window_l1 arity * horizon)%:Z|
    <= (arity * window_l1 arity * (arity ^ height - 1))%:Z.
Proof.
move=> three odd_k; have [lo hi] := all_levels_bound three odd_k height horizon.
have geo : ((arity - 1) * units arity height = arity ^ height - 1)%N by rewrite !subn1 units_geometric.
rewrite -geo.
set S := digit_sum _ _ _ in lo hi *; set U := units _ _ in lo hi geo *; set F := window_l1 _ in lo hi *.
have levels : `|(arity * S)%:Z - (height * F * horizon)%:Z| <= (arity * F * U)%:Z by lia.
apply: (Order.POrderTheory.le_trans (ler_wpmul2l (le0z_nat (arity - 1)) levels)).
by rewrite -PoszM lez_nat mulnCA.
Qed.

Theorem digit_count_at_height arity horizon :
  (3 <= arity)%N -> odd arity -> (0 < horizon)%N ->
  `|(arity * digit_sum arity (height arity (arity %/ 2) horizon) horizon)%:Z
    - (height arity (arity %/ 2) horizon * window_l1 arity * horizon)%:Z|
    <= (arity ^ 2 * (arity %/ 2).+1 * horizon)%:Z.
Proof.
move=> three odd_k pos_T; set h := height arity (arity %/ 2) horizon.
have pos_k : (0 < arity)%N := ltnW (ltnW three).
have top_pos : (0 < arity %/ 2)%N by rewrite divn_gt0 //; exact: ltnW three.
have [pos_h _ _] := height_is_least horizon pos_k top_pos.
have tight := height_is_tight pos_k top_pos pos_T.
have cap := offset_capacity_odd (height arity (arity %/ 2) horizon).-1 odd_k.
have all := digit_count_all_levels h horizon three odd_k.
rewrite -/h in pos_h tight cap.
(* minimality of h: (k^(h-1) - 1)/2 < T, so P = k^(h-1) <= 2T and k^h - 1 < k (2T) *)
have P_le : (arity ^ h.-1 <= 2 * horizon)%N by clear -tight cap; lia.
have pow_h : (arity ^ h = arity * arity ^ h.-1)%N by rewrite -expnS prednK.
have k_eq := arity_half three odd_k.
have bound : (arity * window_l1 arity * (arity ^ h - 1) <= (arity - 1) * (arity ^ 2 * (arity %/ 2).+1 * horizon))%N.
  rewrite pow_h; set P := (arity ^ h.-1)%N in P_le *.
  apply: (@leq_trans (arity * window_l1 arity * (arity * (2 * horizon)))%N).
    by rewrite leq_mul2l; apply/orP; right; apply: (leq_trans (leq_subr 1 _)); rewrite leq_mul2l P_le orbT.
  have F2 : (window_l1 arity * 2 = (arity - 1) * (arity %/ 2).+1)%N.
    by rewrite /window_l1; set m := arity %/ 2 in k_eq *; rewrite {1}k_eq; clear -k_eq; lia.
  apply: eq_leq; rewrite -mulnn.
  have -> : (arity * window_l1 arity * (arity * (2 * horizon)) =
             arity * arity * horizon * (window_l1 arity * 2))%N.
    by move: (window_l1 arity) => F; clear -F; lia.
  by rewrite F2; clear -three; lia.
have k1_pos : 0 < (arity - 1)%:Z by rewrite ltz_nat subn_gt0; exact: ltnW three.
rewrite -(ler_pmul2l k1_pos); apply: (Order.POrderTheory.le_trans all); rewrite -PoszM lez_nat.
exact: bound.
Qed.

(** ** Theorem 1.1's error bound: with ε²·MSE = 2h² S(T)/T (Laplace(h/ε) noise, 2(h/ε)² per noise value),
    |ε²·MSE - (k² - 1)h³/(2k)| <= 2k(m + 1)h², in the rationals. *)
Theorem theorem_1_1_error arity horizon :
  (3 <= arity)%N -> odd arity -> (0 < horizon)%N ->
  `|((2 * height arity (arity %/ 2) horizon ^ 2 * digit_sum arity (height arity (arity %/ 2) horizon) horizon)%:R
      / horizon%:R
    - ((arity ^ 2 - 1) * height arity (arity %/ 2) horizon ^ 3)%:R / (2 * arity)%:R : rat)|
    <= (2 * arity * (arity %/ 2).+1 * height arity (arity %/ 2) horizon ^ 2)%:R.
Proof.
move=> three odd_k pos_T.
have count := digit_count_at_height three odd_k pos_T.
set h := height _ _ _ in count *; set S := digit_sum _ _ _ in count *.
set F := window_l1 arity in count; set m := (arity %/ 2) in count *.
have k_eq : arity = (2 * m).+1 by rewrite /m; have := odd_double_half arity; rewrite odd_k -divn2 /=; lia.
have four : (arity ^ 2 - 1 = 4 * F)%N by rewrite /F /window_l1 -/m k_eq; clear -k_eq; lia.
have D_le : `|(arity * S)%:R - (h * F * horizon)%:R : rat| <= (arity ^ 2 * m.+1 * horizon)%:R.
  by move: count; rewrite -(ler_int rat_numDomainType) intr_norm rmorphB /=.
have k0 : (arity%:R : rat) != 0 by rewrite pnatr_eq0 -lt0n (ltnW (ltnW three)).
have T0 : (horizon%:R : rat) != 0 by rewrite pnatr_eq0 -lt0n pos_T.
have -> : (2 * h ^ 2 * S)%:R / horizon%:R - ((arity ^ 2 - 1) * h ^ 3)%:R / (2 * arity)%:R =
          (2 * h ^ 2)%:R / (arity * horizon)%:R * ((arity * S)%:R - (h * F * horizon)%:R) :> rat.
  by rewrite four !natrM; field; rewrite T0 k0.
rewrite normrM ger0_norm ?divr_ge0 ?ler0n //.
apply: (Order.POrderTheory.le_trans (ler_wpmul2l (divr_ge0 (ler0n _ _) (ler0n _ _)) D_le)).
rewrite Order.POrderTheory.le_eqVlt; apply/orP; left; apply/eqP.
by rewrite !natrM; field; rewrite T0 k0.
Qed.
