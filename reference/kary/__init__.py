"""Everything of KARY (Andersson, Pagh, Steiner, Torkamani): k-ary tree mechanisms for continual counting.

``digits`` (standard and offset digits, heights, the one arity check), ``tree`` (vertices, R and L, sensitivities,
covariance, per-step variances), ``mse`` (Algorithms 1 and 2's exact MSE), ``numeric`` and ``exact`` (the twins:
Algorithms 1–3 and the online counter with numeric noise; the online counter with exact discrete Laplace noise),
``counters`` (the entry module: the numeric twin's names), ``online`` (the online walk both twins share),
``counter_input`` (the stream and noise checks, the numeric draws), ``noise_indices`` (which noise values
Algorithm 2 uses, when, and the vertex each stands for), ``walk_sums`` (the vectorised noise sums),
``constants`` (certified leading constants and their minimising arities), ``threshold`` (where the pure
mechanism beats HUU), ``privacy`` (the paper's Laplace statements: Lemmas A.2, 5.4, 5.5, Theorem 1.3, Corollary
5.7), ``theorem_1_3`` (Theorem 1.3 beside the exact profile), ``counters_runs`` (many runs in one call),
``batch_cost`` (what a batch of counters costs, estimated before the work). The proof programs, cross-checks and
the paper's registry are the verification's (``verification/kary/``).
"""

from typing import TYPE_CHECKING

from reference.core.face import lazy_face

if TYPE_CHECKING:  # where each public name comes from; imported on first use (reference.core.face)
    from .constants import certified_argmin, leading_constant
    from .digits import even_offset_digits, height_for_horizon, offset_digits
    from .mse import algorithm_1_mse_digit_programme, algorithm_2_mse, algorithm_2_mse_digit_programme
    from .numeric import OnlineCounter, algorithm_1, algorithm_2_batch, algorithm_3
    from .privacy import l2_laplace_scale, laplace_scale
    from .tree import check_factorization, sensitivities

__all__ = [
    "OnlineCounter",
    "algorithm_1",
    "algorithm_1_mse_digit_programme",
    "algorithm_2_batch",
    "algorithm_2_mse",
    "algorithm_2_mse_digit_programme",
    "algorithm_3",
    "certified_argmin",
    "check_factorization",
    "even_offset_digits",
    "height_for_horizon",
    "l2_laplace_scale",
    "laplace_scale",
    "leading_constant",
    "offset_digits",
    "sensitivities",
]

__getattr__, __dir__ = lazy_face(__name__)
