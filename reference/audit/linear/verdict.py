"""The linear-noise audit's result, its validation and its limits: what :mod:`reference.audit.linear.audit` (the
entry point), :mod:`reference.audit.linear.dense` and :mod:`reference.audit.linear.sparse_audit` (the twin
exact audits) share. The audit itself is described in :mod:`reference.audit.linear.audit`."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from reference.audit.linear.lattice import LatticeLeak
from reference.audit.linear.participation import Participation
from reference.audit.linear.pattern_walk import PatternMaximum
from reference.audit.linear.renyi import (
    RenyiClaimVerdict,
    RenyiProfile,
    claim_value,
    decide,
    gaussian_profile,
)
from reference.core.certified import CertifiedReal
from reference.core.exact_text import exact_text
from reference.core.input_types import MatrixLike, RdpCurve
from reference.core.json_form import jsonable
from reference.core.linalg import Matrix
from reference.core.options import LinearNoise, check_choice
from reference.core.validate import (
    Neighbours,
    RationalLike,
    positive_fraction,
    to_fraction,
)
from reference.core.verdict import ShortRepr, Verdict
from reference.privacy.gaussian import gaussian_delta

NOISE_KINDS: tuple[LinearNoise, ...] = ("gaussian", "laplace", "discrete-gaussian", "discrete-laplace")


#: Largest number of rows, columns or draws accepted by the dense exact audit (substitution neighbours,
#: draw variances, the dense lattice test).
MAX_DIMENSION = 4_000


#: Largest number of rows or columns of a matrix given as a sequence (the sparse audit, add/remove neighbours).
MAX_SPARSE_DIMENSION = 20_000


#: Most neighbouring differences whose smallest integer shifts are enumerated (integer noise with a kernel).
MAX_ENUMERATED_SHIFTS = 256


def exact_matrix(rows: MatrixLike, name: str, limit: int = MAX_DIMENSION) -> Matrix:
    """Convert nested sequences (or a 2-D numpy integer array) of exact rationals to a :data:`Matrix`.

    Entries: int, Fraction, numpy integers or strings such as ``"1/3"``; floats and bools are refused with a
    ``TypeError`` naming ``name``. Rows must be non-empty and of equal length, at most ``limit`` of them and of
    at most ``limit`` entries.

    Args:
        rows: the matrix: a sequence of rows, each a sequence of exact numbers, or a 2-D numpy integer array.
        name: the parameter the matrix was given as, named in a refusal.
        limit: the most rows and the most entries per row; default :data:`MAX_DIMENSION`.

    Raises:
        TypeError: not 2-D, or an entry that is a float, a bool or not a number.
        ValueError: empty, ragged or over the limit, or a string entry that is not an exact number.
    """
    if isinstance(rows, (str, bytes)) or not hasattr(rows, "__iter__"):
        raise TypeError(f"{name} must be a 2-D sequence of exact rationals, got {type(rows).__name__}")
    result: list[tuple[Fraction, ...]] = []
    width: int | None = None
    for index, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not hasattr(row, "__iter__"):
            raise TypeError(f"{name} must be 2-D: row {index} is a {type(row).__name__}")
        if index >= limit:
            raise ValueError(f"{name} has more than {limit} rows; at most {limit} rows and columns")
        converted = tuple(to_fraction(entry, f"{name}[{index}]") for entry in row)
        if width is None:
            width = len(converted)
        elif len(converted) != width:
            raise ValueError(f"{name}: row {index} has {len(converted)} entries, row 0 has {width}")
        result.append(converted)
    if not result or not width:
        raise ValueError(f"{name} must have at least one row and one column")
    if len(result) > limit or width > limit:
        raise ValueError(f"{name} is {len(result)}x{width}; at most {limit} rows and columns")
    return tuple(result)


def check_rtol(rtol: object) -> Fraction:
    """The relative tolerance of a claim: a rational in [0, 1); a float is read exactly, as the binary number it is
    (a tolerance is not an exact result).

    Args:
        rtol: the ``rtol`` a caller gave: an int, a Fraction, a ``"p/q"``/decimal string or a finite float.

    Raises:
        ValueError: not finite, or outside [0, 1).
    """
    if isinstance(rtol, float):
        if not math.isfinite(rtol):
            raise ValueError(f"rtol must be a finite number in [0, 1), got {rtol!r}")
        value = Fraction(rtol)
    else:
        value = to_fraction(rtol, "rtol")
    if not 0 <= value < 1:
        raise ValueError(f"rtol must be in [0, 1), got {exact_text(value)}")
    return value


def check_noise(noise: object) -> LinearNoise:
    """One of :data:`NOISE_KINDS`.

    Args:
        noise: the ``noise`` a caller gave; accepted when it is one of the kinds' names.

    Raises:
        ValueError: any other value (the message lists the kinds).
    """
    return check_choice(noise, "noise", NOISE_KINDS)


@dataclass(frozen=True)
class LinearNoiseVerdict(ShortRepr):
    """The exact verdict of :func:`audit_linear_noise` (sensitivities for its ``neighbours`` and ``contributions``)."""

    noise: LinearNoise
    scale: Fraction
    neighbours: Neighbours
    contributions: int
    outputs: int
    inputs: int
    draws: int
    rank: int  # rank of B
    kernel_dimension: int  # dim ker B = draws − rank; 0 means the implied strategy is unique
    private: bool  # every workload column lies in col(B)
    first_offending_column: int | None  # 0-based input index whose workload column is outside col(B)
    strategy: Matrix | None  # the minimum-norm A = B⁺W (draws × inputs)
    strategy_unique: bool
    l1_sensitivity: Fraction | None  # max column ℓ1 norm of the minimum-norm A
    l2_sensitivity_squared: Fraction | None  # max_j w_jᵀ (B Bᵀ)⁺ w_j (Mahalanobis, = max column ℓ2² of A)
    epsilon: Fraction | None  # Laplace: Δ1/b
    epsilon_exact: bool  # Laplace: True iff ker B = {0}; else ε is an upper bound
    rho: Fraction | None  # Gaussian: Δ²/(2σ²); discrete Gaussian: max ‖u‖²/(2σ²) when u is unique
    explanation: str
    #: integer noise only: the neighbouring difference whose shift is outside the noise lattice, and its decoder
    lattice_leak: LatticeLeak | None = None
    rho_is_bound: bool = False  # discrete Gaussian with a kernel: rho is an upper bound (one integer shift)
    #: Laplace with ker B != 0: a certified lower bound on ε from the LP dual (``epsilon`` is then the upper one)
    epsilon_lower: Fraction | None = None
    #: with a participation scheme: the scheme and the maximum over its patterns (exact or certified bounds)
    participation: Participation | None = None
    pattern_maximum: PatternMaximum | None = None
    #: draws no output uses (zero columns of B), dropped before the analysis; ``draws`` counts the others
    unused_draws: int = 0
    #: the claims' relative tolerance (:meth:`verdict_on`, :meth:`renyi_verdict`): the privacy parameter the audit
    #: computes may exceed the claimed one by this relative amount (for matrices built in floating point)
    rtol: Fraction = Fraction(0)
    #: Gaussian with draw variances σ²·d_j: Δ² is then measured against the noise (Mahalanobis, in units of σ²)
    draw_variances_given: bool = False

    @property
    def verdict(self) -> Verdict:
        """The verdict on the claim "private at all" (:meth:`verdict_on` for an ε or (ε, δ) claim)."""
        return self.verdict_on()

    def summary(self) -> str:
        """One line: private at all or not, and why."""
        return f"private at all: {self.verdict}; {self.explanation}"

    def as_json(self) -> dict[str, Any]:
        """JSON form: the verdict on "private at all", the witness of a leak, ranks, sensitivities and ε or ρ."""
        witness: dict[str, Any] | None = None
        if self.lattice_leak is not None:
            witness = self.lattice_leak.as_json()
        elif self.first_offending_column is not None:
            witness = {"input_outside_noise_span": self.first_offending_column}
        result: dict[str, Any] = jsonable({
            "verdict": self.verdict,
            "summary": self.summary(),
            "witness": witness,
            "noise": self.noise,
            "scale": self.scale,
            "private": self.private,
            "first_offending_column": self.first_offending_column,
            "rank": self.rank,
            "kernel_dimension": self.kernel_dimension,
            "l1_sensitivity": self.l1_sensitivity,
            "l2_sensitivity_squared": self.l2_sensitivity_squared,
            # ε exact where it is ("p/q", or "infinity" when not private), else null with the certified bounds
            "epsilon": (self.epsilon if self.epsilon_exact else None) if self.private else "infinity",
            "epsilon_exact": self.epsilon_exact or not self.private,
            "epsilon_lower": (self.epsilon if self.epsilon_exact else self.epsilon_lower)
            if self.private else "infinity",
            "epsilon_upper": self.epsilon if self.private else "infinity",
            "neighbours": self.neighbours,
            "contributions": self.contributions,
            "rho": self.rho,
            "rho_is_bound": self.rho_is_bound,
            "explanation": self.explanation,
            "outputs": self.outputs,
            "inputs": self.inputs,
            "draws": self.draws,
            "unused_draws": self.unused_draws,
            "rtol": self.rtol,
            "participation": None if self.participation is None else self.participation.as_json(),
            "pattern_maximum": None if self.pattern_maximum is None else self.pattern_maximum.as_json(),
            "l2_sensitivity_squared_kind": self.sensitivity_kind(),
        })
        return result

    def sensitivity_kind(self) -> str:
        """What ``l2_sensitivity_squared`` measures: always the Mahalanobis Δ² = max wᵀ(B D Bᵀ)⁺w; with draw
        variances it is in units of σ² (noise-normalised), not the records' combinatorial sensitivity."""
        if self.draw_variances_given:
            return "Mahalanobis (noise-normalised by the draw variances)"
        return "Mahalanobis (equal to the combinatorial one when B is the strategy)"

    def verdict_on(self, *, epsilon: RationalLike | None = None, delta: RationalLike | None = None,
                   rtol: RationalLike | float | None = None) -> Verdict:
        """The verdict on a claim: "private at all" without ``epsilon``; else ε-DP, or (ε, δ)-DP with ``delta``.

        ``fails`` when the release is not private or the exact privacy is certified worse than the claim;
        ``holds`` when it is certified at least as good; ``inconclusive`` when only bounds that do not decide it
        are known (an ε upper bound above the claim, or integer noise with a kernel). ``rtol`` (default: the
        audit's) lets the computed parameter exceed the claimed one relatively: ε <= ε_claimed (1 + rtol) for the
        Laplace kinds, δ(ε) <= δ (1 + rtol) for the Gaussian kinds. A Laplace-kind (ε, δ) claim with δ > 0 and ε
        below the release's ε-DP ε is decided from the exact worst δ(ε) (:meth:`laplace_delta`), inconclusive
        where that is not computed.

        Args:
            epsilon: the claimed ε > 0, exact; ``None``: the claim "private at all".
            delta: the claimed δ in [0, 1) with ``epsilon``; ``None`` or 0: pure ε-DP.
            rtol: the relative excess allowed over the claim, >= 0 (a float is read exactly); ``None``: the audit's.
        """
        if not self.private:
            return "fails"
        if epsilon is None:
            return "holds"
        tolerance = self.rtol if rtol is None else check_rtol(rtol)
        claimed = positive_fraction(epsilon, "epsilon")
        target = Fraction(0) if delta is None else to_fraction(delta, "delta")
        if not 0 <= target < 1:
            raise ValueError(f"delta must be in [0, 1), got {exact_text(target)}")
        if self.noise in ("laplace", "discrete-laplace"):
            claimed *= 1 + tolerance
        else:
            target *= 1 + tolerance
        if self.noise in ("laplace", "discrete-laplace"):
            if self.epsilon is None:
                return "inconclusive"
            if self.epsilon <= claimed:
                return "holds"
            if target > 0:
                # below its ε-DP ε the release may still be (ε, δ)-DP: decided from the exact δ(ε) where known
                worst = self.laplace_delta(claimed)
                if worst is None:
                    return "inconclusive"
                return "holds" if worst.upper <= target else "fails" if worst.lower > target else "inconclusive"
            proven_worse = self.epsilon_exact or (self.epsilon_lower is not None and self.epsilon_lower > claimed)
            return "fails" if proven_worse else "inconclusive"
        if self.rho == 0:  # W = 0 (ρ is exact or an upper bound): the release does not depend on the data
            return "holds"
        if target == 0:
            return "fails"  # Gaussian noise of either kind is never pure ε-DP when the data moves the mean
        if self.noise == "gaussian":
            achieved = self.delta(claimed)
            if achieved.certainly_le(target):
                return "holds"
            if self.pattern_maximum is not None and not self.pattern_maximum.exact:
                # Δ² is only bracketed: the δ at its lower end decides a failure
                low = gaussian_delta(epsilon=claimed, sigma=self.scale, sensitivity_squared=self.pattern_maximum.lower)
                return "fails" if low.certainly_gt(target) else "inconclusive"
            return "fails" if achieved.certainly_gt(target) else "inconclusive"
        if self.rho is None:
            return "inconclusive"
        from reference.privacy.zcdp import epsilon_from_rho_tight

        # a sufficient ε for ρ-zCDP, not the exact one
        sufficient = epsilon_from_rho_tight(rho=self.rho, delta=target)
        return "holds" if sufficient.upper <= claimed else "inconclusive"

    def renyi_profile(self) -> RenyiProfile | None:
        """What is known of the release's Rényi divergences (:mod:`reference.audit.linear.renyi`); None when it is not
        private (every D_α is infinite)."""
        if not self.private:
            return None
        if self.noise == "gaussian" and self.l2_sensitivity_squared is not None:
            if self.pattern_maximum is not None and not self.pattern_maximum.exact:
                return RenyiProfile(self.rho, "none", basis="Gaussian, Delta^2 bounded over the participation "
                                    f"patterns ({self.pattern_maximum.method}): an upper bound")
            return gaussian_profile(sigma_squared=self.scale * self.scale,
                                    sensitivity_squared=self.l2_sensitivity_squared)
        if self.noise == "discrete-gaussian" and self.rho is not None:
            if self.rho_is_bound:
                return RenyiProfile(self.rho, "none", basis="discrete Gaussian, one integer shift: an upper bound")
            return RenyiProfile(self.rho, "integer", basis="discrete Gaussian with a unique integer shift u: "
                                "RDP(alpha) <= alpha ||u||^2/(2 sigma^2), equal at integer alpha (CKS Proposition 5)")
        if self.noise in ("laplace", "discrete-laplace") and self.epsilon is not None:
            return RenyiProfile(None, "none", epsilon=self.epsilon,
                                basis=f"Laplace: epsilon-DP with epsilon <= {exact_text(self.epsilon)} bounds "
                                "RDP(alpha) by epsilon and rho by epsilon^2/2")
        return RenyiProfile(None, "none", basis=f"{self.noise}: no Renyi bound is computed for this release")

    def renyi_verdict(self, *, rho: RationalLike | None = None, rdp: RdpCurve | None = None,
                      rtol: RationalLike | float | None = None) -> RenyiClaimVerdict:
        """The verdict on a ρ-zCDP claim (``rho``) or an RDP curve (``rdp``: (α, RDP(α)) pairs or a function of
        α), decided both ways where the divergences are exact (:mod:`reference.audit.linear.renyi`). ``rtol``
        (default: the audit's) lets ρ or RDP(α) exceed the claim relatively: ρ <= ρ_claimed (1 + rtol).

        Args:
            rho: the claimed ρ > 0 (ρ-zCDP), exact; state ``rho`` or ``rdp``.
            rdp: an RDP curve: (α, RDP(α)) pairs with α > 1, or a function of α.
            rtol: the relative excess allowed over the claim, >= 0; ``None``: the audit's.
        """
        tolerance = self.rtol if rtol is None else check_rtol(rtol)  # one claim rule: reference.privacy.claims
        profile = self.renyi_profile()
        bracket = self.pattern_maximum
        if (profile is not None and self.noise == "gaussian" and bracket is not None and not bracket.exact
                and bracket.lower > 0):
            # Δ² is only bracketed over the participation patterns: the exact divergences at its certified lower
            # end are a floor, so a claim below them fails
            floor = decide(gaussian_profile(sigma_squared=self.scale * self.scale,
                                            sensitivity_squared=bracket.lower), rho=rho, rdp=rdp, rtol=tolerance)
            if floor.verdict == "fails":
                return RenyiClaimVerdict(floor.claim, "fails", "below the certified lower end of the bracketed "
                                         f"Delta^2 ({bracket.method}): {floor.reason}", order=floor.order,
                                         claimed=floor.claimed, achieved=floor.achieved)
        if profile is None:
            claim = "zCDP" if rho is not None else "RDP curve"
            if (rho is None) == (rdp is None):
                raise ValueError("state exactly one of rho (a zCDP claim) and rdp (an RDP curve)")
            return RenyiClaimVerdict(claim, "fails", f"not private at all: {self.explanation}")
        return decide(profile, rho=rho, rdp=rdp, rtol=tolerance)

    def relative_excess(self, *, epsilon: RationalLike | None = None, delta: RationalLike | None = None,
                        rho: RationalLike | None = None) -> tuple[Fraction, Fraction] | None:
        """[lower, upper] of computed/claimed − 1 for the parameter the claim's ``rtol`` applies to (ε for the
        Laplace kinds, δ(ε) for a Gaussian (ε, δ) claim or a Laplace-kind one below the pure ε, ρ for a zCDP
        claim); None when it is not known.

        Args:
            epsilon: the claimed ε > 0, exact (with ``delta`` for an (ε, δ) claim).
            delta: the claimed δ in [0, 1) with ``epsilon``.
            rho: the claimed ρ > 0 instead of ε.
        """
        if not self.private:
            return None
        if rho is not None:
            claimed = claim_value(rho, "rho")
            if self.rho is None or claimed <= 0:
                return None
            low = self.rho if self.pattern_maximum is None or self.pattern_maximum.exact else (
                self.pattern_maximum.lower / (2 * self.scale * self.scale))
            return low / claimed - 1, self.rho / claimed - 1
        if epsilon is None:
            return None
        claimed = positive_fraction(epsilon, "epsilon")
        target = Fraction(0) if delta is None else to_fraction(delta, "delta")
        if self.noise in ("laplace", "discrete-laplace"):
            if self.epsilon is None:
                return None
            if target > 0 and self.epsilon > claimed:  # decided on δ(ε) (verdict_on): its excess over δ
                worst = self.laplace_delta(claimed)
                return None if worst is None else (worst.lower / target - 1, worst.upper / target - 1)
            floor = self.epsilon if self.epsilon_exact else self.epsilon_lower
            return None if floor is None else (floor / claimed - 1, self.epsilon / claimed - 1)
        if self.noise != "gaussian" or target <= 0:
            return None
        achieved = self.delta(claimed)
        return achieved.lower / target - 1, achieved.upper / target - 1

    def excess_text(self, *, epsilon: RationalLike | None = None, delta: RationalLike | None = None,
                    rho: RationalLike | None = None) -> str:
        """The relative excess beside the tolerance, e.g. ``relative excess 2.1e-16 (rtol = 1e-12)``.

        Args:
            epsilon: the claimed ε > 0, exact (with ``delta`` for an (ε, δ) claim).
            delta: the claimed δ in [0, 1) with ``epsilon``.
            rho: the claimed ρ > 0 instead of ε.
        """
        from reference.core.excess_text import scientific

        excess = self.relative_excess(epsilon=epsilon, delta=delta, rho=rho)
        tolerance = scientific(self.rtol, upward=True) if self.rtol else "0"
        if excess is None:
            return f"relative excess not computed (rtol = {tolerance})"
        low, high = scientific(excess[0], upward=False), scientific(excess[1], upward=True)
        value = low if low == high else f"in [{low}, {high}]"
        return f"relative excess {value} (rtol = {tolerance})"

    def laplace_delta(self, epsilon: RationalLike) -> CertifiedReal | None:
        """Laplace kinds: the certified worst δ(ε) over one record added or removed
        (:mod:`reference.audit.linear.approximate_laplace`), when the strategy is unique and one record per user
        (add/remove, no participation scheme); None where it is not computed.

        Args:
            epsilon: ε > 0, exact.
        """
        if self.noise not in ("laplace", "discrete-laplace"):
            raise ValueError("laplace_delta: for laplace and discrete-laplace noise (gaussian: delta)")
        eps = positive_fraction(epsilon, "epsilon")
        if (not self.private or self.strategy is None or self.kernel_dimension != 0 or self.contributions != 1
                or self.neighbours != "add_remove" or self.participation is not None):
            return None
        from reference.audit.linear.approximate_laplace import worst_delta

        # a claim's verdict, its excess and its report each ask for the same δ(ε): computed once per ε (kept beside
        # the frozen fields, not one of them)
        known: dict[Fraction, CertifiedReal | None] = self.__dict__.setdefault("_laplace_deltas", {})
        if eps not in known:
            known[eps] = worst_delta(self.noise, self.strategy, epsilon=eps, scale=self.scale)
        return known[eps]

    def delta(self, epsilon: RationalLike) -> CertifiedReal:
        """Gaussian only: the exact δ(ε) of the release (certified enclosure), Δ² the Mahalanobis sensitivity.

        Args:
            epsilon: ε >= 0, exact.
        """
        if self.noise != "gaussian":
            raise ValueError("delta: the exact (epsilon, delta)-profile is computed for gaussian noise only")
        if not self.private or self.l2_sensitivity_squared is None:
            raise ValueError("delta: the mechanism is not private at all (delta = 1 for every epsilon)")
        if self.l2_sensitivity_squared == 0:  # W = 0: the release does not depend on the data, δ(ε) = 0 exactly
            return CertifiedReal.exact(Fraction(0))
        return gaussian_delta(epsilon=epsilon, sigma=self.scale, sensitivity_squared=self.l2_sensitivity_squared)


