"""The linear-noise audit's answer to one claim, complete: the verdict on the claim, what decided it, the
tolerance and the relative excess, the δ(ε) of a Gaussian release, a comparison with an oracle's covariance, and a
units hint when a failure looks like a noise parameter given in the wrong units.

:func:`claim_report` takes a :class:`~reference.audit.linear.verdict.LinearNoiseVerdict` (the audit, which knows
its matrices' sensitivities, its scale, its participation scheme and its ``rtol``) and one claim: ``epsilon``
(with ``delta``: (ε, δ)-DP), ``rho`` (zCDP) or ``rdp`` (an RDP curve), or none ("private at all"). The claim is
the one claim type of :mod:`reference.privacy.claims`, decided by the audit's own rules
(:meth:`~reference.audit.linear.verdict.LinearNoiseVerdict.verdict_on`,
:meth:`~reference.audit.linear.verdict.LinearNoiseVerdict.renyi_verdict`). Its ``as_json`` is everything the
command line prints, so no caller adds fields.

The units hint (:mod:`reference.audit.units`): when the claim fails, the smallest scale at which it would hold
(the same matrices) is computed where it is known — b·ε/ε_claimed for the Laplace kinds with an exact ε,
σ²·ρ/ρ_claimed and σ²·max_α D_α/RDP(α) from exact Rényi divergences, the certified sufficient σ of
:func:`reference.privacy.gaussian.sigma_exact` for a Gaussian (ε, δ) claim — and the scale given is compared
with it in the other units: σ given ≈ (needed σ)² is a variance passed as a standard deviation, σ given ≈
√(needed σ) the reverse, b given ≈ 1/(needed b) a rate passed as a scale. The hint never changes a verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from reference.audit.linear.covariance import CovarianceDifference, compare_covariance, noise_covariance
from reference.audit.linear.renyi import RenyiClaimVerdict
from reference.audit.linear.verdict import LinearNoiseVerdict, exact_matrix
from reference.audit.units import (
    QUESTION,
    UNITS_CLOSENESS,
    covariance_units_line,
    number,
    scale_units_error,
    variance_units_error,
)
from reference.core.certified import CertifiedReal
from reference.core.input_types import MatrixLike, RdpCurve
from reference.core.linalg import Matrix
from reference.core.options import LinearNoise
from reference.core.validate import RationalLike, RealLike, fraction_text, positive_fraction
from reference.core.verdict import ShortRepr, Verdict
from reference.privacy.claims import Claim, claim, decide_value

__all__ = ["LinearNoiseReport", "OracleComparison", "claim_report", "compare_with_oracle"]


@dataclass(frozen=True)
class OracleComparison:
    """The release's exact noise covariance against an oracle's: the first entries that differ (none: equal) and,
    when the oracle's is a multiple of it that a units error explains, the hint that names it."""

    differences: tuple[CovarianceDifference, ...]
    units: str | None = None

    @property
    def matches(self) -> bool:
        return not self.differences

    def explanation(self) -> str | None:
        """Why the comparison fails the audit (None when the covariances are equal)."""
        if self.matches:
            return None
        first = self.differences[0]
        return (f"the output covariance differs from the oracle's (first at row {first.row}, column {first.column}: "
                f"{fraction_text(first.actual)} against {fraction_text(first.expected)})")

    def as_json(self) -> dict[str, Any]:
        return {
            "covariance_matches_oracle": self.matches,
            "first_differences": [
                {"row": d.row, "column": d.column, "actual": fraction_text(d.actual),
                 "expected": fraction_text(d.expected)} for d in self.differences
            ],
            "oracle_units": self.units,
        }


def _proportion(actual: Matrix, expected: Matrix) -> Fraction | None:
    """c > 0 with expected ≈ c·actual entry by entry (each within the units closeness, zeros where actual is zero),
    or None."""
    ratio: Fraction | None = None
    for row_a, row_e in zip(actual, expected):
        for a, e in zip(row_a, row_e):
            if a == 0:
                if e != 0:
                    return None
                continue
            if ratio is None:
                ratio = e / a
                if ratio <= 0:
                    return None
            elif abs(e / (a * ratio) - 1) > UNITS_CLOSENESS:
                return None
    return ratio


