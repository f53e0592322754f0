"""The Coq evidence does not depend on the machine's load: no coqc run has a time limit, a file after a failing
one is "not attempted" (not "does not compile"), a coqc stopped by a signal is "interrupted" (nothing decided),
the failure is said once, and the development is compiled once per source hash into a cache the report and the
tests share.

These tests use a stand-in ``coqc`` (a shell script: it "compiles" a file by writing its ``.vo``, fails on a file
named ``Fail*.v`` and kills itself on ``Kill*.v``), so they run without Coq and in milliseconds; no assertion is
about time.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import reference_verification.coq as coq
from reference_verification.coq import INTERRUPTED, NOT_ATTEMPTED, Build, cached_build, compile_all, coq_status
from reference_verification.coq_text import CLOSED
from reference_verification.core.claims import CoqTheorem

FAKE_COQC = """#!/bin/sh
last=""
for argument in "$@"; do last="$argument"; done
case "$1" in
  --version) echo "The Stand-in Coq 0"; exit 0 ;;
  -where) echo "/nonexistent"; exit 0 ;;
esac
echo "$last" >> "$COQ_LOG"
case "$last" in
  Fail*.v) echo "Error: the proof of $last does not go through"; exit 1 ;;
  Kill*.v) kill -9 $$ ;;
esac
touch "${last%.v}.vo"
exit 0
"""


def _project(folder: Path, files: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in files:
        (folder / name).write_text(f"Theorem {Path(name).stem.lower()} : True.\nProof. exact I. Qed.\n")
    (folder / "_CoqProject").write_text("-Q . Reference\n" + "\n".join(files) + "\n")
    return folder


@pytest.fixture
def stand_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The stand-in coqc on this test's path; yields the log of the files it was asked to compile."""
    script = tmp_path / "bin" / "coqc"
    script.parent.mkdir()
    script.write_text(FAKE_COQC)
    script.chmod(0o755)
    log = tmp_path / "coqc.log"
    log.write_text("")
    monkeypatch.setenv("COQ_LOG", str(log))
    monkeypatch.setattr(coq, "coqc_path", lambda: str(script))
    monkeypatch.setattr(coq, "coq_missing", lambda: None)
    yield log


def _compiled(log: Path) -> list[str]:
    return log.read_text().split()


def _theorems(files: list[str]) -> list[CoqTheorem]:
    return [CoqTheorem(name, Path(name).stem.lower(), "a stand-in statement") for name in files]


