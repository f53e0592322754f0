"""The ``reference`` console script as pip writes it, for tests that run the documented commands from a checkout
where the package is not installed.

pip's launcher for ``[project.scripts] name = "module:function"`` is a file whose first line names the interpreter
and whose body imports ``module`` and calls ``function``. Run as a file, its ``sys.path[0]`` is the launcher's own
folder, never the working folder: that is why a ``reference.py`` in the working folder cannot replace it, while it
does replace ``python -m reference``. The launcher below is written from the entry point in ``pyproject.toml``, so
a renamed or moved entry point breaks the tests that use it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_SCRIPT = re.compile(r'^reference\s*=\s*"([\w.]+):(\w+)"\s*$', re.MULTILINE)


def entry_point() -> tuple[str, str]:
    """The (module, function) that ``[project.scripts] reference`` names in ``pyproject.toml``."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    scripts = text.split("[project.scripts]", 1)[1].split("\n[", 1)[0]
    found = _SCRIPT.search(scripts)
    assert found, "pyproject.toml declares no `reference` console script"
    return found.group(1), found.group(2)


def write_console_script(folder: Path) -> Path:
    """Write ``folder/reference``, the launcher pip would install for this checkout's entry point, and return it."""
    module, function = entry_point()
    launcher = folder / "reference"
    launcher.write_text(
        f"#!{sys.executable}\n"
        "import re\nimport sys\n"
        f"from {module} import {function}\n"
        "if __name__ == '__main__':\n"
        "    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])\n"
        f"    sys.exit({function}())\n",
        encoding="utf-8")
    launcher.chmod(0o755)
    return launcher
