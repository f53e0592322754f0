"""The report's "Audits" section: the audits run on the planted faults of :mod:`.planted` and their corrections.

Each case names an implementation written for the project (a faulty one, or its correction), the audit a user
would run on it and the verdict the design of the case calls for (a fault must be caught: "fails"; a correction
must pass: "holds"). The verdict and what the audit says are computed in this run; the row's outcome is
"caught" / "passes" when they agree with the design and MISSED / FALSE ALARM when they do not.

The implementations live in ``verification/planted/`` (installed as ``reference_verification.planted``), so the
section is built wherever the report runs.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import ModuleType

import numpy as np

from reference.audit.calibration import audit_discrete_gaussian
from reference.audit.linear.audit import LinearNoiseVerdict, audit_linear_noise
from reference.audit.linear.covariance import kary_prefix_workload
from reference.audit.linear.probe import probe_float_noise_matrix
from reference.audit.samples.audit import audit_kary_noise
from reference.cip.calibration import calibrate_cascade
from reference.core.options import LinearNoise
from reference.core.validate import fraction_text
from reference.core.verdict import EXIT_STATUS, Verdict
from reference.kary.digits import algorithm_2_noise_indices, height_for_horizon
from reference.tda.calibration import inftda_level_sensitivity_squared, inftda_sigma_squared

from .coq import Evidence
from .coq_audit_theorems import AUDIT_THEOREMS
from .core.claims import CoqTheorem

SAMPLER_ALPHA = 1e-6  # total false-alarm probability of each sampler audit below


@dataclass(frozen=True)
class AuditCase:
    """One row of the section: what was audited, how, and what the audit found."""

    name: str
    implementation: str  # the file under verification/planted/
    audit: str  # the audit, as the command a user runs
    expected: Verdict  # what the case is built to show: "fails" for a fault, "holds" for a correction
    verdict: Verdict  # computed in this run
    found: str  # what the audit says, in one line
    seconds: float

    @property
    def outcome(self) -> str:
        """caught / passes when the verdict is the designed one; MISSED / FALSE ALARM otherwise."""
        if self.verdict == self.expected:
            return "caught" if self.expected == "fails" else "passes"
        return "MISSED" if self.expected == "fails" else "FALSE ALARM"

    @property
    def exit_status(self) -> int:
        """The exit status of the audit command for this verdict."""
        return EXIT_STATUS[self.verdict]


def _examples(name: str) -> ModuleType:
    return importlib.import_module(f"{__package__}.planted.{name}")


def _linear_found(verdict: LinearNoiseVerdict) -> str:
    if verdict.lattice_leak is not None:
        return verdict.lattice_leak.summary()
    if not verdict.private:
        return f"not private: input {verdict.first_offending_column} is outside the noise span (epsilon = inf)"
    if verdict.epsilon is not None and verdict.epsilon_exact:
        return f"epsilon = {fraction_text(verdict.epsilon)} exactly (kernel dimension {verdict.kernel_dimension})"
    return verdict.explanation


def _counter(module: str, noise: LinearNoise = "laplace", **options: bool) -> Callable[[], tuple[Verdict, str]]:
    """A continual counter given by its exact noise matrix, audited against the prefix workload at its claim."""

    def run() -> tuple[Verdict, str]:
        example = _examples(module)
        matrix = example.noise_matrix(**options)
        verdict = audit_linear_noise(matrix, kary_prefix_workload(len(matrix)), noise, scale=example.noise_scale())
        return verdict.verdict_on(epsilon=example.CLAIMED_EPSILON), _linear_found(verdict)

    return run


def _user_level_inftda(faulty: bool) -> tuple[Verdict, str]:
    attributes, rho, users = 3, Fraction(1, 2), 3
    sigma_squared = (_examples("user_level_inftda").sigma_squared(attributes, rho, users) if faulty
                     else inftda_sigma_squared(attributes, rho=rho, contributions=users))
    level = audit_discrete_gaussian(sigma_squared=sigma_squared, sensitivity=None, epsilon=None, delta=None, rho=rho / attributes,
                                    sensitivity_squared=inftda_level_sensitivity_squared([2] * attributes, 1,
                                                                                         contributions=users))
    return level.verdict, level.summary()


def _cascade(faulty: bool) -> tuple[Verdict, str]:
    epsilon, delta = Fraction(20), Fraction(1, 1000)
    sigma = calibrate_cascade(2, epsilon=epsilon, delta=delta).sigma_exact.sigma
    probed = probe_float_noise_matrix(_examples("my_cascade").my_cascade, 4)
    identity = [[int(i == j) for j in range(4)] for i in range(4)]
    used = sigma * sigma if faulty else sigma
    verdict = audit_linear_noise(probed.matrix, identity, "gaussian", scale=used, draw_variances=probed.draw_variances)
    decided = verdict.verdict_on(epsilon=epsilon, delta=delta)
    profile = verdict.delta(epsilon)
    return decided, (f"sigma used {fraction_text(used) if used.denominator < 10**6 else format(float(used), '.6g')}: "
                     f"delta(20) = {profile.decimal(15, rounded='up')} (certified digits), claim 1/1000")


def _kary_samples(faulty: bool) -> tuple[Verdict, str]:
    arity, epsilon, horizon, runs = 5, 1.0, 62, 40_000
    if faulty:
        samples = _examples("off_by_one_digits_kary").faulty_kary_noise(arity, epsilon, horizon, runs, 32)
    else:
        height = height_for_horizon(arity, horizon, offset=True)
        rows = [algorithm_2_noise_indices(t, arity, height) for t in range(1, horizon + 1)]
        indices = sorted({p for row in rows for p in row})
        matrix = np.array([[float(p in row) for p in indices] for row in rows])
        samples = np.random.default_rng(33).laplace(0.0, height / epsilon, size=(runs, len(indices))) @ matrix.T
    report = audit_kary_noise(samples, arity, epsilon=epsilon, alpha=SAMPLER_ALPHA)
    if report.holds:
        return "holds", f"{runs} runs: every test passes (false alarm <= {SAMPLER_ALPHA:g})"
    return "fails", f"{runs} runs: {len(report.failures)} failures, first: {report.failures[0]}"


_CASES: Sequence[tuple[str, str, str, Verdict, Callable[[], tuple[Verdict, str]]]] = (
    ("KARY: noise keyed by level (shared between vertices)", "shared_noise_kary.py",
     "audit linear-noise --noise laplace --epsilon 1", "fails", _counter("shared_noise_kary")),
    ("KARY: Algorithm 2, correct", "correct_kary.py",
     "audit linear-noise --noise laplace --epsilon 1", "holds", _counter("correct_kary")),
    ("KARY: end-of-block test off by one (kernel in B)", "end_of_block_kary.py",
     "audit linear-noise --noise laplace --epsilon 1", "fails", _counter("end_of_block_kary")),
    ("KARY: Algorithm 1, end-of-block test fixed", "end_of_block_kary.py (fixed=True)",
     "audit linear-noise --noise laplace --epsilon 1", "holds",
     _counter("end_of_block_kary", fixed=True)),
    ("KARY: Laplace scale from sensitivity h - 1", "sensitivity_off_kary.py",
     "audit linear-noise --noise laplace --epsilon 1", "fails", _counter("sensitivity_off_kary")),
    ("KARY: integer noise doubled (parity leak)", "parity_leak_kary.py",
     "audit linear-noise --noise discrete-laplace --epsilon 1", "fails",
     _counter("parity_leak_kary", noise="discrete-laplace")),
    ("KARY: integer noise, correct", "correct_integer_kary.py",
     "audit linear-noise --noise discrete-laplace --epsilon 1", "holds",
     _counter("correct_integer_kary", noise="discrete-laplace")),
    ("KARY: top level skipped in the digit walk (wrong covariance)", "off_by_one_digits_kary.py",
     "audit samplers --mechanism kary --arity 5 --epsilon 1", "fails", lambda: _kary_samples(True)),
    ("KARY: Algorithm 2 samples, correct", "(oracle's index sets, seeded)",
     "audit samplers --mechanism kary --arity 5 --epsilon 1", "holds", lambda: _kary_samples(False)),
    ("CIP: sigma^2 passed where sigma is meant", "my_cascade.py with sigma^2",
     "audit linear-noise --noise gaussian --draw-variances --epsilon 20 --delta 1/1000", "fails",
     lambda: _cascade(True)),
    ("CIP: cascade at the exact calibration", "my_cascade.py with sigma",
     "audit linear-noise --noise gaussian --draw-variances --epsilon 20 --delta 1/1000", "holds",
     lambda: _cascade(False)),
    ("TDA: user-level sensitivity sqrt(2m) (m = 3)", "user_level_inftda.py",
     "audit calibration --mechanism discrete-gaussian --sensitivity-squared 18 --rho 1/6", "fails",
     lambda: _user_level_inftda(True)),
    ("TDA: user-level sensitivity sqrt(2)·m (m = 3)", "(reference.tda.calibration)",
     "audit calibration --mechanism discrete-gaussian --sensitivity-squared 18 --rho 1/6", "holds",
     lambda: _user_level_inftda(False)),
)


def audit_case_count() -> int:
    """How many cases there are."""
    return len(_CASES)


def audit_case_name(index: int) -> str:
    """Case ``index``'s name (for progress lines)."""
    return _CASES[index][0]


