"""Machine-checked proofs: compile the Coq sources under ``proofs/coq/`` and read back what Coq says.

One command compiles everything: :func:`compile_all` copies the ``.v`` files listed in ``proofs/coq/_CoqProject``
(in that order, which is their dependency order) into a temporary directory and runs ``coqc`` on each there, so
no build product lands in the checkout. :func:`assumptions` asks Coq which axioms each named theorem depends on
(``Print Assumptions``); a theorem counts as machine-checked only when the answer is "Closed under the global
context" — no axiom, no ``Admitted``. :func:`run_snippet` has Coq evaluate definitions on small parameters and
:func:`parse_coq_value` reads the printed value back into Python, so that tests compare Coq's objects with the
Python exact layer's.

``python -m reference_verification.coq`` compiles every file and prints each registered theorem's assumptions.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .core.claims import CoqTheorem
from .registry import build_registry

#: The Debian packages that provide the toolchain (Coq 8.16 with Mathematical Components 1.15 on bookworm; zify
#: gives lia/nia on MathComp's integers, algebra-tactics the field tactic on the rationals, analysis 0.6 the sums
#: over sets and the exponential of the discrete Laplace theorem).
APT_PACKAGES = (
    "coq",
    "libcoq-mathcomp-ssreflect",
    "libcoq-mathcomp-algebra",
    "libcoq-mathcomp-zify",
    "libcoq-mathcomp-algebra-tactics",
    "libcoq-mathcomp-analysis",
)
INSTALL_COMMAND = "apt-get install -y " + " ".join(APT_PACKAGES)
#: What Coq prints for a theorem that depends on no axiom.
CLOSED = "Closed under the global context"
#: The axioms a file may depend on because the library it builds on does, by file; every other file must be
#: closed. mathcomp-analysis's sums over sets (esum) rest on its classical module boolp, whose three axioms its
#: theorems inherit: these and no others (any further axiom is a failure).
LIBRARY_AXIOMS: dict[str, tuple[str, ...]] = {
    "DiscreteLaplacePrivacy.v": (
        "boolp.constructive_indefinite_description",
        "boolp.functional_extensionality_dep",
        "boolp.propositional_extensionality",
    ),
}
#: The verdict of a theorem that depends on exactly its file's :data:`LIBRARY_AXIOMS` (or fewer) and no other.
LIBRARY_AXIOMS_ONLY = "closed up to the library's axioms"
#: Theorems that back the library's own audits rather than a statement of the three papers (the papers make no
#: claim about integer noise, so no registry entry names them): the linear-noise audit's discrete Laplace verdicts.
AUDIT_THEOREMS = (
    CoqTheorem(
        "DiscreteLaplacePrivacy.v", "workload_dp_probability",
        "the release W x + B z, z i.i.d. discrete Laplace of scale b on Z^n, with add/remove neighbours x' = x ± e_j "
        "and W e_j = B u_j for integer vectors u_j, is ε-DP with ε = max_j ‖u_j‖₁/b: "
        "P[y(x) ∈ S] <= exp(ε) P[y(x') ∈ S] for every set S of outputs (the audit's ε for integer noise)",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteLaplacePrivacy.v", "discrete_laplace_dp_probability",
        "the same for any neighbouring relation whose shifts a(x') − a(x) are B u with u integer and ‖u‖₁ <= Δ: ε = Δ/b",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteLaplacePrivacy.v", "lattice_leak_probability",
        "a shift a(x') − a(x) that is B u for no integer u: the set {a(x) + B z : z integer} has probability 1 under x "
        "and 0 under x' (the audit's lattice-leak verdict)",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteLaplacePrivacy.v", "lattice_leak_not_dp",
        "with such a shift no ε satisfies P[y(x) ∈ S] <= exp(ε) P[y(x') ∈ S] for that S",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteLaplacePrivacy.v", "mass_finite",
        "the discrete Laplace weights Π_i exp(−|z_i|/b) have a finite sum over Z^n (at most (2/(1 − e^(−1/b)))^n), "
        "so the probabilities above are the weights' sums divided by it",
    ),
)
#: Words that end a proof without proving it, or postulate a fact; none may appear in a source file. (Section
#: ``Variables``/``Hypotheses`` are allowed: they become premises when the section closes; a top-level one would be
#: an axiom, which ``Print Assumptions`` names.)
UNPROVED = re.compile(r"\b(Admitted|admit|Axiom|Axioms|Parameter|Parameters|Conjecture)\b")
#: How long one ``coqc`` run may take before it counts as a failure (a file compiles in seconds).
TIMEOUT_SECONDS = 300


def proofs_directory() -> Path | None:
    """The Coq sources: ``$REFERENCE_COQ_DIR``, else the checkout's ``proofs/coq`` beside this package's folder,
    else the copy installed with the package (``reference_verification/coq_sources``), else ``proofs/coq`` under
    the working directory."""
    candidates = []
    if os.environ.get("REFERENCE_COQ_DIR"):
        candidates.append(Path(os.environ["REFERENCE_COQ_DIR"]))
    here = Path(__file__).resolve().parent
    candidates += [here.parent / "proofs" / "coq", here / "coq_sources", Path.cwd() / "proofs" / "coq"]
    for candidate in candidates:
        if (candidate / "_CoqProject").is_file():
            return candidate
    return None


def coqc_path() -> str | None:
    """The ``coqc`` executable, or ``None`` when Coq is not installed."""
    return shutil.which("coqc")


#: The libraries the sources import (under ``coqc -where``'s ``user-contrib``), from the packages above.
COQ_LIBRARIES = ("mathcomp/ssreflect", "mathcomp/algebra", "mathcomp/zify", "mathcomp/algebra_tactics",
                 "mathcomp/analysis")


def coq_missing() -> str | None:
    """Why the sources cannot be compiled here — coqc, or a library they import, is not installed — or None."""
    coqc = coqc_path()
    if coqc is None:
        return "coqc is not installed"
    out = subprocess.run([coqc, "-where"], capture_output=True, text=True, check=False, timeout=60)
    roots = [Path(out.stdout.strip()) / "user-contrib",
             *(Path(entry) for entry in os.environ.get("COQPATH", "").split(os.pathsep) if entry)]
    missing = [library for library in COQ_LIBRARIES if not any((root / library).is_dir() for root in roots)]
    return f"coqc is installed but not {', '.join(missing)}" if missing else None


def coq_version() -> str:
    """``coqc --version``'s first line (empty when Coq is missing)."""
    coqc = coqc_path()
    if coqc is None:
        return ""
    out = subprocess.run([coqc, "--version"], capture_output=True, text=True, check=False, timeout=60)
    return out.stdout.splitlines()[0] if out.stdout else ""


