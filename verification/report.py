"""The main job: rerun the claims registry of all three papers (CIP, KARY, TDA) and write the report (terminal
table, Markdown, JSON, PNG plots).

``reference report [--out DIR] [--quick] [--jobs N]``. The claims, audit cases and plots run in ``N``
processes (default: all cores; the content is the same for any ``N``); progress goes to stderr, one line per
finished task, so a long run shows where it is. The Markdown report is self-contained: what each statement says, how it was checked,
what the check found, with the smallest counterexample and the corrected statement for refuted entries.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import reference

from .audits import AuditCase, audits_markdown
from .completeness import coverage_markdown
from .coq import Evidence, coq_status
from .core.claims import (
    MACHINE_CHECKED,
    Budget,
    Claim,
    CoqTheorem,
    Registry,
    Result,
    Status,
    resolve_conditions,
    run_claim,
)
from .html import markdown_to_html
from .levels import LEVEL_ORDER, Placed, describe, level_counts, proof_levels, tied_coq_files
from .links import link_errors, proof_programs
from .papers import PAPERS as PAPER_TABLE
from .parallel import available_plots, default_jobs, run_tasks
from .proof_pass import proof_pass_markdown
from .provenance import SCHEMA_VERSION, provenance, provenance_markdown
from .registry import build_registry

#: Each paper's tag and title, as the report's summary lists them (from the table of papers).
PAPERS = {paper.key: paper.title for paper in PAPER_TABLE}

STATUS_ORDER = [Status.PROVED, Status.CONDITIONAL, Status.VERIFIED, Status.REFUTED, Status.NOT_CHECKABLE, Status.ERROR]


def run_registry(registry: Registry, budget: Budget, progress: Callable[[str], None] | None = None) -> list[Result]:
    """Run every claim in order, reporting progress; then resolve the conditions of proofs that use other entries."""
    results = []
    total = len(registry.claims)
    for index, claim in enumerate(registry.claims, start=1):
        if progress:
            progress(f"[{index:>3}/{total}] {claim.paper} {claim.number} ...")
        result = run_claim(claim, budget)
        results.append(result)
        if progress:
            progress(f"          {result.outcome.status.value} ({result.seconds:.1f} s)")
    return resolve_conditions(results)


def _counts(results: list[Result]) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for paper in dict.fromkeys(r.claim.paper for r in results):
        counter = Counter(r.outcome.status for r in results if r.claim.paper == paper)
        table[paper] = {status.value: counter.get(status, 0) for status in STATUS_ORDER}
        table[paper]["total"] = sum(counter.values())
    return table


def levels_of(results: list[Result], coq: dict[CoqTheorem, Evidence] | None) -> dict[str, Placed]:
    """Every entry's proof level (:mod:`reference_verification.levels`), from this run's statuses, this run's Coq
    verdicts and the tests of the checkout that tie Coq files to the Python objects; each detail says what kept
    Coq evidence from raising the level, if anything."""
    verdicts = {theorem: found.verdict for theorem, found in (coq or {}).items()}
    tied = tied_coq_files()
    placed = proof_levels(results, verdicts, tied)
    return {
        r.claim.key: Placed(placed[r.claim.key].level, describe(r, placed[r.claim.key], verdicts, tied))
        for r in results
    }


def terminal_table(results: list[Result], levels: dict[str, Placed] | None = None) -> str:
    """A plain-text table: paper, number, status, level, method, seconds."""
    levels = levels or levels_of(results, None)
    rows = [("paper", "statement", "status", "level", "method", "s")]
    for r in results:
        rows.append((r.claim.paper, r.claim.number, r.outcome.status.value, levels[r.claim.key].level.value,
                     r.claim.method.value, f"{r.seconds:.1f}"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)) for row in rows]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_report(
    results: list[Result],
    plots: list[tuple[str, str]],
    seconds: float,
    budget: Budget,
    links: Sequence[str] = (),
    audits: list[AuditCase] | None = None,
    coq: dict[CoqTheorem, Evidence] | None = None,
    provenance: dict[str, str | None] | None = None,
    plots_skipped: bool = False,
) -> str:
    """The Markdown report; ``links`` are the broken statement ↔ code ↔ proof links (none when all resolve);
    ``audits`` the planted-fault audit cases (:mod:`reference_verification.audits`; ``None``: not available);
    ``coq`` what this run found about each registered Coq theorem (:func:`~reference_verification.coq.machine_checked`).

    The sections, in the order of the contents (:func:`_contents`), each built by its own function below."""
    coq = coq or {}
    levels = levels_of(results, coq)
    refuted = [r for r in results if r.outcome.status is Status.REFUTED]
    out = [
        "# `reference` — verification report",
        "",
        *headline(results, coq),
        "",
        *_contents_section(results, refuted, plots, plots_skipped),
        *_about_section(seconds, budget),
        *_section("provenance", "Provenance"),
        *provenance_markdown(provenance or {}),
        "",
        *_summary_section(results, levels, links),
        *_refuted_section(refuted),
        "",
        '<a id="audits"></a>',
        *audits_markdown(audits, coq),
        *_entries_section(results, levels, coq),
        *_details_sections(results, levels, coq),
        *_plots_section(plots, plots_skipped),
        *_section("coverage", "Coverage of the papers"),
        *coverage_markdown(results),
        "",
        *_section("proof-pass", "The papers' proofs, step by step"),
        *proof_pass_markdown(),
    ]
    return "\n".join(out) + "\n"


def _contents_section(results: list[Result], refuted: list[Result], plots: list[tuple[str, str]],
                      plots_skipped: bool) -> list[str]:
    """The table of contents: one link per section."""
    entries = _contents(results, refuted, plots, plots_skipped)
    return [*_section("contents", "Contents"), *[f"- [{title}](#{anchor})" for anchor, title in entries], ""]


#: What the report is and how to read it: the mechanisms, the methods, the statuses, the rule for quoted
#: constants, the Coq evidence and the proof levels (the about section, before its budget line).
ABOUT = (
    "`reference` is an exact, formally checked reference implementation of three families of differentially",
    "private mechanisms, with their privacy calibrations: **CIP**, correlated Gaussian input perturbation for",
    "range queries, sampled by Cascade Sampling; **KARY**, k-ary tree mechanisms with subtraction for counting",
    "under continual observation; **TDA**, the InfTDA top-down mechanism for hierarchical counts. It also audits",
    "other implementations of these mechanisms (the audit section below runs the audits on planted faults).",
    "This report checks the three papers' statements (every numbered one, and claims made in the text) against",
    "the implementation, and says what each check found, including where a paper is wrong.",
    "",
    "Every statement below was checked by running a computation, in this run; no status is typed in by hand.",
    "Methods: **proof for all parameters** (a proof program, `verification/<paper>/proofs/`, that establishes the statement for every",
    "parameter value: exact base case plus symbolic induction step, symbolic sums, or certified inequalities);",
    "**exhaustive up to a bound** (every case up to the stated size, exact arithmetic); **statistical** (seeded",
    "tests with a stated false-alarm probability); **certified numeric** (ball arithmetic with rigorous error",
    "bounds); **measured** (a measurement on this machine). Statuses: *proved* (for all parameters),",
    "*proved, conditional* (a proof program that uses other entries, at least one of them only verified: the",
    "detail names each), *verified* (in the stated range), *refuted* (with the smallest counterexample found),",
    "*not checkable* (with the reason). A proof gives proved or refuted, a finite method verified or refuted.",
    "",
    "Quoted constants, one rule: a printed decimal with m places stands for the values it can denote as a",
    "rounding (within half a unit of its last place) or as a truncation (its own m places, the rest dropped);",
    "it is correct when the certified value lies in either set, and the detail says which and on which side of",
    "the value it lies. A printed exact expression (a factor, a fraction) must equal the certified value in the",
    "direction the sentence states. A bound (\"<\", \">\") must hold strictly for the certified value.",
    "Beside the status, **machine-checked (Coq)** names the Coq theorems (`proofs/coq/`) that state the entry:",
    "compiled with no axiom (*closed*), or *not compiled here* when Coq is missing. The development is compiled",
    "once per source hash (coqc version, libraries, every file's text) and kept in a cache the tests share; each",
    "theorem's detail says whether this run compiled it or read the cached build of the identical sources, and",
    "`Print Assumptions` runs in this run either way. No compilation has a time limit, so a busy machine cannot",
    "change a level; a file after one that fails is *not attempted*, not *does not compile*.",
    "",
    "**Proof level** — what the strongest evidence an entry has establishes, computed from this run:",
    "*machine-checked* (Coq theorems stating the whole entry, closed in this run and tied to the Python objects",
    "by a test under `tests/coq/`), *proof program* (a proof program whose every step is a computed check, which",
    "fails on each registered mutation of its statement, and whose premises are at this level or above),",
    "*proved, conditional* (such a program resting on an entry below those levels or on a result of another",
    "paper that nothing here checks: the entry's **Rests on.** line and the level's detail name each),",
    "*verified* (finite evidence: exhaustive, statistical, certified numeric, measured), *refuted*, *not",
    "checkable*. Each proof declares what it rests on; a check that runs another entry's proof program without",
    "declaring it is *check crashed*. When Coq is not compiled in this run no entry is counted as",
    "machine-checked: the detail names the theorems that would have raised it.",
)


def _about_section(seconds: float, budget: Budget) -> list[str]:
    """What the report is (:data:`ABOUT`), the budget and the run's total time."""
    return [*_section("about", "About this report"), *ABOUT, "",
            f"Budget: {'quick' if budget.quick else 'full'}; total time {seconds:.1f} s.", ""]


