"""Machine-checked proofs: compile the Coq sources under ``proofs/coq/`` and read back what Coq says.

One command compiles everything: :func:`compile_all` copies the ``.v`` files listed in ``proofs/coq/_CoqProject``
(in that order, which is their dependency order) into a temporary directory and runs ``coqc`` on each there, so
no build product lands in the checkout. :func:`cached_build` does that once per source hash (coqc version,
libraries, options, every file's text) and keeps the result in a cache folder that the report and the tests share
(``$REFERENCE_COQ_CACHE``; empty for none). No ``coqc`` run has a wall-clock limit: on a busy machine a proof
compiles later, it never turns into a failure; a file after a failing one is "not attempted", not "does not
compile". :func:`assumptions` asks Coq which axioms each named theorem depends on
(``Print Assumptions``); a theorem counts as machine-checked only when the answer is "Closed under the global
context" — no axiom, no ``Admitted``. :func:`run_snippet` has Coq evaluate definitions on small parameters and
:func:`~reference_verification.coq_text.parse_coq_value` reads the printed value back into Python, so that tests compare Coq's objects with the
Python exact layer's.

``python -m reference_verification.coq`` compiles every file and prints each registered theorem's assumptions.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .coq_answers import ask_assumptions, kept_answers
from .coq_text import CLOSED, axiom_names, declares, unproved_words
from .core.claims import CoqTheorem
from .registry import build_registry

#: The Debian packages that provide the toolchain (Coq 8.16 with Mathematical Components 1.15 on bookworm; zify
#: gives lia/nia on MathComp's integers, algebra-tactics the ring and field tactics, analysis 0.6 the sums over sets,
#: the exponential and the logarithm of the discrete Laplace and discrete Gaussian theorems).
APT_PACKAGES = (
    "coq",
    "libcoq-mathcomp-ssreflect",
    "libcoq-mathcomp-algebra",
    "libcoq-mathcomp-zify",
    "libcoq-mathcomp-algebra-tactics",
    "libcoq-mathcomp-analysis",
)
INSTALL_COMMAND = "apt-get install -y " + " ".join(APT_PACKAGES)
#: The axioms a file may depend on because the library it builds on does, by file; every other file must be
#: closed. mathcomp-analysis's sums over sets (esum) rest on its classical module boolp, whose three axioms its
#: theorems inherit: these and no others (any further axiom is a failure).
_BOOLP_AXIOMS = (
    "boolp.constructive_indefinite_description",
    "boolp.functional_extensionality_dep",
    "boolp.propositional_extensionality",
)
LIBRARY_AXIOMS: dict[str, tuple[str, ...]] = {
    "DiscreteLaplacePrivacy.v": _BOOLP_AXIOMS,
    "DiscreteGaussianPrivacy.v": _BOOLP_AXIOMS,
}
#: The verdict of a theorem that depends on exactly its file's :data:`LIBRARY_AXIOMS` (or fewer) and no other.
LIBRARY_AXIOMS_ONLY = "closed up to the library's axioms"
#: Theorems that back the library's own audits rather than a statement of the three papers, so no registry entry
#: names them: the linear-noise audit's discrete Laplace verdicts (the papers make no claim about integer noise),
#: and the discrete Gaussian's privacy, which TDA cites (CKS 2020 Theorem 14) rather than states — its real-order
#: part is proved conditional on a named premise, so it cannot lift the TDA entry that cites it.
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
    # the discrete Gaussian: what the discrete-Gaussian ρ (reference.privacy.zcdp.rho_discrete_gaussian) and the
    # TDA privacy accounting (which cites CKS 2020 Theorem 14 for it) rest on
    CoqTheorem(
        "DiscreteGaussianPrivacy.v", "gmass_finite",
        "the discrete Gaussian weights exp(−‖z − m‖²/(2σ²)) have a finite sum Z(m) over Z^n for every real centre m "
        "(at most a constant times the discrete Laplace sum of scale σ), so N_Z(μ, σ²I) is a normalised law",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteGaussianPrivacy.v", "gmass_shift",
        "Z(m + u) = Z(m) for every integer vector u: all integer centres share one normalising constant",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteGaussianPrivacy.v", "privacy_loss",
        "the privacy loss of N_Z(μ, σ²I) against N_Z(ν, σ²I) at z (μ, ν integer vectors) is "
        "ln(P_μ(z)/P_ν(z)) = Σ_i (μ_i − ν_i)(2z_i − μ_i − ν_i)/(2σ²)",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteGaussianPrivacy.v", "renyi_integer_order",
        "for every integer order k > 1 the Rényi divergence of N_Z(μ, σ²I) from N_Z(ν, σ²I) is exactly "
        "k‖μ − ν‖²/(2σ²) (exact whenever kμ + (1 − k)ν is an integer vector; not for a general real order)",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteGaussianPrivacy.v", "renyi_real_order",
        "at every real order α ≠ 1: D_α = α‖μ − ν‖²/(2σ²) + ln(Z(m)/Z(0))/(α − 1) with m = αμ + (1 − α)ν, so the "
        "divergence is α‖μ − ν‖²/(2σ²) exactly only where Z(m) = Z(0) (integer centres), not for every α",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteGaussianPrivacy.v", "zcdp_integer_order",
        "f(x) + Z with Z ~ N_Z(0, σ²I), f integer-valued with ‖f(x) − f(x')‖² <= Δ² on neighbours: "
        "D_k(f(x) + Z ‖ f(x') + Z) <= ρk with ρ = Δ²/(2σ²) for every integer order k > 1 (unconditional)",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteGaussianPrivacy.v", "zcdp",
        "the same release is ρ-zCDP at every real order α > 1, CONDITIONAL on the premise theta_premise: "
        "Z(m) <= Z(0) for every real centre m (the theta-function inequality CKS 2020 prove by Poisson "
        "summation; a hypothesis of the theorem, not proved in Coq)",
        whole=False,
    ),
    CoqTheorem(
        "DiscreteGaussianPrivacy.v", "theta_lift",
        "the one-dimensional theta inequality Σ_(x∈Z) exp(−(x − c)²/(2σ²)) <= Σ_(x∈Z) exp(−x²/(2σ²)) for every real c "
        "gives Z(m) <= Z(0) for every real centre m in R^n (the mass on Z^(1+n) is the product of the masses)",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteGaussianPrivacy.v", "zcdp_theta1",
        "f(x) + Z is ρ-zCDP (ρ = Δ²/(2σ²)) at every real order α > 1, CONDITIONAL on the premise theta_premise_1: "
        "the one-dimensional theta inequality above (CKS 2020 prove it by Poisson summation; a hypothesis of the "
        "theorem, not proved in Coq)",
        whole=False,
    ),
    CoqTheorem(
        "DiscreteGaussianPrivacy.v", "renyi_additive",
        "for an integer order k > 1 the divergence of the laws on Z^n is the sum of the coordinates' divergences",
        whole=True,
    ),
)
#: Where compiled developments are kept, one folder per source hash (:func:`cached_build`); set to an empty
#: string for no cache (every run compiles from scratch). Unset: the user's cache folder (:func:`cache_root`).
CACHE_VARIABLE = "REFERENCE_COQ_CACHE"
#: Verdicts of a theorem that Coq did not decide in this run; neither says anything about the proof itself.
NOT_ATTEMPTED = "not attempted"  # an earlier file of _CoqProject failed or was interrupted, so this one never ran
INTERRUPTED = "interrupted"  # coqc was stopped by a signal while compiling the theorem's file


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
    """One file's compilation: ``seconds`` of wall-clock time, ``cpu_seconds`` of coqc's CPU time (user + system),
    ``signal`` the signal that stopped coqc (0: it ran to the end; then ``ok`` says whether the file compiled)."""

    file: str
    ok: bool
    seconds: float
    output: str
    cpu_seconds: float = 0.0
    signal: int = 0


@dataclass(frozen=True)
class Build:
    """A compiled copy of the sources: ``directory`` holds the ``.v`` and ``.vo`` files. ``origin`` says where the
    compilation happened: "compiled in this run", or the cached build it was read from (:func:`cached_build`);
    ``temporary``: the directory is this run's own and is removed after use."""

    project: Project
    directory: Path
    files: tuple[FileResult, ...]
    origin: str = "compiled in this run"
    temporary: bool = False

    @property
    def ok(self) -> bool:
        return all(result.ok for result in self.files) and len(self.files) == len(self.project.files)

    @property
    def failure(self) -> FileResult | None:
        """The file that failed or was interrupted (compilation stops there), or None."""
        return next((result for result in self.files if not result.ok), None)

    @property
    def not_attempted(self) -> tuple[str, ...]:
        """The files never compiled because an earlier one failed or was interrupted."""
        return self.project.files[len(self.files):]


