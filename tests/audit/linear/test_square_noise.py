"""The square-case verdict equals the general linear audit's, field by field, on random invertible maps; it
declines what it does not cover."""

from __future__ import annotations

import random
from dataclasses import fields
from fractions import Fraction

from reference.audit.linear.audit import audit_linear_noise, exact_matrix
from reference.audit.linear.covariance import kary_prefix_workload
from reference.audit.linear.square_noise import square_noise_verdict


def test_same_verdict_as_the_general_audit() -> None:
    rng = random.Random(4)
    checked = 0
    while checked < 12:
        size = rng.randint(1, 6)
        noise = exact_matrix([[Fraction(rng.randint(-3, 3), rng.choice([1, 1, 2, 3])) for _ in range(size)]
                              for _ in range(size)], "B")
        inputs = rng.randint(1, 4)
        workload = exact_matrix([[rng.randint(-2, 2) for _ in range(inputs)] for _ in range(size)], "W")
        if not any(any(row) for row in workload):
            continue
        for kind, scale in (("gaussian", Fraction(3, 2)), ("laplace", Fraction(2))):
            fast = square_noise_verdict(noise, workload, kind, scale)  # type: ignore[arg-type]
            general = audit_linear_noise(noise, workload, kind, scale=scale)
            if fast is None:  # singular B (or a zero column dropped): the general path decides
                assert general.kernel_dimension > 0 or general.unused_draws > 0 or not general.private
                continue
            for field in fields(general):
                if field.name != "explanation":
                    assert getattr(fast, field.name) == getattr(general, field.name), field.name
            checked += 1


def test_declines_other_cases() -> None:
    prefix = kary_prefix_workload(3)
    assert square_noise_verdict(prefix, prefix, "discrete-laplace", Fraction(1)) is None
    assert square_noise_verdict(exact_matrix([[1, 0, 0], [0, 1, 0]], "B"), prefix[:2], "gaussian", Fraction(1)) is None
    assert square_noise_verdict(exact_matrix([[1, 1], [1, 1]], "B"), prefix[:2], "gaussian", Fraction(1)) is None
