(** * Zify instances with opaque proofs, for lia/nia on MathComp's int and nat.

    mathcomp-zify proves most of its instances (int's <=, <, max, min, norm, ...; nat's <=, <, max, min, modn,
    ...) with [ltac:(... lia)] inside the instance's record, so the proof is part of the instance's transparent
    body.  [lia] copies that body into its proof term at every use, and the kernel re-checks it at every [Qed]
    (about 0.1 s per comparison of ints, repeated for every call and every hypothesis it reads).  Here each such
    instance is re-registered with the same operator and the same target function, its injection lemma proved
    once from the library's own instance and closed with [Qed]; zify takes the last instance registered for an
    operator, so every [lia]/[nia] in a file that imports this one carries a reference to the lemma instead.
    Nothing is assumed: each lemma is the library instance's statement, proved by that instance. *)
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint intdiv.
From mathcomp Require Import zify.
From Coq Require Import ZifyClasses.
Import zify_algebra.AlgebraZifyInstances zify_ssreflect.SsreflectZifyInstances.

(** The type of an instance, and the statement of its injection lemma with the target function unfolded. *)
Ltac instance_type inst := let T := type of inst in exact T.
Ltac binop_lemma inst :=
  let T := type of (@TBOpInj _ _ _ _ _ _ _ _ _ _ inst) in
  let T' := eval cbv beta iota delta [TBOp inst] in T in exact T'.
Ltac unop_lemma inst :=
  let T := type of (@TUOpInj _ _ _ _ _ _ _ inst) in
  let T' := eval cbv beta iota delta [TUOp inst] in T in exact T'.

Fact int_le_inj : ltac:(binop_lemma Op_lez). Proof. exact: (TBOpInj (BinOp := Op_lez)). Qed.
#[global] Instance Op_int_le_opaque : ltac:(instance_type Op_int_le) := mkbop _ _ _ _ _ _ _ _ _ _ _ int_le_inj.
Add Zify BinOp Op_int_le_opaque.
Fact int_lt_inj : ltac:(binop_lemma Op_ltz). Proof. exact: (TBOpInj (BinOp := Op_ltz)). Qed.
#[global] Instance Op_int_lt_opaque : ltac:(instance_type Op_int_lt) := mkbop _ _ _ _ _ _ _ _ _ _ _ int_lt_inj.
Add Zify BinOp Op_int_lt_opaque.
Fact int_min_inj : ltac:(binop_lemma Op_int_min). Proof. exact: (TBOpInj (BinOp := Op_int_min)). Qed.
#[global] Instance Op_int_min_opaque : BinOp (Order.min : int -> int -> int) := @mkbop int int int _ _ _ (Order.min : int -> int -> int) _ _ _ _ int_min_inj.
Add Zify BinOp Op_int_min_opaque.
Fact int_max_inj : ltac:(binop_lemma Op_int_max). Proof. exact: (TBOpInj (BinOp := Op_int_max)). Qed.
#[global] Instance Op_int_max_opaque : BinOp (Order.max : int -> int -> int) := @mkbop int int int _ _ _ (Order.max : int -> int -> int) _ _ _ _ int_max_inj.
Add Zify BinOp Op_int_max_opaque.
Fact int_eq_op_inj : ltac:(binop_lemma Op_int_eq_op). Proof. exact: (TBOpInj (BinOp := Op_int_eq_op)). Qed.
#[global] Instance Op_int_eq_op_opaque : BinOp (@eq_op int_eqType : int -> int -> bool) := @mkbop int int bool _ _ _ (@eq_op int_eqType : int -> int -> bool) _ _ _ _ int_eq_op_inj.
Add Zify BinOp Op_int_eq_op_opaque.
Fact int_natmul_inj : ltac:(binop_lemma Op_int_natmul). Proof. exact: (TBOpInj (BinOp := Op_int_natmul)). Qed.
#[global] Instance Op_int_natmul_opaque : BinOp (@GRing.natmul _ : int -> nat -> int) := @mkbop int nat int _ _ _ (@GRing.natmul _ : int -> nat -> int) _ _ _ _ int_natmul_inj.
Add Zify BinOp Op_int_natmul_opaque.
Fact int_intmul_inj : ltac:(binop_lemma Op_int_intmul). Proof. exact: (TBOpInj (BinOp := Op_int_intmul)). Qed.
#[global] Instance Op_int_intmul_opaque : BinOp ( *~%R%R : int -> int -> int) := @mkbop int int int _ _ _ ( *~%R%R : int -> int -> int) _ _ _ _ int_intmul_inj.
Add Zify BinOp Op_int_intmul_opaque.
Fact int_modz_inj : ltac:(binop_lemma Op_modz). Proof. exact: (TBOpInj (BinOp := Op_modz)). Qed.
#[global] Instance Op_modz_opaque : BinOp modz := @mkbop int int int _ _ _ modz _ _ _ _ int_modz_inj.
Add Zify BinOp Op_modz_opaque.
Fact nat_leq_inj : ltac:(binop_lemma Op_leq). Proof. exact: (TBOpInj (BinOp := Op_leq)). Qed.
#[global] Instance Op_leq_opaque : BinOp leq := @mkbop nat nat bool _ _ _ leq _ _ _ _ nat_leq_inj.
Add Zify BinOp Op_leq_opaque.
Fact nat_geq_inj : ltac:(binop_lemma Op_geq). Proof. exact: (TBOpInj (BinOp := Op_geq)). Qed.
#[global] Instance Op_geq_opaque : BinOp (geq : nat -> nat -> bool) := @mkbop nat nat bool _ _ _ (geq : nat -> nat -> bool) _ _ _ _ nat_geq_inj.
Add Zify BinOp Op_geq_opaque.
Fact nat_ltn_inj : ltac:(binop_lemma Op_ltn). Proof. exact: (TBOpInj (BinOp := Op_ltn)). Qed.
#[global] Instance Op_ltn_opaque : BinOp (ltn : nat -> nat -> bool) := @mkbop nat nat bool _ _ _ (ltn : nat -> nat -> bool) _ _ _ _ nat_ltn_inj.
Add Zify BinOp Op_ltn_opaque.
Fact nat_gtn_inj : ltac:(binop_lemma Op_gtn). Proof. exact: (TBOpInj (BinOp := Op_gtn)). Qed.
#[global] Instance Op_gtn_opaque : BinOp (gtn : nat -> nat -> bool) := @mkbop nat nat bool _ _ _ (gtn : nat -> nat -> bool) _ _ _ _ nat_gtn_inj.
Add Zify BinOp Op_gtn_opaque.
Fact nat_minn_inj : ltac:(binop_lemma Op_minn). Proof. exact: (TBOpInj (BinOp := Op_minn)). Qed.
#[global] Instance Op_minn_opaque : BinOp minn := @mkbop nat nat nat _ _ _ minn _ _ _ _ nat_minn_inj.
Add Zify BinOp Op_minn_opaque.
Fact nat_maxn_inj : ltac:(binop_lemma Op_maxn). Proof. exact: (TBOpInj (BinOp := Op_maxn)). Qed.
#[global] Instance Op_maxn_opaque : BinOp maxn := @mkbop nat nat nat _ _ _ maxn _ _ _ _ nat_maxn_inj.
Add Zify BinOp Op_maxn_opaque.
Fact nat_modn_inj : ltac:(binop_lemma Op_modn). Proof. exact: (TBOpInj (BinOp := Op_modn)). Qed.
#[global] Instance Op_modn_opaque : BinOp modn := @mkbop nat nat nat _ _ _ modn _ _ _ _ nat_modn_inj.
Add Zify BinOp Op_modn_opaque.
Fact int_normr_inj : ltac:(unop_lemma Op_int_normr). Proof. exact: (TUOpInj (UnOp := Op_int_normr)). Qed.
#[global] Instance Op_int_normr_opaque : UnOp (Num.norm : int -> int) := @mkuop int int _ _ (Num.norm : int -> int) _ _ _ int_normr_inj.
Add Zify UnOp Op_int_normr_opaque.
Fact int_absz_inj : ltac:(unop_lemma Op_absz). Proof. exact: (TUOpInj (UnOp := Op_absz)). Qed.
#[global] Instance Op_absz_opaque : UnOp absz := @mkuop int nat _ _ absz _ _ _ int_absz_inj.
Add Zify UnOp Op_absz_opaque.
Fact nat_double_inj : ltac:(unop_lemma Op_double). Proof. exact: (TUOpInj (UnOp := Op_double)). Qed.
#[global] Instance Op_double_opaque : UnOp double := @mkuop nat nat _ _ double _ _ _ nat_double_inj.
Add Zify UnOp Op_double_opaque.

(** [lia] and [nia] in the files that import this one: first drop every hypothesis quantified over a type
    (invariants "for every i ...", induction hypotheses, lemmas put in context). lia never uses them, but zify
    rewrites inside each at every call, which made calls in long proofs cost a tenth of a second or more. A
    hypothesis the goal depends on is kept. The goal is unchanged, so a call succeeds exactly when it did. *)
Ltac drop_quantified := repeat match goal with
  | H : forall x : ?T, _ |- _ => lazymatch type of T with Prop => fail | _ => clear H end end.
Ltac lia := drop_quantified; Lia.lia.
Ltac nia := drop_quantified; Lia.nia.
