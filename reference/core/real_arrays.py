"""One reader for arrays of real numbers given to the public API: numpy's and Python's own words never reach a user.

``np.asarray`` of a string, a ragged list or an object says "could not convert string to float", "setting an
array element with a sequence" or "inhomogeneous shape"; a complex array casts with a ``ComplexWarning``.
:func:`real_array` reads the value or refuses it in one ``ValueError`` naming the parameter and what it accepts.
"""

from __future__ import annotations

import warnings

import numpy as np


def real_array(value: object, name: str, *, ndim: int | None = None, finite: bool = True) -> np.ndarray:
    """``value`` as a float64 array (``ndim`` dimensions when given, entries finite when ``finite``), or one
    ``ValueError`` naming ``name``: strings, bytes, booleans, complex or object entries and ragged nesting are
    refused, not converted.

    Args:
        value: anything the caller passed: accepted when numpy reads it as an array of integers or real floats (a list,
            nested lists of one shape, an ndarray); strings, bytes, booleans, complex or object entries and ragged
            nesting are refused.
        name: the parameter's name, as the refusal names it.
        ndim: the number of dimensions required (None, the default: any).
        finite: True (default): NaN and infinite entries are refused; False: kept.
    """
    if isinstance(value, (str, bytes)):
        raise ValueError(f"{name} must be an array of real numbers, got a {type(value).__name__}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a ComplexWarning or a deprecation in the conversion is a refusal
            raw = np.asarray(value)
    except (ValueError, TypeError, OverflowError, Warning):
        raise ValueError(f"{name} must be an array of real numbers (a ragged or mixed value is not one)") from None
    if raw.dtype.kind not in "iuf":
        raise ValueError(f"{name} must be an array of real numbers, got dtype {raw.dtype}")
    if ndim is not None and raw.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-dimensional array, got shape {raw.shape}")
    array = raw.astype(np.float64)
    if finite and not np.isfinite(array).all():
        raise ValueError(f"{name} must contain only finite values (no NaN or infinity)")
    return array
