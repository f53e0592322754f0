"""The JSON form of results: exact rationals as ``"p/q"`` strings (or ``"p"``), tuples as lists.

Every result object of the package has ``as_json()``, which already writes certified reals as
``{"lower": "p/q", "upper": "p/q", "decimal": "..."}`` and rationals as strings; :func:`jsonable` turns any
remaining ``Fraction`` (or tuple) in a plain result dictionary into that form, recursively.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from reference.core.validate import fraction_text


def jsonable(value: Any) -> Any:
    """Convert Fractions to "p/q", tuples to lists, recursively (and leave str/int/bool/None/float alone).

    Args:
        value: a result value: a Fraction, a dict, list or tuple of such values (nested to any depth), or a JSON scalar
            (str, int, float, bool, None), which is returned as it is.
    """
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value
