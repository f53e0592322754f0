"""Tails and quantiles of the chi-square, gamma, normal, Student t and binomial laws from ``scipy.special`` alone.

Why: importing ``scipy.stats`` costs about a second of CPU (it pulls in scipy.optimize, scipy.spatial,
scipy.integrate, ...), more than a short sample audit spends on its samples; ``scipy.special`` is a fraction of it.
Each function below is the special function ``scipy.stats`` itself evaluates for that law (the same values, tested
on many points), except the binomial lower tail: ``scipy.stats`` takes it from its own compiled binomial CDF, and
here it is the regularised incomplete beta function ``1 − I_p(k + 1, n − k)`` evaluated as ``betaincc`` (the same
quantity, agreeing to a few units in the last place). The binomial quantiles are the smallest integers meeting
their tail condition (found by bisection on the tail), as ``scipy.stats`` defines them.

All arguments are scalars (floats, integer counts); the results are Python floats or ints.
"""

from __future__ import annotations

import math


def chi_square_cdf(value: float, dof: float) -> float:
    """P(X <= ``value``) for X chi-square with ``dof`` degrees of freedom.

    Args:
        value: the point the tail is evaluated at, a float.
        dof: the degrees of freedom, a positive float.
    """
    from scipy import special  # on first use: importing this module costs nothing

    return float(special.chdtr(dof, value))


def chi_square_sf(value: float, dof: float) -> float:
    """P(X > ``value``) for X chi-square with ``dof`` degrees of freedom.

    Args:
        value: the point the tail is evaluated at, a float.
        dof: the degrees of freedom, a positive float.
    """
    from scipy import special  # on first use: importing this module costs nothing

    return float(special.chdtrc(dof, value))


def chi_square_ppf(probability: float, dof: float) -> float:
    """The ``probability`` quantile (lower tail) of chi-square with ``dof`` degrees of freedom.

    Args:
        probability: the tail probability, in [0, 1].
        dof: the degrees of freedom, a positive float.
    """
    from scipy import special  # on first use: importing this module costs nothing

    return float(2.0 * special.gammaincinv(dof / 2.0, probability))


def chi_square_isf(probability: float, dof: float) -> float:
    """The value with upper-tail probability ``probability`` of chi-square with ``dof`` degrees of freedom.

    Args:
        probability: the tail probability, in [0, 1].
        dof: the degrees of freedom, a positive float.
    """
    from scipy import special  # on first use: importing this module costs nothing

    return float(special.chdtri(dof, probability))


def gamma_cdf(value: float, shape: float) -> float:
    """P(X <= ``value``) for X gamma with shape ``shape`` and unit scale.

    Args:
        value: the point the tail is evaluated at, a float.
        shape: the gamma shape, a positive float.
    """
    from scipy import special  # on first use: importing this module costs nothing

    return float(special.gammainc(shape, value))


def gamma_sf(value: float, shape: float) -> float:
    """P(X > ``value``) for X gamma with shape ``shape`` and unit scale.

    Args:
        value: the point the tail is evaluated at, a float.
        shape: the gamma shape, a positive float.
    """
    from scipy import special  # on first use: importing this module costs nothing

    return float(special.gammaincc(shape, value))


def gamma_ppf(probability: float, shape: float) -> float:
    """The ``probability`` quantile (lower tail) of gamma with shape ``shape`` and unit scale.

    Args:
        probability: the tail probability, in [0, 1].
        shape: the gamma shape, a positive float.
    """
    from scipy import special  # on first use: importing this module costs nothing

    return float(special.gammaincinv(shape, probability))


def gamma_isf(probability: float, shape: float) -> float:
    """The value with upper-tail probability ``probability`` of gamma with shape ``shape`` and unit scale.

    Args:
        probability: the tail probability, in [0, 1].
        shape: the gamma shape, a positive float.
    """
    from scipy import special  # on first use: importing this module costs nothing

    return float(special.gammainccinv(shape, probability))


def normal_cdf(value: float) -> float:
    """P(Z <= ``value``) for Z standard normal.

    Args:
        value: the point the tail is evaluated at, a float.
    """
    from scipy import special  # on first use: importing this module costs nothing

    return float(special.ndtr(value))


def normal_sf(value: float) -> float:
    """P(Z > ``value``) for Z standard normal.

    Args:
        value: the point the tail is evaluated at, a float.
    """
    from scipy import special  # on first use: importing this module costs nothing

    return float(special.ndtr(-value))


def normal_ppf(probability: float) -> float:
    """The ``probability`` quantile (lower tail) of the standard normal.

    Args:
        probability: the tail probability, in [0, 1].
    """
    from scipy import special  # on first use: importing this module costs nothing

    return float(special.ndtri(probability))


def normal_isf(probability: float) -> float:
    """The value with upper-tail probability ``probability`` of the standard normal.

    Args:
        probability: the tail probability, in [0, 1].
    """
    from scipy import special  # on first use: importing this module costs nothing

    return float(-special.ndtri(probability))


def student_sf(value: float, dof: float) -> float:
    """P(T > ``value``) for T Student t with ``dof`` degrees of freedom.

    Args:
        value: the point the tail is evaluated at, a float.
        dof: the degrees of freedom, a positive float.
    """
    from scipy import special  # on first use: importing this module costs nothing

    return float(special.stdtr(dof, -value))


def binomial_cdf(count: int, trials: int, probability: float) -> float:
    """P(X <= ``count``) for X binomial(``trials``, ``probability``).

    Args:
        count: the count the tail starts from, an integer.
        trials: the number of trials, an integer >= 1.
        probability: the tail probability, in [0, 1].
    """
    if count < 0:
        return 0.0
    if count >= trials:
        return 1.0
    from scipy import special  # on first use: importing this module costs nothing

    return float(special.betaincc(count + 1, trials - count, probability))


def binomial_sf(count: int, trials: int, probability: float) -> float:
    """P(X > ``count``) for X binomial(``trials``, ``probability``).

    Args:
        count: the count the tail starts from, an integer.
        trials: the number of trials, an integer >= 1.
        probability: the tail probability, in [0, 1].
    """
    if count < 0:
        return 1.0
    if count >= trials:
        return 0.0
    from scipy import special  # on first use: importing this module costs nothing

    return float(special.betainc(count + 1, trials - count, probability))


def binomial_ppf(probability: float, trials: int, success: float) -> int:
    """The ``probability`` quantile of binomial(``trials``, ``success``): the smallest k with P(X <= k) >= it.

    Args:
        probability: the tail probability, in [0, 1].
        trials: the number of trials, an integer >= 1.
        success: the success probability of one trial, in [0, 1].
    """
    if math.isnan(probability) or not 0.0 <= probability <= 1.0:
        raise ValueError("probability must be in [0, 1]")
    low, high = 0, trials
    while low < high:
        middle = (low + high) // 2
        if binomial_cdf(middle, trials, success) >= probability:
            high = middle
        else:
            low = middle + 1
    return low


def binomial_isf(probability: float, trials: int, success: float) -> int:
    """The upper quantile of binomial(``trials``, ``success``): the smallest k with P(X > k) <= ``probability``.

    Args:
        probability: the tail probability, in [0, 1].
        trials: the number of trials, an integer >= 1.
        success: the success probability of one trial, in [0, 1].
    """
    if math.isnan(probability) or not 0.0 <= probability <= 1.0:
        raise ValueError("probability must be in [0, 1]")
    low, high = 0, trials
    while low < high:
        middle = (low + high) // 2
        if binomial_sf(middle, trials, success) <= probability:
            high = middle
        else:
            low = middle + 1
    return low
