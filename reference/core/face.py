"""A package's public face, imported on first use.

A subpackage of ``reference`` states its public names once, in ``__all__``, and where each comes from in an
``if TYPE_CHECKING:`` block of imports (which the type checker reads as the names' real types). At run time
nothing of that block is imported: :func:`lazy_face` gives the package a module ``__getattr__`` (PEP 562) that
reads the block from the package's source on the first access to a public name, imports that one name and keeps
it, so ``import reference`` and the command line's start-up do not pay for sympy or scipy.

A name of the face must not be the name of one of the package's own modules (``reference.kary.digits`` is the
module; its function ``digits`` is not on the package's face): the import system sets a package attribute for
each module it imports, and the two would replace each other.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path

#: The type checker's flag, as the face's import block is guarded.
_GUARD = "TYPE_CHECKING"


def face_sources(package: str, source: str) -> dict[str, tuple[str, str]]:
    """public name -> (module, attribute; '' for a module itself) read from ``source``'s ``if TYPE_CHECKING:``
    block of ``from … import …`` statements (relative ones resolved against ``package``).

    Args:
        package: the dotted name of the package (``"reference.kary"``), against which relative imports resolve.
        source: the Python source text of the package's ``__init__``.
    """
    found: dict[str, tuple[str, str]] = {}
    for node in ast.parse(source).body:
        if not (isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == _GUARD):
            continue
        for statement in node.body:
            if not isinstance(statement, ast.ImportFrom):
                continue
            origin = importlib.util.resolve_name("." * statement.level + (statement.module or ""), package)
            for alias in statement.names:
                found[alias.asname or alias.name] = (origin, alias.name)
    return found


def _resolve(origin: str, attribute: str) -> object:
    module = importlib.import_module(origin)
    try:
        return getattr(module, attribute)
    except AttributeError:  # a module of the package, not yet imported: ``from .exact import errors``
        return importlib.import_module(f"{origin}.{attribute}")


def lazy_face(package: str) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for the package named ``package`` (call it from the package's
    ``__init__``, which must define ``__all__`` and the ``if TYPE_CHECKING:`` block of its names).

    Args:
        package: the dotted name of the package, as in ``sys.modules`` (pass ``__name__``).
    """
    sources: dict[str, tuple[str, str]] = {}

    def attribute(name: str) -> object:
        namespace = vars(sys.modules[package])
        if name not in namespace.get("__all__", ()):
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        if not sources:
            path = Path(str(namespace["__file__"]))
            sources.update(face_sources(package, path.read_text(encoding="utf-8")))
        if name not in sources:
            raise AttributeError(f"module {package!r} lists {name!r} in __all__ but does not say where it comes from")
        value = _resolve(*sources[name])
        namespace[name] = value  # later accesses skip this function
        return value

    def listing() -> list[str]:
        namespace = vars(sys.modules[package])
        return sorted(set(namespace) | set(namespace.get("__all__", ())))

    return attribute, listing
