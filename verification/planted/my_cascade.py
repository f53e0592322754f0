"""Depth-2 Cascade Sampling (CIP Algorithm 1) as a user would write it by hand, in floating point.

The standard-normal draws are passed in (root first, then one draw per split, level order), so the map from
draws to noise can be probed: ``reference.audit.linear.probe.probe_float_noise_matrix`` recovers it exactly,
√3/2 entries included. ``sigma`` multiplies every draw; passing σ² where σ is meant is the fault of
``verification/planted/variance_for_std_cascade.py``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

HALF_ROOT3 = math.sqrt(3.0) / 2.0


def my_cascade(draws: Sequence[float], sigma: float = 1.0) -> list[float]:
    """The four leaves' noise for the given draws."""
    root = sigma * draws[0]
    left, right = root / 2 + HALF_ROOT3 * sigma * draws[1], root / 2 - HALF_ROOT3 * sigma * draws[1]
    return [left / 2 + HALF_ROOT3 * sigma * draws[2], left / 2 - HALF_ROOT3 * sigma * draws[2],
            right / 2 + HALF_ROOT3 * sigma * draws[3], right / 2 - HALF_ROOT3 * sigma * draws[3]]