def compare_with_oracle(noise_matrix: MatrixLike, oracle_covariance: MatrixLike, *, noise: LinearNoise,
                        scale: RationalLike, draw_variances: Sequence[object] | None = None) -> OracleComparison:
    """Compare the exact covariance of ``B z`` (:func:`~reference.audit.linear.covariance.noise_covariance`) with
    an oracle's, naming the first differences and, when the oracle's covariance is a multiple of the exact one
    that a units error explains (σ² for a variance used as a standard deviation, 1/σ for the reverse, 1/b⁴ for a
    Laplace rate used as its scale), the error.

    Args:
        noise_matrix: B, outputs × draws: rows of exact numbers (int, Fraction, ``"p/q"``/decimal string) or a 2-D
            numpy integer array.
        oracle_covariance: the oracle's covariance of the outputs' noise, outputs × outputs, exact entries in the same
            forms.
        noise: ``"gaussian"`` or ``"laplace"`` (the discrete kinds have no exact covariance).
        scale: σ (Gaussian) or b (Laplace), a positive exact rational.
        draw_variances: the draws' relative variances, positive exact numbers, one per column of B (Gaussian); None
            (default): all 1.

    Raises:
        ValueError: a discrete noise kind, mismatched shapes or a malformed matrix.
    """
    differences = compare_covariance(noise_matrix, scale, noise, oracle_covariance, draw_variances=draw_variances)
    if not differences:
        return OracleComparison(differences)
    actual = noise_covariance(noise_matrix, scale, noise, draw_variances)
    ratio = _proportion(actual, exact_matrix(oracle_covariance, "oracle_covariance"))
    units = None if ratio is None else covariance_units_line(ratio, noise, positive_fraction(scale, "scale"),
                                                              whose="the oracle's covariance")
    return OracleComparison(differences, units)


@dataclass(frozen=True)
class LinearNoiseReport(ShortRepr):
    """:func:`claim_report`'s result: the verdict on one claim with everything that decided it."""

    audit: LinearNoiseVerdict
    #: the claim (None: "private at all")
    claim: Claim | None
    verdict: Verdict
    #: the decision of a ρ-zCDP or RDP claim (None for the other claims)
    renyi: RenyiClaimVerdict | None = None
    oracle: OracleComparison | None = None
    #: one line naming a units error that explains a failure (None: none does); the summary ends with it
    units: str | None = None
    #: the release's exact δ(ε), certified: Gaussian with an ε claim, Laplace kinds with an (ε, δ) claim
    delta_at_epsilon: CertifiedReal | None = None
    #: [lower, upper] of computed/claimed − 1 for the parameter ``rtol`` applies to (None: not known)
    relative_excess: tuple[Fraction, Fraction] | None = None
    excess: str = ""

    def claim_text(self) -> str:
        return "private at all" if self.claim is None else self.claim.text()

    def explanation(self) -> str:
        mismatch = None if self.oracle is None else self.oracle.explanation()
        return self.audit.explanation if mismatch is None else f"{mismatch}; {self.audit.explanation}"

    def summary(self) -> str:
        """One line: the claim, the verdict, why; the units hint after it when there is one."""
        units = "" if self.units is None else f"; units: {self.units}"
        return f"{self.claim_text()}: {self.verdict}; {self.explanation()}{units}"

    def as_json(self) -> dict[str, Any]:
        """The audit's JSON form (:meth:`LinearNoiseVerdict.as_json`) with the claim's verdict in place of "private
        at all", the claim (as text and as a record), its tolerance and relative excess, δ(ε), the oracle
        comparison and the units hint."""
        result: dict[str, Any] = {
            **self.audit.as_json(),
            "verdict": self.verdict,
            "summary": self.summary(),
            "explanation": self.explanation(),
            "claim": self.claim_text(),
            "claim_record": None if self.claim is None else self.claim.as_json(),
            "claim_reason": None if self.renyi is None else self.renyi.reason,
            "claim_check": None if self.renyi is None or self.renyi.check is None else self.renyi.check.as_json(),
            "relative_excess": None if self.relative_excess is None else [fraction_text(end) for end in
                                                                           self.relative_excess],
            "excess": self.excess,
            "units": self.units,
            "delta_at_epsilon": None if self.delta_at_epsilon is None else self.delta_at_epsilon.as_json("up"),
        }
        if self.oracle is not None:
            result.update(self.oracle.as_json())
        return result


def _relation(audit: LinearNoiseVerdict) -> str:
    if audit.participation is not None:
        return audit.participation.describe()
    users = "" if audit.contributions == 1 else f", {audit.contributions} records per user"
    return f"{audit.neighbours} neighbours{users}"


