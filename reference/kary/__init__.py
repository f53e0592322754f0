"""Everything of KARY (Andersson, Pagh, Steiner, Torkamani): k-ary tree mechanisms for continual counting.

``digits`` (standard and offset digits, heights, the one arity check), ``tree`` (vertices, R and L, sensitivities,
Algorithm 1's exact MSE), ``mse`` (Algorithm 2's exact MSE), ``counters`` (Algorithms 1–3 and the online
counter), ``constants`` (certified leading constants and their minimising arities), ``threshold`` (where the pure
mechanism beats HUU), ``privacy`` (the paper's Laplace statements: Lemmas A.2, 5.4, 5.5, Theorem 1.3, Corollary
5.7), ``theorem_1_3`` (Theorem 1.3 beside the exact profile), ``counters_runs`` (many runs in one call),
``proofs/``, ``checks/``, ``claims/`` (one module per section of the paper).
"""