def _summary_section(results: list[Result], levels: dict[str, Placed], links: Sequence[str]) -> list[str]:
    """The statuses and the proof levels counted per paper, the papers, and the broken links (if any)."""
    out = [*_section("summary", "Summary"),
           "| paper | total | " + " | ".join(s.value for s in STATUS_ORDER) + " |",
           "|---|---|" + "---|" * len(STATUS_ORDER)]
    for paper, row in _counts(results).items():
        out.append(f"| {paper} | {row['total']} | " + " | ".join(str(row[s.value]) for s in STATUS_ORDER) + " |")
    by_level = level_counts(results, levels)
    out += ["", "Proof levels (the strongest evidence of each entry):", "",
            "| paper | total | " + " | ".join(level.value for level in LEVEL_ORDER) + " |",
            "|---|---|" + "---|" * len(LEVEL_ORDER)]
    for paper, row in by_level.items():
        out.append(f"| {paper} | {row['total']} | " + " | ".join(str(row[level.value]) for level in LEVEL_ORDER) + " |")
    totals = {level: sum(row[level.value] for row in by_level.values()) for level in LEVEL_ORDER}
    out.append(f"| all | {len(results)} | " + " | ".join(str(totals[level]) for level in LEVEL_ORDER) + " |")
    out += ["", "Papers:", "", *[f"- **{key}**: {title}" for key, title in PAPERS.items()]]
    out += ["", "Links (each entry's code and proof program, resolved and matched against the program's statements):", ""]
    out += [f"- BROKEN: {error}" for error in links] or ["- every entry's links resolve"]
    return out


