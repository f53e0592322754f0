"""Worked example (KARY): test your own continual counter with ``reference.testing.assert_prefix_counter``.

A counter is given by the noise it adds to the prefix counts, as a function of its draws. The correct Algorithm 2
(``verification/planted/correct_kary.py``) passes at ε = 1; noise shared between vertices (``shared_noise_kary``) and integer
noise doubled to "double the scale" (``parity_leak_kary``) are caught, each with what is wrong.
"""

from __future__ import annotations

import pytest
from reference_verification.planted import correct_kary, parity_leak_kary, shared_noise_kary

from reference.testing import assert_prefix_counter


def test_the_correct_counter_is_epsilon_dp() -> None:
    verdict = assert_prefix_counter(correct_kary.release_noise, correct_kary.HORIZON, correct_kary.HORIZON, "laplace",
                                    correct_kary.noise_scale(), epsilon=correct_kary.CLAIMED_EPSILON)
    assert verdict.epsilon == correct_kary.CLAIMED_EPSILON


def test_shared_noise_is_not_private_at_all() -> None:
    with pytest.raises(AssertionError, match="not private at all"):
        assert_prefix_counter(shared_noise_kary.release_noise, shared_noise_kary.HEIGHT, shared_noise_kary.HORIZON,
                              "laplace", shared_noise_kary.noise_scale(), epsilon=shared_noise_kary.CLAIMED_EPSILON)


def test_doubled_integer_noise_leaks_the_parity() -> None:
    with pytest.raises(AssertionError, match=r"mod 2 is the same for every noise draw"):
        assert_prefix_counter(parity_leak_kary.release_noise, parity_leak_kary.HORIZON, parity_leak_kary.HORIZON,
                              "discrete-laplace", parity_leak_kary.noise_scale(),
                              epsilon=parity_leak_kary.CLAIMED_EPSILON)
