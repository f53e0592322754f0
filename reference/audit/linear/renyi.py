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

A claim decided "fails" names the first order where it is exceeded and the excess exact/claimed − 1.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from reference.core.excess_text import scientific
from reference.core.validate import fraction_text, to_fraction

Verdict = Literal["holds", "fails", "inconclusive"]
#: The orders at which a curve given as a function is read (those accountants commonly tabulate).
DEFAULT_ORDERS: tuple[Fraction, ...] = tuple(
    Fraction(value) for value in
    ("1.25", "1.5", "1.75", "2", "2.5", "3", "4", "5", "6", "8", "10", "12", "16", "20", "32", "64", "128", "256")
)
#: Most (α, RDP(α)) pairs a claim may list.
MAX_ORDERS = 10_000

RdpClaim = Iterable[tuple[object, object]] | Callable[[Fraction], object]


def _exact(value: object, name: str) -> Fraction:
    """An exact rational; a float is read as the binary number it is (not rounded to a decimal)."""
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{name} must be finite, got {value!r}")
        return Fraction(value)
    if hasattr(value, "item") and not isinstance(value, (int, Fraction, str)):  # numpy scalars
        return _exact(value.item(), name)
    return to_fraction(value, name)


def rdp_points(rdp: object) -> tuple[tuple[Fraction, Fraction], ...]:
    """The claimed curve as exact ``(α, RDP(α))`` pairs, α > 1 and RDP(α) >= 0; a function of α is read at
    :data:`DEFAULT_ORDERS` (called with a ``float`` α, the type accountants expect)."""
    if callable(rdp):
        function: Callable[[float], object] = rdp
        pairs: list[tuple[object, object]] = [(order, function(float(order))) for order in DEFAULT_ORDERS]
    elif isinstance(rdp, (str, bytes)) or not hasattr(rdp, "__iter__"):
        raise TypeError("rdp must be a list of (alpha, RDP(alpha)) pairs or a function of alpha")
    else:
        pairs = []
        for index, pair in enumerate(rdp):
            if index >= MAX_ORDERS:
                raise ValueError(f"rdp: at most {MAX_ORDERS} (alpha, RDP(alpha)) pairs")
            if isinstance(pair, (str, bytes)) or not hasattr(pair, "__len__") or len(pair) != 2:
                raise TypeError(f"rdp[{index}] must be a pair (alpha, RDP(alpha)), got {pair!r}")
            pairs.append((pair[0], pair[1]))
    if not pairs:
        raise ValueError("rdp must list at least one (alpha, RDP(alpha)) pair")
    points = []
    for order, value in pairs:
        alpha = _exact(order, "rdp order alpha")
        bound = _exact(value, f"rdp value at alpha = {fraction_text(alpha)}")
        if alpha <= 1:
            raise ValueError(f"rdp: every order alpha must be > 1, got {fraction_text(alpha)}")
        if bound < 0:
            raise ValueError(f"rdp: RDP(alpha) must be >= 0, got {fraction_text(bound)} at alpha = {fraction_text(alpha)}")
        points.append((alpha, bound))
    return tuple(points)


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
        """An upper bound on D_α (None when none is known)."""
        bounds = [bound for bound in (None if self.rho is None else alpha * self.rho, self.epsilon) if bound is not None]
        return min(bounds) if bounds else None

    def exact(self, alpha: Fraction) -> Fraction | None:
        """D_α exactly, where it is known."""
        if self.rho is None or self.where == "none":
            return None
        if self.where == "all" or alpha.denominator == 1:
            return alpha * self.rho
        return None


@dataclass(frozen=True)
class RenyiClaimVerdict:
    """A ρ-zCDP or RDP claim decided against a :class:`RenyiProfile`."""

    claim: str
    verdict: Verdict
    reason: str
    #: the first order where the claim is certified exceeded (fails) or undecided (inconclusive)
    order: Fraction | None = None
    claimed: Fraction | None = None
    achieved: Fraction | None = None

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
            "summary": self.summary(),
        }


def _excess(achieved: Fraction, claimed: Fraction) -> str:
    if claimed == 0:
        return "the claim is 0"
    return f"achieved/claimed - 1 >= {scientific(achieved / claimed - 1, upward=False)}"


