"""What every sampler audit shares: its report, its input checks and its chi-square and median-of-means pieces.

A sampler audit returns a :class:`SamplerAuditReport` of :class:`PropertyCheck` groups, whose false-alarm
probability (the probability of ``holds == False`` when the samples really are i.i.d. draws from the oracle's
distribution) is at most ``alpha`` by the union bound over the groups and their sub-tests. The audits
(:mod:`reference.audit.samples.audit`, :mod:`reference.audit.samples.design_audit`, :mod:`reference.audit.samples.cascade_stream`)
and their sufficient statistics (:mod:`reference.audit.samples.design_moments`, :mod:`reference.audit.samples.whitened_moments`)
build on this module, which builds on none of them.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from reference.cip.whitening import two_sided_chi2

# the one alpha check, for the sample audits (from the light module: reference.samplers.fit imports scipy.stats)
from reference.core.statistical_check import check_alpha as check_alpha
from reference.core.verdict import Decided, Verdict

#: How many failing sub-tests a report lists by name (the most significant first).
MAX_LISTED = 10


#: How many failures a report's one-line summary shows after its headline.
SUMMARY_EXAMPLES = 3


#: The last entry of a :func:`listed_failures` tuple that counts the failures not listed, and its reading.
_NOT_LISTED = "... and {} more"
_NOT_LISTED_PATTERN = re.compile(r"\.\.\. and (\d+) more")


def _failure_count(failures: tuple[str, ...]) -> int:
    """The number of failing sub-tests behind a :func:`listed_failures` tuple (its last entry may count the
    ones not listed)."""
    hidden = _NOT_LISTED_PATTERN.fullmatch(failures[-1]) if failures else None
    return len(failures) - 1 + int(hidden.group(1)) if hidden else len(failures)


def listed_failures(found: list[tuple[float, str]]) -> tuple[str, ...]:
    """The ``MAX_LISTED`` most severe failures (largest severity first), and a count of the others.

    Args:
        found: (severity, text) of each failing sub-test; a larger severity is more significant (e.g. |z| or
            the ratio to the allowed deviation).

    Returns:
        The texts, most severe first, at most :data:`MAX_LISTED`, then ``"... and N more"`` when some are left out.
    """
    ordered = [text for _, text in sorted(found, key=lambda item: -item[0])]
    if len(ordered) > MAX_LISTED:
        return (*tuple(ordered[:MAX_LISTED]), _NOT_LISTED.format(len(ordered) - MAX_LISTED))
    return tuple(ordered)


@dataclass(frozen=True)
class PropertyCheck(Decided):
    """One property group of an audit. ``holds`` is False with probability at most ``false_alarm`` under
    the oracle. ``failures`` names each failing sub-test (e.g. "node variance at level 2, position 1 too
    large") with its statistic; ``statistic`` is that of the most significant sub-test."""

    name: str
    holds: bool
    false_alarm: float
    subtests: int
    statistic: float
    failures: tuple[str, ...]
    detail: str

    def summary(self) -> str:
        """One line: the property, its verdict and its detail."""
        return f"{self.name}: {self.verdict} ({self.detail})"


@dataclass(frozen=True)
class PowerLine:
    """What an audit detects at its runs: the probability of a "fails" verdict when the samples follow the named
    ``alternative`` (``method`` says how it was computed: exact, a rigorous lower bound or an approximation), and
    the runs that would make it 99% (``None``: more than 10^13)."""

    alternative: str
    detection_probability: float
    runs_needed: int | None
    method: str

    def as_json(self) -> dict[str, object]:
        """A JSON-ready dictionary."""
        return {"alternative": self.alternative, "detection_probability": f"{self.detection_probability:.6g}",
                "runs_needed": self.runs_needed, "method": self.method}


@dataclass(frozen=True)
class SamplerAuditReport(Decided):
    """The verdict of a sampler audit: ``holds`` iff every property passed; false-alarm probability at
    most ``alpha`` (union bound over ``checks``). With a stated ``smallest_deviation`` the verdict is
    "inconclusive" when every test passed but the audit could not have seen that deviation."""

    name: str
    holds: bool
    alpha: float
    runs: int
    dimension: int
    checks: tuple[PropertyCheck, ...]
    #: the smallest deviation the user wants seen (relative error of one node's standard deviation), the one
    #: this audit detects with probability 99% at these runs, and the runs that would detect the stated one
    smallest_deviation: float | None = None
    detectable_deviation: float | None = None
    runs_needed: int | None = None
    #: one line when the measured variance matches σ⁴ or σ instead of σ² (a units error)
    units: str | None = None
    #: the detection probability against named alternatives at these runs (whole-law audits)
    power: tuple[PowerLine, ...] = ()
    #: what ``smallest_deviation`` is a relative error of
    deviation_of: str = "a node's standard deviation"
    #: what the audit could not test, and what would let it (a pass is then "inconclusive", never "holds")
    untested: str | None = None

    @property
    def verdict(self) -> Verdict:
        """"fails" when a test failed; "inconclusive" when every test passed but the audit could not have seen
        the stated smallest deviation; else "holds"."""
        if not self.holds:
            return "fails"
        if self.untested is not None:
            return "inconclusive"
        if (self.smallest_deviation is not None and self.detectable_deviation is not None
                and self.detectable_deviation > self.smallest_deviation):
            return "inconclusive"
        return "holds"

    def power_text(self) -> str | None:
        """The power sentence of an inconclusive verdict (None when the power was not asked for); what was not
        tested, when something was not."""
        if self.untested is not None:
            return self.untested
        if self.smallest_deviation is None or self.detectable_deviation is None:
            return None
        if self.power:
            scale = self.power[0]
            needed = "more than 10^13" if scale.runs_needed is None else f"{scale.runs_needed}"
            return (f"with {self.runs} runs the audit detects {scale.alternative} with probability "
                    f"{scale.detection_probability:.3g}, below 99%; {needed} runs are needed")
        return (f"with {self.runs} runs the audit detects (probability 99%) {self.deviation_of} off by "
                f"{self.detectable_deviation:.3e} or more, not the stated smallest deviation "
                f"{self.smallest_deviation:.3e}; {self.runs_needed} runs are needed")

    @property
    def failures(self) -> tuple[str, ...]:
        """Every named failure, prefixed by its property."""
        return tuple(f"{c.name}: {f}" for c in self.checks for f in c.failures)

    def summary(self) -> str:
        """One line: the audit and its verdict; for a failure, first what is wrong and by how much (the units
        line when there is one, else the most significant failure of the first failing property), then how
        many sub-tests fail and at most :data:`SUMMARY_EXAMPLES` of them (the full lists are in ``checks``)."""
        text = f"{self.name}: {self.verdict} at {self.runs} runs (false alarm <= {self.alpha:g})"
        failing = [check for check in self.checks if check.failures]
        if not failing:
            if self.verdict == "inconclusive":
                text += f": {self.power_text()}"
            return text + (f" - {self.units}" if self.units else "")
        examples = [f"{check.name}: {check.failures[0]}" for check in failing]
        headline = self.units or examples.pop(0)
        count = sum(_failure_count(check.failures) for check in failing)
        text += f": {headline} ({count} failing sub-test{'s' if count != 1 else ''} in {len(failing)} of " \
                f"{len(self.checks)} properties"
        if examples:
            shown = examples[:SUMMARY_EXAMPLES]
            text += "; " + "; ".join(shown) + ("; ..." if len(examples) > len(shown) else "")
        return text + ")"

    def as_json(self) -> dict[str, object]:
        """A JSON-ready dictionary (reals as decimal strings with 17 significant digits)."""
        return {
            "audit": self.name,
            "verdict": self.verdict,
            "summary": self.summary(),
            # the power against a stated smallest deviation, only when one was stated (a caller such as the
            # sampler-function audit states its own power and runs needed under these keys otherwise)
            **({} if self.smallest_deviation is None else {
                "smallest_deviation": repr(float(self.smallest_deviation)),
                "detectable_deviation": None if self.detectable_deviation is None
                else repr(float(self.detectable_deviation)),
                "runs_needed": self.runs_needed,
            }),
            "units": self.units,
            **({} if self.untested is None else {"untested": self.untested}),
            **({"power": [line.as_json() for line in self.power]} if self.power else {}),
            "alpha": repr(float(self.alpha)),  # the shortest decimal that reads back as this float
            "runs": self.runs,
            "dimension": self.dimension,
            "checks": [
                {
                    "property": c.name,
                    "verdict": c.verdict,
                    "false_alarm": repr(float(c.false_alarm)),
                    "subtests": c.subtests,
                    "statistic": repr(float(c.statistic)),
                    "failures": list(c.failures),
                    "detail": c.detail,
                }
                for c in self.checks
            ],
        }


class TooFewRunsError(ValueError):
    """The samples have too few runs for the audit's tests at the requested false-alarm probability: the audit
    cannot decide (an "inconclusive" verdict, not bad input)."""


def check_samples(samples: object, columns: int, what: str, min_runs: int = 2) -> np.ndarray:
    """The samples as a float64 (runs, columns) array, after checking them (the sample audits' input check).

    Args:
        samples: whatever the caller passed: accepted when it is a real (float or integer, not bool) numpy array
            of shape (runs, columns) with finite values and at least ``min_runs`` runs.
        columns: the values per run the mechanism produces.
        what: what one run's values are, for the message (e.g. ``"one column per output"``).
        min_runs: the fewest runs the audit's tests need at its ``alpha``, an integer (default 2).

    Returns:
        The samples converted to float64.

    Raises:
        TypeError: ``samples`` is not a numpy array, or not real.
        ValueError: ``samples`` is not of shape (runs, columns), or not finite.
        TooFewRunsError: fewer than ``min_runs`` runs.
    """
    if not isinstance(samples, np.ndarray):
        raise TypeError(f"samples must be a numpy array of shape (runs, {columns}), got {type(samples).__name__}")
    if samples.ndim != 2 or samples.shape[1] != columns:
        raise ValueError(f"samples must have shape (runs, {columns}) ({what}), got {samples.shape}")
    if samples.dtype == np.bool_ or not (
        np.issubdtype(samples.dtype, np.floating) or np.issubdtype(samples.dtype, np.integer)
    ):
        raise TypeError(f"samples must be a real (float or integer) array, got dtype {samples.dtype}")
    if samples.shape[0] < min_runs:
        raise TooFewRunsError(
            f"samples must have at least {min_runs} runs (rows) for this alpha, got {samples.shape[0]}"
        )
    values = samples.astype(np.float64)
    if not np.all(np.isfinite(values)):
        raise ValueError("samples must be finite (no NaN or infinity)")
    return values


def median_groups(share: float) -> int:
    """Median-of-means group count with false-alarm ``exp(-g/8) <= share``.

    Args:
        share: the false-alarm probability of one median-of-means test, in (0, 1).

    Returns:
        g = ``max(1, ceil(8 log(1/share)))``.
    """
    return max(1, math.ceil(8.0 * math.log(1.0 / share)))


def chi_square_group(
    name: str, labels: list[str], squares: np.ndarray, runs: int, share: float
) -> PropertyCheck:
    """Per sub-test ``squares[i]`` (sum of squares / variance) is chi-square(runs); union bound ``share``.

    Args:
        name: the property group's name in the report (e.g. ``"marginals"``).
        labels: each sub-test's name in the failures (e.g. ``"leaf variance at coordinate 3"``), one per entry of
            ``squares``.
        squares: per sub-test, the sum over runs of value² / claimed variance, a float array.
        runs: the degrees of freedom, the number of runs summed, an integer >= 1.
        share: the false-alarm probability of the group, in (0, 1), split evenly over the sub-tests.

    Returns:
        The group's check: holds when no sub-test's two-sided p-value is at most ``share / len(labels)``.
    """
    count = len(labels)
    p_values = [two_sided_chi2(float(v), runs) for v in squares]
    found: list[tuple[float, str]] = []
    for i, p in enumerate(p_values):
        if count * p <= share:
            direction = "too large" if squares[i] > runs else "too small"
            severity = abs(float(squares[i]) - runs)
            found.append((severity, f"{labels[i]} {direction} (sum of squares / sigma^2 = {squares[i]:.6g} for "
                          f"{runs} dof, p = {p:.3g})"))
    failures = listed_failures(found)
    worst = int(np.argmin(p_values))
    detail = (
        f"{count} chi-square tests; most significant: {labels[worst]}, ratio sample variance / sigma^2 = "
        f"{squares[worst] / runs:.6g} (p = {p_values[worst]:.3g}); per-test level {share / count:.3g}"
    )
    return PropertyCheck(name, not failures, share, count, float(squares[worst]), failures, detail)


def chi_square_critical(runs: int, level: float) -> tuple[float, float]:
    """The acceptance range of a two-sided chi-square test (exact quantiles, ``level / 2`` in each tail).

    Args:
        runs: the degrees of freedom, an integer >= 1.
        level: the test's false-alarm probability, in (0, 1).

    Returns:
        (lower, upper) critical values of chi-square(``runs``).
    """
    # scipy.special's quantiles (those scipy.stats evaluates) without importing scipy.stats
    from reference.core.quantiles import chi_square_isf, chi_square_ppf

    return chi_square_ppf(level / 2.0, runs), chi_square_isf(level / 2.0, runs)


def chi_square_scale_power(runs: int, tests: int, alpha: float, power: float = 0.99) -> float:
    """The smallest relative scale error r detected with probability ``power`` by one of ``tests`` two-sided
    chi-square(``runs``) variance tests at total level ``alpha`` (exact chi-square quantiles).

    Args:
        runs: the degrees of freedom of each test, an integer >= 1.
        tests: the number of tests ``alpha`` is split over, an integer >= 1.
        alpha: the total false-alarm probability of the tests, in (0, 1).
        power: the detection probability, in (0, 1) (default 0.99).

    Returns:
        The larger of the errors upward (σ(1 + r)) and downward (σ(1 − r)) detected with that probability.
    """
    from reference.core.quantiles import chi_square_isf, chi_square_ppf

    low, high = chi_square_critical(runs, alpha / tests)
    up = math.sqrt(high / chi_square_ppf(1.0 - power, runs)) - 1.0
    down = 1.0 - math.sqrt(low / chi_square_isf(1.0 - power, runs))
    return max(up, down)


def pooled_scale_check(statistic: float, dof: int, level: float) -> PropertyCheck:
    """The pooled scale test of both cascade audits: ``statistic`` = root² / σ² plus every (L − R)² / (3σ²) over
    all runs is chi-square with ``dof`` = runs × n degrees of freedom under the oracle (the root and the sibling
    differences are the Haar coefficients, independent), tested two-sided at ``level``.

    Args:
        statistic: root² / σ² + Σ (L − R)² / (3σ²) summed over all runs, >= 0.
        dof: the degrees of freedom, runs × n (n = 2**depth leaves), an integer >= 1.
        level: the test's false-alarm probability, in (0, 1).

    Returns:
        The "pooled scale" check.
    """
    low, high = chi_square_critical(dof, level)
    passed = low <= statistic <= high
    ratio = statistic / dof
    failures = () if passed else (f"common scale {'too large' if ratio > 1 else 'too small'}: pooled variance "
                                  f"ratio {ratio:.8g} outside [{low / dof:.8g}, {high / dof:.8g}]",)
    return PropertyCheck("pooled scale", passed, level, 1, ratio, failures,
                         f"one two-sided chi-square({dof}) test of root² / σ² + Σ (L − R)² / (3σ²); variance "
                         f"ratio {ratio:.8g}, acceptance [{low / dof:.8g}, {high / dof:.8g}]")


def cascade_scale_power(runs: int, leaves: int, node_level: float, pooled_level: float) -> float:
    """The smallest relative error of σ common to every node that a cascade audit detects with probability 99%:
    the sharper of one node-variance test (chi-square(``runs``) at ``node_level``) and the pooled scale test
    (chi-square(``runs × leaves``) at ``pooled_level``); ``inf`` below 2 runs.

    Args:
        runs: the number of runs, an integer.
        leaves: n = 2**depth, the leaves per run.
        node_level: the false-alarm probability of one node-variance test, in (0, 1).
        pooled_level: the false-alarm probability of the pooled scale test, in (0, 1).

    Returns:
        The relative error r of σ detected with probability 99%.
    """
    if runs < 2:
        return math.inf
    return min(chi_square_scale_power(runs, 1, node_level), chi_square_scale_power(runs * leaves, 1, pooled_level))
