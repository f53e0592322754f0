"""KARY's counters by the names users know: Algorithms 1, 2 (batch and online) and 3, with numeric noise.

The counters come in twins (docs/architecture.md, the twin rule): :mod:`reference.kary.numeric` (floats and
numpy's generator: the vectorised Algorithms 1, 2 and 3 and the online counter) and :mod:`reference.kary.exact`
(the online counter with exact discrete Laplace noise on a random-bit source). This module is KARY's entry
module: it binds the numeric twin's names, as the package face does.
"""

from reference.kary.numeric import OnlineCounter, algorithm_1, algorithm_2_batch, algorithm_3

__all__ = ["OnlineCounter", "algorithm_1", "algorithm_2_batch", "algorithm_3"]
