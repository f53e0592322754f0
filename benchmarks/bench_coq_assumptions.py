"""The report's Coq evidence: ``Print Assumptions`` of every registered theorem, grouped against one per theorem.

    python benchmarks/bench_coq_assumptions.py

The report asks Coq which axioms each registered theorem depends on (``reference_verification.coq.assumptions``).
The baseline, measured in the same run, asks once per theorem in one ``coqc`` process (what the report did
before); the grouped way asks once for the tuple of the theorems expected closed (and alone only when that tuple
is not closed), the library-axiom theorems one by one in a second ``coqc``. Both need a compiled build (the
shared cache: the first run of the report or of the tests makes it). Prints the CPU seconds of the ``coqc``
children of each way, the ratio, the peak memory of the largest ``coqc``, whether the answers are identical, and
the load average. Nothing is asserted: this script reports.
"""

from __future__ import annotations

import os
import re
import resource
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
runpy.run_path(str(ROOT / "verification" / "checkout.py"))["importable_checkout"](ROOT)


def children_cpu() -> float:
    times = os.times()
    return times.children_user + times.children_system


def main() -> None:
    from reference_verification import coq
    from reference_verification.core.claims import CoqTheorem

    print(f"load average before: {os.getloadavg()}; cores: {os.cpu_count()}")
    build = coq.cached_build()
    theorems = [theorem for claim in coq.build_registry().claims for theorem in claim.coq] + list(coq.AUDIT_THEOREMS)
    prefix = coq._logical_prefix(build.project)

    def one_by_one(chosen: list[CoqTheorem]) -> dict[CoqTheorem, str]:
        """The baseline: one Print Assumptions per theorem, all in one coqc."""
        modules = sorted({Path(theorem.file).stem for theorem in chosen})
        lines = [f"From {prefix} Require {' '.join(modules)}."]
        for index, theorem in enumerate(chosen):
            lines += [f'Goal True. idtac "@@{index}". exact I. Qed.',
                      f"Print Assumptions {prefix}.{Path(theorem.file).stem}.{theorem.name}."]
        printed = coq.run_snippet(build, "\n".join(lines) + "\n", "Baseline")
        sections = re.split(r"^@@(\d+)\s*$", printed, flags=re.MULTILINE)
        found = {int(sections[i]): sections[i + 1].strip() for i in range(1, len(sections) - 1, 2)}
        return {theorem: found.get(index, "no answer") for index, theorem in enumerate(chosen)}

    start = children_cpu()
    baseline = one_by_one(theorems)
    baseline_cpu = children_cpu() - start
    baseline_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    start = children_cpu()
    grouped = coq.assumptions(build, theorems)
    grouped_cpu = children_cpu() - start
    print(f"{len(theorems)} theorems ({sum(answer == coq.CLOSED for answer in grouped.values())} closed)")
    print(f"one by one (baseline): {baseline_cpu:6.1f} s of coqc CPU; peak RSS {baseline_peak} MB")
    print(f"grouped:               {grouped_cpu:6.1f} s of coqc CPU; ratio to the baseline {grouped_cpu / baseline_cpu:.2f}")
    print(f"identical answers: {grouped == baseline}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
