"""Conversion audit: does a ρ-zCDP guarantee, or an RDP curve, give this (ε, δ)-DP claim?

The question is about every mechanism that satisfies the source guarantee, so it is decided from two certified
numbers, both Arb enclosures:

* a **sufficient δ**: a conversion theorem that holds for every such mechanism. For ρ-zCDP the tight conversion
  of Canonne, Kamath & Steinke 2020 (Corollary 13: δ = inf_α exp((α−1)(αρ−ε))/(α−1)·(1−1/α)^α, the value at a
  rational α near the optimum); for an RDP curve the same expression with αρ replaced by the listed RDP(α), at
  each listed order (CKS 2020, Proposition 12: D_α <= τ at one α implies (ε, exp((α−1)(τ−ε))/(α−1)·(1−1/α)^α)),
  the smallest over the orders;
* a **witness δ**: the exact δ(ε) of one mechanism that satisfies the source guarantee — the Gaussian mechanism
  with Δ²/(2σ²) = ρ* (ρ* = ρ, or the smallest RDP(α)/α over the listed orders, so that its exact RDP αρ* is at
  most the curve at every listed order). No conversion can give a δ below it.

With the claim's ``rtol``, the one rule of :mod:`reference.privacy.claims` decides on the enclosure [witness δ,
sufficient δ] of "the δ(ε) every such mechanism meets": **holds** when the sufficient δ is at most the claimed δ
(times 1 + rtol), **fails** when the Gaussian witness exceeds it, and **inconclusive** in the gap between them
(the best conversion is not known exactly there; the message gives both numbers).

Example::

    >>> from reference.audit.conversion import audit_conversion
    >>> audit_conversion(rho="1/20", epsilon=1, delta="4e-4").verdict
    'holds'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from flint import arb

from reference.core.certified import CertifiedReal, EnclosureRangeError, UndecidedComparisonError, ball, certify
from reference.core.input_types import RdpCurve
from reference.core.validate import RationalLike, RealLike, fraction_text, to_fraction
from reference.core.verdict import Judged, Verdict
from reference.privacy.claims import Claim, ClaimCheck, claim, decide_value, number_text


@dataclass(frozen=True)
class ConversionVerdict(Judged):
    """A source guarantee (ρ-zCDP or an RDP curve) against an (ε, δ) claim: ``sufficient`` encloses the δ the
    conversion theorem certifies (its upper end is valid for every such mechanism), ``witness`` the exact δ(ε)
    of the Gaussian that satisfies the source (no valid δ is below it); ``check`` is the claim decided on
    [witness.lower, sufficient.upper]."""

    source: Claim
    target: Claim
    check: ClaimCheck
    sufficient: CertifiedReal
    witness: CertifiedReal
    #: the order α whose conversion gave ``sufficient`` (None for ρ: the optimum is bracketed)
    order: Fraction | None
    #: the ρ of the Gaussian witness
    witness_rho: Fraction

    @property
    def verdict(self) -> Verdict:
        return self.check.verdict

    def summary(self) -> str:
        at = "" if self.order is None else f" (at alpha = {fraction_text(self.order)})"
        gap = {
            "holds": "the conversion certifies the claim",
            "fails": "a Gaussian with this guarantee needs a larger delta",
            "inconclusive": "the claim lies between the conversion's delta and the Gaussian witness's delta; the "
            "best conversion is not known there",
        }[self.verdict]
        return (f"{self.source.text()} => {self.target.text()}: {self.verdict} - {gap}; conversion delta "
                f"{_bound(self.sufficient.text(17, rounded='up'), '<=')}{at}, Gaussian witness (rho = "
                f"{number_text(self.witness_rho)}) delta {_bound(self.witness.text(17, rounded='down'), '>=')}; "
                f"claimed delta {number_text(self.check.claimed)}, "
                f"{self.check.excess_text()}, {self.target.tolerance_text()}")

    def as_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "summary": self.summary(),
            "source": self.source.as_json(),
            "claim": self.target.as_json(),
            "claim_check": self.check.as_json(),
            "sufficient_delta": self.sufficient.as_json("up"),
            "witness_delta": self.witness.as_json("down"),
            "order": None if self.order is None else fraction_text(self.order),
            "witness_rho": fraction_text(self.witness_rho),
        }


def _bound(text: str, relation: str) -> str:
    """``"<= 0.25"`` for a decimal, the one-sided text as it is (it already carries its relation)."""
    return text if text.startswith(("<", ">")) else f"{relation} {text}"


def rdp_conversion_delta(*, epsilon: Fraction, alpha: Fraction, rdp: Fraction) -> CertifiedReal | None:
    """exp((α−1)(τ−ε))/(α−1)·(1−1/α)^α for D_α <= τ (CKS 2020, Proposition 12), clipped at 1; None when the
    value is beyond the range an enclosure can hold (far below 1e-300000: another order will do better).

    Args:
        epsilon: the target ε > 0, exact.
        alpha: the Rényi order α > 1 of the curve point, exact.
        rdp: τ = RDP(α) >= 0, the curve's value at ``alpha``, exact.

    Returns:
        The enclosure of the δ this one order certifies (both ends clipped at 1), or None (see above).
    """
    def compute() -> arb:
        a = ball(alpha)
        return ((a - 1) * (ball(rdp) - ball(epsilon))).exp() / (a - 1) * (1 - 1 / a) ** a

    try:
        found = certify(compute, label="the RDP conversion delta")
    except (EnclosureRangeError, UndecidedComparisonError):
        return None
    return CertifiedReal(min(found.lower, Fraction(1)), min(found.upper, Fraction(1)))


def audit_conversion(
    *,
    epsilon: RationalLike,
    delta: RationalLike,
    rho: RealLike | None = None,
    rdp: RdpCurve | None = None,
    rtol: RationalLike | float = 0,
) -> ConversionVerdict:
    """Does ρ-zCDP (``rho``) or the RDP curve ``rdp`` ((α, RDP(α)) pairs or a function of α; floats read
    exactly) imply (ε, δ)-DP? ``rtol`` relaxes δ to δ·(1 + rtol). See the module docstring for the rule.

    Args:
        epsilon: the claimed ε > 0: an int, a Fraction or a ``"p/q"``/decimal string (exact).
        delta: the claimed δ in [0, 1), exact like ``epsilon`` (0: pure ε-DP).
        rho: the source guarantee ρ > 0 of ρ-zCDP, exact (a float is read as the binary number it holds); give
            exactly one of ``rho`` and ``rdp``.
        rdp: the source guarantee as an RDP curve: (α, RDP(α)) pairs with α > 1 and RDP(α) >= 0, or a function of
            α (read at the default orders of :mod:`reference.privacy.claims`); the smallest conversion δ over the
            orders is used.
        rtol: relative tolerance in [0, 1) on the claimed δ (the claim holds up to δ·(1 + rtol)); a float is read
            exactly. Default 0.

    Returns:
        The :class:`ConversionVerdict`: holds, fails or inconclusive, with both certified δ.

    Raises:
        ValueError: an input out of range, or not exactly one of ``rho`` and ``rdp`` given.
        TypeError: ``rdp`` neither a list of pairs nor a function.
    """
    from reference.privacy.gaussian import gaussian_delta
    from reference.privacy.zcdp import delta_from_rho

    eps = to_fraction(epsilon, "epsilon")
    target = claim(epsilon=eps, delta=to_fraction(delta, "delta"), rtol=rtol)
    source = claim(rho=rho, rdp=rdp)
    order: Fraction | None = None
    if source.kind == "zcdp":
        assert source.rho is not None
        witness_rho = source.rho
        sufficient = delta_from_rho(epsilon=eps, rho=witness_rho)
    else:
        witness_rho = min(value / alpha for alpha, value in source.curve)
        best: CertifiedReal | None = None
        for alpha, value in source.curve:
            found = rdp_conversion_delta(alpha=alpha, rdp=value, epsilon=eps)
            if found is not None and (best is None or found.upper < best.upper):
                best, order = found, alpha
        sufficient = best if best is not None else CertifiedReal.exact(Fraction(1))
    if witness_rho == 0:  # a curve of zeros: the constant mechanism satisfies it, and it is (ε, 0)-DP
        witness = CertifiedReal.exact(Fraction(0))
    else:
        witness = gaussian_delta(epsilon=eps, sigma=1, sensitivity_squared=2 * witness_rho)
    check = decide_value(target, quantity=f"delta(epsilon = {fraction_text(eps)})", claimed=target.delta,
                         lower=witness.lower, upper=sufficient.upper,
                         basis="conversion: CKS 2020 Corollary 13 / Proposition 12; witness: the Gaussian mechanism")
    return ConversionVerdict(source, target, check, sufficient, witness, order, witness_rho)
