"""An unrelated package called ``verification`` installed next to ``reference`` cannot stand in for the
verification of the papers: the library finds its ``report`` command through an entry point, never by a folder
name."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import sys
from reference.cli.main import build_parser
parser = build_parser()
args = parser.parse_args(["report", "--quick", "--out", "x"])
print(args.handler.__module__, sys.modules[args.handler.__module__].__file__)
print("verification" in sys.modules)
"""


def test_an_unrelated_verification_package_beside_the_library_is_never_loaded(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "verification").mkdir(parents=True)
    # a package of the same name as the repository's folder, which must never be imported
    (site / "verification" / "__init__.py").write_text("raise SystemExit('the unrelated verification was imported')\n")
    (site / "reference").symlink_to(ROOT / "reference", target_is_directory=True)
    paths = [str(site), *os.environ.get("PYTHONPATH", "").split(os.pathsep)]  # conftest put the checkout's copy here
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(path for path in paths if path)}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, env=environment, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    handler_module, handler_file, imported = done.stdout.split()
    assert handler_module == "reference_verification.cli"
    assert Path(handler_file).resolve() == ROOT / "verification" / "cli.py"
    assert imported == "False"


def test_without_the_verification_the_report_command_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from reference.cli import main, plugins

    monkeypatch.setattr(plugins, "_plugins", dict)  # as in an environment where no distribution adds commands
    assert main.main(["report", "--quick"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "pip install ." in lines[0] and "report" in lines[0]


def test_a_plugin_that_cannot_be_imported_breaks_only_its_own_command(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import EntryPoint

    from reference.cli import main, plugins

    # a stale install record (an egg-info left in a checkout) whose module is gone
    broken = EntryPoint(name="report", value="no_such_module_for_reference:register", group=plugins.GROUP)
    monkeypatch.setattr(plugins, "_plugins", lambda: {"report": broken})
    assert main.main(["report", "--quick"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "cannot be imported" in lines[0] and "pip install ." in lines[0]
    assert main.main(["kary", "digits", "--arity", "3", "--value", "10", "--width", "4"]) == 0


def test_a_library_command_does_not_read_the_plugins(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from reference.cli import main, plugins

    def unreadable() -> dict[str, object]:
        raise AssertionError("the entry points were read")

    # a library command parses without the plugins (a plugin cannot take its name); another word still reads them
    monkeypatch.setattr(plugins, "_plugins", unreadable)
    assert main.main(["kary", "digits", "--arity", "3", "--value", "10", "--width", "4"]) == 0
    with pytest.raises(AssertionError, match="entry points were read"):
        main.main(["report", "--quick"])
    capsys.readouterr()
