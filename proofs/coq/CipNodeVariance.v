(** * CIP Theorem 3.3: every node of the tree has variance sigma^2 under N(0, sigma^2 C_D), machine-checked.

    Leaves 0 .. 2^D - 1; the node at level l (0 = root) and position p < 2^l covers the 2^(D - l) leaves
    p 2^(D - l) .. (p + 1) 2^(D - l) - 1, and its value is the sum of the leaf noises below it.  With leaf noise
    sigma Z, Z ~ N(0, C_D), that sum has variance sigma^2 times the sum of the entries of C_D on the node's block
    ([node_variance], the Python [node_variance] on the dense matrix, sigma = 1).

    Proved ([Print Assumptions] closed), for EVERY depth D:
    - [covariance_block]: the block of C_D below a node of height h is C_h (Definition 3.1's diagonal blocks);
    - [node_variance_is_one]: every node, leaf or internal, has variance 1 (sigma^2 with sigma = 1): the block
      is C_h, each of its 2^h rows sums to 2^-h ([covariance_row_sum]).
    That the sum is Gaussian (a linear image of a Gaussian vector) is not modelled. *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint rat.
From mathcomp Require Import ring.
From Reference Require Import CipMatrix.
Import GRing.Theory Num.Theory.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope ring_scope.

(** The variance (sigma = 1) of node (level, position) of the depth-D tree: the sum of C_D over its block.
    Written with folds so that Coq computes it (MathComp's big sums are opaque to evaluation);
    [node_variance_sum] restates it as a big sum. *)
Definition block_sum (f : nat -> rat) (start width : nat) : rat := foldr (fun a acc => f a + acc) 0 (iota start width).

Definition node_variance (depth level position : nat) : rat :=
  let width := (2 ^ (depth - level))%N in
  block_sum (fun a => block_sum (cov depth a) (position * width) width) (position * width) width.

Lemma block_sum_big f start width : block_sum f start width = \sum_(a <- iota start width) f a.
Proof. by rewrite /block_sum; elim: (iota start width) => [|a s IH] /=; rewrite ?big_nil ?big_cons ?IH. Qed.

Lemma node_variance_sum depth level position :
  let width := (2 ^ (depth - level))%N in
  node_variance depth level position =
  \sum_(a <- iota (position * width) width) \sum_(b <- iota (position * width) width) cov depth a b.
Proof. by rewrite /node_variance block_sum_big; apply: eq_bigr => a _; rewrite block_sum_big. Qed.

Lemma block_index m h p a : (p < 2 ^ m)%N -> (a < 2 ^ h)%N -> (p * 2 ^ h + a < 2 ^ (m + h))%N.
Proof.
move=> lt_p lt_a; rewrite expnD.
apply: (@leq_trans ((p.+1) * 2 ^ h)); first by rewrite mulSn addnC ltn_add2r.
by rewrite leq_mul2r lt_p orbT.
Qed.

(** The block of C_(m + h) on the leaves p 2^h .. p 2^h + 2^h - 1 is C_h. *)
Theorem covariance_block m h p a b :
  (p < 2 ^ m)%N -> (a < 2 ^ h)%N -> (b < 2 ^ h)%N ->
  cov (m + h) (p * 2 ^ h + a) (p * 2 ^ h + b) = cov h a b.
Proof.
elim: m p => [|m IH] p lt_p lt_a lt_b.
  by move: lt_p; rewrite expn0 ltnS leqn0 => /eqP ->; rewrite mul0n !add0n.
case: (split_leaf lt_p) => [low | [p' lt_p' ->]].
- rewrite addSn cov_ll ?IH //; exact: block_index.
- have shift c : ((2 ^ m + p') * 2 ^ h + c = 2 ^ (m + h) + (p' * 2 ^ h + c))%N.
    by rewrite mulnDl -expnD addnA.
  by rewrite addSn !shift cov_hh ?IH //; exact: block_index.
Qed.

Lemma sum_iota_shift (start n : nat) (f : nat -> rat) :
  \sum_(a <- iota start n) f a = \sum_(a < n) f (start + a)%N.
Proof.
rewrite -{1}(addn0 start) iotaDl big_map.
have -> : iota 0 n = index_iota 0 n by rewrite /index_iota subn0.
by rewrite big_mkord.
Qed.

(** Theorem 3.3: every node of the depth-D tree has variance 1 (sigma^2). *)
Theorem node_variance_is_one depth level position :
  (level <= depth)%N -> (position < 2 ^ level)%N -> node_variance depth level position = 1.
Proof.
move=> le_l lt_p; rewrite node_variance_sum /=; set h := (depth - level)%N.
have depth_eq : depth = (level + h)%N by rewrite /h subnKC.
rewrite sum_iota_shift.
under eq_bigr => a _ do rewrite sum_iota_shift.
rewrite (eq_bigr (fun _ => (pow2 h)^-1)) => [|a _]; last first.
  rewrite -(covariance_row_sum (ltn_ord a)); apply: eq_bigr => b _.
  by rewrite [in LHS]depth_eq covariance_block.
by rewrite sumr_const card_ord -mulr_natl pow2_nat mulfV // pow2_neq0.
Qed.
