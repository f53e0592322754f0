"""CPU time of compiling the Coq development from scratch, with ``ZifyOpaque.v`` and without it, in the same run.

    python benchmarks/bench_coq_build.py [--repeats 1]

Each repeat compiles every file of ``proofs/coq/_CoqProject`` in a fresh temporary folder (no ``.lia.cache`` or
``.nia.cache``), twice, interleaved: as the checkout has it, and as the baseline with ``ZifyOpaque.v`` left out (its
file dropped from the project and every ``From Reference Require Import ZifyOpaque.`` line removed, so ``lia`` and
``nia`` use mathcomp-zify's own instances, whose proofs are copied into every proof term). Reported per file and in
total: the median coqc CPU seconds (user + system of the children) and the ratio baseline / checkout. The goal: the
checkout's total <= 60 s. The load average is printed before and after. Needs coqc with the libraries of
``verification/coq.py``. Nothing is asserted: this script reports.
"""

from __future__ import annotations

import argparse
import os
import runpy
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
runpy.run_path(str(ROOT / "verification" / "checkout.py"))["importable_checkout"](ROOT)

OPAQUE = "ZifyOpaque.v"
IMPORT_LINE = "From Reference Require Import ZifyOpaque."


def _baseline_sources(source: Path, target: Path) -> None:
    """The checkout's sources without ZifyOpaque.v: the file left out of _CoqProject, its imports removed."""
    for path in source.iterdir():
        if path.suffix == ".v" and path.name != OPAQUE:
            lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
            (target / path.name).write_text("".join(line for line in lines if line.strip() != IMPORT_LINE),
                                            encoding="utf-8")
    project = (source / "_CoqProject").read_text(encoding="utf-8").splitlines(keepends=True)
    (target / "_CoqProject").write_text("".join(line for line in project if line.strip() != OPAQUE), encoding="utf-8")


def main() -> None:
    from reference_verification.coq import compile_all, coq_missing, proofs_directory

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    missing = coq_missing()
    source = proofs_directory()
    if missing is not None or source is None:
        print(f"cannot compile here: {missing or 'proofs/coq not found'}")
        return
    print(f"load average before: {os.getloadavg()}; cores: {os.cpu_count()}")
    samples: dict[str, dict[str, list[float]]] = {"checkout": {}, "baseline": {}}
    for _ in range(args.repeats):
        with tempfile.TemporaryDirectory() as folder:
            base_source = Path(folder) / "baseline"
            base_source.mkdir()
            _baseline_sources(source, base_source)
            for name, sources in (("checkout", source), ("baseline", base_source)):
                build = compile_all(source=sources, build_directory=Path(folder) / f"build-{name}")
                if not build.ok:
                    print(f"{name}: {build.files[-1].file} does not compile")
                    return
                for result in build.files:
                    samples[name].setdefault(result.file, []).append(result.cpu_seconds)
    totals = {name: 0.0 for name in samples}
    for file in samples["checkout"]:
        checkout = statistics.median(samples["checkout"][file])
        totals["checkout"] += checkout
        if file in samples["baseline"]:
            baseline = statistics.median(samples["baseline"][file])
            totals["baseline"] += baseline
            print(f"{file:28s} checkout {checkout:6.2f} s  baseline {baseline:6.2f} s  ratio {baseline / checkout:.2f}x")
        else:
            print(f"{file:28s} checkout {checkout:6.2f} s  (not in the baseline)")
    print(f"{'total':28s} checkout {totals['checkout']:6.2f} s  baseline {totals['baseline']:6.2f} s  ratio "
          f"{totals['baseline'] / totals['checkout']:.2f}x")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