def run_audit_case(index: int) -> AuditCase:
    """Run case ``index`` alone (what a worker process of the parallel report does)."""
    name, implementation, audit, expected, run = _CASES[index]
    start = time.perf_counter()
    verdict, found = run()
    return AuditCase(name, implementation, audit, expected, verdict, found, time.perf_counter() - start)


def run_audit_cases(progress: Callable[[str], None] | None = None) -> list[AuditCase]:
    """Run every case."""
    cases = []
    for name, implementation, audit, expected, run in _CASES:
        if progress is not None:
            progress(f"audit case: {name} ...")
        start = time.perf_counter()
        verdict, found = run()
        cases.append(AuditCase(name, implementation, audit, expected, verdict, found, time.perf_counter() - start))
    return cases


def audits_markdown(cases: list[AuditCase] | None, coq: Mapping[CoqTheorem, Evidence] | None = None) -> list[str]:
    """The section's lines; ``coq`` what this run found about the Coq theorems, of which those behind the audits
    (:data:`~reference_verification.coq.AUDIT_THEOREMS`) are listed with their verdicts."""
    out = ["## Audits", "", *_audit_theorems_markdown(coq or {})]
    if cases is None:
        return [*out, "The audits of the planted implementations were not run in this report.", ""]
    out += [
        "Implementations written for the project, each with a fault a real implementation of these papers had or",
        "could have (or the corrected version), audited as a user would audit theirs. The command is the one a CI",
        "job runs; exit status 0 = holds, 1 = fails, 3 = inconclusive. The verdict and the finding are computed in",
        "this run.",
        "",
        "| case | implementation (`verification/planted/`) | audit | verdict | exit | outcome | what the audit found |",
        "|---|---|---|---|---|---|---|",
    ]
    for case in cases:
        found = case.found.replace("|", "\\|")
        out.append(f"| {case.name} | {case.implementation} | `{case.audit}` | {case.verdict} | {case.exit_status} | "
                   f"{case.outcome} | {found} |")
    missed = [case.name for case in cases if case.outcome in ("MISSED", "FALSE ALARM")]
    out += ["", f"Every case has its designed verdict ({len(cases)} cases)." if not missed
            else f"NOT as designed: {', '.join(missed)}.", ""]
    return out


def _audit_theorems_markdown(coq: Mapping[CoqTheorem, Evidence]) -> list[str]:
    """The Coq theorems the linear-noise audit's discrete Laplace verdicts rest on, with this run's verdicts."""
    out = ["The linear-noise audit's verdicts for integer (discrete Laplace) noise rest on theorems proved in Coq",
           "(`proofs/coq/`; their only axioms are the three classical ones mathcomp-analysis's sums over sets use):", ""]
    for theorem in AUDIT_THEOREMS:
        found = coq.get(theorem)
        verdict = f"{found.verdict} in this run" if found is not None else "not checked in this run"
        out.append(f"- `{theorem.name}` (`proofs/coq/{theorem.file}`) — {theorem.states}. **{verdict}**.")
    return [*out, ""]