def claim_report(audit: LinearNoiseVerdict, *, epsilon: RealLike | None = None, delta: RealLike | None = None,
                 rho: RealLike | None = None, rdp: RdpCurve | None = None,
                 oracle: OracleComparison | None = None) -> LinearNoiseReport:
    """The audit's verdict on one claim (module docstring): ``epsilon`` (``delta`` None or 0: ε-DP, else (ε, δ)),
    ``rho``, ``rdp`` ((α, RDP(α)) pairs or a function of α), or none of them ("private at all"); the audit's
    ``rtol`` is the claim's. A requested ``oracle`` comparison that differs fails the report whatever the privacy
    verdict says.

    Example:
        >>> from reference.audit.linear.audit import audit_linear_noise
        >>> from reference.audit.linear.claim_report import claim_report
        >>> audit = audit_linear_noise([[1]], [[1]], "laplace", scale=2)
        >>> claim_report(audit, epsilon="1/2").verdict, claim_report(audit, epsilon="1/4").verdict
        ('holds', 'fails')

    Args:
        audit: the linear-noise audit's verdict (:func:`reference.audit.linear.audit.audit_linear_noise`); its
            ``rtol`` is the claim's tolerance.
        epsilon: the claimed ε > 0, exact (int, Fraction, ``"p/q"``/decimal string; a float is read as the binary
            number it holds), or None.
        delta: the claimed δ in [0, 1) with ``epsilon`` (None or 0: pure ε-DP), exact like ``epsilon``.
        rho: the claimed ρ > 0 of ρ-zCDP, exact like ``epsilon``, or None.
        rdp: the claimed RDP curve, (α, RDP(α)) pairs with α > 1 or a function of α, or None. At most one of
            ``epsilon``, ``rho`` and ``rdp``; none of them asks "private at all".
        oracle: a comparison with an oracle's covariance (:func:`compare_with_oracle`) to carry in the report, or
            None; one that differs fails the report.

    Raises:
        ValueError: more than one claim, ``delta`` without ``epsilon``, or a value out of range.
    """
    stated: Claim | None = None
    if delta is not None and epsilon is None:
        raise ValueError("delta states a claim together with epsilon")
    if any(value is not None for value in (epsilon, rho, rdp)):
        stated = claim(epsilon=epsilon, delta=delta, rho=rho, rdp=rdp, rtol=audit.rtol, relation=_relation(audit))
    renyi = None
    decided: Verdict
    if stated is not None and stated.kind in ("zcdp", "rdp"):
        renyi = audit.renyi_verdict(rho=stated.rho, rdp=stated.curve or None)
        decided = renyi.verdict
    else:
        decided = audit.verdict_on(epsilon=None if stated is None else stated.epsilon,
                                   delta=None if stated is None else stated.delta)
    release = None
    if (decided == "inconclusive" and stated is not None and stated.kind == "approximate"
            and audit.noise == "discrete-gaussian" and stated.epsilon is not None and stated.delta is not None):
        # the discrete Gaussian's exact δ(ε), where its neighbouring shifts are unique integer vectors
        from reference.audit.discrete_gaussian_release import release_delta

        release = release_delta(audit, stated.epsilon)
        if release is not None:
            decided = decide_value(stated, quantity="delta(epsilon)", claimed=stated.delta, lower=release.lower,
                                   upper=release.upper, basis="discrete Gaussian, unique integer shifts, exact").verdict
    units = _claim_units(audit, stated) if decided == "fails" and stated is not None and audit.private else None
    if oracle is not None and not oracle.matches:
        decided = "fails"  # a requested comparison that disagrees is a failure of the audit
        units = units or oracle.units
    delta_at_epsilon = release
    if stated is not None and stated.epsilon is not None and audit.noise == "gaussian" and audit.private:
        delta_at_epsilon = audit.delta(stated.epsilon)
    elif stated is not None and stated.kind == "approximate" and audit.noise in ("laplace", "discrete-laplace"):
        assert stated.epsilon is not None
        delta_at_epsilon = audit.laplace_delta(stated.epsilon)  # the worst over the shifts; None: not computed
    claimed_epsilon = None if stated is None else stated.epsilon
    claimed_delta = None if stated is None or stated.kind != "approximate" else stated.delta
    claimed_rho = None if stated is None else stated.rho
    return LinearNoiseReport(
        audit, stated, decided, renyi=renyi, oracle=oracle, units=units, delta_at_epsilon=delta_at_epsilon,
        relative_excess=audit.relative_excess(epsilon=claimed_epsilon, delta=claimed_delta, rho=claimed_rho),
        excess=audit.excess_text(epsilon=claimed_epsilon, delta=claimed_delta, rho=claimed_rho),
    )


