"""The result of a seeded statistical check: one type for every statistical check of the library and the
verification (the samplers' fits and moments, the whitened-normal battery, the papers' cross-checks).

A check draws seeded samples, computes a statistic and decides in one of two ways, each with a stated
false-alarm probability that is a true upper bound under the null hypothesis (not an asymptotic one):

* **by a p-value** (:meth:`StatisticalCheck.by_p_value`): ``holds`` iff ``p_value > false_alarm``, where
  ``p_value`` is the union-bound combination ``min(1, subtests · min p)`` of the sub-tests' p-values
  (``subtests``, when the check counts them);
* **by a threshold** (:meth:`StatisticalCheck.by_threshold`): ``holds`` iff ``statistic <= threshold``, the
  threshold set so that a correct implementation exceeds it with probability at most ``false_alarm``.

The verdict protocol is :mod:`reference.core.verdict`'s; the JSON form leaves out the fields of the other way of
deciding (``threshold`` of a p-value check, ``p_value`` of a threshold check) and an uncounted ``subtests``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reference.core.verdict import Decided

__all__ = ["StatisticalCheck"]

#: Fields a check leaves out of its JSON form when it does not have them (None).
_OPTIONAL = ("p_value", "threshold", "subtests")


@dataclass(frozen=True)
class StatisticalCheck(Decided):
    """A seeded statistical check: decided by a p-value or by a threshold (module docstring); under the null
    hypothesis the probability that ``holds`` is False is at most ``false_alarm``.

    ``statistic`` is the check's main statistic (that of its most significant sub-test, which ``detail`` names,
    for a battery); ``samples`` the number of draws; ``detail`` what was tested and found, in words. Build one
    with :meth:`by_p_value` or :meth:`by_threshold`; ``holds`` must agree with the rule of the way it decides.
    """

    name: str
    statistic: float
    p_value: float | None
    false_alarm: float
    holds: bool
    samples: int
    detail: str
    subtests: int | None = None
    threshold: float | None = None

    def __post_init__(self) -> None:
        if (self.p_value is None) == (self.threshold is None):
            raise ValueError("a statistical check is decided by a p_value or by a threshold, exactly one of them")
        rule = (self.p_value > self.false_alarm if self.p_value is not None
                else self.threshold is not None and self.statistic <= self.threshold)
        if bool(self.holds) != bool(rule):
            raise ValueError(f"{self.name}: holds = {self.holds} disagrees with the check's own rule")

    @classmethod
    def by_p_value(
        cls, *, name: str, statistic: float, p_value: float, false_alarm: float, samples: int, detail: str,
        subtests: int | None = None,
    ) -> StatisticalCheck:
        """A check decided by its p-value: holds iff ``p_value > false_alarm``.

        Args:
            name: what was checked, in a few words.
            statistic: the main statistic (that of the most significant sub-test of a battery).
            p_value: the union-bound combination of the sub-tests' p-values, in [0, 1].
            false_alarm: the stated false-alarm probability, in (0, 1).
            samples: the number of draws.
            detail: what was tested and found, in words.
            subtests: the number of sub-tests the p-value combines, or ``None`` when the check does not count them.
        """
        return cls(name, statistic, p_value, false_alarm, p_value > false_alarm, samples, detail, subtests)

    @classmethod
    def by_threshold(
        cls, *, name: str, statistic: float, threshold: float, false_alarm: float, samples: int, detail: str,
    ) -> StatisticalCheck:
        """A check decided by a threshold: holds iff ``statistic <= threshold``.

        Args:
            name: what was checked, in a few words.
            statistic: the statistic compared with the threshold.
            threshold: the largest statistic a correct implementation exceeds with probability <= ``false_alarm``.
            false_alarm: the stated false-alarm probability, in (0, 1).
            samples: the number of draws.
            detail: what was tested and found, in words.
        """
        return cls(name, statistic, None, false_alarm, statistic <= threshold, samples, detail, threshold=threshold)

    def summary(self) -> str:
        """One line: the verdict, the statistic against its p-value or threshold, the samples, the detail."""
        if self.threshold is not None:
            verdict = "passed" if self.holds else "FAILED"
            return (
                f"{self.name}: {verdict}, statistic {self.statistic:.4g} (threshold {self.threshold:.4g}), "
                f"{self.samples} samples, false-alarm probability <= {self.false_alarm:.1e}; {self.detail}"
            )
        verdict = "PASS" if self.holds else "FAIL"
        return (
            f"{verdict} {self.name}: n = {self.samples}, statistic {self.statistic:.6g}, "
            f"p = {self.p_value:.3g} (false alarm {self.false_alarm:.3g}); {self.detail}"
        )

    def as_json(self) -> dict[str, Any]:
        """Verdict, summary and the fields, without those this check does not have (None)."""
        record = super().as_json()
        return {key: value for key, value in record.items() if not (key in _OPTIONAL and value is None)}


def check_alpha(alpha: object) -> float:
    """A false-alarm probability: a real number strictly between 0 and 1 (the one check of every statistical
    test and sample audit).

    Args:
        alpha: anything: accepted when it is a real number in (0, 1).
    """
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        raise TypeError(f"alpha must be a real number in (0, 1), got {alpha!r}")
    if isinstance(alpha, int) and not 0 < alpha < 1:  # no float (nor repr) of a huge int: refused as out of range
        raise ValueError("alpha must be a real number in (0, 1), got an int outside it")
    value = float(alpha)
    if not 0.0 < value < 1.0:
        raise ValueError(f"alpha must be a real number in (0, 1), got {alpha!r}")
    return value
