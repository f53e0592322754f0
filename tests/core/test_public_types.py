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

sigma_exact("1/2", "1e-6", Fraction(13, 3))
calibrate_cascade(10, 1, "1e-6")
gaussian_delta(Fraction(1), 2, "1")
'''
MISUSE = '''
from reference import calibrate_cascade, sigma_exact

sigma_exact(0.5, "1e-6", 1)
calibrate_cascade(10.0, 1, "1e-6")
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
    assert 'Argument 1 to "sigma_exact" has incompatible type "float"' in result.stdout
    assert 'Argument 1 to "calibrate_cascade" has incompatible type "float"' in result.stdout
