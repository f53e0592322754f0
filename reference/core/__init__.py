"""Paper-independent foundations every other layer stands on.

``validate`` (input checks with one-line messages), ``linalg`` (exact matrices over the rationals), ``certified``
(Arb ball arithmetic turned into exact rational enclosures: :class:`~reference.core.certified.CertifiedReal`, the
standard precision budget), ``randomness`` (random-bit sources for the exact samplers), ``rng`` (numpy generators
from seeds), ``json_form`` (the JSON form of results), ``claims`` (statement, method, status, outcome: what each
paper's registry is written in), ``proof`` and ``proof_links`` (proof records and ``@proves``).
"""
