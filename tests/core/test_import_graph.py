"""The library's import graph: no circle inside any package, no private name used across modules.

Imports are read with ``ast`` from the source (module-level and the lazy ones inside functions alike: a lazy
import that closes a circle is still a circle, only hidden). Every module of ``reference/`` is ruled; the
verification of the papers (``verification/``) is outside the library.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "reference"

#: Modules of the library exempt from these rules (none: the verification of the papers is outside ``reference/``).
NOT_RULED: tuple[str, ...] = ()


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in ROOT.rglob("*.py")}


def ruled(module: str) -> bool:
    return not any(module.startswith(prefix) or prefix in module for prefix in NOT_RULED)


def imports_of(module: str, source: str) -> list[tuple[str, str | None, str]]:
    """(imported module, imported name or None, alias in this file) for every ``reference`` import."""
    found: list[tuple[str, str | None, str]] = []
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target == "reference" or target.startswith("reference."):
                found += [(target, alias.name, alias.asname or alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(alias.name, None, alias.asname or alias.name.partition(".")[0]) for alias in node.names
                      if alias.name.startswith("reference")]
    return found


def import_graph(modules: dict[str, str]) -> dict[str, set[str]]:
    """module → the reference modules it imports (``from package import module`` counts as the module)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for module, source in modules.items():
        for target, name, _ in imports_of(module, source):
            full = f"{target}.{name}" if name else target
            graph[module].add(full if full in MODULES else target)
    return graph


def circles(graph: dict[str, set[str]], members: set[str]) -> list[list[str]]:
    """The strongly connected components with more than one module among ``members`` (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph.get(node, set()) & members):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(members):
        if node not in index:
            visit(node)
    return found


def package_circles(sources: dict[str, str]) -> list[list[str]]:
    """Circles inside each package (the modules of one folder importing each other round), ruled modules only."""
    graph = import_graph(sources)
    by_package: dict[str, set[str]] = defaultdict(set)
    for module in sources:
        if ruled(module) and MODULES[module].name != "__init__.py":
            by_package[module.rpartition(".")[0]].add(module)
    return [circle for members in by_package.values() for circle in circles(graph, members)]


def private_uses(sources: dict[str, str]) -> list[str]:
    """``from other import _name``, and ``alias._name`` with ``alias`` a module imported from ``reference``."""
    found = []
    for module, source in sources.items():
        if not ruled(module):
            continue
        module_aliases = set()
        for target, name, alias in imports_of(module, source):
            full = f"{target}.{name}" if name else target
            if name is not None and name.startswith("_") and not name.startswith("__") and target != module:
                found.append(f"{module}: from {target} import {name}")
            if full in MODULES or (name is None and target in MODULES):
                module_aliases.add(alias)
        for node in ast.walk(ast.parse(source)):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                    and isinstance(node.value, ast.Name) and node.value.id in module_aliases):
                found.append(f"{module}: {node.value.id}.{node.attr}")
    return found


SOURCES = {module: path.read_text(encoding="utf-8") for module, path in MODULES.items()}


def test_no_package_of_the_library_has_an_import_circle() -> None:
    assert package_circles(SOURCES) == []


def test_no_private_name_is_used_across_modules() -> None:
    assert private_uses(SOURCES) == []


def test_the_checks_catch_a_planted_circle_and_a_planted_private_use() -> None:
    planted = dict(SOURCES)
    planted["reference.audit.samples.sufficient"] += "\n\ndef _late() -> None:\n    from reference.audit.samples import audit as samplers\n"
    planted["reference.audit.samples.design"] += "\nfrom reference.audit.samples.report import _hidden\n"
    planted["reference.core.verdict"] += "\nfrom reference.core import validate\nvalidate._secret\n"
    assert any("reference.audit.samples.sufficient" in circle for circle in package_circles(planted))
    found = private_uses(planted)
    assert "reference.audit.samples.design: from reference.audit.samples.report import _hidden" in found
    assert "reference.core.verdict: validate._secret" in found


def test_the_audit_package_is_ruled_and_acyclic() -> None:
    audit = {module for module in MODULES if module.startswith("reference.audit.") and ruled(module)}
    assert {"reference.audit.samples.audit", "reference.audit.samples.design_audit", "reference.audit.samples.design_moments",
            "reference.audit.samples.whitened_moments", "reference.audit.samples.cascade_stream"} <= audit
    assert circles(import_graph(SOURCES), audit) == []


def family_crossings(graph: dict[str, set[str]]) -> list[str]:
    """Imports from one audit family (``linear``, ``samples``) into the other: each family stands on the shared
    layers below ``reference.audit`` only, so that either can be read, changed or moved alone."""
    families = ("reference.audit.linear", "reference.audit.samples")
    found = []
    for module, targets in graph.items():
        own = [family for family in families if module == family or module.startswith(family + ".")]
        for target in targets:
            other = [family for family in families if target == family or target.startswith(family + ".")]
            if own and other and own != other:
                found.append(f"{module} -> {target}")
    return sorted(found)


def test_the_two_audit_families_do_not_import_each_other() -> None:
    graph = import_graph(SOURCES)
    assert {module for module in MODULES if module.startswith("reference.audit.linear.")}
    assert {module for module in MODULES if module.startswith("reference.audit.samples.")}
    assert family_crossings(graph) == []
    planted = dict(SOURCES)
    planted["reference.audit.linear.lattice"] += "\nfrom reference.audit.samples import report\n"
    assert family_crossings(import_graph(planted)) == ["reference.audit.linear.lattice -> reference.audit.samples.report"]
