"""The linear-noise audits: the exact privacy of a release ``W x + B z`` for a law of the draws ``z``.

Entry point: :mod:`~reference.audit.linear.audit` (``linear_noise_audit``; private at all, implied strategy,
sensitivities, ε or δ(ε)). Beside it:

* matrices — :mod:`~reference.audit.linear.column_matrix` (exact sparse columns read once),
  :mod:`~reference.audit.linear.matrix_files` (matrices read exactly from files and float arrays),
  :mod:`~reference.audit.linear.sparse_input` (scipy.sparse matrices and ``.npz`` files),
  :mod:`~reference.audit.linear.size_limits` (every size limit, each raisable),
  :mod:`~reference.audit.linear.dyadic` (float64 matrices as a power of two times int64 ones),
  :mod:`~reference.audit.linear.dyadic_files` (float ``.npz`` files of a Laplace audit on that path),
  :mod:`~reference.audit.linear.elimination` (sparse exact column elimination);
* the two paths — :mod:`~reference.audit.linear.dense` (dense exact algebra, every neighbouring relation) and
  :mod:`~reference.audit.linear.sparse_audit` (add/remove by sparse elimination);
  :mod:`~reference.audit.linear.square_noise` (the common square case in one integer solve);
  :mod:`~reference.audit.linear.lu_certified` (Gaussian, B square with unit pivots: a compiled sparse LU's
  solution certified in int64); :mod:`~reference.audit.linear.strategy_audit` and
  :mod:`~reference.audit.linear.exact_gram` (a noisy strategy ``C x + z``: CᵀC by exact float64 or sparse products);
* the laws — :mod:`~reference.audit.linear.laplace_lp` (certified ℓ1 LP), :mod:`~reference.audit.linear.lattice`
  and :mod:`~reference.audit.linear.integer_shift` (integer noise), :mod:`~reference.audit.linear.renyi`
  (ρ-zCDP and RDP claims), :mod:`~reference.audit.linear.masked_draws` (draws with infinite variance);
* neighbours — :mod:`~reference.audit.linear.participation` (participation schemes),
  :mod:`~reference.audit.linear.pattern_walk` and :mod:`~reference.audit.linear.pattern_maxima` (maxima over
  their patterns);
* probing — :mod:`~reference.audit.linear.probe` and :mod:`~reference.audit.linear.probe_linear` (recover ``B``
  from a user's function of the draws, dense or as sparse columns), :mod:`~reference.audit.linear.probe_calls`
  (calling the function), :mod:`~reference.audit.linear.probe_values` (a probed float read as its rational),
  :mod:`~reference.audit.linear.probe_linearity` (the linearity checks), :mod:`~reference.audit.linear.probe_recheck`
  (the probe's exact re-checks on arrays);
* results — :mod:`~reference.audit.linear.verdict`, :mod:`~reference.audit.linear.covariance` (exact noise
  covariances against the CIP and KARY oracles).
"""

#: No name is imported from the package itself: import its modules (the top-level face, ``reference``, carries
#: the entry points).
__all__: list[str] = []