@dataclass(frozen=True)
class Project:
    """What ``_CoqProject`` says: the coqc options and the source files in dependency order."""

    directory: Path
    options: tuple[str, ...]
    files: tuple[str, ...]


def read_project(directory: Path) -> Project:
    """Parse ``_CoqProject``: ``-Q``/``-R`` mappings and ``-arg`` options, then one ``.v`` file per line."""
    options: list[str] = []
    files: list[str] = []
    for raw in (directory / "_CoqProject").read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        if words[0] in ("-Q", "-R"):
            options += words[:3]
        elif words[0] == "-arg":  # "-arg X -arg Y": X and Y go to coqc
            options += [word for index, word in enumerate(words) if index % 2 == 1 and words[index - 1] == "-arg"]
        elif line.endswith(".v"):
            files.append(line)
        else:
            raise ValueError(f"_CoqProject: cannot read the line {raw!r}")
    return Project(directory, tuple(options), tuple(files))


@dataclass(frozen=True)
class FileResult:
    """One file's compilation."""

    file: str
    ok: bool
    seconds: float
    output: str


@dataclass(frozen=True)
class Build:
    """A compiled copy of the sources: ``directory`` holds the ``.v`` and ``.vo`` files."""

    project: Project
    directory: Path
    files: tuple[FileResult, ...]

    @property
    def ok(self) -> bool:
        return all(result.ok for result in self.files) and len(self.files) == len(self.project.files)


