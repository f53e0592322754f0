"""The one documented crossing from the library to the verification of the papers.

The verification (claims registry, cross-checks, proof programs, the report) is the package
``reference_verification``, kept in the repository's top-level ``verification/`` folder and installed beside
``reference`` by ``pip install .``. The library never imports it; the ``report`` command (and the test suite) load
it through :func:`verification_package`, and so does the sampler-function audit when its target is one of the
planted samplers of ``reference_verification.planted``:

* in a source checkout (``verification/`` beside this package's folder) the checkout's copy is loaded under its
  installed name, so that the report and the tests always run the verification that matches this ``reference``
  (an older installed copy never shadows the one being edited);
* otherwise the installed package is imported.

Worker processes started with ``spawn`` call :func:`verification_package` as their initializer, so that the
checkout's copy is found there too.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

NAME = "reference_verification"


class VerificationMissing(ImportError):
    """Neither a checkout's ``verification/`` folder nor an installed ``reference_verification`` was found."""


def checkout_folder() -> Path | None:
    """The ``verification/`` folder of the source checkout this ``reference`` was imported from, if any."""
    folder = Path(__file__).resolve().parent.parent / "verification"
    return folder if (folder / "__init__.py").is_file() else None


def verification_package() -> ModuleType:
    """``reference_verification``: the checkout's copy when there is one, else the installed package."""
    loaded = sys.modules.get(NAME)
    if loaded is not None:
        return loaded
    folder = checkout_folder()
    if folder is not None:
        spec = importlib.util.spec_from_file_location(
            NAME, folder / "__init__.py", submodule_search_locations=[str(folder)]
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[NAME] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[NAME]
            raise
        return module
    try:
        return importlib.import_module(NAME)
    except ModuleNotFoundError as error:
        if error.name != NAME:
            raise
        raise VerificationMissing(
            "the verification of the papers (package reference_verification) is not installed: "
            "run `python -m pip install .` in the source checkout"
        ) from None