def decide_rho(profile: RenyiProfile, rho: object) -> RenyiClaimVerdict:
    """ρ-zCDP: holds iff every D_α <= αρ; decided exactly where the profile's ρ is exact (its supremum of
    D_α/α is attained: at every α, or at α = 2 for integer-exact profiles)."""
    claimed = _exact(rho, "rho")
    if claimed <= 0:
        raise ValueError(f"rho must be > 0, got {fraction_text(claimed)}")
    name = f"{fraction_text(claimed)}-zCDP"
    bound = profile.rho
    if bound is None and profile.epsilon is not None:
        bound = profile.epsilon * profile.epsilon / 2  # ε-DP implies ε²/2-zCDP
    if bound is not None and bound <= claimed:
        return RenyiClaimVerdict(name, "holds", f"rho <= {fraction_text(bound)} ({profile.basis})",
                                 claimed=claimed, achieved=bound)
    if profile.rho is not None and profile.where != "none":
        return RenyiClaimVerdict(
            name, "fails", f"rho = {fraction_text(profile.rho)} exactly, {_excess(profile.rho, claimed)} "
            f"({profile.basis})", order=Fraction(2), claimed=claimed, achieved=profile.rho)
    return RenyiClaimVerdict(name, "inconclusive", f"only an upper bound is known ({profile.basis}); "
                             f"it does not reach the claim", claimed=claimed, achieved=bound)


def decide_rdp(profile: RenyiProfile, rdp: object) -> RenyiClaimVerdict:
    """An RDP curve: holds iff D_α <= RDP(α) at every listed order; fails at the first order where the exact
    D_α is certified above the claim; inconclusive where only a bound is known and it exceeds the claim."""
    points = rdp_points(rdp)
    name = f"RDP curve at {len(points)} orders"
    undecided: tuple[Fraction, Fraction, Fraction | None] | None = None
    for alpha, claimed in points:
        exact = profile.exact(alpha)
        if exact is not None and exact > claimed:
            return RenyiClaimVerdict(
                name, "fails", f"at alpha = {fraction_text(alpha)} the exact RDP is {fraction_text(exact)} > claimed "
                f"{fraction_text(claimed)}, {_excess(exact, claimed)} ({profile.basis})",
                order=alpha, claimed=claimed, achieved=exact)
        upper = profile.upper(alpha)
        if (upper is None or upper > claimed) and undecided is None:
            undecided = (alpha, claimed, upper)
    if undecided is not None:
        alpha, claimed, upper = undecided
        known = "no bound is known" if upper is None else f"only the bound {fraction_text(upper)} is known"
        return RenyiClaimVerdict(name, "inconclusive", f"at alpha = {fraction_text(alpha)} the claim is "
                                 f"{fraction_text(claimed)} and {known} ({profile.basis})",
                                 order=alpha, claimed=claimed, achieved=upper)
    return RenyiClaimVerdict(name, "holds", f"the exact RDP (or a certified bound) is at most the claim at every "
                             f"listed order ({profile.basis})")


def decide(profile: RenyiProfile, *, rho: object = None, rdp: object = None) -> RenyiClaimVerdict:
    """Decide exactly one of a ρ-zCDP claim and an RDP curve."""
    if (rho is None) == (rdp is None):
        raise ValueError("state exactly one of rho (a zCDP claim) and rdp (an RDP curve)")
    return decide_rho(profile, rho) if rho is not None else decide_rdp(profile, rdp)


def gaussian_profile(*, sigma_squared: Fraction, sensitivity_squared: Fraction) -> RenyiProfile:
    """Gaussian noise: D_α = α Δ²/(2σ²) exactly."""
    return RenyiProfile(sensitivity_squared / (2 * sigma_squared), "all",
                        basis="Gaussian: RDP(alpha) = alpha Delta^2/(2 sigma^2), exact")


def audit_gaussian_renyi(
    *, rho: object = None, sigma: object, sensitivity_squared: object, rdp: object = None
) -> RenyiClaimVerdict:
    """A user's ρ or RDP curve for the Gaussian mechanism ``q + N(0, σ²)`` at sensitivity² Δ², against the exact
    RDP(α) = α Δ²/(2σ²) (decided exactly both ways)."""
    from reference.core.validate import positive_fraction

    deviation = positive_fraction(sigma, "sigma")
    squared = positive_fraction(sensitivity_squared, "sensitivity_squared")
    return decide(gaussian_profile(sigma_squared=deviation * deviation, sensitivity_squared=squared),
                  rho=rho, rdp=rdp)


def parse_rdp_text(text: str) -> tuple[tuple[Fraction, Fraction], ...]:
    """The command-line form of a curve: ``alpha:value`` pairs separated by commas, e.g. ``2:0.5,4:1``."""
    pairs = []
    for item in text.split(","):
        order, colon, value = item.partition(":")
        if not colon:
            raise ValueError(f"rdp must be alpha:value pairs separated by commas (e.g. 2:0.5,4:1), got {text!r}")
        pairs.append((to_fraction(order.strip(), "rdp order"), to_fraction(value.strip(), "rdp value")))
    return rdp_points(pairs)