def _coqc(args: list[str], directory: Path) -> subprocess.CompletedProcess[str]:
    coqc = coqc_path()
    if coqc is None:
        raise FileNotFoundError(f"coqc is not installed (install with: {INSTALL_COMMAND})")
    try:
        return subprocess.run(
            [coqc, *args], cwd=directory, capture_output=True, text=True, check=False, timeout=TIMEOUT_SECONDS
        )
    except subprocess.TimeoutExpired:  # a failure to report (the theorem is not checked), not a crash of the report
        message = f"coqc {' '.join(args[-1:])} timed out after {TIMEOUT_SECONDS} s (a busy machine?)"
        return subprocess.CompletedProcess([coqc, *args], returncode=124, stdout=message, stderr=message)


def compile_all(
    source: Path | None = None, build_directory: Path | None = None, only: Sequence[str] | None = None
) -> Build:
    """Copy the sources into ``build_directory`` (a fresh temporary directory by default) and compile each file
    in ``_CoqProject``'s order; stop at the first failure (later files depend on earlier ones). ``only``: compile
    just these files (still in the project's order; their dependencies must be among them)."""
    directory = source or proofs_directory()
    if directory is None:
        raise FileNotFoundError("proofs/coq/_CoqProject not found (set REFERENCE_COQ_DIR to the directory)")
    project = read_project(directory)
    if only is not None:
        unknown = sorted(set(only) - set(project.files))
        if unknown:
            raise ValueError(f"only must name files of _CoqProject, got {unknown}")
        project = Project(project.directory, project.options, tuple(f for f in project.files if f in only))
    target = build_directory or Path(tempfile.mkdtemp(prefix="reference-coq-"))
    target.mkdir(parents=True, exist_ok=True)
    for name in project.files:
        shutil.copy2(directory / name, target / name)
    results = []
    for name in project.files:
        start = time.perf_counter()
        out = _coqc([*project.options, name], target)
        results.append(FileResult(name, out.returncode == 0, time.perf_counter() - start, out.stdout + out.stderr))
        if out.returncode != 0:
            break
    return Build(project, target, tuple(results))


def run_snippet(build: Build, text: str, name: str = "Snippet") -> str:
    """Compile ``text`` (Coq commands) against the compiled sources and return what Coq printed.

    Raises ``RuntimeError`` with Coq's message if the snippet does not compile."""
    path = build.directory / f"{name}.v"
    path.write_text(text, encoding="utf-8")
    out = _coqc([*build.project.options, path.name], build.directory)
    if out.returncode != 0:
        raise RuntimeError(f"the Coq snippet {name} failed: {out.stderr.strip() or out.stdout.strip()}")
    return out.stdout


def _module_name(file: str) -> str:
    return Path(file).stem


def _logical_prefix(project: Project) -> str:
    for index, option in enumerate(project.options):
        if option in ("-Q", "-R"):
            return project.options[index + 2]
    return ""


def assumptions(build: Build, theorems: list[CoqTheorem]) -> dict[CoqTheorem, str]:
    """What ``Print Assumptions`` says for each theorem: :data:`CLOSED`, or the axioms it depends on."""
    prefix = _logical_prefix(build.project)
    modules = sorted({_module_name(theorem.file) for theorem in theorems})
    lines = [f"From {prefix} Require {' '.join(modules)}."] if modules else []
    for index, theorem in enumerate(theorems):
        qualified = f"{prefix}.{_module_name(theorem.file)}.{theorem.name}"
        lines += [f'Goal True. idtac "@@{index}". exact I. Qed.', f"Print Assumptions {qualified}."]
    printed = run_snippet(build, "\n".join(lines) + "\n", "Assumptions")
    sections = re.split(r"^@@(\d+)\s*$", printed, flags=re.MULTILINE)
    found = {int(sections[i]): sections[i + 1].strip() for i in range(1, len(sections) - 1, 2)}
    return {theorem: found.get(index, "no answer from Print Assumptions") for index, theorem in enumerate(theorems)}


