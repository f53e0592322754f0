"""The one human text of an exact value: exact while short, a decimal and digit counts past 60 digits, at any
size (10,000 digits and more: Python's ``str(int)`` refuses 4,300); verdicts built on such values keep their
summaries and text fields short while ``as_json`` keeps every exact value."""

from __future__ import annotations

import json
import re
import sys
from fractions import Fraction

import numpy as np
import pytest

from reference.core.exact_text import MAX_EXACT_DIGITS, digit_count, exact_text

TINY = Fraction(1, 10**10_000)  # a claim of 1e-10000: 10,001 digits
#: a JSON string that is one exact number ("p/q", "p") or a decimal: the values as_json keeps in full
NUMBER = re.compile(r"^-?\d+(/\d+)?$|^-?\d+(\.\d*)?([eE][-+]?\d+)?$")


def _digits(value: int) -> int:
    """Digits by str(), with Python's guard lifted here only: the independent count."""
    previous = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return len(str(abs(value)))
    finally:
        sys.set_int_max_str_digits(previous)


@pytest.mark.parametrize("value", [0, 7, 10**59, 10**60 - 1, 10**60, 2**1000, 3**20_000, 10**10_000 + 1],
                         ids=lambda value: f"{value.bit_length()}-bits")
def test_digit_count_matches_the_decimal_text(value: int) -> None:
    assert digit_count(value) == _digits(value)
    assert digit_count(-value) == _digits(value)


def test_short_values_are_printed_exactly() -> None:
    assert exact_text(Fraction(1, 3)) == "1/3"
    assert exact_text(Fraction(-7, 2)) == "-7/2"
    assert exact_text(Fraction(10**59)) == "1" + "0" * 59
    # 30 + 30 digits: the limit itself, still exact
    value = Fraction(10**29 + 1, 10**29 + 3)
    assert exact_text(value) == f"{10**29 + 1}/{10**29 + 3}"
    assert MAX_EXACT_DIGITS == 60


@pytest.mark.parametrize(("value", "expected"), [
    (TINY, "≈ 1.00000e-10000 (exact: 1/10001 digits, in as_json)"),
    (-1 / TINY, "≈ -1.00000e+10000 (exact: 10001 digits, in as_json)"),
    # (10^10000 + 7)/3 = 3.333...e9999
    (Fraction(10**10_000 + 7, 3), "≈ 3.33333e+9999 (exact: 10001/1 digits, in as_json)"),
    (Fraction(10**60), "≈ 1.00000e+60 (exact: 61 digits, in as_json)"),
    # 2^-(2^20) = 10^-(2^20 log10 2) = 10^-315652.83 = 1.4834...e-315653 (log10 2 = 0.30102999566...)
    (Fraction(1, 2**(2**20)), "≈ 1.48343e-315653 (exact: 1/315653 digits, in as_json)"),
], ids=["1e-10000", "-1e10000", "third", "1e60", "2^-2^20"])
def test_long_values_are_a_decimal_and_their_digit_counts(value: Fraction, expected: str) -> None:
    assert exact_text(value) == expected


def _text_fields(payload: object, path: str = "") -> list[tuple[str, str]]:
    """Every string of a JSON payload that is not an exact number, with where it is."""
    if isinstance(payload, dict):
        return [item for key, value in payload.items() for item in _text_fields(value, f"{path}.{key}")]
    if isinstance(payload, list):
        return [item for index, value in enumerate(payload) for item in _text_fields(value, f"{path}[{index}]")]
    if isinstance(payload, str) and not NUMBER.match(payload):
        return [(path, payload)]
    return []


def _verdicts() -> list[object]:
    from reference import audit_gaussian, audit_linear_noise

    return [
        audit_gaussian(epsilon=TINY, delta=TINY, sigma=2, sensitivity_squared=1),
        audit_linear_noise(np.eye(3, dtype=np.int64), np.eye(3, dtype=np.int64), "gaussian",
                           scale=Fraction(10**10_000 + 1, 3)),
    ]


def test_verdicts_of_ten_thousand_digit_values_stay_short_for_humans() -> None:
    """A claim of 10,001 digits: the summary was over 30,000 characters (the whole number, twice); every text
    field of the JSON is now short, and the JSON's size is its exact numbers (each once per field) plus little."""
    for verdict in _verdicts():
        summary = verdict.summary()  # type: ignore[attr-defined]
        assert len(summary) < 600, summary[:200]
        assert "exact: 1/10001 digits" in summary or "exact: 1/20001 digits" in summary
        assert len(repr(verdict)) <= 160
        payload = verdict.as_json()  # type: ignore[attr-defined]
        long_texts = [(path, len(text)) for path, text in _text_fields(payload) if len(text) > 1_000]
        assert long_texts == []
        text = json.dumps(payload)
        numbers = sum(len(json.dumps(value)) for value in _numbers(payload))
        assert len(text) - numbers < 20_000, (len(text), numbers)


def _numbers(payload: object) -> list[str]:
    if isinstance(payload, dict):
        return [item for value in payload.values() for item in _numbers(value)]
    if isinstance(payload, list):
        return [item for value in payload for item in _numbers(value)]
    return [payload] if isinstance(payload, str) and NUMBER.match(payload) else []


def test_the_exact_value_stays_in_as_json() -> None:
    from reference import audit_gaussian

    payload = audit_gaussian(epsilon=TINY, delta=TINY, sigma=2, sensitivity_squared=1).as_json()
    assert payload["claim_check"]["claim"]["delta"] == "1/1" + "0" * 10_000
