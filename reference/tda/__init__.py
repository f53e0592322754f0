"""Everything of TDA (Boninsegna): the InfTDA top-down mechanism for hierarchical counts.

``data`` (CSV, hierarchy, the sparse prefix tree, the embedded default dataset), ``intopt`` (IntOpt, literal and
fast), ``mechanism`` (InfTDA, exact and numeric), ``calibration`` (σ² = d/ρ, conversions), ``proofs/``,
``checks/``, ``claims`` (the registry).
"""
