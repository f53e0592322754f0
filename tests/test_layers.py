"""The layers hold: no module of the library imports a layer above its own, nor a sibling package of its layer,
and the library never imports the verification of the papers.

Library order, bottom to top: ``core`` ← ``privacy``, ``samplers`` ← ``cip``, ``kary``, ``tda`` ←
``audit`` ← ``testing`` ← ``cli``. A module may import its own package and any lower layer. Imports inside
functions and under ``TYPE_CHECKING`` count: a lazy import is still a dependency. ``reference/__init__.py`` (the
public map) and ``reference/__main__.py`` sit above everything. Above the whole library sits the verification
(``verification/``, installed as ``reference_verification``): it imports ``reference``, never the reverse, and the
library does not even name it: the ``report`` command arrives through an entry point (``reference/cli/plugins.py``).

A crossing between library layers that is really needed goes into ``CROSSINGS`` with its reason; today there is
none.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from reference import FACES

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "reference"

#: Layer of each top-level subpackage of ``reference`` that is not a paper's; equal numbers are siblings that must
#: not import each other.
SHARED_LAYERS: dict[str, int] = {
    "core": 0,
    "privacy": 1,
    "samplers": 1,
    "audit": 3,
    "testing": 4,
    "cli": 5,
}
#: The layer of the papers' packages: every package of the public face (``reference.FACES``) not named above is a
#: paper's (``cip``, ``kary``, ``tda``), so a new paper's package takes its layer with no entry here.
PAPER_LAYER = 2
#: Layer of each top-level subpackage of ``reference``.
LAYERS: dict[str, int] = {
    **SHARED_LAYERS,
    **{package: PAPER_LAYER for package in FACES if package not in SHARED_LAYERS},
}
#: The verification's package name: no module of the library may import it.
VERIFICATION = "reference_verification"
#: Top-level modules of ``reference`` that may import every layer.
TOP = {"__init__", "__main__"}
#: (importing subpackage, imported subpackage) -> the documented reason it is allowed.
CROSSINGS: dict[tuple[str, str], str] = {}


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


def _imported_modules(path: Path, module: str) -> list[tuple[int, str]]:
    """Every module ``path`` imports from the package (absolute, relative, lazy), with its line number."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # ``from reference import cip`` imports the subpackage: name it
            if target == PACKAGE:
                found += [(node.lineno, f"{PACKAGE}.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, target))
    return [
        (line, name)
        for line, name in found
        if name in (PACKAGE, VERIFICATION) or name.startswith((PACKAGE + ".", VERIFICATION + "."))
    ]


def _layer_of(module: str) -> tuple[str, int] | None:
    """(subpackage, layer) of a module of the package; None for the top-level map."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1] in TOP:
        return None
    if parts[1] not in LAYERS:
        raise KeyError(parts[1])
    return parts[1], LAYERS[parts[1]]


def layer_violations(root: Path) -> list[str]:
    """Every import under ``root/reference`` that goes up or sideways, as 'file:line: a -> b (why)'."""
    problems: list[str] = []
    for path in sorted((root / PACKAGE).rglob("*.py")):
        module = _module_name(path, root)
        try:
            own = _layer_of(module)
        except KeyError as unknown:
            problems.append(f"{path.relative_to(root)}: module outside every layer ({unknown.args[0]})")
            continue
        if own is None:
            continue
        for line, target in _imported_modules(path, module):
            if target.split(".")[0] == VERIFICATION:
                problems.append(f"{path.relative_to(root)}:{line}: {module} -> {target} (the library imports the verification)")
                continue
            if target == PACKAGE:
                problems.append(f"{path.relative_to(root)}:{line}: {module} -> {target} (the top-level map)")
                continue
            try:
                other = _layer_of(target)
            except KeyError as unknown:
                problems.append(f"{path.relative_to(root)}:{line}: {module} -> {target} (no layer: {unknown.args[0]})")
                continue
            if other is None:
                problems.append(f"{path.relative_to(root)}:{line}: {module} -> {target} (the top-level map)")
                continue
            if other[0] == own[0] or (own[0], other[0]) in CROSSINGS:
                continue
            if other[1] > own[1]:
                problems.append(f"{path.relative_to(root)}:{line}: {module} -> {target} (up: {own[0]} below {other[0]})")
            elif other[1] == own[1]:
                problems.append(f"{path.relative_to(root)}:{line}: {module} -> {target} (sideways: {own[0]}, {other[0]})")
    return problems


def test_no_import_goes_up_or_sideways() -> None:
    assert layer_violations(ROOT) == []


def test_every_crossing_has_a_reason() -> None:
    for pair, reason in CROSSINGS.items():
        assert reason.strip(), pair


def _plant(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_planted_upward_import_is_caught(tmp_path: Path) -> None:
    root = _plant(
        tmp_path,
        {
            "reference/__init__.py": "from reference.cip import mechanism\n",
            "reference/core/__init__.py": "",
            "reference/core/linalg.py": "def f():\n    from reference.cip import mechanism  # lazy, still a dependency\n",
            "reference/cip/__init__.py": "",
            "reference/cip/mechanism.py": "from reference.core.linalg import f\nfrom . import tree\n",
            "reference/cip/tree.py": "",
        },
    )
    problems = layer_violations(root)
    assert len(problems) == 1
    assert "reference/core/linalg.py:2" in problems[0] and "up: core below cip" in problems[0]


def test_a_planted_sideways_import_is_caught(tmp_path: Path) -> None:
    root = _plant(
        tmp_path,
        {
            "reference/kary/__init__.py": "",
            "reference/kary/mse.py": "from reference.cip.exact import matrix\n",
            "reference/samplers/numeric.py": "from ..privacy import zcdp\n",
            "reference/audit/x.py": "import reference\n",
            "reference/extra.py": "",
        },
    )
    problems = layer_violations(root)
    assert any("sideways: kary, cip" in p for p in problems)
    assert any("sideways: samplers, privacy" in p for p in problems)
    assert any("reference.audit.x -> reference (the top-level map)" in p for p in problems)
    assert any("module outside every layer (extra.py" in p or "outside every layer (extra)" in p for p in problems)
    assert len(problems) == 4


def test_a_planted_import_of_the_verification_is_caught(tmp_path: Path) -> None:
    root = _plant(
        tmp_path,
        {
            "reference/__init__.py": "",
            "reference/cip/__init__.py": "",
            "reference/cip/mechanism.py": "def f():\n    from reference_verification.cip.claims import common\n",
            "reference/cli/report.py": "import reference_verification.report\n",
        },
    )
    problems = layer_violations(root)
    assert len(problems) == 2
    assert all("the library imports the verification" in problem for problem in problems)


def verification_violations(root: Path) -> list[str]:
    """Imports in ``verification/`` of a module that is neither ``reference`` nor the verification itself."""
    problems: list[str] = []
    for path in sorted((root / "verification").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in ("verification", "examples", "tests", "benchmarks"):
                    problems.append(f"{path.relative_to(root)}:{node.lineno}: imports {name} (not installed)")
    return problems


def test_the_verification_imports_only_what_is_installed() -> None:
    """``verification/`` imports ``reference`` and itself (relatively): never the checkout's other folders."""
    assert verification_violations(ROOT) == []


def test_a_planted_checkout_import_in_the_verification_is_caught(tmp_path: Path) -> None:
    root = _plant(tmp_path, {"verification/report.py": "from examples.helpers import correct\nfrom .claims import x\n"})
    assert verification_violations(root) == ["verification/report.py:1: imports examples.helpers (not installed)"]


def test_the_distribution_installs_two_distinctive_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """``pip install .`` adds ``reference`` and ``reference_verification`` and no other top-level name."""
    setuptools = pytest.importorskip("setuptools", reason="setup.py lists the packages through setuptools: python -m pip install setuptools")
    captured: dict[str, object] = {}
    monkeypatch.setattr(setuptools, "setup", lambda **kwargs: captured.update(kwargs))
    monkeypatch.chdir(ROOT)
    source = (ROOT / "setup.py").read_text(encoding="utf-8")
    exec(compile(source, str(ROOT / "setup.py"), "exec"), {"__name__": "setup"})
    packages = captured["packages"]
    assert isinstance(packages, list)
    assert {name.split(".")[0] for name in packages} == {PACKAGE, VERIFICATION}
    assert "reference_verification.cip.claims" in packages and "reference.cip.exact" in packages
    # the Coq sources ship inside the verification package (data only, no top-level name of their own)
    assert captured["package_dir"] == {VERIFICATION: "verification", f"{VERIFICATION}.coq_sources": "proofs/coq"}
    assert not (ROOT / "proofs" / "__init__.py").exists()


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_every_layer_exists(layer: str) -> None:
    assert (ROOT / PACKAGE / layer / "__init__.py").is_file() or (ROOT / PACKAGE / f"{layer}.py").is_file()


def named_verification(root: Path) -> list[str]:
    """Every string in the library's code (docstrings aside) that names the verification package or its folder:
    a name the library could load it by."""
    found = []
    for path in sorted((root / PACKAGE).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        docstrings = {
            id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
                    and (VERIFICATION in node.value or node.value.strip("/") == "verification")):
                found.append(f"{path.relative_to(root)}:{node.lineno}: {node.value[:60]!r}")
    return found


def test_the_library_never_names_the_verification() -> None:
    assert named_verification(ROOT) == []


def test_a_named_verification_is_caught(tmp_path: Path) -> None:
    root = _plant(tmp_path, {"reference/__init__.py": "", "reference/cli/x.py": f"NAME = {VERIFICATION!r}\n"})
    assert [line.split(":")[0] for line in named_verification(root)] == [str(Path("reference/cli/x.py"))]