def axiom_names(answer: str) -> list[str]:
    """The axioms named in a ``Print Assumptions`` answer (``Axioms:`` then one ``name : type`` per axiom, the type
    possibly on indented continuation lines); empty for a closed theorem."""
    if answer.strip() == CLOSED:
        return []
    names = []
    for line in answer.splitlines():
        if line and not line[0].isspace() and line.strip() != "Axioms:":
            names.append(line.split(" :", 1)[0].strip())
    return sorted(set(names))


def declares(source: Path, name: str) -> bool:
    """Whether ``source`` declares a theorem (Theorem, Lemma, Corollary, Proposition) called ``name``."""
    pattern = rf"^\s*(Theorem|Lemma|Corollary|Proposition)\s+{re.escape(name)}\b"
    return re.search(pattern, source.read_text(encoding="utf-8"), flags=re.MULTILINE) is not None


def _strip_comments(text: str) -> str:
    """Coq source without its (possibly nested) comments."""
    out, depth, index = [], 0, 0
    while index < len(text):
        if text.startswith("(*", index):
            depth, index = depth + 1, index + 2
        elif text.startswith("*)", index) and depth:
            depth, index = depth - 1, index + 2
        else:
            if not depth:
                out.append(text[index])
            index += 1
    return "".join(out)


def unproved_words(source: Path) -> list[str]:
    """The words of :data:`UNPROVED` that occur in ``source`` outside comments (none in a finished file)."""
    return sorted(set(UNPROVED.findall(_strip_comments(source.read_text(encoding="utf-8")))))


_INT = re.compile(r"\((-?\d+)\)%[ZN]|(-?\d+)%[ZN]")


def parse_coq_value(text: str) -> object:
    """Read a value Coq printed (``= value : type``): lists ``[:: a; b]``, pairs, integers (``3``, ``(-3)%Z``,
    ``3%N``), booleans, options (``Some v`` as v, ``None``). Returns nested Python lists, tuples, ints, bools."""
    lines = text.strip().splitlines()
    typed = [index for index, line in enumerate(lines) if line.lstrip().startswith(": ")]
    body = "\n".join(lines[: typed[-1]] if typed else lines).strip()
    body = body[1:] if body.startswith("=") else body
    body = _INT.sub(lambda m: m.group(1) or m.group(2), body)
    body = re.sub(r"\bSome\b", "", body)  # an option's value as the value itself; None stays None
    body = body.replace("[::", "[").replace(";", ",").replace("true", "True").replace("false", "False")
    return ast.literal_eval(" ".join(body.split()))


@dataclass(frozen=True)
class Evidence:
    """What this run found about one registered theorem. ``verdict``: "closed" (compiled here, no axiom),
    :data:`LIBRARY_AXIOMS_ONLY` (compiled here, no axiom but its file's :data:`LIBRARY_AXIOMS`), "not compiled here" (declared, no unproved word, but coqc is missing), or a failure: "missing",
    "unfinished", "does not compile", "depends on axioms", "not checked" (Coq gave no answer, e.g. timed out)."""

    theorem: CoqTheorem
    verdict: str
    detail: str

    @property
    def failed(self) -> bool:
        return self.verdict not in ("closed", LIBRARY_AXIOMS_ONLY, "not compiled here")


