"""CPU time of compiling the Coq development from scratch, against the cost of loading its libraries, same run.

    python benchmarks/bench_coq_build.py [--repeats 1] [--against REV] [--hogs N]

Each repeat compiles every file of ``proofs/coq/_CoqProject`` in order in a fresh temporary folder (no
``.lia.cache`` or ``.nia.cache``), then, in that folder, the file's **library floor**: a file holding only its
leading ``From``/``Require``/``Import`` lines, i.e. what the file pays before its first definition however its
proofs are written (the mathcomp libraries, and the project files it requires, already compiled). Reported per file
and in total: the median coqc CPU seconds (user + system of the child), the floor, and the difference (the file's
own definitions and proofs, the part that explicit proof steps can shrink). The goal: the total <= 60 s.

``--against REV`` also compiles the sources of the git revision REV (``git archive REV proofs/coq``) in the same
run, interleaved with the checkout's, and prints the ratio REV / checkout per file (files only one side has are
marked). ``--hogs N`` runs N busy loops (``python -c "while True: pass"``) beside the measurement, stopped by
their own process ids afterwards, to see how the CPU time moves on a loaded machine. A file that does not compile
is named with the end of coqc's message, and what was measured before it is still printed. The load average is
printed before and after. Needs coqc with the libraries of ``verification/coq.py``. Nothing is asserted: this
script reports.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import runpy
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
runpy.run_path(str(ROOT / "verification" / "checkout.py"))["importable_checkout"](ROOT)

#: The commands that load libraries; a file's floor is its leading run of them.
LOADING = re.compile(r"^(From\s+\S+\s+)?(Require|Import|Export)\b")
FLOOR_PREFIX = "Floor"


def floor_source(text: str) -> str:
    """The file's leading library-loading lines (after its comments), up to the first other command."""
    from reference_verification.coq_text import strip_comments

    lines = []
    for line in strip_comments(text).splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if not LOADING.match(stripped):
            break
        lines.append(stripped)
    return "\n".join(lines) + "\n"


def _coqc_cpu(options: tuple[str, ...], name: str, directory: Path) -> tuple[bool, float, str]:
    """Compile one file in ``directory``: whether it compiled, coqc's CPU seconds (user + system), its message."""
    before = os.times()
    out = subprocess.run(["coqc", *options, name], cwd=directory, capture_output=True, text=True, check=False)
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return out.returncode == 0, cpu, (out.stdout + out.stderr).strip()


def _revision_sources(revision: str, target: Path) -> None:
    """``proofs/coq`` of a git revision of this checkout, unpacked into ``target``."""
    archive = subprocess.run(["git", "archive", revision, "proofs/coq"], cwd=ROOT, capture_output=True, check=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        for member in tar.getmembers():
            if member.isfile():
                extracted = tar.extractfile(member)
                if extracted is not None:
                    (target / Path(member.name).name).write_bytes(extracted.read())


def _measure(source: Path, folder: Path, label: str, samples: dict[str, list[float]],
             floors: dict[str, list[float]]) -> bool:
    """Compile every file of ``source`` into ``folder`` (fresh), each followed by its floor; record the CPU times.
    Returns whether every file compiled (else names the one that did not)."""
    from reference_verification.coq import read_project

    project = read_project(source)
    folder.mkdir(parents=True)
    for name in project.files:
        (folder / name).write_bytes((source / name).read_bytes())
    for name in project.files:
        ok, cpu, message = _coqc_cpu(project.options, name, folder)
        if not ok:
            tail = " | ".join(message.splitlines()[-4:])
            print(f"{label}: {name} does not compile ({cpu:.2f} s of CPU): {tail}")
            return False
        samples.setdefault(name, []).append(cpu)
        floor_name = f"{FLOOR_PREFIX}{name}"
        (folder / floor_name).write_text(floor_source((source / name).read_text(encoding="utf-8")), encoding="utf-8")
        ok, cpu, message = _coqc_cpu(project.options, floor_name, folder)
        if ok:
            floors.setdefault(name, []).append(cpu)
        else:
            print(f"{label}: the floor of {name} (its import lines alone) does not compile: {message[-200:]}")
    return True


def _report(label: str, samples: dict[str, list[float]], floors: dict[str, list[float]],
            other: dict[str, list[float]] | None, other_label: str) -> None:
    """Per-file medians and totals of one side (and the ratio to the other side, when given)."""
    total = floor_total = other_total = common_total = 0.0
    print(f"{label}: coqc CPU seconds per file (median of {max(map(len, samples.values()), default=0)} builds)")
    for name, values in samples.items():
        cpu = statistics.median(values)
        floor = statistics.median(floors[name]) if name in floors else float("nan")
        total += cpu
        floor_total += floor
        line = f"  {name:28s} {cpu:6.2f} s   floor {floor:5.2f} s   above the floor {cpu - floor:5.2f} s"
        if other is not None:
            if name in other:
                before = statistics.median(other[name])
                other_total += before
                common_total += cpu
                line += f"   {other_label} {before:6.2f} s  ratio {before / cpu:.2f}x"
            else:
                line += f"   (not in {other_label})"
        print(line)
    line = f"  {'total':28s} {total:6.2f} s   floor {floor_total:5.2f} s   above the floor {total - floor_total:5.2f} s"
    print(line)
    if other is not None and other_total:
        print(f"  {'the files both have':28s} {common_total:6.2f} s   {other_label} {other_total:6.2f} s  "
              f"ratio {other_total / common_total:.2f}x")


def main() -> None:
    from reference_verification.coq import coq_missing, proofs_directory

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--against", help="a git revision whose proofs/coq is compiled in the same run")
    parser.add_argument("--hogs", type=int, default=0, help="busy loops to run beside the measurement (load)")
    args = parser.parse_args()
    missing = coq_missing()
    source = proofs_directory()
    if missing is not None or source is None:
        print(f"cannot compile here: {missing or 'proofs/coq not found'}")
        return
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.hogs)]
    try:
        if hogs:
            time.sleep(30)  # let the 1-minute load average climb before the measurement starts
        print(f"load average before: {os.getloadavg()}; cores: {os.cpu_count()}; hogs: {args.hogs}", flush=True)
        sides: dict[str, tuple[dict[str, list[float]], dict[str, list[float]]]] = {"checkout": ({}, {})}
        if args.against:
            sides[args.against] = ({}, {})
        complete = dict.fromkeys(sides, True)
        for _ in range(args.repeats):
            with tempfile.TemporaryDirectory() as folder:
                if args.against:
                    revision = Path(folder) / "revision"
                    revision.mkdir()
                    _revision_sources(args.against, revision)
                for index, (label, (samples, floors)) in enumerate(sides.items()):
                    sources = source if label == "checkout" else Path(folder) / "revision"
                    if complete[label]:
                        complete[label] = _measure(sources, Path(folder) / f"build-{index}", label, samples, floors)
        checkout, checkout_floors = sides["checkout"]
        other = sides[args.against][0] if args.against else None
        _report("checkout", checkout, checkout_floors, other, args.against or "")
        if args.against:
            _report(args.against, *sides[args.against], None, "")
        for label, ok in complete.items():
            if not ok:
                print(f"{label}: incomplete (the totals above stop at the file that does not compile)")
        print(f"load average after: {os.getloadavg()}")
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


if __name__ == "__main__":
    main()
