"""The public API is typed for a user's type checker: a float where an exact rational is meant is flagged by
``mypy --strict`` in the user's own code, not only refused at run time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy", reason="mypy is in the test extra: python -m pip install '.[test]'")

USER_CODE = '''
from fractions import Fraction
from reference import calibrate_cascade, gaussian_delta, sigma_exact

sigma_exact(epsilon="1/2", delta="1e-6", sensitivity_squared=Fraction(13, 3))
calibrate_cascade(10, epsilon=1, delta="1e-6")
gaussian_delta(epsilon=Fraction(1), sigma=2, sensitivity_squared="1")
'''
MISUSE = '''
from reference import calibrate_cascade, sigma_exact

sigma_exact(epsilon=0.5, delta="1e-6", sensitivity_squared=1)
calibrate_cascade(10.0, epsilon=1, delta="1e-6")
'''


def _mypy(tmp_path: Path, code: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "user_code.py"
    path.write_text(code, encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--follow-imports=silent", str(path)],
        capture_output=True, text=True, cwd=root, check=False,
    )


def test_exact_calls_type_check(tmp_path: Path) -> None:
    result = _mypy(tmp_path, USER_CODE)
    assert result.returncode == 0, result.stdout


def test_a_float_for_an_exact_rational_is_flagged(tmp_path: Path) -> None:
    result = _mypy(tmp_path, MISUSE)
    assert result.returncode == 1
    assert 'Argument "epsilon" to "sigma_exact" has incompatible type "float"' in result.stdout
    assert 'Argument 1 to "calibrate_cascade" has incompatible type "float"' in result.stdout


MISSPELT_OPTIONS = '''
from reference.kary.counters import algorithm_1
from reference import calibrate_cascade

algorithm_1([1, 0, 1], 3, 1, noise="laplce")
calibrate_cascade(3, epsilon=1, delta="1e-6", neighbours="add-remove")
'''


def test_a_misspelt_string_option_is_flagged(tmp_path: Path) -> None:
    # the options are Literal types, so the user's own type checker catches the typo before anything runs
    result = _mypy(tmp_path, MISSPELT_OPTIONS)
    assert result.returncode == 1
    assert 'Argument "noise" to "algorithm_1" has incompatible type "Literal[\'laplce\']"' in result.stdout
    assert (
        'Argument "neighbours" to "calibrate_cascade" has incompatible type "Literal[\'add-remove\']"' in result.stdout
    )


SWAPPED = '''
from reference import audit_gaussian
from reference.privacy.gaussian import check_gaussian

check_gaussian(3, "1/2", "1/100", "1/4")
audit_gaussian(3, "1/2", "1/100", "1/4")
'''


def test_exact_numbers_passed_by_position_are_flagged(tmp_path: Path) -> None:
    result = _mypy(tmp_path, SWAPPED)
    assert result.returncode == 1
    assert 'Too many positional arguments for "check_gaussian"' in result.stdout
    assert 'Too many positional arguments for "audit_gaussian"' in result.stdout
