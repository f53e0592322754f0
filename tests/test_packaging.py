"""The distribution's metadata agrees with itself: one version everywhere, the licence file the metadata names,
and ``--version``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from reference.cli.main import main
from reference.core.version import VERSION

ROOT = Path(__file__).resolve().parent.parent
tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")  # Python 3.11+; the metadata is checked there


def test_one_version_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["version"] == VERSION
    assert re.search(rf"^version: {re.escape(VERSION)}$", (ROOT / "CITATION.cff").read_text(encoding="utf-8"), re.M)
    assert f"## {VERSION}" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.strip() == f"reference {VERSION} (distribution exact-dp-reference)"


def test_the_licence_and_the_light_core() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == "exact-dp-reference" and project["license"] == "MIT"
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    core = " ".join(project["dependencies"])
    assert "matplotlib" not in core and "dask" not in core  # extras: report, cluster
    assert any(name.startswith("matplotlib") for name in project["optional-dependencies"]["report"])
    assert {"dask", "distributed"} <= {re.split(r"[<>=]", name)[0] for name in project["optional-dependencies"]["cluster"]}
