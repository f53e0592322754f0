"""Everything of CIP (Dharangutte, Gao, Gong, Wang): correlated Gaussian input perturbation with Cascade Sampling.

``exact/`` holds the exact twins (C_depth, ranges, errors, cascade covariance, general trees, two dimensions) and
``numeric/`` the samplers and realised errors, module for module; ``tree`` (general binary trees, shared by both),
``sensitivity`` (Δ² per neighbouring relation), ``privacy`` (the σ of Theorems 3.8 and 3.9, as printed),
``calibration`` (the paper's σ beside the exact one),
``mechanism`` (release and answer workloads), ``whitening`` (whitening and a rigorous normality test),
``proofs/`` (programs for all parameters), ``checks/`` (finite and statistical cross-checks), ``claims/`` (the
registry, one module per section of the paper).
"""
