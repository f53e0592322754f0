"""The documentation site builds from the ``[docs]`` extra alone: autodoc imports every module of ``reference`` and
``reference_verification``, so every third-party package a module imports when it is loaded (at module level,
not inside a function or under ``TYPE_CHECKING``) must come with the core install or the ``[docs]`` extra. CI
(.ci/run) builds the site in a fresh environment with only that extra; this test names the missing package
before a build fails."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent
#: import name -> distribution name, for the third-party packages the code imports
DISTRIBUTIONS = {"numpy": "numpy", "scipy": "scipy", "sympy": "sympy", "mpmath": "mpmath", "flint": "python-flint",
                 "matplotlib": "matplotlib", "hypothesis": "hypothesis", "markdown_it": "markdown-it-py",
                 "dask": "dask", "distributed": "distributed", "pytest": "pytest", "jsonschema": "jsonschema"}
FIRST_PARTY = {"reference", "reference_verification"}


def _loaded_imports(tree: ast.Module) -> set[str]:
    """Top-level names of the modules imported when the module is loaded (module level, try blocks included;
    ``if TYPE_CHECKING:`` blocks and function bodies excluded)."""
    found: set[str] = set()

    def visit(statements: list[ast.stmt]) -> None:
        for node in statements:
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
            elif isinstance(node, ast.Try):
                visit(node.body)
            elif isinstance(node, ast.If) and "TYPE_CHECKING" not in ast.unparse(node.test):
                visit(node.body)
                visit(node.orelse)

    visit(tree.body)
    return found


def _requirement_names(requirements: list[str]) -> set[str]:
    return {re.split(r"[<>=\[;\s]", requirement, maxsplit=1)[0].lower() for requirement in requirements}


def test_every_package_a_documented_module_imports_comes_with_the_docs_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    available = _requirement_names(project["dependencies"]) | _requirement_names(
        project["optional-dependencies"]["docs"])
    missing: dict[str, str] = {}
    for folder in ("reference", "verification"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for name in _loaded_imports(ast.parse(path.read_text(encoding="utf-8"))):
                if name in sys.stdlib_module_names or name in FIRST_PARTY or name == "__future__":
                    continue
                assert name in DISTRIBUTIONS, f"{path.relative_to(ROOT)} imports {name}: add its distribution here"
                if DISTRIBUTIONS[name].lower() not in available:
                    missing.setdefault(DISTRIBUTIONS[name], str(path.relative_to(ROOT)))
    assert not missing, f"add to the [docs] extra (or the core): {missing}"
