"""Paper-independent foundations every other layer stands on.

``validate`` (input checks with one-line messages), ``linalg`` (exact matrices over the rationals), ``certified``
(Arb ball arithmetic turned into exact rational enclosures: :class:`~reference.core.certified.CertifiedReal`, the
standard precision budget), ``randomness`` (random-bit sources for the exact samplers), ``rng`` (numpy generators
from seeds), ``json_form`` (the JSON form of results), ``verdict`` (the one verdict protocol and the exit
statuses), ``statistical_check`` (the one result type of a seeded statistical check), ``options`` (the
``Literal`` string options), ``bisection`` (the one certified bisection), ``face`` (a package's public face,
imported on first use). The claims, proof records and ``@proves`` that the papers' registries are written in are
the verification's (``verification/core/``).
"""

from typing import TYPE_CHECKING

from reference.core.face import lazy_face

if TYPE_CHECKING:  # where each public name comes from; imported on first use (reference.core.face)
    from .certified import CertifiedReal
    from .randomness import SeededRandomBits, SystemRandomBits

__all__ = [
    "CertifiedReal",
    "SeededRandomBits",
    "SystemRandomBits",
]

__getattr__, __dir__ = lazy_face(__name__)
