"""Claims in ρ-zCDP and in Rényi DP (an RDP curve), decided against a mechanism's exact Rényi divergences.

A claim is either ``rho`` (ρ-zCDP: D_α <= αρ for every α > 1) or ``rdp``, an RDP curve as accountants emit it:
a list of ``(α, RDP(α))`` pairs or a function of α (then read at :data:`DEFAULT_ORDERS`, the orders an
accountant usually tabulates). Values may be exact rationals or floats; a float is read exactly, as the binary
number it is (that is the value the accountant reports).

What is exact, per mechanism (each a :class:`RenyiProfile`):

* Gaussian noise, Mahalanobis sensitivity Δ²: D_α = α Δ²/(2σ²) for every α (the Rényi divergence of two
  Gaussians with one covariance Σ and means μ, μ' is α/2 (μ − μ')ᵀ Σ⁻¹ (μ − μ')). Both kinds of claim are
  decided exactly.
* Discrete Gaussian noise with a unique integer draw shift u: D_α <= α ‖u‖²/(2σ²), with equality at every
  integer α (Canonne, Kamath & Steinke 2020, Proposition 5: the theta-function ratio is 1 when (1 − α) u is an
  integer vector). So ρ = max ‖u‖²/(2σ²) exactly (the supremum is attained at α = 2), a curve point below αρ
  at an integer α fails, and one below it at a non-integer α is undecided (inconclusive).
* Laplace noise of either kind with a certified ε: ε-DP implies D_α <= ε for every α and ε²/2-zCDP (Bun &
  Steinke 2016, Proposition 1.4). These are upper bounds only: a claim above them holds, one below is
  inconclusive.

Every claim is decided by the one rule of :mod:`reference.privacy.claims` (with its ``rtol``); a claim decided
"fails" names the first order where it is exceeded, the certified value and the relative excess.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from reference.core.input_types import RdpCurve
from reference.core.validate import RealLike, fraction_text
from reference.core.verdict import ShortRepr, Verdict
from reference.privacy.claims import (
    DEFAULT_ORDERS,
    MAX_ORDERS,
    Claim,
    ClaimCheck,
    claim,
    combine,
    decide_value,
    exact_value,
    gaussian_variance,
    parse_rdp_text,
    rdp_points,
)

__all__ = ["DEFAULT_ORDERS", "MAX_ORDERS", "RenyiClaimVerdict", "RenyiProfile", "audit_gaussian_renyi", "decide",
           "decide_claim", "gaussian_profile", "parse_rdp_text", "rdp_points"]


def claim_value(value: RealLike, name: str) -> Fraction:
    """A claimed ρ or RDP value as an exact rational (a float read as the binary number it is).

    Args:
        value: the claimed value: an int, a Fraction, a ``"p/q"``/decimal string, a float or a NumPy scalar.
        name: the parameter it was given as, named in a refusal.

    Raises:
        ValueError: a nan or infinite float, or a string that is not a number.
        TypeError: a value of another type.
    """
    return exact_value(value, name)


@dataclass(frozen=True)
class RenyiProfile:
    """What is known of a mechanism's Rényi divergences: D_α <= α·``rho`` for all α (``rho`` None: no such
    bound), equality ``where`` ("all" orders, "integer" orders only, or "none"); and D_α <= ``epsilon`` for all
    α (an ε-DP bound, never tight here)."""

    rho: Fraction | None
    where: Literal["all", "integer", "none"]
    epsilon: Fraction | None = None
    basis: str = ""

    def upper(self, alpha: Fraction) -> Fraction | None:
        """An upper bound on D_α (None when none is known).

        Args:
            alpha: the Rényi order α > 1, exact.
        """
        bounds = [bound for bound in (None if self.rho is None else alpha * self.rho, self.epsilon) if bound is not None]
        return min(bounds) if bounds else None

    def exact(self, alpha: Fraction) -> Fraction | None:
        """D_α exactly, where it is known.

        Args:
            alpha: the Rényi order α > 1, exact (for an integer-exact profile only an integer α is known).
        """
        if self.rho is None or self.where == "none":
            return None
        if self.where == "all" or alpha.denominator == 1:
            return alpha * self.rho
        return None


@dataclass(frozen=True)
class RenyiClaimVerdict(ShortRepr):
    """A ρ-zCDP or RDP claim decided against a :class:`RenyiProfile` by the one claim rule
    (:func:`reference.privacy.claims.decide_value`); ``check`` is that decision (None: not private at all)."""

    claim: str
    verdict: Verdict
    reason: str
    #: the first order where the claim is certified exceeded (fails) or undecided (inconclusive)
    order: Fraction | None = None
    claimed: Fraction | None = None
    achieved: Fraction | None = None
    check: ClaimCheck | None = None

    def summary(self) -> str:
        return f"{self.claim}: {self.verdict} - {self.reason}"

    def as_json(self) -> dict[str, Any]:
        return {
            "claim": self.claim,
            "verdict": self.verdict,
            "reason": self.reason,
            "order": None if self.order is None else fraction_text(self.order),
            "claimed": None if self.claimed is None else fraction_text(self.claimed),
            "achieved": None if self.achieved is None else fraction_text(self.achieved),
            "claim_check": None if self.check is None else self.check.as_json(),
            "summary": self.summary(),
        }


def _verdict(check: ClaimCheck, order: Fraction | None) -> RenyiClaimVerdict:
    reason = check.summary().split(" - ", 1)[1]
    if check.verdict == "inconclusive" and check.lower is None:
        reason += "; only an upper bound is known"
    achieved = check.lower if check.verdict == "fails" else check.upper
    return RenyiClaimVerdict(check.claim.text(), check.verdict, reason, order=order, claimed=check.claimed,
                             achieved=achieved, check=check)


def decide_claim(profile: RenyiProfile, stated: Claim) -> RenyiClaimVerdict:
    """A ρ-zCDP or RDP :class:`~reference.privacy.claims.Claim` against the profile.

    ρ: the profile's ρ is exact where its supremum of D_α/α is attained (every α, or α = 2 for integer-exact
    profiles), else an upper bound (an ε-DP bound gives ε²/2). A curve: at each listed order the exact D_α where
    known (else the best upper bound) against RDP(α)·(1 + rtol); the first order certified exceeded fails the
    claim, else the first undecided order makes it inconclusive.

    Args:
        profile: what is known of the mechanism's Rényi divergences.
        stated: the claim, of kind ``"zcdp"`` or ``"rdp"`` (with its ``rtol``).

    Raises:
        ValueError: a claim of another kind (ε or (ε, δ)).
    """
    if stated.kind == "zcdp":
        assert stated.rho is not None
        bound = profile.rho
        if bound is None and profile.epsilon is not None:
            bound = profile.epsilon * profile.epsilon / 2  # ε-DP implies ε²/2-zCDP
        exact = profile.rho if profile.rho is not None and profile.where != "none" else None
        check = decide_value(stated, quantity="rho", claimed=stated.rho, lower=exact, upper=bound,
                             basis=profile.basis)
        return _verdict(check, Fraction(2) if check.verdict == "fails" else None)
    if stated.kind != "rdp":
        raise ValueError(f"a Renyi profile decides zCDP and RDP claims, not {stated.text()}")
    checks = [decide_value(stated, quantity=f"RDP(alpha = {fraction_text(alpha)})", claimed=value,
                           lower=profile.exact(alpha), upper=profile.upper(alpha), basis=profile.basis)
              for alpha, value in stated.curve]
    decided = combine(checks)
    assert decided is not None  # a curve lists at least one order
    order = None if decided.verdict == "holds" else stated.curve[checks.index(decided)][0]
    result = _verdict(decided, order)
    if decided.verdict == "holds":
        return RenyiClaimVerdict(result.claim, "holds", f"at every listed order; tightest: {result.reason}",
                                 claimed=decided.claimed, achieved=decided.upper, check=decided)
    return RenyiClaimVerdict(result.claim, result.verdict, f"at alpha = {fraction_text(order or Fraction(0))}: "
                             f"{result.reason}", order=order, claimed=result.claimed, achieved=result.achieved,
                             check=decided)


def decide(profile: RenyiProfile, *, rho: RealLike | None = None, rdp: RdpCurve | None = None,
           rtol: RealLike = 0) -> RenyiClaimVerdict:
    """Decide exactly one of a ρ-zCDP claim and an RDP curve, with relative tolerance ``rtol`` (default 0).

    Args:
        profile: what is known of the mechanism's Rényi divergences.
        rho: the claimed ρ > 0 of ρ-zCDP, exact (a float is read as the binary number it holds); give this or
            ``rdp``.
        rdp: the claimed RDP curve: (α, RDP(α)) pairs with α > 1 (values exact or floats read exactly), or a function
            of α read at :data:`DEFAULT_ORDERS`.
        rtol: the relative tolerance in [0, 1) on the claim (default 0); a float is read exactly.

    Raises:
        ValueError: neither or both of ``rho`` and ``rdp``, or a value out of range.
    """
    if (rho is None) == (rdp is None):
        raise ValueError("state exactly one of rho (a zCDP claim) and rdp (an RDP curve)")
    return decide_claim(profile, claim(rho=rho, rdp=rdp, rtol=rtol))


def gaussian_profile(*, sigma_squared: Fraction, sensitivity_squared: Fraction) -> RenyiProfile:
    """Gaussian noise: D_α = α Δ²/(2σ²) exactly.

    Args:
        sigma_squared: the noise variance σ² > 0, exact.
        sensitivity_squared: Δ², the squared (Mahalanobis) ℓ2 sensitivity, exact.
    """
    return RenyiProfile(sensitivity_squared / (2 * sigma_squared), "all",
                        basis="Gaussian: RDP(alpha) = alpha Delta^2/(2 sigma^2), exact")


def audit_gaussian_renyi(
    *,
    rho: RealLike | None = None,
    sigma: RealLike | None = None,
    sigma_squared: RealLike | None = None,
    sensitivity_squared: RealLike,
    rdp: RdpCurve | None = None,
    rtol: RealLike = 0,
) -> RenyiClaimVerdict:
    """A user's ρ or RDP curve for the Gaussian mechanism ``q + N(0, σ²)`` at sensitivity² Δ², against the exact
    RDP(α) = α Δ²/(2σ²) (decided exactly both ways). Give the noise as ``sigma`` (a standard deviation) or
    ``sigma_squared`` (the variance), one of them; a float is read exactly. ``rtol``: the claim's relative
    tolerance (:mod:`reference.privacy.claims`).

    Args:
        rho: the claimed ρ > 0 of ρ-zCDP (each number here: an int, a Fraction, a ``"p/q"``/decimal string, or a
            float read as the binary number it holds); give this or ``rdp``.
        sigma: the noise's standard deviation σ > 0; give this or ``sigma_squared``.
        sigma_squared: the noise's variance σ² > 0; give this or ``sigma``.
        sensitivity_squared: Δ² > 0, the squared ℓ2 sensitivity of the query q.
        rdp: the claimed RDP curve: (α, RDP(α)) pairs with α > 1, or a function of α read at :data:`DEFAULT_ORDERS`.
        rtol: the relative tolerance in [0, 1) on the claim (default 0).

    Raises:
        ValueError: not exactly one of ``sigma`` and ``sigma_squared`` (or of ``rho`` and ``rdp``), or a value out of
            range.
    """
    squared = exact_value(sensitivity_squared, "sensitivity_squared")
    if squared <= 0:
        raise ValueError(f"sensitivity_squared must be > 0, got {fraction_text(squared)}")
    return decide(gaussian_profile(sigma_squared=gaussian_variance(sigma=sigma, sigma_squared=sigma_squared),
                                   sensitivity_squared=squared), rho=rho, rdp=rdp, rtol=rtol)
