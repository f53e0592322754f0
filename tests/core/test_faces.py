"""The public face: every subpackage of ``reference`` declares ``__all__``; the top-level face is built from the
subpackages' faces (each public name written once, in its subpackage) and writes no public name itself; and every
module a docstring names exists.

A subpackage states each public name in ``__all__`` and imports it under ``if TYPE_CHECKING:`` (the type checker
reads its type there; at run time :mod:`reference.core.face` imports it on first use).
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

import reference
from reference.core.face import face_sources

ROOT = Path(__file__).resolve().parents[2]
PACKAGE_DIR = ROOT / "reference"


def _name(path: Path, base: Path = ROOT) -> str:
    parts = path.relative_to(base).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


PACKAGES = sorted(_name(path) for path in PACKAGE_DIR.rglob("__init__.py") if path.parent != PACKAGE_DIR)
MODULES = {_name(path) for path in PACKAGE_DIR.rglob("*.py")}


@pytest.mark.parametrize("package", PACKAGES)
def test_every_subpackage_declares_its_face(package: str) -> None:
    module = importlib.import_module(package)
    names = vars(module).get("__all__")
    assert isinstance(names, list), f"{package} has no __all__"
    source = Path(str(module.__file__)).read_text(encoding="utf-8")
    sources = face_sources(package, source)
    if package == "reference.testing":  # its assertions are defined in the package itself, not imported lazily
        assert all(callable(getattr(module, name)) for name in names)
        return
    assert sorted(names) == sorted(sources), f"{package}: __all__ and the TYPE_CHECKING imports differ"
    for name in names:
        assert f"{package}.{name}" not in MODULES, f"{package}.{name} is both a module and a face name"
        assert getattr(module, name) is not None


def test_the_top_level_face_is_the_union_of_the_subpackages_faces() -> None:
    faces = [name for package in reference.FACES for name in importlib.import_module(f"reference.{package}").__all__]
    assert len(faces) == len(set(faces)), "a name on two faces"
    assert sorted(reference.__all__) == sorted(["__version__", *faces])
    for name in faces:
        assert getattr(reference, name) is getattr(importlib.import_module(_owner(name)), name)


def _owner(name: str) -> str:
    return next(f"reference.{package}" for package in reference.FACES
                if name in importlib.import_module(f"reference.{package}").__all__)


def test_the_top_level_writes_no_public_name() -> None:
    """``reference/__init__.py`` names a public name in no string and no import: the faces do (deprecated
    aliases aside, which are not public)."""
    tree = ast.parse((PACKAGE_DIR / "__init__.py").read_text(encoding="utf-8"))
    public = set(reference.__all__) - {"__version__"}
    strings = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    imported = {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                for alias in node.names}
    assert not (strings | imported) & public


def test_a_deprecated_alias_warns_and_is_not_public() -> None:
    for name, (module, attribute, replacement) in reference.DEPRECATED.items():
        assert name not in reference.__all__
        with pytest.warns(DeprecationWarning, match=replacement):
            value = getattr(reference, name)
        assert value is getattr(importlib.import_module(module), attribute)


#: ``:mod:`reference.core.face``` or ``:mod:`~reference.audit.linear.audit``` or ``:mod:`.topdown```.
_MOD_ROLE = re.compile(r":mod:`~?([.\w]+)`")
#: In a package's docstring, a module or folder of the package named in double back-quotes (``tree``, ``exact/``)
#: at the start of a listing: a lower-case identifier followed by a space and an opening parenthesis, or a folder.
_LISTED = re.compile(r"``([a-z_][a-z0-9_]*)(/?)``(?=\s*\(|/|,|\s+and\b|\s+each\b)")


def _docstring_modules(path: Path, base: Path = ROOT, installed: dict[str, str] | None = None) -> list[str]:
    """The modules ``path``'s docstrings name: every ``:mod:`` role, and in a library package's own docstring
    every listed ``name`` (a module of the package)."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    module = _name(path, base)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            text = ast.get_docstring(node) or ""
            for target in _MOD_ROLE.findall(text):
                for name, folder in (installed or {}).items():  # the verification is imported by another name
                    if target == name or target.startswith(name + "."):
                        target = folder + target[len(name):]
                if target.startswith("."):
                    found.append(importlib.util.resolve_name(target, package))
                elif target.split(".")[0] == package.split(".")[0]:
                    found.append(target)
    # the listing is the library's convention for its packages' docstrings (the top level's map is a table)
    if path.name == "__init__.py" and package.startswith("reference.") and installed is None:
        text = ast.get_docstring(tree) or ""
        found += [f"{package}.{name}" for name, _ in _LISTED.findall(text)]
    return found


def missing_modules(root: Path, installed: dict[str, str] | None = None) -> list[str]:
    """Every module a docstring under ``root`` names that does not exist (``installed``: the name a folder is
    imported by, when it is not the folder's own)."""
    modules = {_name(path, root.parent) for path in root.rglob("*.py")}
    return sorted(f"{path.relative_to(root.parent)}: {name}" for path in root.rglob("*.py")
                  for name in _docstring_modules(path, root.parent, installed) if name not in modules)


def test_every_module_a_docstring_names_exists() -> None:
    assert missing_modules(PACKAGE_DIR) == []
    assert missing_modules(ROOT / "verification", {"reference_verification": "verification"}) == []


def test_a_docstring_naming_a_moved_module_is_caught(tmp_path: Path) -> None:
    package = tmp_path / "reference"
    (package / "kary").mkdir(parents=True)
    (package / "__init__.py").write_text('"""``depth`` (a word of the map, not a module)."""\n', encoding="utf-8")
    (package / "kary" / "__init__.py").write_text(
        '"""``tree`` (vertices), ``claims/`` (moved), ``mse`` and ``digits``."""\n', encoding="utf-8")
    (package / "kary" / "tree.py").write_text('"""See :mod:`.mse` and :mod:`reference.kary.tree`."""\n', encoding="utf-8")
    assert missing_modules(package) == [
        "reference/kary/__init__.py: reference.kary.claims",
        "reference/kary/__init__.py: reference.kary.mse",
        "reference/kary/tree.py: reference.kary.mse",
    ]