def test_no_coqc_run_has_a_time_limit(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, stand_in: Path) -> None:
    """Every coqc call (compilation, snippet) runs to its end: no ``timeout`` reaches subprocess.run."""
    calls: list[dict[str, Any]] = []
    real = subprocess.run

    def recording(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(coq.subprocess, "run", recording)
    build = compile_all(_project(tmp_path / "src", ["A.v", "B.v"]), tmp_path / "build")
    coq.run_snippet(build, "Check I.\n")
    assert build.ok and len(calls) == 3
    assert all(call.get("timeout") is None for call in calls), calls


def test_a_failing_file_is_said_once_and_later_files_are_not_attempted(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, stand_in: Path
) -> None:
    files = ["A.v", "FailB.v", "C.v", "D.v"]
    source = _project(tmp_path / "src", files)
    monkeypatch.setenv("REFERENCE_COQ_DIR", str(source))
    monkeypatch.setenv(coq.CACHE_VARIABLE, "")
    monkeypatch.setattr(coq, "assumptions", lambda _build, names: {name: CLOSED for name in names})
    found = coq.machine_checked(_theorems(files))
    verdicts = [found[theorem].verdict for theorem in _theorems(files)]
    assert verdicts == ["closed", "does not compile", NOT_ATTEMPTED, NOT_ATTEMPTED]
    assert _compiled(stand_in) == ["A.v", "FailB.v"]  # compilation stops at the failure
    message = "the proof of FailB.v does not go through"
    assert message in found[_theorems(files)[1]].detail
    for later in _theorems(files)[2:]:  # they name the file that stopped the build, not its message again
        assert "FailB.v" in found[later].detail and message not in found[later].detail
        assert found[later].failed
    status = coq_status(found)
    assert status.startswith("Coq FAILED: failb does not compile") and status.count(message) == 1
    assert "2 not attempted" in status


def test_a_killed_coqc_is_interrupted_not_a_failed_proof(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, stand_in: Path
) -> None:
    """A coqc stopped by a signal (a CI limit, an OOM kill) decides nothing: "interrupted", and the files after it
    "not attempted"; no theorem is "does not compile"."""
    files = ["A.v", "KillB.v", "C.v"]
    monkeypatch.setenv("REFERENCE_COQ_DIR", str(_project(tmp_path / "src", files)))
    monkeypatch.setenv(coq.CACHE_VARIABLE, "")
    monkeypatch.setattr(coq, "assumptions", lambda _build, names: {name: CLOSED for name in names})
    found = coq.machine_checked(_theorems(files))
    assert [found[theorem].verdict for theorem in _theorems(files)] == ["closed", INTERRUPTED, NOT_ATTEMPTED]
    assert "signal 9" in found[_theorems(files)[1]].detail
    assert "interrupted" in found[_theorems(files)[2]].detail
    assert "does not compile" not in coq_status(found)


def test_the_build_is_cached_per_source_hash(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, stand_in: Path) -> None:
    files = ["A.v", "B.v"]
    source = _project(tmp_path / "src", files)
    monkeypatch.setenv(coq.CACHE_VARIABLE, str(tmp_path / "cache"))
    first = cached_build(source)
    assert first.ok and not first.temporary and first.origin == "compiled in this run"
    assert _compiled(stand_in) == files
    again = cached_build(source)  # the same sources: read back, nothing compiled
    assert again.ok and again.directory == first.directory and "cached build" in again.origin
    assert _compiled(stand_in) == files
    assert [result.file for result in again.files] == files
    coq.run_snippet(again, "Check I.\n", "Probe")  # a snippet never writes into the shared build
    assert not list(again.directory.glob("Probe*"))
    (source / "B.v").write_text("Theorem b : True.\nProof. exact I. Qed.\n(* edited *)\n")
    edited = cached_build(source)  # another hash: compiled again, into another folder
    assert edited.ok and edited.directory != first.directory and _compiled(stand_in) == [*files, "Probe.v", *files]


def test_a_failed_build_is_not_cached_and_an_empty_variable_means_no_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, stand_in: Path
) -> None:
    source = _project(tmp_path / "src", ["A.v", "FailB.v"])
    monkeypatch.setenv(coq.CACHE_VARIABLE, str(tmp_path / "cache"))
    killed = tmp_path / "cache" / f"{coq.source_key(coq.read_project(source))}.partial-1"
    killed.mkdir(parents=True)  # what a build killed mid-way leaves: removed by the next build of the same key
    for _ in range(2):  # each run compiles again: a failure is never read back from the cache
        build = cached_build(source)
        assert not build.ok and build.temporary and build.failure is not None and build.failure.file == "FailB.v"
        shutil.rmtree(build.directory)  # as machine_checked does with a temporary build
    assert _compiled(stand_in) == ["A.v", "FailB.v"] * 2
    assert not [folder for folder in (tmp_path / "cache").iterdir() if folder.is_dir()]  # failed builds: removed
    monkeypatch.setenv(coq.CACHE_VARIABLE, "")
    fresh = _project(tmp_path / "fresh", ["A.v"])
    assert isinstance(cached_build(fresh), Build) and cached_build(fresh).temporary
    assert _compiled(stand_in)[-2:] == ["A.v", "A.v"]  # no cache: every call compiles


def test_print_assumptions_answers_are_kept_with_the_cached_build(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, stand_in: Path
) -> None:
    """A cached build's answers are asked once and read back; an answer that did not come is asked again; a build
    of other sources, or one made without a cache, asks afresh."""
    files = ["A.v", "B.v", "C.v"]
    source = _project(tmp_path / "src", files)
    monkeypatch.setenv(coq.CACHE_VARIABLE, str(tmp_path / "cache"))
    a, b, c = _theorems(files)
    asked: list[list[str]] = []
    replies = {"a": CLOSED, "b": "Axioms:\nwish : 1 = 2", "c": "no answer from Print Assumptions"}

    def asking(build: Build, theorems: list[CoqTheorem]) -> dict[CoqTheorem, str]:
        asked.append([theorem.name for theorem in theorems])
        return {theorem: replies[theorem.name] for theorem in theorems}

    monkeypatch.setattr(coq, "assumptions", asking)
    build = cached_build(source)
    first, kept = coq.kept_assumptions(build, [a, b])
    assert (first, kept, asked) == ({a: CLOSED, b: replies["b"]}, 0, [["a", "b"]])
    again, kept = coq.kept_assumptions(cached_build(source), [b, a])
    assert (again, kept, asked) == ({b: replies["b"], a: CLOSED}, 2, [["a", "b"]])  # nothing asked
    coq.kept_assumptions(build, [a, c])
    coq.kept_assumptions(build, [a, c])  # "no answer" is never kept: c is asked each time, a never again
    assert asked[1:] == [["c"], ["c"]]
    (build.directory / coq.ANSWERS).write_text("{not json")  # a damaged file costs the queries, nothing else
    assert coq.kept_assumptions(build, [a]) == ({a: CLOSED}, 0) and asked[-1] == ["a"]
    (source / "A.v").write_text("Theorem a : True.\nProof. exact I. Qed.\n(* edited *)\n")
    assert coq.kept_assumptions(cached_build(source), [a])[1] == 0  # other sources: another build, asked again
    monkeypatch.setenv(coq.CACHE_VARIABLE, "")
    uncached = cached_build(source)
    for _ in range(2):
        assert coq.kept_assumptions(uncached, [a])[1] == 0  # no cache: nothing kept
    assert asked[-3:] == [["a"], ["a"], ["a"]]
    shutil.rmtree(uncached.directory)