def _children_cpu() -> float:
    """CPU seconds (user + system) of this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _coqc(args: list[str], directory: Path) -> subprocess.CompletedProcess[str]:
    """Run coqc to the end: no wall-clock limit (module constants), so a busy machine makes it slower, not wrong."""
    coqc = coqc_path()
    if coqc is None:
        raise FileNotFoundError(f"coqc is not installed (install with: {INSTALL_COMMAND})")
    return subprocess.run([coqc, *args], cwd=directory, capture_output=True, text=True, check=False)


def compile_all(
    source: Path | None = None, build_directory: Path | None = None, only: Sequence[str] | None = None,
    prebuilt: Build | None = None,
) -> Build:
    """Copy the sources into ``build_directory`` (a fresh temporary directory by default) and compile each file
    in ``_CoqProject``'s order; stop at the first failure (later files depend on earlier ones). ``only``: compile
    just these files (still in the project's order; their dependencies must be among them, or in ``prebuilt``:
    a build whose ``.vo`` files are copied in for every listed file that ``only`` leaves out)."""
    directory = source or proofs_directory()
    if directory is None:
        raise FileNotFoundError("proofs/coq/_CoqProject not found (set REFERENCE_COQ_DIR to the directory)")
    project = read_project(directory)
    temporary = build_directory is None
    if only is not None:
        unknown = sorted(set(only) - set(project.files))
        if unknown:
            raise ValueError(f"only must name files of _CoqProject, got {unknown}")
        project = Project(project.directory, project.options, tuple(f for f in project.files if f in only))
    target = build_directory or Path(tempfile.mkdtemp(prefix="reference-coq-"))
    target.mkdir(parents=True, exist_ok=True)
    if prebuilt is not None:  # compiled dependencies: their .vo files (and sources, for error messages)
        for name in prebuilt.project.files:
            if name not in project.files and (prebuilt.directory / name).with_suffix(".vo").is_file():
                shutil.copy2(prebuilt.directory / name, target / name)
                shutil.copy2((prebuilt.directory / name).with_suffix(".vo"), (target / name).with_suffix(".vo"))
    for name in project.files:
        shutil.copy2(directory / name, target / name)
    results = []
    for name in project.files:
        start, cpu = time.perf_counter(), _children_cpu()
        out = _coqc([*project.options, name], target)
        stopped = -out.returncode if out.returncode < 0 else 0
        results.append(FileResult(name, out.returncode == 0, time.perf_counter() - start,
                                  (out.stdout + out.stderr).strip(), _children_cpu() - cpu, stopped))
        if out.returncode != 0:
            break
    return Build(project, target, tuple(results), temporary=temporary)


def cache_root() -> Path | None:
    """The folder of cached builds: ``$REFERENCE_COQ_CACHE`` (empty: no cache), else ``$XDG_CACHE_HOME`` or
    ``~/.cache``, then ``exact-dp-reference/coq``."""
    if CACHE_VARIABLE in os.environ:
        chosen = os.environ[CACHE_VARIABLE]
        return Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "exact-dp-reference" / "coq"


def source_key(project: Project) -> str:
    """A hash of everything a compilation depends on: the coqc version, the installed libraries (their folders'
    modification times change when a package is upgraded), the options and every source file's name and text."""
    digest = hashlib.sha256()
    digest.update(coq_version().encode())
    coqc = coqc_path()
    if coqc is not None:
        where = subprocess.run([coqc, "-where"], capture_output=True, text=True, check=False).stdout.strip()
        for library in COQ_LIBRARIES:
            folder = Path(where) / "user-contrib" / library
            digest.update(f"{library}:{folder.stat().st_mtime_ns if folder.is_dir() else 0}".encode())
    digest.update("\0".join(project.options).encode())
    for name in project.files:
        digest.update(f"\0{name}\0".encode())
        digest.update((project.directory / name).read_bytes())
    return digest.hexdigest()