def not_private_verdict(common: Mapping[str, object], kernel_dimension: int, offending: int) -> LinearNoiseVerdict:
    """The verdict when workload column ``offending`` is outside col(B).

    Args:
        common: the verdict fields both audits fill first: ``noise``, ``scale``, ``outputs``, ``inputs``, ``draws``,
            ``rank``, ``neighbours``, ``contributions`` and ``unused_draws``.
        kernel_dimension: dim ker B (draws − rank).
        offending: the 0-based index of the first workload column outside col(B).
    """
    return LinearNoiseVerdict(
        **common,  # type: ignore[arg-type]
        kernel_dimension=kernel_dimension,
        private=False,
        first_offending_column=offending,
        strategy=None,
        strategy_unique=False,
        l1_sensitivity=None,
        l2_sensitivity_squared=None,
        epsilon=None,
        epsilon_exact=False,
        rho=None,
        explanation=(
            f"workload column {offending} is not in the column space of the noise matrix: changing input "
            f"{offending} moves the output mean outside the noise's support subspace (infinite privacy loss)"
        ),
    )


def discrete_laplace_bound_verdict(fields: Mapping[str, object], *, largest_shift_norm: Fraction,
                                   smallest_integer_shift: int | None, users: int,
                                   scale: Fraction, note: str = "") -> LinearNoiseVerdict:
    """Discrete Laplace with a kernel in B: ε <= m · max ‖u‖₁ / b over integer draw shifts u (an upper bound only),
    from the exact largest smallest integer shift when it was enumerated, else from the LP's bound. Shared by the
    dense and the sparse audit.

    Args:
        fields: every verdict field other than the privacy ones: ``common`` (see :func:`not_private_verdict`) with
            ``kernel_dimension``, ``first_offending_column``, ``strategy``, ``strategy_unique``, ``l1_sensitivity`` and
            ``l2_sensitivity_squared``.
        largest_shift_norm: a certified upper bound on max over the neighbouring differences of the smallest integer
            ‖u‖₁ (from the LP's integral solutions).
        smallest_integer_shift: that maximum exactly, when it was enumerated; None otherwise (the bound is used).
        users: the contributions m per user, a positive integer (ε scales by m).
        scale: the discrete Laplace scale b, a positive Fraction.
        note: why the exact maximum was not enumerated (its estimate, limit and flag), appended to the explanation
            when ``smallest_integer_shift`` is None; default empty.
    """
    best, how = largest_shift_norm, "upper bound" + (f"; {note}" if note else "")
    if smallest_integer_shift is not None:
        best, how = Fraction(smallest_integer_shift), "upper bound; the largest smallest integer shift, exact"
    bound = users * best / scale
    return LinearNoiseVerdict(
        **fields,  # type: ignore[arg-type]
        private=True, epsilon=bound, epsilon_exact=False, rho=None,
        explanation=f"private: every shift is B u with an integer u (B has a kernel, u not unique); "
        f"discrete Laplace epsilon <= max ||u||_1/b = {exact_text(bound)} ({how})",
    )
