"""The deprecation path of parameters that became keyword-only (the samplers' ``size`` and ``source``/``rng``):
an old positional call gives the same draws as the keyword form, with a DeprecationWarning naming that form."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

from reference.core.keyword_calls import formerly_positional
from reference.core.randomness import SeededRandomBits
from reference.samplers import exact, numeric


def test_an_old_exact_call_warns_and_draws_what_the_keyword_form_draws() -> None:
    new = exact.discrete_laplace("3/2", source=SeededRandomBits(7), size=50)
    with pytest.warns(DeprecationWarning, match=r"discrete_laplace\(scale, source=\.\.\., size=\.\.\.\)"):
        old = exact.discrete_laplace("3/2", SeededRandomBits(7), 50)  # type: ignore[call-overload]
    assert old == new
    with pytest.warns(DeprecationWarning, match=r"bernoulli\(p, source=\.\.\.\)"):
        scalar = exact.bernoulli("1/3", SeededRandomBits(3))  # type: ignore[call-overload]
    assert scalar == exact.bernoulli("1/3", source=SeededRandomBits(3))


def test_an_old_numeric_call_warns_and_draws_what_the_keyword_form_draws() -> None:
    new = numeric.discrete_gaussian(4, size=200, rng=11)
    with pytest.warns(DeprecationWarning, match=r"discrete_gaussian\(sigma_squared, size=\.\.\., rng=\.\.\.\)"):
        old = numeric.discrete_gaussian(4, 200, 11)  # type: ignore[call-arg]
    np.testing.assert_array_equal(old, new)
    with pytest.warns(DeprecationWarning, match=r"laplace\(scale, size=\.\.\.\)"):
        assert len(numeric.laplace(2, 30)) == 30  # type: ignore[call-arg]


def test_the_keyword_form_does_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        exact.discrete_gaussian(2, source=SeededRandomBits(1), size=5)
        numeric.discrete_laplace(2, size=5, rng=1)


def test_too_many_values_or_one_value_twice_is_a_type_error() -> None:
    @formerly_positional("size", "rng")
    def draw(scale: int, *, size: int = 1, rng: int | None = None) -> tuple[int, int, int | None]:
        return scale, size, rng

    loose: Any = draw
    with pytest.raises(TypeError, match="pass size, rng by keyword"):
        loose(1, 2, 3, 4)
    with pytest.raises(TypeError, match="multiple values for argument 'size'"):
        loose(1, 2, size=3)
    assert draw(1, size=2, rng=3) == (1, 2, 3)


def test_the_signature_shown_is_the_keyword_only_one() -> None:
    import inspect

    kinds = {name: parameter.kind for name, parameter in inspect.signature(numeric.discrete_laplace).parameters.items()}
    assert kinds == {"scale": inspect.Parameter.POSITIONAL_OR_KEYWORD, "size": inspect.Parameter.KEYWORD_ONLY,
                     "rng": inspect.Parameter.KEYWORD_ONLY}