MANIFEST = "build.json"


def _read_cached(project: Project, folder: Path) -> Build | None:
    """The complete build cached in ``folder``, or None (absent, partial, or for other files)."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        files = tuple(FileResult(entry["file"], True, float(entry["seconds"]), "", float(entry["cpu_seconds"]))
                      for entry in manifest["files"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if tuple(result.file for result in files) != project.files:
        return None
    if not all((folder / name).with_suffix(".vo").is_file() for name in project.files):
        return None
    origin = f"cached build of these exact sources, compiled on {manifest.get('compiled', '?')} (key {folder.name[:12]})"
    return Build(project, folder, files, origin)


def cached_build(source: Path | None = None, say: Callable[[str], None] | None = None) -> Build:
    """The development compiled once per :func:`source_key`: read from :func:`cache_root` when a complete build of
    the same sources is there, else compiled now (with no time limit) and, when every file compiled, stored there.
    Processes asking at once (the report's worker, the test workers) wait for one compilation (a file lock). A
    failed or interrupted build is not stored: the next run compiles again. Without a cache folder (or when it
    cannot be written) this is :func:`compile_all` into a temporary directory."""
    directory = source or proofs_directory()
    if directory is None:
        raise FileNotFoundError("proofs/coq/_CoqProject not found (set REFERENCE_COQ_DIR to the directory)")
    project = read_project(directory)
    root = cache_root()
    if root is None:
        return compile_all(directory)
    key = source_key(project)
    try:
        root.mkdir(parents=True, exist_ok=True)
        lock = (root / f"{key}.lock").open("a")
    except OSError:
        return compile_all(directory)
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if say:
                say("Coq: waiting for another process compiling the same sources")
            fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            final = root / key
            if (found := _read_cached(project, final)) is not None:
                return found
            for stale in root.glob(f"{key}.partial-*"):  # left by a build that was killed (we hold the lock)
                shutil.rmtree(stale, ignore_errors=True)
            partial = root / f"{key}.partial-{os.getpid()}"
            build = compile_all(directory, partial)
            if not build.ok:
                return Build(build.project, build.directory, build.files, temporary=True)
            manifest = {
                "coq": coq_version(),
                "compiled": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                "files": [{"file": r.file, "seconds": round(r.seconds, 3), "cpu_seconds": round(r.cpu_seconds, 3)}
                          for r in build.files],
            }
            (partial / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
            shutil.rmtree(final, ignore_errors=True)
            partial.rename(final)
            return Build(project, final, build.files)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _mapped_options(build: Build) -> list[str]:
    """The project's options with each ``-Q``/``-R`` folder made absolute (into ``build.directory``), so that a
    snippet compiled elsewhere loads the build's ``.vo`` files."""
    options = list(build.project.options)
    for index, option in enumerate(options[:-2]):
        if option in ("-Q", "-R"):
            options[index + 1] = str((build.directory / options[index + 1]).resolve())
    return options


def run_snippet(build: Build, text: str, name: str = "Snippet") -> str:
    """Compile ``text`` (Coq commands) against the compiled sources and return what Coq printed. The snippet is
    compiled in a folder of its own, so a shared (cached) build is only read, never written.

    Raises ``RuntimeError`` with Coq's message if the snippet does not compile."""
    with tempfile.TemporaryDirectory(prefix="reference-coq-snippet-") as folder:
        path = Path(folder) / f"{name}.v"
        path.write_text(text, encoding="utf-8")
        out = _coqc([*_mapped_options(build), path.name], Path(folder))
    if out.returncode != 0:
        raise RuntimeError(f"the Coq snippet {name} failed: {out.stderr.strip() or out.stdout.strip()}")
    return out.stdout


def _logical_prefix(project: Project) -> str:
    for index, option in enumerate(project.options):
        if option in ("-Q", "-R"):
            return project.options[index + 2]
    return ""


def assumptions(build: Build, theorems: list[CoqTheorem]) -> dict[CoqTheorem, str]:
    """What ``Print Assumptions`` says for each theorem of ``build``: :data:`~reference_verification.coq_text.CLOSED`,
    or the axioms it depends on; asked as :func:`~reference_verification.coq_answers.ask_assumptions` says (the
    theorems of files without :data:`LIBRARY_AXIOMS` as one tuple first)."""
    return ask_assumptions(
        theorems,
        prefix=_logical_prefix(build.project),
        run=lambda text: run_snippet(build, text, "Assumptions"),
        expected_closed=lambda theorem: theorem.file not in LIBRARY_AXIOMS,
    )


#: The file, beside a cached build's ``.vo`` files, that keeps what ``Print Assumptions`` answered for its theorems.
ANSWERS = "assumptions.json"


def _answers_file(build: Build) -> Path | None:
    """Where ``build``'s Print Assumptions answers are kept: inside its folder of the build cache, or None for a
    build of this run's own (no cache folder, or a failed build)."""
    root = cache_root()
    if root is None or build.temporary or build.directory.parent != root or not (build.directory / MANIFEST).is_file():
        return None
    return build.directory / ANSWERS


def kept_assumptions(build: Build, theorems: list[CoqTheorem]) -> tuple[dict[CoqTheorem, str], int]:
    """:func:`assumptions` with a cached build's answers kept beside its ``.vo`` files and read back
    (:func:`~reference_verification.coq_answers.kept_answers` says why that is sound); also how many answers came
    from there."""
    return kept_answers(_answers_file(build), theorems, lambda missing: assumptions(build, missing))


@dataclass(frozen=True)
class Evidence:
    """What this run found about one registered theorem. ``verdict``: "closed" (compiled here, no axiom),
    :data:`LIBRARY_AXIOMS_ONLY` (compiled here, no axiom but its file's :data:`LIBRARY_AXIOMS`), "not compiled
    here" (declared, no unproved word, but coqc is missing), or a failure: "missing", "unfinished", "does not
    compile", "depends on axioms", :data:`INTERRUPTED` (coqc stopped by a signal), :data:`NOT_ATTEMPTED` (an
    earlier file failed), "not checked" (Print Assumptions gave no answer). Only "does not compile", "depends on
    axioms", "missing" and "unfinished" say something is wrong with a proof; the others say it was not decided."""

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
    build = build or cached_build()
    version = coq_version()
    seconds = {result.file: result.seconds for result in build.files if result.ok}
    found.update(_uncompiled(pending, build, version))
    compiled = [theorem for theorem in pending if theorem.file in seconds]
    kept = 0
    try:
        answers, kept = kept_assumptions(build, compiled) if compiled else ({}, 0)
    except RuntimeError as error:  # Print Assumptions itself failed (e.g. coqc killed): not checked
        answers = {theorem: f"no answer: {' '.join(str(error).split())[:300]}" for theorem in compiled}
    origin = f"{build.origin}; Print Assumptions answered with that build" if kept else build.origin
    for theorem, answer in answers.items():
        where = f"proofs/coq/{theorem.file} compiled by {version} in {seconds[theorem.file]:.1f} s ({origin})"
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
    if build.temporary:
        shutil.rmtree(build.directory, ignore_errors=True)
    return found


def _uncompiled(pending: list[CoqTheorem], build: Build, version: str) -> dict[CoqTheorem, Evidence]:
    """The evidence of the theorems whose file did not compile in ``build``: the failing file's theorems "does not
    compile" (with Coq's message) or :data:`INTERRUPTED` (coqc stopped by a signal: nothing decided); the later
    files' theorems :data:`NOT_ATTEMPTED`, naming the file that stopped the build (its message is said once, on
    its own theorems); a file _CoqProject does not list is "missing"."""
    found: dict[CoqTheorem, Evidence] = {}
    failure = build.failure
    later = set(build.not_attempted)
    for theorem in pending:
        if failure is not None and theorem.file == failure.file:
            if failure.signal:
                found[theorem] = Evidence(theorem, INTERRUPTED, f"coqc was stopped by signal {failure.signal} while "
                                          f"compiling {failure.file} after {failure.seconds:.0f} s: nothing was decided")
            else:
                message = " ".join(failure.output.split())[:300]
                found[theorem] = Evidence(theorem, "does not compile", f"{failure.file} fails under {version}: {message}")
        elif theorem.file in later:
            why = f"was interrupted (signal {failure.signal})" if failure is not None and failure.signal else "does not compile"
            stopped = failure.file if failure is not None else "an earlier file"
            found[theorem] = Evidence(theorem, NOT_ATTEMPTED, f"{theorem.file} was not compiled: {stopped}, before it in "
                                      f"_CoqProject, {why}")
        elif theorem.file not in build.project.files:
            found[theorem] = Evidence(theorem, "missing", f"proofs/coq/{theorem.file} is not listed in _CoqProject")
    return found


def coq_status(evidence: Mapping[CoqTheorem, Evidence]) -> str:
    """One line on this run's Coq evidence: how many theorems are closed, or what failed and why (the first
    failure's detail, once) and how many theorems that left undecided."""
    verdicts = Counter(item.verdict for item in evidence.values())
    total = len(evidence)
    failed = [item for item in evidence.values() if item.failed]
    if not failed:
        if verdicts["not compiled here"] == total:
            first = next(iter(evidence.values()), None)
            return f"Coq: not compiled here ({first.detail if first else 'no theorem registered'})"
        closed = verdicts["closed"] + verdicts[LIBRARY_AXIOMS_ONLY]
        return (f"Coq: {closed} of {total} theorems closed ({verdicts[LIBRARY_AXIOMS_ONLY]} up to the library's "
                f"axioms)" + (f", {verdicts['not compiled here']} not compiled here" if verdicts["not compiled here"] else ""))
    order = ("missing", "unfinished", "does not compile", "depends on axioms", INTERRUPTED, "not checked", NOT_ATTEMPTED)
    root = min(failed, key=lambda item: order.index(item.verdict) if item.verdict in order else len(order))
    counts = ", ".join(f"{count} {verdict}" for verdict, count in verdicts.items() if verdict not in
                       ("closed", LIBRARY_AXIOMS_ONLY))
    return f"Coq FAILED: {root.theorem.name} {root.verdict} — {root.detail} ({counts}, of {total} theorems)"


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
    build = cached_build(say=print)
    print(f"build: {build.origin} in {build.directory}")
    for result in build.files:
        state = "ok" if result.ok else (f"stopped by signal {result.signal}" if result.signal else "FAILS")
        print(f"  {result.file}: {state}, {result.seconds:.1f} s wall clock, {result.cpu_seconds:.1f} s CPU")
    print(f"  total: {sum(r.seconds for r in build.files):.1f} s wall clock, "
          f"{sum(r.cpu_seconds for r in build.files):.1f} s CPU")
    evidence = machine_checked([*theorems, *AUDIT_THEOREMS], build)
    for theorem in [*theorems, *AUDIT_THEOREMS]:
        print(f"{theorem.file} {theorem.name}: {evidence[theorem].verdict} — {evidence[theorem].detail}")
    closed = sum(1 for theorem in theorems if evidence[theorem].verdict == "closed")
    checked = sum(1 for theorem in AUDIT_THEOREMS if evidence[theorem].verdict in ("closed", LIBRARY_AXIOMS_ONLY))
    if not closed:
        print("nothing was compiled: no registered theorem was checked by Coq", file=sys.stderr)
        return 2
    print(f"{closed} of {len(theorems)} registered theorems compiled and closed; {checked} of {len(AUDIT_THEOREMS)} "
          f"theorems behind the audits compiled, closed up to the library's axioms")
    print(coq_status(evidence))
    failed = any(item.failed for item in evidence.values())
    return 1 if failed or closed < len(theorems) or checked < len(AUDIT_THEOREMS) else 0


if __name__ == "__main__":
    raise SystemExit(main())
