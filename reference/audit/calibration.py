"""Calibration audit: is a mechanism with these parameters really as private as it claims?

Given a mechanism, its noise parameter, its sensitivity and the claimed privacy, return a certified verdict —
``holds`` or not — with the exact δ at the claimed ε, the smallest ε at the claimed δ, and how far the noise is
from the smallest sufficient noise. Every comparison is decided by rigorous Arb enclosures (python-flint); a
claim is reported as holding only when the enclosure of the achieved δ lies entirely below the claimed δ.

Mechanisms:

* ``gaussian`` — ``q + N(0, σ²)^d`` with ℓ2 sensitivity Δ (σ a standard deviation; for correlated noise pass the
  Mahalanobis Δ² from ``reference.cip.sensitivity``): exact profile of Balle & Wang.
* ``laplace`` — ``q + Lap(b)^d``: with ``delta`` 0 the pure claim ε >= Δ1/b (exact); with ``delta`` > 0 the exact
  multivariate profile for the given neighbouring-difference vectors (``reference.privacy.laplace_profile``).
* ``laplace-l2`` — Laplace noise calibrated to ℓ2 sensitivity (KARY Theorem 1.3 / Lemma 5.5): the exact profile
  for the given vectors, or for the all-equal vector implied by (Δ1, Δ2²) when Δ1²/Δ2² is an integer (the tree
  case); Theorem 1.3's ε is shown beside it.
* ``discrete-gaussian`` — ``q + N_Z(0, σ²)`` on an integer query with integer sensitivity Δ: exact δ(ε)
  (Canonne–Kamath–Steinke Theorem 7); or, with ``rho``, the zCDP claim ρ >= Δ²/(2σ²) (exact).
* ``discrete-laplace`` — ``q + Lap_Z(t)`` (P[x] ∝ exp(−|x|/t)) on an integer query with integer sensitivity Δ:
  the pure claim ε >= Δ/t (exact and tight), or the exact δ(ε) in closed form.

The Gaussian family takes its noise as ``sigma`` (a standard deviation) or ``sigma_squared`` (σ², the variance;
the discrete Gaussian's scale), one of them. Every audit takes ``rtol``, the claim's relative tolerance: the
claim is decided by the one rule of :mod:`reference.privacy.claims` (achieved δ(ε), ε or ρ at most the claimed
one times 1 + rtol), and ``claim_check`` states the certified value, the relative excess and the tolerance.

Example::

    >>> from reference.audit.calibration import audit_gaussian
    >>> audit_gaussian(sigma=3, sensitivity_squared=1, epsilon=1, delta="1e-5").verdict
    'fails'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from reference.core.certified import CertifiedReal, UndecidedComparisonError
from reference.core.exact_text import exact_text, message_value
from reference.core.validate import (
    RationalLike,
    describe,
    exact_vectors,
    fraction_text,
    nonnegative_fraction,
    positive_fraction,
    to_fraction,
)
from reference.core.verdict import Decided
from reference.privacy.claims import Claim, ClaimCheck, claim, decide_value, gaussian_variance


@dataclass(frozen=True)
class CalibrationVerdict(Decided):
    """A certified verdict on a privacy claim."""

    mechanism: str
    claim: str
    holds: bool
    basis: str
    delta_at_epsilon: CertifiedReal | None = None
    epsilon_at_delta: CertifiedReal | None = None
    noise_ratio: CertifiedReal | None = None  # provided noise / smallest sufficient noise (< 1: too little)
    details: dict[str, Any] = field(default_factory=dict)
    #: the claim decided by the one rule (certified value, relative excess, tolerance)
    claim_check: ClaimCheck | None = None

    def summary(self) -> str:
        """One line for a terminal."""
        verdict = "HOLDS" if self.holds else "FAILS"
        parts = [f"{self.mechanism}: {self.claim} {verdict}"]
        if self.delta_at_epsilon is not None:
            parts.append(f"delta(epsilon) {_relation(self.delta_at_epsilon.text(15, rounded='up'))}")
        if self.epsilon_at_delta is not None:
            parts.append(f"smallest epsilon {_relation(self.epsilon_at_delta.text(15, rounded='up'))}")
        if self.noise_ratio is not None:
            parts.append(f"noise / smallest sufficient noise {_relation(self.noise_ratio.text(15, rounded='down'))}")
        if self.claim_check is not None:
            parts.append(f"{self.claim_check.excess_text()} in {self.claim_check.quantity}, "
                         f"{self.claim_check.claim.tolerance_text()}")
        return "; ".join(parts)

    def as_json(self) -> dict[str, Any]:
        """JSON form (exact rationals as "p/q", reals as decimal strings with their certified intervals)."""
        return {
            "mechanism": self.mechanism,
            "claim": self.claim,
            "verdict": self.verdict,
            "summary": self.summary(),
            "basis": self.basis,
            # the δ and ε the mechanism achieves: rounded up; the noise to spare (a ratio read as ">= 1 is
            # enough"): rounded down
            "delta_at_epsilon": self.delta_at_epsilon.as_json("up") if self.delta_at_epsilon else None,
            "epsilon_at_delta": self.epsilon_at_delta.as_json("up") if self.epsilon_at_delta else None,
            "noise_ratio": self.noise_ratio.as_json("down") if self.noise_ratio else None,
            "claim_check": None if self.claim_check is None else self.claim_check.as_json(),
            **self.details,
        }


def _relation(text: str) -> str:
    """``"= 1.5"`` for a certified decimal, the one-sided bound (``"<= 3e-315653"``) as it is."""
    return text if text.startswith(("<", ">")) else "= " + text


def _claim(epsilon: Fraction, delta: Fraction) -> str:
    return f"({exact_text(epsilon)}, {exact_text(delta)})-DP" if delta else f"{exact_text(epsilon)}-DP"


def _decided(
    stated: Claim, quantity: str, claimed: Fraction, achieved: CertifiedReal | None, holds: bool, basis: str
) -> tuple[bool, ClaimCheck | None]:
    """The one claim rule on the certified ``achieved`` value; ``holds`` (the audit's own certified decision at
    rtol 0) settles an enclosure that straddles the claim when there is no tolerance."""
    if achieved is None:
        if stated.rtol:
            raise UndecidedComparisonError(f"{quantity} could not be enclosed, so rtol cannot be applied")
        return holds, None
    check = decide_value(stated, quantity=quantity, claimed=claimed, lower=achieved.lower, upper=achieved.upper,
                         basis=basis)
    if check.verdict == "inconclusive":
        if stated.rtol:
            raise UndecidedComparisonError(
                f"{quantity} is enclosed in {achieved.bounds(20)}, which straddles the claim times 1 + rtol")
        return holds, check
    return check.verdict == "holds", check


def _sigma_and_sensitivity(
    sigma: object, sigma_squared: object, sensitivity_squared: object
) -> tuple[Fraction, Fraction, Fraction]:
    """(σ, Δ², σ²) for the continuous Gaussian: σ² not a rational square is audited as σ = 1 at Δ²/σ² (the
    profile depends on Δ²/σ² only)."""
    sigma, sigma_squared = _exact_or_none(sigma, "sigma"), _exact_or_none(sigma_squared, "sigma_squared")
    variance = gaussian_variance(sigma=sigma, sigma_squared=sigma_squared)
    d2 = positive_fraction(sensitivity_squared, "sensitivity_squared")
    if sigma is not None:
        return sigma, d2, variance
    root = _rational_sqrt(variance)
    if root is not None:
        return root, d2, variance
    return Fraction(1), d2 / variance, variance


def _exact_or_none(value: object, name: str) -> Fraction | None:
    """An exact rational (floats refused, as for every exact parameter), or None when not given."""
    return None if value is None else to_fraction(value, name)


def _rational_sqrt(value: Fraction) -> Fraction | None:
    from math import isqrt

    top, bottom = isqrt(value.numerator), isqrt(value.denominator)
    return Fraction(top, bottom) if top * top == value.numerator and bottom * bottom == value.denominator else None


def audit_gaussian(
    *,
    epsilon: RationalLike,
    delta: RationalLike,
    sigma: RationalLike | None = None,
    sigma_squared: RationalLike | None = None,
    sensitivity_squared: RationalLike,
    rtol: RationalLike | float = 0,
) -> CalibrationVerdict:
    """``q + N(0, σ²)`` with squared ℓ2 (or Mahalanobis) sensitivity Δ² against an (ε, δ) claim.

    Args:
        epsilon: the claimed ε > 0.
        delta: the claimed δ in (0, 1).
        sigma: the noise's standard deviation σ > 0 (give this or ``sigma_squared``).
        sigma_squared: the noise's variance σ² > 0 (give this or ``sigma``).
        sensitivity_squared: Δ², the squared ℓ2 (or Mahalanobis) sensitivity of the query.
        rtol: the relative excess of δ(ε) over δ accepted (0: none; a float is read exactly).

    Returns:
        The verdict, with the certified δ(ε) at σ, the smallest ε at δ, σ over the smallest sufficient σ, and
        that σ (``summary()`` says it in one paragraph).

    Example:
        σ = 3 at Δ² = 1 is not (1, 1e-5)-DP: the smallest sufficient σ is about 3.73.

        >>> from reference.audit.calibration import audit_gaussian
        >>> verdict = audit_gaussian(epsilon=1, delta="1e-5", sigma=3, sensitivity_squared=1)
        >>> verdict.verdict, verdict.delta_at_epsilon.bounds(3)
        ('fails', '[0.000207, 0.000208]')
    """
    from reference.privacy.gaussian import check_gaussian

    deviation, d2, variance = _sigma_and_sensitivity(sigma, sigma_squared, sensitivity_squared)
    eps, target = to_fraction(epsilon, "epsilon"), to_fraction(delta, "delta")
    verdict = check_gaussian(sigma=deviation, epsilon=eps, delta=target, sensitivity_squared=d2)
    stated = claim(epsilon=verdict.epsilon, delta=verdict.delta, rtol=rtol)
    basis = "exact Gaussian privacy profile (Balle & Wang 2018, Theorem 8), Arb enclosures"
    holds, check = _decided(stated, f"delta(epsilon = {exact_text(verdict.epsilon)})", verdict.delta,
                            verdict.delta_at_sigma, verdict.holds, basis)
    rescaled = sigma is None and deviation * deviation != variance
    return CalibrationVerdict(
        mechanism="gaussian",
        claim=_claim(verdict.epsilon, verdict.delta),
        holds=holds,
        claim_check=check,
        basis="exact Gaussian privacy profile (Balle & Wang 2018, Theorem 8), Arb enclosures",
        delta_at_epsilon=verdict.delta_at_sigma,
        epsilon_at_delta=verdict.epsilon_at_sigma,
        noise_ratio=verdict.sigma_ratio,
        details={
            "sigma": None if rescaled else fraction_text(verdict.sigma),
            "sigma_squared": fraction_text(variance),
            # σ² not a rational square: audited as σ = 1 at Δ²/σ², so the optimal σ is in units of the given σ
            "sigma_exact_unit": "the given sigma" if rescaled else "absolute",
            "sigma_exact": None if verdict.exact is None else verdict.exact.text(20, rounded="up"),
            "sigma_exact_rounded": "up",
            "sigma_exact_certificate": None if verdict.exact is None else verdict.exact.as_json(),
            "notes": list(verdict.notes),
        },
    )


def audit_laplace(
    *,
    epsilon: RationalLike,
    delta: RationalLike,
    scale: RationalLike,
    sensitivity_vectors: Sequence[Sequence[RationalLike]],
    rtol: RationalLike | float = 0,
) -> CalibrationVerdict:
    """``q + Lap(b)^d`` against an ε-DP (``delta`` = 0) or (ε, δ)-DP claim, for the given difference vectors.

    Args:
        epsilon: the claimed ε > 0.
        delta: the claimed δ >= 0 (0: pure ε-DP).
        scale: the Laplace scale b > 0 of each coordinate.
        sensitivity_vectors: the differences q(x) − q(x') of neighbouring inputs to check (exact entries).
        rtol: the relative excess accepted, on ε (pure) or on δ(ε) (0: none).

    Example:
        Lap(2) on a count (difference vector (1,)) is exactly (1/2)-DP:

        >>> from reference.audit.calibration import audit_laplace
        >>> audit_laplace(epsilon="1/2", delta=0, scale=2, sensitivity_vectors=[[1]]).verdict
        'holds'
    """
    b = positive_fraction(scale, "scale")
    eps = positive_fraction(epsilon, "epsilon")
    target = nonnegative_fraction(delta, "delta")
    # one reader for the shape and the entries: a string, a number, a NumPy matrix or a ragged entry each get one
    # line naming sensitivity_vectors (never numpy's "truth value of an array is ambiguous")
    vectors = exact_vectors(sensitivity_vectors, "sensitivity_vectors")
    if not any(x != 0 for vector in vectors for x in vector):
        # an all-zero difference is no neighbouring pair: there is nothing to protect and no ratio to report
        raise ValueError("sensitivity_vectors (--vectors) must contain a non-zero entry, got only zeros")
    if target == 0:
        l1 = max(sum((abs(x) for x in vector), Fraction(0)) for vector in vectors)
        achieved = l1 / b
        basis = "pure DP of the Laplace mechanism: ε = Δ1/b exactly (KARY Lemma A.2), and it is tight"
        holds, check = _decided(claim(epsilon=eps, rtol=rtol), "epsilon", eps, CertifiedReal.exact(achieved),
                                achieved <= eps, basis)
        return CalibrationVerdict(
            mechanism="laplace",
            claim=_claim(eps, target),
            holds=holds,
            claim_check=check,
            basis=basis,
            epsilon_at_delta=CertifiedReal.exact(achieved),
            noise_ratio=CertifiedReal.exact(b * eps / l1),
            details={"l1_sensitivity": fraction_text(l1)},
        )
    from reference.privacy.laplace_audit import check_laplace

    if not target < 1:
        raise ValueError(f"delta must be in [0, 1), got {message_value(target)}")
    verdict = check_laplace(scale=b, epsilon=eps, delta=target, sensitivity_vectors=vectors)
    basis = "exact privacy profile of the multivariate Laplace mechanism for the given vectors, Arb enclosures"
    holds, check = _decided(claim(epsilon=eps, delta=target, rtol=rtol), f"delta(epsilon = {exact_text(eps)})",
                            target, verdict.delta_at_epsilon, verdict.holds, basis)
    return CalibrationVerdict(
        mechanism="laplace",
        claim=_claim(eps, target),
        holds=holds,
        claim_check=check,
        basis=basis,
        delta_at_epsilon=verdict.delta_at_epsilon,
        epsilon_at_delta=verdict.epsilon_at_scale,
        noise_ratio=verdict.scale_ratio,
        details={"scale_exact": verdict.exact.as_json()},
    )


#: Most entries of the all-equal sensitivity vector derived from (Δ1, Δ2²) (the exact profile groups equal
#: entries, but the vector is still listed).
MAX_EQUAL_ENTRIES = 100_000


def audit_laplace_l2(
    *,
    epsilon: RationalLike,
    delta: RationalLike,
    scale: RationalLike,
    l1_sensitivity: RationalLike,
    l2_sensitivity_squared: RationalLike,
    sensitivity_vectors: Sequence[Sequence[RationalLike]] | None = None,
    rtol: RationalLike | float = 0,
) -> CalibrationVerdict:
    """Laplace noise calibrated to ℓ2 sensitivity (KARY Theorem 1.3) against an (ε, δ) claim.

    The verdict is exact for ``sensitivity_vectors`` when given; otherwise for the all-equal vector with the given
    norms (length Δ1²/Δ2², entries Δ2²/Δ1), which must then be an integer length — other vectors with the same
    norms can need a larger ε, so pass the mechanism's actual vectors when they differ.

    Args:
        epsilon: the claimed ε > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        delta: the claimed δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        scale: the Laplace scale b > 0 of each coordinate, exact (int, Fraction or str such as ``"1/3"``; not float).
        l1_sensitivity: Δ1 > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        l2_sensitivity_squared: Δ2² > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        sensitivity_vectors: the mechanism's neighbouring differences (sequences of exact rationals), or ``None`` for
            the all-equal vector with the given norms.
        rtol: the relative excess accepted on δ(ε), >= 0 (0: none; a float is read exactly).
    """
    from reference.kary.theorem_1_3 import theorem_1_3_report

    b = positive_fraction(scale, "scale")
    l1 = positive_fraction(l1_sensitivity, "l1_sensitivity")
    l2_squared = positive_fraction(l2_sensitivity_squared, "l2_sensitivity_squared")
    eps = positive_fraction(epsilon, "epsilon")
    target = positive_fraction(delta, "delta")
    if sensitivity_vectors is None:
        length = l1 * l1 / l2_squared
        if length.denominator != 1:
            raise ValueError(
                "sensitivity_vectors is required: Δ1²/Δ2² is not an integer, so the norms do not determine an "
                "all-equal vector"
            )
        if length > MAX_EQUAL_ENTRIES:
            raise ValueError(
                f"Δ1²/Δ2² = {describe(length)} equal entries is more than {MAX_EQUAL_ENTRIES}: give "
                "sensitivity_vectors explicitly"
            )
        entry = l2_squared / l1
        sensitivity_vectors = [[entry] * int(length)]
    verdict = audit_laplace(scale=b, epsilon=eps, delta=target, sensitivity_vectors=sensitivity_vectors, rtol=rtol)
    details = dict(verdict.details)
    try:
        theorem = theorem_1_3_report(
            scale=b, l1_sensitivity=l1, l2_sensitivity=None, delta=target, l2_sensitivity_squared=l2_squared
        )
        details["theorem_1_3"] = theorem.as_json()
    except ValueError as refused:  # Theorem 1.3 needs λ > Δ1
        details["theorem_1_3_refused"] = str(refused)
    return CalibrationVerdict(
        mechanism="laplace-l2",
        claim=verdict.claim,
        holds=verdict.holds,
        basis=verdict.basis,
        delta_at_epsilon=verdict.delta_at_epsilon,
        epsilon_at_delta=verdict.epsilon_at_delta,
        noise_ratio=verdict.noise_ratio,
        details=details,
        claim_check=verdict.claim_check,
    )


def audit_discrete_gaussian(
    *,
    epsilon: RationalLike | None = None,
    delta: RationalLike | None = None,
    rho: RationalLike | None = None,
    sigma: RationalLike | None = None,
    sigma_squared: RationalLike | None = None,
    sensitivity: int | None = None,
    sensitivity_squared: RationalLike | None = None,
    rtol: RationalLike | float = 0,
) -> CalibrationVerdict:
    """``q + N_Z(0, σ²)^d`` against an (ε, δ) claim or a ρ-zCDP claim; the scale as ``sigma_squared`` (σ²) or
    ``sigma`` (σ), one of them; ``rtol`` on δ(ε) or ρ.

    ``sensitivity``: the integer Δ of a scalar integer query (both kinds of claim). ``sensitivity_squared``
    instead: the squared ℓ2 sensitivity Δ² (an exact rational) of a vector-valued integer query, for ρ claims
    only — N_Z(0, σ²)^d shifted by an integer vector u is exactly (‖u‖²/(2σ²))-zCDP (CKS 2020, Proposition 5),
    so InfTDA's Δ² = 2m² for m records per user can be stated as it is.

    Args:
        epsilon: the claimed ε > 0 for an (ε, δ) claim (with ``delta``; not with ``rho``), exact (int, Fraction or str
            such as ``"1/3"``; not float).
        delta: the claimed δ in (0, 1) for an (ε, δ) claim, exact (int, Fraction or str such as ``"1/3"``; not float).
        rho: the claimed ρ > 0 for a zCDP claim (instead of ``epsilon`` and ``delta``), exact (int, Fraction or str such
            as ``"1/3"``; not float).
        sigma: the noise as σ > 0 (σ² = sigma²), exact (int, Fraction or str such as ``"1/3"``; not float); give this or
            ``sigma_squared``.
        sigma_squared: the noise's scale σ² > 0, exact (int, Fraction or str such as ``"1/3"``; not float); give this or
            ``sigma``.
        sensitivity: Δ, a positive integer: the largest change of a scalar integer query (either claim); give this or
            ``sensitivity_squared``.
        sensitivity_squared: Δ² > 0, the squared ℓ2 sensitivity of a vector-valued integer query, exact (int, Fraction
            or str such as ``"1/3"``; not float); ``rho`` claims only.
        rtol: the relative excess accepted on δ(ε) or ρ, >= 0 (0: none; a float is read exactly).
    """
    from reference.privacy import zcdp
    from reference.privacy.discrete_gaussian_profile import discrete_gaussian_delta, discrete_gaussian_epsilon

    s2 = gaussian_variance(sigma=_exact_or_none(sigma, "sigma"),
                           sigma_squared=_exact_or_none(sigma_squared, "sigma_squared"))
    if (sensitivity is None) == (sensitivity_squared is None):
        raise ValueError("give exactly one of sensitivity (an integer) and sensitivity_squared (a rational)")
    if sensitivity_squared is not None:
        d2 = positive_fraction(sensitivity_squared, "sensitivity_squared")
        if rho is None:
            raise ValueError("sensitivity_squared is for rho (zCDP) claims; an (epsilon, delta) claim needs the "
                             "integer sensitivity of a scalar query")
    else:
        if isinstance(sensitivity, bool) or not isinstance(sensitivity, int) or sensitivity < 1:
            raise ValueError(f"sensitivity must be a positive integer (integer-valued query), got {sensitivity!r}")
        d2 = Fraction(sensitivity * sensitivity)
    if rho is not None:
        if epsilon is not None or delta is not None:  # one claim per call: nothing given is silently ignored
            raise ValueError("give rho for a zCDP claim, or epsilon and delta for an (ε, δ) claim, not both")
        claimed = positive_fraction(rho, "rho")
        needed = zcdp.rho_discrete_gaussian(sigma_squared=s2, sensitivity_squared=d2)
        basis = "N_Z(0, σ²) with ℓ2 sensitivity Δ is (Δ²/(2σ²))-zCDP (Canonne–Kamath–Steinke 2020), exact"
        holds, check = _decided(claim(rho=claimed, rtol=rtol), "rho", claimed, CertifiedReal.exact(needed),
                                needed <= claimed, basis)
        return CalibrationVerdict(
            mechanism="discrete-gaussian",
            claim=f"{exact_text(claimed)}-zCDP",
            holds=holds,
            claim_check=check,
            basis=basis,
            details={"rho_achieved": fraction_text(needed)},
        )
    assert sensitivity is not None
    if epsilon is None or delta is None:
        raise ValueError("give epsilon and delta for an (ε, δ) claim, or rho for a zCDP claim")
    eps = positive_fraction(epsilon, "epsilon")
    target = positive_fraction(delta, "delta")
    achieved = discrete_gaussian_delta(epsilon=eps, sigma_squared=s2, sensitivity=sensitivity)
    try:  # the smallest ε at δ is context, not the verdict: left out (saying so) when its search costs too much
        smallest: CertifiedReal | None = discrete_gaussian_epsilon(delta=target, sigma_squared=s2,
                                                                   sensitivity=sensitivity)
        details: dict[str, str] = {}
    except ValueError as refused:
        smallest, details = None, {"epsilon_at_delta": f"not computed: {refused}"}
    basis = "exact δ(ε) of the discrete Gaussian mechanism (Canonne–Kamath–Steinke 2020, Theorem 7), Arb"
    holds, check = _decided(claim(epsilon=eps, delta=target, rtol=rtol), f"delta(epsilon = {exact_text(eps)})",
                            target, achieved, achieved.certainly_le(target), basis)
    return CalibrationVerdict(
        mechanism="discrete-gaussian",
        claim=_claim(eps, target),
        holds=holds,
        claim_check=check,
        basis=basis,
        delta_at_epsilon=achieved,
        epsilon_at_delta=smallest,
        details=details,
    )


def audit_discrete_laplace(
    *,
    epsilon: RationalLike,
    delta: RationalLike = 0,
    scale: RationalLike,
    sensitivity: int,
    rtol: RationalLike | float = 0,
) -> CalibrationVerdict:
    """``q + Lap_Z(t)`` — the discrete Laplace, P[x] ∝ exp(−|x|/t) on the integers — on an integer query with
    integer sensitivity Δ, against a pure ε-DP claim (``delta`` 0; ``rtol`` on ε) or an (ε, δ) claim (``rtol``
    on δ(ε)).

    The privacy loss log P[x]/P[x − Δ] = (|x − Δ| − |x|)/t is at most Δ/t and equals it at every x <= 0, so the
    mechanism is exactly (Δ/t)-DP and no smaller ε holds; δ(ε) below Δ/t is the closed form of
    :mod:`reference.privacy.discrete_laplace_profile` (certified), and with δ > 0 ``epsilon_at_delta`` encloses the
    smallest ε with δ(ε) <= δ (certified bisection on that closed form).

    Args:
        epsilon: the claimed ε > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        delta: the claimed δ: 0 (default) for pure ε-DP, else in (0, 1), exact (int, Fraction or str such as ``"1/3"``;
            not float).
        scale: the scale t > 0 of Lap_Z(t), exact (int, Fraction or str such as ``"1/3"``; not float).
        sensitivity: Δ, a positive integer.
        rtol: the relative excess accepted on ε (pure) or δ(ε), >= 0 (0: none; a float is read exactly).
    """
    from reference.privacy.discrete_laplace_profile import discrete_laplace_delta, discrete_laplace_epsilon

    t = positive_fraction(scale, "scale")
    if isinstance(sensitivity, bool) or not isinstance(sensitivity, int) or sensitivity < 1:
        raise ValueError(f"sensitivity must be a positive integer (integer-valued query), got {sensitivity!r}")
    eps = positive_fraction(epsilon, "epsilon")
    target = nonnegative_fraction(delta, "delta")
    if not target < 1:
        raise ValueError(f"delta must be in [0, 1), got {exact_text(target)}")
    achieved = Fraction(sensitivity) / t
    details: dict[str, Any] = {"scale": fraction_text(t), "sensitivity": sensitivity,
                               "pure_epsilon": fraction_text(achieved)}
    if target == 0:
        basis = ("the discrete Laplace's privacy loss (|x - Delta| - |x|)/t is at most Delta/t and attains it at "
                 "x <= 0: epsilon = Delta/t exactly, tight")
        holds, check = _decided(claim(epsilon=eps, rtol=rtol), "epsilon", eps, CertifiedReal.exact(achieved),
                                achieved <= eps, basis)
        return CalibrationVerdict(mechanism="discrete-laplace", claim=_claim(eps, target), holds=holds,
                                  claim_check=check, basis=basis, epsilon_at_delta=CertifiedReal.exact(achieved),
                                  noise_ratio=CertifiedReal.exact(t * eps / sensitivity), details=details)
    profile = discrete_laplace_delta(epsilon=eps, scale=t, sensitivity=sensitivity)
    smallest = discrete_laplace_epsilon(delta=target, scale=t, sensitivity=sensitivity)
    basis = "exact delta(epsilon) of the discrete Laplace mechanism in closed form (two geometric sums), Arb"
    holds, check = _decided(claim(epsilon=eps, delta=target, rtol=rtol), f"delta(epsilon = {exact_text(eps)})",
                            target, profile, profile.upper <= target, basis)
    if check is not None and check.verdict == "inconclusive":
        raise UndecidedComparisonError(f"delta(epsilon) is enclosed in {profile.bounds(20)}, which straddles the "
                                       f"claimed delta {exact_text(target)}")
    return CalibrationVerdict(mechanism="discrete-laplace", claim=_claim(eps, target), holds=holds,
                              claim_check=check, basis=basis, delta_at_epsilon=profile, epsilon_at_delta=smallest,
                              details=details)
