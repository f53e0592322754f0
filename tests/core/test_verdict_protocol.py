"""Every audit and check result exposes the one verdict protocol: ``verdict``, ``summary()``, ``as_json()``.

The result classes are found, not listed: every class of the library and of the verification of the papers whose
body defines ``verdict``, ``holds`` or ``summary``. A grid point of a result (a class
named ``...Point`` that only carries a ``holds`` or ``verdict`` for its result to combine) is a part, not a result.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import json
from pathlib import Path

import pytest

from reference.audit.calibration import audit_gaussian
from reference.audit.linear.audit import audit_linear_noise
from reference.core.verdict import VERDICTS, Decided, Judged, VerdictResult, verdict_of

ROOT = Path(__file__).resolve().parents[2] / "reference"
#: the two packages and the name each installs as
PACKAGES = ((ROOT, "reference"), (ROOT.parent / "verification", "reference_verification"))


def _result_classes() -> list[tuple[str, str]]:
    found = []
    for root, package in PACKAGES:
        found += _classes_under(root, package)
    return found


def _classes_under(root: Path, package: str) -> list[tuple[str, str]]:
    found = []
    for path in sorted(root.rglob("*.py")):
        if path == ROOT / "core" / "verdict.py":
            continue  # (the protocol's own module defines the bases)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if not isinstance(node, ast.ClassDef) or any(ast.unparse(base) == "Protocol" for base in node.bases):
                continue
            names = {item.name for item in node.body if isinstance(item, ast.FunctionDef)}
            names |= {item.target.id for item in node.body
                      if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)}
            if names & {"verdict", "holds", "summary"} and not node.name.endswith("Point"):
                parts = path.relative_to(root).with_suffix("").parts
                module = ".".join((package, *(parts[:-1] if parts[-1] == "__init__" else parts)))
                found.append((module, node.name))
    return found


#: Classes of the verification that carry a word named ``verdict`` but are not audit or check results.
NOT_RESULTS = {
    "AuditCase": "a row of the report's audits table: its verdict is copied from an audit result that has the protocol",
    "Evidence": "what one run found about a Coq theorem: 'closed', 'not compiled here' or a failure, not a claim's verdict",
}
RESULT_CLASSES = [(module, name) for module, name in _result_classes() if name not in NOT_RESULTS]


def test_the_enumeration_finds_the_results_of_every_kind() -> None:
    names = {name for _, name in RESULT_CLASSES}
    # one of each family: calibration audits, sampler audits, linear-noise audit, paper checks, sampler checks
    assert {"CalibrationVerdict", "SamplerAuditReport", "LinearNoiseVerdict", "EpsilonComparison",
            "StatisticalCheck", "GaussianVerdict", "LaplaceVerdict", "LatticeLeak"} <= names
    assert len(RESULT_CLASSES) >= 45


@pytest.mark.parametrize(("module", "name"), RESULT_CLASSES, ids=[name for _, name in RESULT_CLASSES])
def test_every_result_class_has_the_protocol(module: str, name: str) -> None:
    cls = getattr(importlib.import_module(module), name)
    verdict = inspect.getattr_static(cls, "verdict", None)
    fields = {field.name: field for field in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else {}
    assert isinstance(verdict, property) or "verdict" in fields, f"{name} has no verdict"
    assert callable(getattr(cls, "summary", None)), f"{name} has no summary()"
    assert callable(getattr(cls, "as_json", None)), f"{name} has no as_json()"
    assert "describe" not in vars(cls) and "passed" not in vars(cls) and "passed" not in fields, \
        f"{name} still says describe() or passed"
    if "holds" in vars(cls) or "holds" in fields:  # a boolean decision: its verdict comes from it, one way
        assert issubclass(cls, Decided), f"{name} decides by holds but does not derive its verdict from it"
    if not issubclass(cls, Judged):
        assert "as_json" in vars(cls), f"{name} inherits no as_json() and defines none"


@dataclasses.dataclass(frozen=True)
class _Planted(Decided):
    holds: bool
    sigma: object

    def summary(self) -> str:
        return f"planted: {self.verdict}"


def test_decided_results_map_their_boolean_and_write_their_fields() -> None:
    from fractions import Fraction

    for holds, expected in ((True, "holds"), (False, "fails")):
        planted = _Planted(holds, Fraction(3, 7))
        assert isinstance(planted, VerdictResult)
        assert planted.verdict == verdict_of(holds) == expected
        assert planted.as_json() == {"verdict": expected, "summary": f"planted: {expected}", "holds": holds,
                                     "sigma": "3/7"}
    assert set(VERDICTS) == {"holds", "fails", "inconclusive"}


def test_real_results_agree_between_verdict_summary_and_json() -> None:
    cases = [
        (audit_gaussian(sigma="20", sensitivity_squared="1", epsilon="1/2", delta="1e-6"), "holds"),
        (audit_gaussian(sigma="1/10", sensitivity_squared="1", epsilon="1/2", delta="1e-6"), "fails"),
    ]
    lattice = audit_linear_noise([[2]], [[1]], "discrete-laplace", scale=1)  # y = x + 2z leaks the parity of x
    assert lattice.lattice_leak is not None
    cases += [(lattice, "fails"), (lattice.lattice_leak, "fails"),
              (audit_linear_noise([[1]], [[1]], "laplace", scale=2), "holds")]
    for result, expected in cases:
        assert isinstance(result, VerdictResult)
        assert result.verdict == expected
        printed = result.as_json()
        assert printed["verdict"] == expected and printed["summary"] == result.summary() and result.summary()
        json.dumps(printed)  # the JSON form is JSON
