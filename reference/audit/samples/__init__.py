"""The sample audits: noise an implementation drew, or a sampler function it provides, against the exact law.

Entry point: :func:`reference.audit.samples.law_audit.audit_samples` — samples against any law of
:mod:`~reference.audit.samples.laws` (one frozen type per law), testing the whole law
(:mod:`~reference.audit.samples.law_checks`, the Neyman–Pearson scale test of
:mod:`~reference.audit.samples.scale_test`) with its power stated; linear designs by
:mod:`~reference.audit.samples.design_law`, Cascade Sampling by :mod:`~reference.audit.samples.cascade_law`, and
what they share (the report held to its power, the checked sample matrix) in
:mod:`~reference.audit.samples.law_report`. The earlier per-mechanism audits (cascade leaves, KARY noise), held to
the same power rule: :mod:`~reference.audit.samples.audit`. Beside them:

* laws and designs — :mod:`~reference.audit.samples.design` (the law of ``X = B z`` and its median-of-means
  test), :mod:`~reference.audit.samples.design_audit` (a user's design or KARY Algorithms 1–3);
* statistics fed by blocks of runs — :mod:`~reference.audit.samples.sufficient` (exact sums that blocks add to in
  any order), :mod:`~reference.audit.samples.cascade_stream` with :mod:`~reference.audit.samples.cascade_fold`
  (Cascade Sampling at any depth), :mod:`~reference.audit.samples.whitened_moments`,
  :mod:`~reference.audit.samples.design_moments`;
* power — :mod:`~reference.audit.samples.power` (what an audit could have seen, and the runs it needs);
* a user's sampler function — :mod:`~reference.audit.samples.target` (load and call it chunk by chunk) and
  :mod:`~reference.audit.samples.sampler_function` (blocks on Dask, power stated first);
* reports — :mod:`~reference.audit.samples.report` (what every sample audit shares: its report and checks).
"""

#: No name is imported from the package itself: import its modules (the top-level face, ``reference``, carries
#: the entry points).
__all__: list[str] = []