def _refuted_section(refuted: list[Result]) -> list[str]:
    """Each refuted entry with its smallest counterexample and what holds instead (nothing when none is)."""
    if not refuted:
        return []
    out = ["", *_section("refuted", "What the checks refute")]
    for r in refuted:
        out.append(f"- **{r.claim.paper} {r.claim.number}** — {r.claim.statement}")
        if r.outcome.counterexample:
            out.append(f"  - smallest counterexample: {r.outcome.counterexample}")
        if r.outcome.corrected:
            out.append(f"  - what holds instead: {r.outcome.corrected}")
    return out


def _entries_section(results: list[Result], levels: dict[str, Placed],
                     coq: dict[CoqTheorem, Evidence]) -> list[str]:
    """One table row per entry, linked to its details."""
    out = [*_section("entries", "All entries"),
           f"| paper | statement | status | level | method | {MACHINE_CHECKED} | time (s) |",
           "|---|---|---|---|---|---|---|"]
    for r in results:
        out.append(
            f"| {r.claim.paper} | [{r.claim.number}](#{_anchor(r)}) | {r.outcome.status.value} | "
            f"{levels[r.claim.key].level.value} | {r.claim.method.value} | {_coq_cell(r, coq)} | {r.seconds:.1f} |"
        )
    return out


