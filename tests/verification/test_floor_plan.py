"""The verification's floor plan: no module imports a floor above its own or a neighbour on its floor, and the
import graph of ``verification/`` has no circle.

Floors, bottom to top (a module may import its own component and any lower floor; imports inside functions and
under ``TYPE_CHECKING`` count, as in ``tests/test_layers.py``; there is no exemption):

0. ground: the claim and proof vocabulary (``core``), the table of papers (``papers``), the HTML renderer, the
   progress clock, the checkout loader and the reader of Coq's text;
1. checks shared by the papers (``samplers``, ``audit``), the planted implementations;
2. the papers' packages (``cip``, ``kary``, ``tda``: claims, checks, proofs, the tables of their text);
3. what iterates the papers: the registry, the links, the plots, and the gathered tables of the papers' text
   (``unregistered``, ``prose_claims``, ``proof_pass``);
4. tools over the registry and those tables: the Coq toolchain, the prose scan;
5. evidence read off a run: proof levels, provenance, the audit cases, and the coverage of the papers' index;
6. the parallel run and the index generator; 7. the report; 8. the ``report`` command.

The registry, the links and the gathered tables import the papers' packages by name from the table of papers
(``importlib``): those arrows are not in the source's import statements, and the floors put them above the papers
all the same.
"""

from __future__ import annotations

import ast
import graphlib
from collections import defaultdict
from pathlib import Path

import pytest
from reference_verification.papers import PAPERS

ROOT = Path(__file__).resolve().parents[2]
FOLDER = "verification"
#: The name the folder is installed (and imported) as.
PACKAGE = "reference_verification"

#: The floor of the papers' packages (one per row of the table of papers: a new paper needs no entry here).
PAPER_FLOOR = 2
#: Floor of each top-level module or subpackage of ``verification/``; equal floors must not import each other.
FLOORS: dict[str, int] = {
    "core": 0, "papers": 0, "html": 0, "checkout": 0, "progress": 0, "coq_text": 0,
    "samplers": 1, "audit": 1, "planted": 1, "coq_answers": 1, "coq_audit_theorems": 1,
    **{paper.package: PAPER_FLOOR for paper in PAPERS},
    "registry": 3, "links": 3, "plots": 3, "prose_claims": 3, "unregistered": 3, "proof_pass": 3,
    "coq": 4, "prose": 4,
    "levels": 5, "provenance": 5, "audits": 5, "completeness": 5,
    "parallel": 6, "index_statements": 6,
    "report": 7,
    "cli": 8,
}


def module_names(root: Path) -> dict[str, Path]:
    """Every module of ``root/verification`` by its installed dotted name (a package by its own name)."""
    names = {}
    for path in sorted((root / FOLDER).rglob("*.py")):
        parts = [PACKAGE, *path.relative_to(root / FOLDER).with_suffix("").parts]
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


def imports(root: Path) -> dict[str, list[tuple[int, str]]]:
    """module -> (line, imported verification module) for every import of the verification, relative or absolute,
    lazy or not; ``from package import name`` counts as the module ``package.name`` when there is one."""
    modules = module_names(root)
    found: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    origin = ".".join(base + ([node.module] if node.module else []))
                else:
                    origin = node.module or ""
                targets = [f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in modules else origin
                           for alias in node.names]
            else:
                continue
            found[module] += [(node.lineno, target) for target in targets
                              if target == PACKAGE or target.startswith(PACKAGE + ".")]
    return found


def floor_violations(root: Path) -> list[str]:
    """Every import in ``root/verification`` that goes up or sideways, as 'file:line: a -> b (why)'."""
    problems = []
    modules = module_names(root)
    found = imports(root)
    for module in modules:
        targets = found.get(module, [])
        where = modules[module].relative_to(root)
        if module == PACKAGE:
            problems += [f"{where}:{line}: {module} -> {target} (the package's face imports nothing)"
                         for line, target in targets]
            continue
        own = module.split(".")[1]
        if own not in FLOORS:
            problems.append(f"{where}: module outside every floor ({own})")
            continue
        for line, target in targets:
            other = target.split(".")[1] if "." in target else None
            if other is None or other not in FLOORS:
                problems.append(f"{where}:{line}: {module} -> {target} (no floor: {other})")
            elif other != own and FLOORS[other] > FLOORS[own]:
                problems.append(f"{where}:{line}: {module} -> {target} (up: {own} below {other})")
            elif other != own and FLOORS[other] == FLOORS[own]:
                problems.append(f"{where}:{line}: {module} -> {target} (sideways: {own}, {other})")
    return sorted(problems)


def import_circle(root: Path) -> tuple[str, ...] | None:
    """A circle of imports among the modules of ``root/verification`` (a package's ``__init__`` imports its
    modules, so an edge into a package is read as into its ``__init__`` only when no module is named), or None."""
    graph = {module: {target for _, target in targets if target != module} for module, targets in imports(root).items()}
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        return tuple(error.args[1])
    return None


def test_no_import_goes_up_or_sideways() -> None:
    assert floor_violations(ROOT) == []


def test_the_import_graph_has_no_circle() -> None:
    assert import_circle(ROOT) is None


@pytest.mark.parametrize("component", sorted(FLOORS))
def test_every_floor_component_exists(component: str) -> None:
    assert (ROOT / FOLDER / component / "__init__.py").is_file() or (ROOT / FOLDER / f"{component}.py").is_file()


def test_every_component_has_a_floor() -> None:
    present = {path.stem if path.is_file() else path.name for path in (ROOT / FOLDER).iterdir()
               if (path.suffix == ".py" and path.stem != "__init__") or (path / "__init__.py").is_file()}
    assert present == set(FLOORS)


def _plant(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / FOLDER / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_planted_upward_sideways_or_lazy_import_is_caught(tmp_path: Path) -> None:
    root = _plant(tmp_path, {
        "__init__.py": "",
        "core/__init__.py": "",
        "core/claims.py": "def f():\n    from ..report import run_report  # lazy, still a dependency\n",
        "coq.py": "from .core.claims import f\n",
        "prose.py": "from . import coq\n",
        "report.py": "from reference_verification.coq import x\nfrom .extra import y\n",
        "extra.py": "",
    })
    problems = floor_violations(root)
    assert any("core/claims.py:2" in p and "up: core below report" in p for p in problems)
    assert any("sideways: prose, coq" in p for p in problems)
    assert any("module outside every floor (extra)" in p for p in problems)
    assert any("no floor: extra" in p for p in problems)
    assert len(problems) == 4


def test_a_planted_circle_is_caught(tmp_path: Path) -> None:
    root = _plant(tmp_path, {
        "__init__.py": "",
        "coq.py": "def main():\n    from .report import build_registry\n",
        "report.py": "from .coq import Evidence\n",
        "papers.py": "",
    })
    circle = import_circle(root)
    assert circle is not None and set(circle) == {f"{PACKAGE}.coq", f"{PACKAGE}.report"}
