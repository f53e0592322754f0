"""Calibration of the (correlated) Gaussian mechanism, certified with Arb ball arithmetic.

Model and conventions
---------------------
The mechanism releases ``x + N(0, σ² C)``; ``σ`` (``sigma``) is a standard deviation. For neighbours with
``x - x' = v`` its privacy loss is exactly that of the scalar Gaussian mechanism with sensitivity
``Δ = sqrt(vᵀ C⁻¹ v)``, so everything here is parameterised by ``sensitivity_squared = Δ²``, the maximum of
``vᵀ C⁻¹ v`` over the neighbouring relation in use (see :mod:`reference.cip.sensitivity`, which names the
relation: ``add_remove`` or ``substitution``). Δ² is passed squared because it is an exact rational when C⁻¹
is, while Δ usually is not. ``log`` is natural.

The exact privacy profile (Balle & Wang 2018, Theorem 8): the mechanism is (ε, δ)-DP iff ``δ >= δ(ε)`` with

    δ(ε) = Φ(Δ/(2σ) - εσ/Δ) - e^ε Φ(-Δ/(2σ) - εσ/Δ),

which is strictly decreasing in σ (and in ε). It is evaluated in Arb balls, whose enclosures are rigorous
(:mod:`reference.privacy.gaussian_profile`: both Φ's as ``erfc/2``, or, where the two terms would cancel at
large σ/Δ, a series in Δ/σ without cancellation), and the working precision is doubled until the ball is narrow
enough or, for a comparison with a threshold, until the ball lies entirely on one side of it. All inputs are
exact rationals (floats are refused); every irrational output is a :class:`~reference.core.certified.CertifiedReal`.

This module is the public face; the work is split by purpose: the profile's balls
(:mod:`~reference.privacy.gaussian_profile`), certified enclosures and comparisons of it
(:mod:`~reference.privacy.gaussian_enclosure`), δ at ε and the smallest ε at δ
(:mod:`~reference.privacy.gaussian_tradeoff`), the smallest σ (:mod:`~reference.privacy.gaussian_sigma`, steered by
the float estimate of :mod:`~reference.privacy.gaussian_estimate`) and the verdict
(:mod:`~reference.privacy.gaussian_verdict`). Every public name stays importable from here.

The classical Gaussian mechanism (Dwork & Roth, Theorem A.1) ``σ = Δ sqrt(2 log(1.25/δ))/ε`` is valid only for
ε ∈ (0, 1) and refused outside it (:func:`check_paper_range`, which the papers' own σ formulas use too, e.g.
CIP's Theorems 3.8 and 3.9 in :mod:`reference.cip.privacy`). :func:`sigma_exact` works for every ε > 0 and
δ ∈ (0, 1), and for either relation.

Example — the smallest σ for (1, 1e-6)-DP at Δ² = 1, certified and rounded up::

    >>> from reference.privacy.gaussian import sigma_exact
    >>> sigma_exact(epsilon=1, delta="1e-6", sensitivity_squared=1).decimal(6)
    '4.22468'
"""

from __future__ import annotations

from fractions import Fraction

from reference.core.certified import (
    CertifiedReal,
    UndecidedComparisonError,
    certify,
)
from reference.core.certified import ball as _ball
from reference.core.validate import (
    RationalLike,
    fraction_text,
    open_unit_fraction,
    positive_fraction,
)
from reference.privacy.gaussian_sigma import DEFAULT_TOLERANCE, ExactSigma, sigma_exact
from reference.privacy.gaussian_tradeoff import FINE_TOLERANCE, gaussian_delta, gaussian_epsilon
from reference.privacy.gaussian_verdict import GaussianVerdict, check_gaussian

_EXACT_POINTER = (
    "for every epsilon > 0 and delta in (0, 1) use the exact calibration "
    "reference.privacy.gaussian.sigma_exact (CLI: `calibrate {command}`, JSON key `sigma_exact`)"
)


def check_paper_range(
    *,
    epsilon: Fraction,
    delta: Fraction,
    theorem: str,
    stated_range: str,
    within_stated_range: bool,
    bounded_by_half: bool,
    command: str,
) -> None:
    """Refuse a paper formula outside the range its theorem states, pointing to sigma_exact.

    Args:
        epsilon: the ε asked for, an exact ``Fraction`` (quoted in the refusal).
        delta: the δ asked for, an exact ``Fraction``, compared with 1/2 when ``bounded_by_half``.
        theorem: the formula's theorem as the message names it, e.g.
            ``"the classical Gaussian mechanism (Dwork & Roth, Theorem A.1)"``.
        stated_range: the ε range the theorem states, as text for the message (e.g. ``"(0, 1)"``).
        within_stated_range: whether ``epsilon`` lies in that range (the caller decides it exactly); False
            refuses.
        bounded_by_half: whether the theorem also needs δ <= 1/2; then a larger ``delta`` is refused.
        command: the ``calibrate`` subcommand the pointer to the exact calibration names (e.g. ``"gaussian"``).
    """
    pointer = _EXACT_POINTER.format(command=command)
    if not within_stated_range:
        raise ValueError(
            f"epsilon must be in {stated_range} for {theorem} (the range the theorem is stated for), "
            f"got {fraction_text(epsilon)}; {pointer}"
        )
    if bounded_by_half and delta > Fraction(1, 2):
        raise ValueError(
            f"delta must be in (0, 1/2] for {theorem} (the range the theorem is stated for), "
            f"got {fraction_text(delta)}; {pointer}"
        )




def sigma_classical(*, epsilon: RationalLike, delta: RationalLike, sensitivity_squared: RationalLike) -> CertifiedReal:
    """σ of the classical Gaussian mechanism (Dwork & Roth, Theorem A.1): ``Δ sqrt(2 log(1.25/δ)) / ε``.

    The theorem is stated for ε ∈ (0, 1) (and asks ``c² > 2 log(1.25/δ)`` strictly: the value returned is the
    infimum of its admissible σ). ε >= 1 is refused with a pointer to :func:`sigma_exact`.

    Args:
        epsilon: ε in (0, 1), exact (the classical bound holds only there).
        delta: δ in (0, 1), exact.
        sensitivity_squared: Δ² > 0, exact.
    """
    eps = positive_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    d2 = positive_fraction(sensitivity_squared, "sensitivity_squared")
    check_paper_range(
        epsilon=eps,
        delta=target,
        theorem="the classical Gaussian mechanism (Dwork & Roth, Theorem A.1)",
        stated_range="(0, 1)",
        within_stated_range=eps < 1,
        bounded_by_half=False,
        command="gaussian",
    )
    return certify(
        lambda: (2 * _ball(d2) * (_ball(Fraction(5, 4)) / _ball(target)).log()).sqrt() / _ball(eps),
        label="classical sigma",
    )




__all__ = [
    "DEFAULT_TOLERANCE",
    "FINE_TOLERANCE",
    "ExactSigma",
    "GaussianVerdict",
    "UndecidedComparisonError",
    "check_gaussian",
    "gaussian_delta",
    "gaussian_epsilon",
    "sigma_classical",
    "sigma_exact",
]