# ------------------------------------------------------------------------------------------------ units


def needed_scale(audit: LinearNoiseVerdict, stated: Claim) -> Fraction | None:
    """The smallest scale (σ or b) at which ``stated`` holds for the audit's matrices, where it is known exactly
    (a certified sufficient σ for a Gaussian (ε, δ) claim); None where it is not (bounds only, a bracketed Δ²).

    Args:
        audit: the linear-noise audit's verdict (its noise kind, scale, sensitivities and ρ are read).
        stated: the claim that failed.
    """
    scale = audit.scale
    bracketed = audit.pattern_maximum is not None and not audit.pattern_maximum.exact
    if not audit.private or bracketed:
        return None
    if audit.noise in ("laplace", "discrete-laplace"):
        # pure ε only: with δ > 0 a smaller b may do, and the needed b is not computed
        if stated.kind != "pure" or stated.epsilon is None or audit.epsilon is None or not audit.epsilon_exact:
            return None
        return scale * audit.epsilon / stated.epsilon  # ε = Δ1/b exactly
    if stated.kind == "approximate":
        return _needed_sigma(audit, stated)
    variance = _needed_variance(audit, stated)
    return None if variance is None else _square_root_up(variance)


def _needed_variance(audit: LinearNoiseVerdict, stated: Claim) -> Fraction | None:
    """σ² at which a zCDP or RDP claim is met exactly (ρ and D_α scale as 1/σ² for fixed matrices)."""
    variance = audit.scale * audit.scale
    if audit.rho is None or audit.rho_is_bound:
        return None
    if stated.kind == "zcdp":
        assert stated.rho is not None
        return variance * audit.rho / stated.rho  # ρ = Δ²/(2σ²)
    if stated.kind == "rdp" and audit.noise == "gaussian":
        worst = max((alpha * audit.rho / value for alpha, value in stated.curve if value > 0), default=None)
        return None if worst is None else variance * worst  # D_α = αΔ²/(2σ²) at every α
    return None


def _needed_sigma(audit: LinearNoiseVerdict, stated: Claim) -> Fraction | None:
    """The certified sufficient σ of a Gaussian (ε, δ) claim at the audit's Mahalanobis Δ²."""
    if audit.noise != "gaussian" or not audit.l2_sensitivity_squared:
        return None
    from reference.privacy.gaussian import sigma_exact

    assert stated.epsilon is not None
    try:
        return sigma_exact(epsilon=stated.epsilon, delta=stated.delta,
                           sensitivity_squared=audit.l2_sensitivity_squared).sigma
    except (ValueError, ArithmeticError):  # out of the calibration's range: no hint, never an error
        return None


def _square_root_up(value: Fraction) -> Fraction:
    """A rational within 2⁻⁴⁰ relatively of √value (a hint's number; the closeness tested is 10%)."""
    from math import isqrt

    shift = 80
    return Fraction(isqrt(value.numerator * 4**shift // value.denominator) + 1, 2**shift)


def _claim_units(audit: LinearNoiseVerdict, stated: Claim) -> str | None:
    """The units hint of a failing claim: the scale given against the one the claim needs, in the other units."""
    needed = needed_scale(audit, stated)
    if needed is None or needed <= 0:
        return None
    given = audit.scale
    if audit.noise in ("laplace", "discrete-laplace"):
        if scale_units_error(given, needed) is None:
            return None
        return (f"the claim needs b >= {number(needed)}, and the scale given, {number(given)}, is about "
                f"1/{number(needed)} = {number(1 / needed)}: {QUESTION['rate as scale']}")
    error = variance_units_error(given * given, needed * needed)
    if error == "variance as standard deviation":
        return (f"the claim needs sigma >= {number(needed)}, and the scale given, {number(given)}, is about "
                f"sigma^2 = {number(needed * needed)}: {QUESTION[error]}")
    if error == "standard deviation as variance":
        return (f"the claim needs sigma >= {number(needed)}, and the scale given, {number(given)}, is about "
                f"sqrt({number(needed)}): {QUESTION[error]}")
    return None
