"""The Gaussian calibration's verdict (:func:`check_gaussian`): holds or fails, with δ(ε) at σ, the smallest ε at
δ and σ against :func:`~reference.privacy.gaussian_sigma.sigma_exact`. Conventions: :mod:`reference.privacy.gaussian`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from reference.core.certified import (
    CertifiedReal,
    Rounding,
    UndecidedComparisonError,
    format_significant,
)
from reference.core.validate import (
    RationalLike,
    fraction_text,
    open_unit_fraction,
    positive_fraction,
)
from reference.core.verdict import Decided
from reference.privacy.gaussian_enclosure import delta_satisfied, enclose_delta
from reference.privacy.gaussian_sigma import ExactSigma, sigma_exact
from reference.privacy.gaussian_tradeoff import FINE_TOLERANCE, gaussian_epsilon

_T = TypeVar("_T")


@dataclass(frozen=True)
class GaussianVerdict(Decided):
    """Certified answer to "is N(0, σ²) noise at sensitivity Δ (ε, δ)-DP?" and by how much.

    ``holds`` is decided from a ball lying entirely on one side of ``delta``. ``delta_at_sigma`` encloses
    δ(ε) at ``sigma``; ``epsilon_at_sigma`` the smallest ε achieving ``delta`` at ``sigma``; ``exact`` the
    optimal σ; ``sigma_ratio`` encloses σ / σ_optimal (> 1 means more noise than needed, < 1 too little).
    """

    sigma: Fraction
    epsilon: Fraction
    delta: Fraction
    sensitivity_squared: Fraction
    holds: bool
    # The verdict is decided first; these describe it and may be out of reach at extreme parameters (None, with
    # the reason in ``notes``): δ(ε) below 2**-(2**20) at σ = 1e10, an ε of 10**12 at σ = 3e-7.
    delta_at_sigma: CertifiedReal | None
    epsilon_at_sigma: CertifiedReal | None
    exact: ExactSigma | None
    sigma_ratio: CertifiedReal | None
    notes: tuple[str, ...] = ()

    def summary(self) -> str:
        """One line for a terminal."""
        verdict = "holds" if self.holds else "FAILS"

        def show(value: CertifiedReal | None, rounded: Rounding) -> str:
            # text: a certified one-sided bound where the enclosure is one (δ(ε) below 2**-(2**20) is [0, 2**-(2**20)])
            return "not computed (see notes)" if value is None else value.text(15, rounded=rounded)

        # δ and ε achieved at σ: rounded up; σ/σ_exact, read as "this much noise to spare": rounded down
        return (
            f"({fraction_text(self.epsilon)}, {fraction_text(self.delta)})-DP {verdict} at sigma={format_significant(self.sigma, 15)}: "
            f"delta(epsilon)={show(self.delta_at_sigma, 'up')}, smallest epsilon for delta="
            f"{show(self.epsilon_at_sigma, 'up')}, sigma/sigma_exact={show(self.sigma_ratio, 'down')}"
        )

    def as_json(self) -> dict[str, object]:
        """JSON form."""
        return {
            "verdict": self.verdict,
            "summary": self.summary(),
            "sigma": fraction_text(self.sigma),
            "epsilon": fraction_text(self.epsilon),
            "delta": fraction_text(self.delta),
            "sensitivity_squared": fraction_text(self.sensitivity_squared),
            "delta_at_sigma": None if self.delta_at_sigma is None else self.delta_at_sigma.as_json("up"),
            "epsilon_at_sigma": None if self.epsilon_at_sigma is None else self.epsilon_at_sigma.as_json("up"),
            "sigma_exact": None if self.exact is None else self.exact.as_json("up"),
            "sigma_ratio": None if self.sigma_ratio is None else self.sigma_ratio.as_json("down"),
            "notes": list(self.notes),
        }


def check_gaussian(
    *,
    epsilon: RationalLike,
    delta: RationalLike,
    sigma: RationalLike,
    sensitivity_squared: RationalLike,
) -> GaussianVerdict:
    """Certified verdict whether ``N(0, σ²)`` noise at sensitivity² ``sensitivity_squared`` is (ε, δ)-DP.

    The seed of the calibration audit: holds / fails, the enclosure of δ(ε) to compare with
    ``delta``, the smallest ε achieved, and σ against :func:`sigma_exact`.

    Args:
        epsilon: ε > 0, an exact rational: int, Fraction or a string such as ``"1/2"``; a float is refused.
        delta: the target δ in the open interval (0, 1), exact as ``epsilon`` (e.g. ``"1e-6"``).
        sigma: the noise standard deviation σ > 0 (not σ²), exact as ``epsilon``.
        sensitivity_squared: the squared ℓ₂ sensitivity Δ² > 0 (not Δ), exact as ``epsilon``.
    """
    sig = positive_fraction(sigma, "sigma")
    eps = positive_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    d2 = positive_fraction(sensitivity_squared, "sensitivity_squared")
    holds, _ = delta_satisfied(epsilon=eps, sigma=sig, sensitivity_squared=d2, delta=target)
    notes: list[str] = []

    def described(what: str, compute: Callable[[], _T]) -> _T | None:
        try:
            return compute()
        except (UndecidedComparisonError, ArithmeticError) as reason:
            notes.append(f"{what} not computed: {str(reason).splitlines()[0]}")
            return None

    enclosure = described("delta(epsilon)", lambda: enclose_delta(epsilon=eps, sigma=sig, sensitivity_squared=d2))
    exact = described(
        "the exact sigma",
        lambda: sigma_exact(epsilon=eps, delta=target, sensitivity_squared=d2, tolerance=FINE_TOLERANCE),
    )
    # the optimum lies in (sigma_below, sigma], so σ/σ_opt lies in [σ/sigma, σ/sigma_below)
    ratio = None if exact is None else CertifiedReal(sig / exact.sigma, sig / exact.sigma_below)
    return GaussianVerdict(
        sigma=sig,
        epsilon=eps,
        delta=target,
        sensitivity_squared=d2,
        holds=holds,
        delta_at_sigma=enclosure,
        epsilon_at_sigma=described(
            "the smallest epsilon", lambda: gaussian_epsilon(delta=target, sigma=sig, sensitivity_squared=d2)
        ),
        exact=exact,
        sigma_ratio=ratio,
        notes=tuple(notes),
    )