def _details_sections(results: list[Result], levels: dict[str, Placed],
                      coq: dict[CoqTheorem, Evidence]) -> list[str]:
    """One section per paper, in the order the results name them, each entry's details in it."""
    out = []
    for paper in dict.fromkeys(r.claim.paper for r in results):
        out += ["", *_section(f"details-{paper.lower()}", f"{paper}: details")]
        for r in (r for r in results if r.claim.paper == paper):
            out += _entry_details(r, levels[r.claim.key], coq)
    return out


def _entry_details(r: Result, placed: Placed, coq: dict[CoqTheorem, Evidence]) -> list[str]:
    """One entry: statement, method, finding, level, code, proof program, premises, Coq theorems,
    counterexample and correction."""
    out = [
        f'<a id="{_anchor(r)}"></a>',
        f"### {r.claim.paper} {r.claim.number} — {r.outcome.status.value}",
        "",
        f"**Statement.** {r.claim.statement}",
        "",
        f"**How checked.** {r.claim.method.value}. {r.claim.note}".rstrip(),
        "",
        f"**Found.** {r.outcome.detail}",
        "",
        f"**Level.** {placed.level.value} — {_md_escape(placed.detail)}",
        "",
        "**Code.** " + (", ".join(f"`{name}`" for name in r.claim.implements) or "none (a statement about all algorithms)"),
    ]
    if r.claim.proof:
        out += ["", f"**Proof program.** `{r.claim.proof}`"]
    if rests := rests_on_text(r.claim):
        out += ["", f"**Rests on.** {_md_escape(rests)}"]
    for theorem in r.claim.coq:
        evidence = coq.get(theorem)
        verdict = f"{evidence.verdict}: {evidence.detail}" if evidence else "not checked in this run"
        out += ["", f"**{MACHINE_CHECKED[0].upper() + MACHINE_CHECKED[1:]}.** `{theorem.name}` "
                f"(`proofs/coq/{theorem.file}`) — {_md_escape(theorem.states)}. {_md_escape(verdict)}"]
    if r.outcome.counterexample:
        out += ["", f"**Smallest counterexample.** {r.outcome.counterexample}"]
    if r.outcome.corrected:
        out += ["", f"**What holds instead.** {r.outcome.corrected}"]
    out.append("")
    return out


def _plots_section(plots: list[tuple[str, str]], plots_skipped: bool) -> list[str]:
    """Each plot with its caption, or the one line that says they were skipped (nothing when neither)."""
    if not (plots or plots_skipped):
        return []
    out = _section("plots", "Plots")
    if plots_skipped:
        out += [PLOTS_SKIPPED, ""]
    for filename, caption in plots:
        out += [f"### {caption}", "", f"![{caption}]({filename})", ""]
    return out


def failure_reasons(errors: int, not_as_designed: Sequence[str], coq: dict[CoqTheorem, Evidence]) -> list[str]:
    """Why the report exits 1, one phrase per cause (empty: exit 0): crashed checks, audit cases without their
    designed verdict, and a registered Coq theorem that failed or was not decided (what and why, said once)."""
    reasons = [f"{errors} check{'s' if errors != 1 else ''} crashed"] if errors else []
    reasons += [f"audit cases without their designed verdict: {', '.join(not_as_designed)}"] if not_as_designed else []
    reasons += [coq_status(coq)] if any(item.failed for item in coq.values()) else []
    return reasons


#: The one line the report prints (stderr and report.md) when matplotlib is missing.
PLOTS_SKIPPED = ("plots skipped: matplotlib is not installed "
                 "(python -m pip install 'exact-dp-reference[report]' adds it)")

