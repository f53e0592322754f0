(** * KARY digits: standard and offset base-[arity] representations, machine-checked.

    KARY = Andersson, Pagh, Steiner, Torkamani, "Count on Your Elders: Laplace vs Gaussian Noise".
    Digit vectors are lists of integers, least significant digit first: [value arity s] is
    sum_i s_i * arity^i.  Every digit set of the paper is a window of [arity] consecutive integers
    [low, low + arity - 1]:
    - Definition 3.2 (standard digits):        low = 0;
    - Definition 3.8 (offset digits, odd k):   low = -(k - 1)/2;
    - Definition C.1 (offset digits, even k):  low = -k/2 + 1.
    The general theorem ([window_representation]) says that for every window and every width the
    representable integers are exactly [low * R_w, (low + k - 1) * R_w] (R_w = 1 + k + ... + k^(w-1)),
    each with exactly one digit vector, and [rep] computes it.  The three definitions are its instances. *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint intdiv.
From mathcomp Require Import zify.
From Reference Require Import ZifyOpaque.
Import GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

(** R_w = 1 + k + ... + k^(w-1), by Horner's rule. *)
Fixpoint repunit (arity : int) (width : nat) : int :=
  if width is w.+1 then 1 + arity * repunit arity w else 0.

(** The integer a digit vector denotes (least significant digit first). *)
Fixpoint value (arity : int) (s : seq int) : int :=
  if s is d :: rest then d + arity * value arity rest else 0.

(** A digit of the window [low, low + arity - 1]. *)
Definition in_window (arity low d : int) : bool := (low <= d) && (d <= low + arity - 1).

(** The digits of [t]: each digit is [t] reduced modulo [arity] into the window, then the rest is divided. *)
Fixpoint rep (arity low : int) (width : nat) (t : int) : seq int :=
  if width is w.+1 then (low + (t - low) %% arity)%Z :: rep arity low w ((t - low) %/ arity)%Z
  else [::].

Definition valid (arity low : int) (width : nat) (s : seq int) : Prop :=
  size s = width /\ all (in_window arity low) s.

Lemma repunit_ge0 arity width : 0 <= arity -> 0 <= repunit arity width.
Proof. move=> pos; elim: width => [|w IH] //=; nia. Qed.

(** (k - 1) R_w = k^w - 1. *)
Lemma repunit_geometric arity width : (arity - 1) * repunit arity width = arity ^+ width - 1.
Proof.
elim: width => [|w IH] /=; first by rewrite expr0 mulr0 subrr.
rewrite exprS mulrDr mulr1 mulrCA IH; lia.
Qed.

(** Every valid vector denotes an integer of the window's range. *)
Lemma value_range arity low s :
  2 <= arity -> all (in_window arity low) s ->
  low * repunit arity (size s) <= value arity s <= (low + arity - 1) * repunit arity (size s).
Proof.
move=> two; elim: s => [|d s IH] /=; first by rewrite !mulr0; lia.
rewrite /in_window => /andP [/andP [lo hi] /IH {IH}].
set v := value arity s; set r := repunit arity (size s) => /andP [lov hiv].
have hk : 0 <= arity by lia.
have lk : arity * (low * r) <= arity * v by rewrite ler_wpmul2l.
have hk2 : arity * v <= arity * ((low + arity - 1) * r) by rewrite ler_wpmul2l.
nia.
Qed.

(** [rep] returns a valid vector denoting [t], for every [t] of the range. *)
Lemma rep_spec arity low width t :
  2 <= arity ->
  low * repunit arity width <= t <= (low + arity - 1) * repunit arity width ->
  valid arity low width (rep arity low width t) /\ value arity (rep arity low width t) = t.
Proof.
move=> two; elim: width t => [|w IH] t /=.
  by rewrite !mulr0 => range; split; [split | lia].
set r := repunit arity w; set q := ((t - low) %/ arity)%Z; set m := ((t - low) %% arity)%Z.
move=> /andP [lot hit].
have split_t : t - low = q * arity + m by rewrite /q /m; lia.
have m_range : 0 <= m < arity by rewrite /m; lia.
have [lq hq] : low * r <= q /\ q <= (low + arity - 1) * r.
  set a := low * r in lot *; set b := (low + arity - 1) * r in hit *.
  split; nia.
have [[size_ok all_ok] val_ok] := IH q (introT andP (conj lq hq)).
split; first by split; [rewrite /= size_ok | rewrite /= all_ok /in_window andbT; lia].
by rewrite val_ok; lia.
Qed.

(** Two valid vectors of the same width that denote the same integer are equal. *)
Lemma value_inj arity low s1 s2 :
  2 <= arity -> size s1 = size s2 -> all (in_window arity low) s1 -> all (in_window arity low) s2 ->
  value arity s1 = value arity s2 -> s1 = s2.
Proof.
move=> two; elim: s1 s2 => [|d1 s1 IH] [|d2 s2] //= [same_size].
rewrite /in_window => /andP [/andP [lo1 hi1] all1] /andP [/andP [lo2 hi2] all2] equal.
have same_rest : value arity s1 = value arity s2.
  set v1 := value arity s1 in equal *; set v2 := value arity s2 in equal *; nia.
have same_digit : d1 = d2 by move: equal; rewrite same_rest; lia.
by rewrite same_digit (IH s2).
Qed.

(** The general theorem: for [arity >= 2], every window [low, low + arity - 1] and every width, an integer
    has a representation iff it lies in [low R_w, (low + arity - 1) R_w]; then it has exactly one, [rep]. *)
Theorem window_representation arity low width t :
  2 <= arity ->
  (exists s, valid arity low width s /\ value arity s = t) <->
  low * repunit arity width <= t <= (low + arity - 1) * repunit arity width.
Proof.
move=> two; split; last by move=> range; exists (rep arity low width t); exact: rep_spec.
by move=> [s [[<- all_ok] <-]]; exact: value_range.
Qed.

Theorem window_unique arity low width s1 s2 :
  2 <= arity -> valid arity low width s1 -> valid arity low width s2 ->
  value arity s1 = value arity s2 -> s1 = s2.
Proof.
move=> two [size1 all1] [size2 all2]; exact: (value_inj two (etrans size1 (esym size2)) all1 all2).
Qed.

Theorem rep_of_value arity low width s :
  2 <= arity -> valid arity low width s -> rep arity low width (value arity s) = s.
Proof.
move=> two [size_s all_s]; have range := value_range two all_s; rewrite size_s in range.
have [rep_ok rep_val] := rep_spec two range.
exact: (window_unique two rep_ok (conj size_s all_s) rep_val).
Qed.

(** A digit set given by a predicate equal to a window: existence of a representation is existence of a unique one. *)
Lemma unique_in_window (digit_set : pred int) arity low width t :
  2 <= arity -> (forall s, all digit_set s = all (in_window arity low) s) ->
  (exists s, valid arity low width s /\ value arity s = t) <->
  exists! s, size s = width /\ all digit_set s /\ value arity s = t.
Proof.
move=> two window; split.
- move=> [s [[size_s all_s] val_s]]; exists s; split; first by rewrite window.
  move=> s' [size' [all' val']].
  apply: (window_unique two (conj size_s all_s)); last by rewrite val_s val'.
  by split; last by rewrite -window.
- move=> [s [[size_s [all_s val_s]] _]]; exists s; split => //; split; by rewrite -?window.
Qed.

(** ** Definition 3.2: standard digits {0, ..., k - 1} represent exactly [0, k^w - 1], each value once. *)
Theorem standard_digits arity width t :
  2 <= arity ->
  (0 <= t <= arity ^+ width - 1) <->
  exists! s, size s = width /\ all (fun d => 0 <= d <= arity - 1) s /\ value arity s = t.
Proof.
move=> two; have geo := repunit_geometric arity width.
have window : forall s, all (fun d => 0 <= d <= arity - 1) s = all (in_window arity 0) s.
  by move=> s; apply: eq_all => d; rewrite /in_window add0r.
have iff := window_representation 0 width t two.
rewrite mul0r add0r geo in iff.
by rewrite -iff (unique_in_window width t two window).
Qed.

(** ** Definition 3.8: for odd k >= 3, digits {-(k-1)/2, ..., (k-1)/2} represent exactly the integers t with
    |t| <= (k^w - 1)/2, i.e. -(k^w - 1) <= 2 t <= k^w - 1, each value once. *)
Theorem odd_offset_digits arity width t :
  3 <= arity -> (arity %% 2)%Z = 1 ->
  (- (arity ^+ width - 1) <= 2 * t <= arity ^+ width - 1) <->
  exists! s, size s = width /\ all (fun d => - ((arity - 1) %/ 2)%Z <= d <= ((arity - 1) %/ 2)%Z) s
             /\ value arity s = t.
Proof.
move=> three odd; set half := ((arity - 1) %/ 2)%Z.
have two_half : 2 * half = arity - 1 by rewrite /half; lia.
have two : 2 <= arity by lia.
have geo := repunit_geometric arity width; set r := repunit arity width in geo.
have window : forall s, all (fun d => - half <= d <= half) s = all (in_window arity (- half)) s.
  by move=> s; apply: eq_all => d; rewrite /in_window; congr (_ && _); apply/idP/idP; lia.
have iff := window_representation (- half) width t two; rewrite -/r in iff.
have range : (- half * r <= t <= (- half + arity - 1) * r) = (- (arity ^+ width - 1) <= 2 * t <= arity ^+ width - 1).
  rewrite -geo -two_half; clear iff window; apply/idP/idP; nia.
rewrite range in iff.
by rewrite -iff (unique_in_window width t two window).
Qed.

(** ** Definition C.1: for even k >= 2, digits {-k/2 + 1, ..., k/2} represent exactly the integers t with
    -(k/2 - 1)(k^w - 1)/(k - 1) <= t <= k (k^w - 1)/(2 (k - 1)), i.e.
    -(k - 2)(k^w - 1) <= 2 (k - 1) t <= k (k^w - 1), each value once. *)
Theorem even_offset_digits arity width t :
  2 <= arity -> (arity %% 2)%Z = 0 ->
  (- ((arity - 2) * (arity ^+ width - 1)) <= 2 * (arity - 1) * t <= arity * (arity ^+ width - 1)) <->
  exists! s, size s = width /\ all (fun d => - (arity %/ 2)%Z + 1 <= d <= (arity %/ 2)%Z) s
             /\ value arity s = t.
Proof.
move=> two even; set half := (arity %/ 2)%Z.
have two_half : 2 * half = arity by rewrite /half; lia.
have geo := repunit_geometric arity width; set r := repunit arity width in geo.
have window : forall s, all (fun d => - half + 1 <= d <= half) s = all (in_window arity (- half + 1)) s.
  by move=> s; apply: eq_all => d; rewrite /in_window; congr (_ && _); apply/idP/idP; lia.
have iff := window_representation (- half + 1) width t two; rewrite -/r in iff.
have range : ((- half + 1) * r <= t <= (- half + 1 + arity - 1) * r) =
             (- ((arity - 2) * (arity ^+ width - 1)) <= 2 * (arity - 1) * t <= arity * (arity ^+ width - 1)).
  rewrite -geo -two_half; clear iff window; apply/idP/idP; nia.
rewrite range in iff.
by rewrite -iff (unique_in_window width t two window).
Qed.
