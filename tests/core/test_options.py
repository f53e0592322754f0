"""The one check of a string option: the accepted value comes back, anything else is one line naming the
parameter and every accepted value."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from reference.audit.linear.participation import check_contribution
from reference.audit.linear.probe_linear import probe_linear_map
from reference.audit.linear.verdict import check_noise
from reference.cip.exact.errors import expected_total_squared_error
from reference.core.options import LinearNoise, Parity, check_choice, check_option, choices
from reference.core.validate import check_neighbours
from reference.samplers.fit import check_layer


def test_accepted_values_come_back_as_the_accepted_object() -> None:
    kinds = choices(LinearNoise)
    for kind in kinds:
        copy = kind[:1] + kind[1:]  # an equal string that is another object
        assert copy is not kind
        assert check_choice(copy, "noise", kinds) is kind  # the alias's own string comes back
    assert check_choice(np.str_("laplace"), "noise", kinds) == "laplace"  # a str subclass is a string


@pytest.mark.parametrize("value", ["Gaussian", "gaussian ", "", None, 1, b"gaussian", ["gaussian"]])
def test_anything_else_is_one_line_naming_the_parameter(value: object) -> None:
    with pytest.raises(ValueError) as caught:
        check_choice(value, "noise", choices(LinearNoise))
    assert str(caught.value) == (f"noise must be one of gaussian, laplace, discrete-gaussian, discrete-laplace; "
                                 f"got {value!r}")


def test_an_object_equal_to_a_string_is_not_a_string() -> None:
    class EqualToEverything:
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = object.__hash__

    with pytest.raises(ValueError, match="noise must be one of"):
        check_choice(EqualToEverything(), "noise", choices(LinearNoise))


def test_the_checks_that_use_it() -> None:
    assert check_option("odd", "parity", Parity) == "odd"
    assert check_noise("discrete-laplace") == "discrete-laplace"
    assert check_contribution(None) is None and check_contribution("signed") == "signed"
    assert check_neighbours("substitution") == "substitution" and check_layer("numeric") == "numeric"
    calls: list[tuple[Callable[[], object], str]] = [
        (lambda: check_option("twice", "parity", Parity), "parity"),
        (lambda: check_noise("poisson"), "noise"),
        (lambda: check_contribution("gradients"), "contribution"),
        (lambda: check_neighbours("replace"), "neighbours"),
        (lambda: check_neighbours("swap", "relation"), "relation"),
        (lambda: check_layer("float"), "layer"),
        (lambda: expected_total_squared_error(2, 1, "prefixes"), "workload"),  # type: ignore[arg-type]
        (lambda: probe_linear_map(lambda z: z, draws=2, inputs="float16"), "inputs"),  # type: ignore[arg-type]
    ]
    for call, name in calls:
        with pytest.raises(ValueError, match=f"^{name} must be one of .*; got '"):
            call()