#: Words in the dotted path of an entry's code that mark code an implementation runs to set or apply its noise
#: (calibrations, sensitivities, privacy profiles, samplers, mechanisms, counters): a refuted entry there
#: changes what an implementer must compute.
_IMPLEMENTER_CODE = ("calibration", "privacy", "sensitivity", "samplers", "mechanism", "counters", "constants")


def matters_to_implementers(result: Result) -> bool:
    """A refuted entry whose code sets or applies noise (:data:`_IMPLEMENTER_CODE`)."""
    return result.outcome.status is Status.REFUTED and any(
        word in name for name in result.claim.implements for word in _IMPLEMENTER_CODE
    )


def headline(results: list[Result], coq: dict[CoqTheorem, Evidence] | None = None) -> list[str]:
    """The report's first sentences: how many statements, how many are false as printed, which matter to
    someone implementing the mechanisms; and, when a registered Coq theorem failed or was not decided, what and
    why (once: :func:`~reference_verification.coq.coq_status`)."""
    if not results:
        return ["No statement was checked in this run."]
    failing = [] if not coq or not any(item.failed for item in coq.values()) else [
        f"**{coq_status(coq)}**", ""]
    refuted = [r for r in results if r.outcome.status is Status.REFUTED]
    proved = sum(1 for r in results if r.outcome.status in (Status.PROVED, Status.CONDITIONAL))
    verified = sum(1 for r in results if r.outcome.status is Status.VERIFIED)
    implementers = [r for r in refuted if matters_to_implementers(r)]
    lines = [*failing, f"**{len(results)} statements of the three papers checked: {proved} proved for all "
             f"parameters, {verified} verified in a stated range, {len(refuted)} false as printed.**"]
    if implementers:
        names = ", ".join(f"[{r.claim.paper} {r.claim.number}](#{_anchor(r)})" for r in implementers)
        lines += ["", f"False as printed and used to set or apply noise (an implementer copying them gets a wrong "
                  f"calibration, sensitivity, sampler or error bound): {names}."]
    elif refuted:
        lines += ["", "None of the refuted statements is used to set or apply noise."]
    return lines


def _section(anchor: str, title: str) -> list[str]:
    """A level-2 heading with an explicit anchor (the table of contents links to it, in Markdown and HTML)."""
    return [f'<a id="{anchor}"></a>', f"## {title}", ""]


def _contents(results: list[Result], refuted: list[Result], plots: list[tuple[str, str]],
              plots_skipped: bool) -> list[tuple[str, str]]:
    entries = [("about", "About this report"), ("provenance", "Provenance"), ("summary", "Summary")]
    if refuted:
        entries.append(("refuted", "What the checks refute"))
    entries += [("audits", "Audits"), ("entries", "All entries")]
    entries += [(f"details-{paper.lower()}", f"{paper}: details") for paper in dict.fromkeys(r.claim.paper for r in results)]
    if plots or plots_skipped:
        entries.append(("plots", "Plots"))
    entries.append(("coverage", "Coverage of the papers"))
    entries.append(("proof-pass", "The papers' proofs, step by step"))
    return entries


def rests_on_text(claim: Claim) -> str:
    """What an entry's proof rests on: the registry entries it uses and the results of other papers it cites
    (empty when it declares none)."""
    parts = [f"entries {', '.join(claim.depends_on)}"] if claim.depends_on else []
    parts += [f"cited (not checked here): {'; '.join(claim.cites)}"] if claim.cites else []
    return "; ".join(parts)


def _coq_cell(result: Result, coq: dict[CoqTheorem, Evidence]) -> str:
    """The Coq theorems of an entry with this run's verdict on each (empty when it names none)."""
    cells = []
    for theorem in result.claim.coq:
        found = coq.get(theorem)
        cells.append(f"`{theorem.name}`: {found.verdict if found else 'not checked'}")
    return "; ".join(cells)


def _anchor(result: Result) -> str:
    text = f"{result.claim.paper}-{result.claim.number}".lower()
    return "".join(ch if ch.isalnum() else "-" for ch in text)


