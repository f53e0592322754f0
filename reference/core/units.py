"""A units hint for audits that compare a measured variance with a declared one.

A variance passed where a standard deviation is expected (or the reverse) makes the samples' variance about the
square (or the square root) of the declared one, which a goodness-of-fit p-value reports only as "fails". When
the measured variance is within :data:`UNITS_CLOSENESS` (relative) of declared² or sqrt(declared), this says so
in one line. Not said when the declared variance is too close to 1 for the three to differ.
"""

from __future__ import annotations

import math

#: Relative closeness at which a measured variance is said to match declared² (or sqrt(declared)).
UNITS_CLOSENESS = 0.1


def units_hint(measured: float, declared: float, *, name: str = "σ²") -> str | None:
    """The hint, or None: ``measured`` ≈ ``declared``² ("a variance passed as a standard deviation?") or ≈
    sqrt(``declared``) ("a standard deviation passed as a variance?"); ``name`` names the declared quantity.

    Args:
        measured: the samples' measured variance (a float; a non-finite or non-positive value gives no hint).
        declared: the declared variance σ² the samples were compared with (a float > 0).
        name: how the declared quantity is written in the hint (default ``"σ²"``).
    """
    if not (math.isfinite(measured) and math.isfinite(declared)) or measured <= 0 or declared <= 0:
        return None
    if abs(math.log(declared)) < 2 * UNITS_CLOSENESS:
        return None
    if abs(measured / (declared * declared) - 1) <= UNITS_CLOSENESS:
        return (f"measured variance {measured:.6g} ≈ ({name})² = {declared * declared:.6g}, not {name} = "
                f"{declared:.6g}: a variance passed as a standard deviation?")
    if abs(measured / math.sqrt(declared) - 1) <= UNITS_CLOSENESS:
        return (f"measured variance {measured:.6g} ≈ sqrt({name}) = {math.sqrt(declared):.6g}, not {name} = "
                f"{declared:.6g}: a standard deviation passed as a variance?")
    return None
