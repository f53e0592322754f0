"""A family test for the streamed cascade audit: counts of whitened magnitudes above fixed cuts, exact binomial.

Under the oracle the sibling differences of Cascade Sampling, ``w = (L − R) / (σ√3)`` (CIP Theorem 3.3: ``L``, ``R``
are ``N(0, σ²)`` with covariance ``−σ²/2``), are the tree's Haar coefficients up to scale: i.i.d. ``N(0, 1)`` over
the ``n − 1`` internal nodes and over runs. The streamed audit's sums (node variances, sibling covariances, the
pooled scale) are second moments only, so a sampler whose coefficients have the right variance but another law —
Laplace, uniform, a heavy-tailed Student t — would pass them. This module adds what second moments miss at the
cost of a few comparisons per value: for each cut ``c`` of :data:`CUTS` the count of coefficients with ``|w| > c``
is ``Binomial(M, P(|Z| > c))`` exactly (``M`` the coefficients counted: the leaves' siblings, ``n/2`` per run,
which halves the cost and keeps the power far above what a deep tree needs), so a two-sided binomial test per cut with
exact quantiles has a stated false-alarm probability; the cuts span the bulk and both tails, so a wrong shape
moves at least one count. The counts are integers compared on the very float values the sums square, so the
verdict does not depend on how the runs are split into blocks.

The detection probability of each test against a named unit-variance alternative is exact too: the count is
``Binomial(M, q)`` with ``q`` the alternative's tail at the cut (:data:`ALTERNATIVES`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import numpy as np

from reference.audit.samples.report import PropertyCheck, listed_failures

#: The cuts on ``|w|``: the bulk (0.25, 0.75), the shoulder (1.5) and the tails (2.5, 3.5).
CUTS: tuple[float, ...] = (0.25, 0.75, 1.5, 2.5, 3.5)


def _normal_tail(cut: float) -> float:
    """``P(|Z| > cut)`` for a standard normal ``Z`` (erfc: full relative precision in the tail)."""
    return math.erfc(cut / math.sqrt(2.0))


def _laplace_tail(cut: float) -> float:
    """Laplace of unit variance (scale ``1/√2``)."""
    return math.exp(-cut * math.sqrt(2.0))


def _uniform_tail(cut: float) -> float:
    """Uniform on ``[−√3, √3]`` (unit variance)."""
    return max(0.0, 1.0 - cut / math.sqrt(3.0))


def _student_tail(cut: float) -> float:
    """Student t with 5 degrees of freedom scaled to unit variance (its variance is 5/3): heavy tails."""
    from reference.core.quantiles import student_sf

    return 2.0 * student_sf(cut * math.sqrt(5.0 / 3.0), 5)


#: Unit-variance alternatives whose detection probability the streamed audit states.
ALTERNATIVES: dict[str, Callable[[float], float]] = {
    "Laplace of the same variance": _laplace_tail,
    "uniform of the same variance": _uniform_tail,
    "Student t(5) of the same variance (heavy tails)": _student_tail,
}


def squared_cuts(unit_squared: float) -> np.ndarray:
    """The cuts as thresholds on squared values in the caller's units: ``|w| > c`` iff ``value² > c² ·
    unit_squared`` (``unit_squared``: the square of one unit of ``w`` in the caller's units).

    Args:
        unit_squared: the square of one unit of ``w`` in the units of the caller's squared values, > 0 (the
            streamed audit's scaled sums: ``3 × GRID_ROOT²``).

    Returns:
        One float threshold per cut of :data:`CUTS`, ``c² × unit_squared``.
    """
    return np.array([cut * cut * unit_squared for cut in CUTS])


def count_above(squares: np.ndarray, thresholds: np.ndarray, counts: np.ndarray) -> None:
    """Add to ``counts[j]`` how many of ``squares`` exceed ``thresholds[j]`` (before any rounding of them).

    Args:
        squares: the squared values, a float array of any shape.
        thresholds: the thresholds on the squares (:func:`squared_cuts`), one per cut.
        counts: an int64 array of one count per threshold, added to in place.
    """
    for index, threshold in enumerate(thresholds):
        counts[index] += int(np.count_nonzero(squares > threshold))


@functools.lru_cache(maxsize=256)  # the check and the power of each alternative ask for the same ranges
def _critical(values: int, tail: float, level: float) -> tuple[int, int]:
    """Acceptance range ``[low, high]`` of ``Binomial(values, tail)`` at two-sided level ``level`` (exact
    quantiles: the probability below ``low`` and above ``high`` is at most ``level / 2`` each)."""
    # scipy.special's binomial tails: importing scipy.stats would cost more than a short audit's samples
    from reference.core.quantiles import binomial_cdf, binomial_isf, binomial_ppf, binomial_sf

    low = binomial_ppf(level / 2, values, tail)  # P(X < low) <= level / 2
    high = binomial_isf(level / 2, values, tail)  # P(X > high) <= level / 2
    while low > 0 and binomial_cdf(low - 1, values, tail) > level / 2:
        low -= 1
    while binomial_sf(high, values, tail) > level / 2:
        high += 1
    return low, high


def magnitude_check(above: np.ndarray, values: int, level: float) -> PropertyCheck:
    """The binomial test per cut at ``level / len(CUTS)`` each (false alarm at most ``level``).

    Args:
        above: the counts of coefficients with ``|w|`` above each cut of :data:`CUTS`, an int array.
        values: M, the number of coefficients counted, an integer >= 1 (the leaves' siblings: ``n/2`` per run).
        level: the false-alarm probability of the whole check, in (0, 1).

    Returns:
        The "whitened magnitudes" check.
    """
    share = level / len(CUTS)
    found: list[tuple[float, str]] = []
    worst = 0.0
    for cut, count in zip(CUTS, above.tolist()):
        tail = _normal_tail(cut)
        low, high = _critical(values, tail, share)
        expected = values * tail
        z = (count - expected) / math.sqrt(max(expected * (1 - tail), 1e-300))
        worst = z if abs(z) > abs(worst) else worst
        if not low <= count <= high:
            found.append((abs(z), f"share of |w| > {cut:g} is {count / values:.6g}, exact {tail:.6g} "
                                  f"(z = {z:.3g})"))
    return PropertyCheck("whitened magnitudes", not found, level, len(CUTS), worst, listed_failures(found),
                         f"{values} Haar coefficients; exact binomial tests of |w| above {', '.join(map(str, CUTS))}")


def magnitude_power(values: int, level: float, tail: Callable[[float], float]) -> float:
    """The probability that :func:`magnitude_check` fails at ``values`` coefficients of an alternative with
    tail function ``tail`` (``P(|w| > c)``): at least the largest of the cuts' exact detection probabilities.

    Args:
        values: M, the number of coefficients counted, an integer (below 1: probability 0).
        level: the check's false-alarm probability, in (0, 1).
        tail: the alternative's ``c ↦ P(|w| > c)`` for a unit-variance ``w`` (e.g. a value of :data:`ALTERNATIVES`).

    Returns:
        A lower bound on the detection probability, in [0, 1].
    """
    from reference.core.quantiles import binomial_cdf, binomial_sf

    if values < 1:
        return 0.0
    share = level / len(CUTS)
    best = 0.0
    for cut in CUTS:
        low, high = _critical(values, _normal_tail(cut), share)
        wrong = tail(cut)
        detected = binomial_cdf(low - 1, values, wrong) + binomial_sf(high, values, wrong)
        best = max(best, detected)
    return min(1.0, best)