def results_json(results: list[Result], coq: dict[CoqTheorem, Evidence] | None = None) -> list[dict[str, Any]]:
    """Machine-readable results."""
    coq = coq or {}
    levels = levels_of(results, coq)
    return [
        {
            "paper": r.claim.paper,
            "number": r.claim.number,
            "statement": r.claim.statement,
            "method": r.claim.method.value,
            "status": r.outcome.status.value,
            "level": levels[r.claim.key].level.value,
            "level_detail": levels[r.claim.key].detail,
            "detail": r.outcome.detail,
            "counterexample": r.outcome.counterexample,
            "corrected": r.outcome.corrected,
            "seconds": round(r.seconds, 3),
            "implements": list(r.claim.implements),
            "proof": r.claim.proof,
            "depends_on": list(r.claim.depends_on),
            "cites": list(r.claim.cites),
            "machine_checked": [
                {
                    "file": theorem.file,
                    "theorem": theorem.name,
                    "verdict": coq[theorem].verdict if theorem in coq else "not checked",
                    "detail": coq[theorem].detail if theorem in coq else "",
                }
                for theorem in r.claim.coq
            ],
        }
        for r in results
    ]


def run_report(out_dir: str = "reference-report", quick: bool = False, progress: bool = True,
               jobs: int | None = None) -> dict[str, Any]:
    """Run the registry, write ``report.md``, ``report.html`` (plots inline), ``claims.json`` (``schema_version``,
    ``provenance``, ``claims``) and the PNG plots into ``out_dir``; print the
    terminal table (when ``progress``) and return a summary. ``jobs`` worker processes run the claims, audit cases
    and plots (:mod:`reference_verification.parallel`; default all cores); the content does not depend on it."""
    workers = default_jobs() if jobs is None else jobs
    start = time.perf_counter()
    budget = Budget(quick=quick)
    directory = Path(out_dir)
    directory.mkdir(parents=True, exist_ok=True)

    def say(line: str) -> None:
        if progress:
            print(line, file=sys.stderr, flush=True)

    say(f"reference {reference.__version__}: checking the papers' statements ({'quick' if quick else 'full'} budget), "
        f"writing into {directory}/")
    registry = build_registry()
    links = link_errors(registry.claims, proof_programs())
    plots_skipped = not available_plots()
    if plots_skipped:
        say(PLOTS_SKIPPED)
    results, audits, plots, found = run_tasks(registry, budget, directory, workers, say, coq=True)
    coq = found or {}
    seconds = time.perf_counter() - start
    origin = provenance()
    markdown = markdown_report(results, plots, seconds, budget, links, audits, coq, origin, plots_skipped)
    (directory / "report.md").write_text(markdown, encoding="utf-8")
    (directory / "report.html").write_text(
        markdown_to_html(markdown, directory, "reference — verification report"), encoding="utf-8"
    )
    document = {"schema_version": SCHEMA_VERSION, "provenance": origin, "claims": results_json(results, coq)}
    (directory / "claims.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    levels = levels_of(results, coq)
    if progress:
        print(terminal_table(results, levels))
        print()
    counts = _counts(results)
    errors = sum(1 for r in results if r.outcome.status is Status.ERROR)
    not_as_designed = [case.name for case in audits or () if case.outcome in ("MISSED", "FALSE ALARM")]
    reasons = failure_reasons(errors, not_as_designed, coq)
    return {
        "out": str(directory),
        "report": str(directory / "report.md"),
        "html": str(directory / "report.html"),
        "plots": [str(directory / name) for name, _ in plots],
        "seconds": round(seconds, 1),
        "counts": counts,
        "levels": level_counts(results, levels),
        "errors": errors,
        "audits": None if audits is None else {case.name: case.outcome for case in audits},
        "machine_checked": {item.theorem.name: item.verdict for item in coq.values()},
        # a CI job's signal: a crashed check, an audit case without its designed verdict, or a registered Coq
        # theorem that is missing, unfinished, fails to compile or depends on an axiom
        "exit_status": 1 if reasons else 0,
        # the last line a terminal shows: why the exit status is 1, said once (or that every check ran as designed)
        "result": "; ".join(reasons) if reasons else f"every check ran as designed; {coq_status(coq)}",
    }