def machine_checked(theorems: list[CoqTheorem], build: Build | None = None) -> dict[CoqTheorem, Evidence]:
    """Check every registered theorem now: its file exists and declares it, holds no unproved word, and — when
    coqc is installed — compiles and depends on no axiom. One compilation (``build``, made here by default)
    serves all theorems."""
    directory = proofs_directory()
    found: dict[CoqTheorem, Evidence] = {}
    pending: list[CoqTheorem] = []
    if directory is None:  # an installed package run outside the checkout: the sources are not here to check
        where = "proofs/coq not found here (run from the checkout, or set REFERENCE_COQ_DIR)"
        return {theorem: Evidence(theorem, "not compiled here", where) for theorem in theorems}
    for theorem in theorems:
        source = directory / theorem.file
        if not source.is_file():
            found[theorem] = Evidence(theorem, "missing", f"proofs/coq/{theorem.file} not found")
        elif not declares(source, theorem.name):
            found[theorem] = Evidence(theorem, "missing", f"proofs/coq/{theorem.file} declares no {theorem.name}")
        elif words := unproved_words(source):
            found[theorem] = Evidence(theorem, "unfinished", f"proofs/coq/{theorem.file} contains {', '.join(words)}")
        else:
            pending.append(theorem)
    if not pending:
        return found
    if (missing := coq_missing()) is not None:
        for theorem in pending:
            found[theorem] = Evidence(
                theorem, "not compiled here", f"declared in proofs/coq/{theorem.file}; {missing} here "
                f"({INSTALL_COMMAND})"
            )
        return found
    own_build = build is None
    build = build or compile_all()
    version = coq_version()
    seconds = {result.file: result.seconds for result in build.files if result.ok}
    if not build.ok:  # the first failing file, and every file after it, is not compiled
        failed = build.files[-1]
        message = " ".join(failed.output.split())[:300]
        for theorem in (theorem for theorem in pending if theorem.file not in seconds):
            found[theorem] = Evidence(theorem, "does not compile", f"{failed.file} fails under {version}: {message}")
    compiled = [theorem for theorem in pending if theorem.file in seconds]
    try:
        answers = assumptions(build, compiled) if compiled else {}
    except RuntimeError as error:  # Print Assumptions itself failed (a timeout on a busy machine): not checked
        answers = {theorem: f"no answer: {' '.join(str(error).split())[:300]}" for theorem in compiled}
    for theorem, answer in answers.items():
        where = f"proofs/coq/{theorem.file} compiled by {version} in {seconds[theorem.file]:.1f} s"
        if answer.startswith("no answer"):
            found[theorem] = Evidence(theorem, "not checked", f"{where}; Print Assumptions gave {answer}")
        elif answer == CLOSED:
            found[theorem] = Evidence(theorem, "closed", f"{where}; Print Assumptions: {CLOSED.lower()}")
        elif (names := axiom_names(answer)) and set(names) <= set(LIBRARY_AXIOMS.get(theorem.file, ())):
            found[theorem] = Evidence(
                theorem, LIBRARY_AXIOMS_ONLY, f"{where}; Print Assumptions names only the library's axioms: "
                f"{', '.join(names)}"
            )
        else:
            found[theorem] = Evidence(theorem, "depends on axioms", f"{where}; Print Assumptions: {' '.join(answer.split())}")
    if own_build:
        shutil.rmtree(build.directory, ignore_errors=True)
    return found


def main() -> int:
    """Compile every file, print the compile times and every registered theorem's assumptions. Exit 0 only when
    every registered theorem compiled closed; a run that compiled nothing says so and exits 2."""
    if (missing := coq_missing()) is not None:
        print(f"{missing}; install with: {INSTALL_COMMAND}; nothing was compiled", file=sys.stderr)
        return 2
    if proofs_directory() is None:
        print("the Coq sources (proofs/coq/_CoqProject) were not found: set REFERENCE_COQ_DIR to the folder; "
              "nothing was compiled", file=sys.stderr)
        return 2
    print(coq_version())
    print(f"sources: {proofs_directory()}")
    theorems = [theorem for claim in build_registry().claims for theorem in claim.coq]
    evidence = machine_checked([*theorems, *AUDIT_THEOREMS])
    for theorem in [*theorems, *AUDIT_THEOREMS]:
        print(f"{theorem.file} {theorem.name}: {evidence[theorem].verdict} — {evidence[theorem].detail}")
    closed = sum(1 for theorem in theorems if evidence[theorem].verdict == "closed")
    checked = sum(1 for theorem in AUDIT_THEOREMS if evidence[theorem].verdict in ("closed", LIBRARY_AXIOMS_ONLY))
    if not closed:
        print("nothing was compiled: no registered theorem was checked by Coq", file=sys.stderr)
        return 2
    print(f"{closed} of {len(theorems)} registered theorems compiled and closed; {checked} of {len(AUDIT_THEOREMS)} "
          f"theorems behind the audits compiled, closed up to the library's axioms")
    failed = any(item.failed for item in evidence.values())
    return 1 if failed or closed < len(theorems) or checked < len(AUDIT_THEOREMS) else 0


if __name__ == "__main__":
    raise SystemExit(main())
