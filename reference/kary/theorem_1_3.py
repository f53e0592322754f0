"""KARY Theorem 1.3 beside the exact profile: what ``calibrate laplace-l2`` reports.

:func:`theorem_1_3_report` gives Theorem 1.3's ε (the paper's bound, valid for every f with these ℓ1/ℓ2
sensitivities, :func:`reference.kary.privacy.laplace_epsilon_theorem_1_3`) and, beside it, the exact ε of the
noise for one sensitivity vector: the one given, or by default the *equal-entry* vector ``(Δ2²/Δ1)·1_h`` with
``h = Δ1²/Δ2²`` (when that is an integer): the neighbouring difference of a tree mechanism, whose leaf touches h
nodes (Δ1 = h, Δ2² = h). Other vectors with the same norms can have a larger exact ε (a single entry of size Δ2
does at small ε), so the exact value is labelled with the vector it is for.

Conventions as in :mod:`reference.kary.privacy` (Lap(b) has variance 2b², natural log) and
:mod:`reference.privacy.laplace_profile` (exact profile, Arb ball arithmetic via python-flint).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from reference.core.certified import CertifiedReal, format_directed
from reference.core.exact_text import exact_text
from reference.core.reprs import CompactRepr
from reference.core.validate import RationalLike, fraction_text, open_unit_fraction, positive_fraction, to_fraction
from reference.kary.privacy import l2_laplace_epsilon, laplace_epsilon_theorem_1_3
from reference.privacy.laplace_profile import MAX_DIMENSION, laplace_delta_worst_case, laplace_epsilon

__all__ = ["Theorem13Report", "theorem_1_3_report"]


@dataclass(frozen=True)
class Theorem13Report(CompactRepr):
    """Theorem 1.3's ε for ``Lap(scale)^d`` beside the exact ε for one sensitivity vector.

    ``epsilon`` is the theorem's ε (``upper`` is the number to quote); ``epsilon_pure = Δ1/λ`` and
    ``epsilon_l2`` (Proof 5.9's ε') are its two terms. ``vector`` is the vector the exact values are for (None
    when no default exists and none was given); ``epsilon_exact`` encloses its smallest ε for ``delta``;
    ``delta_exact_at_epsilon`` its exact δ at the theorem's ε (<= ``delta`` always, as the theorem is sound).
    """

    scale: Fraction
    l1_sensitivity: Fraction
    l2_sensitivity_squared: Fraction
    delta: Fraction
    epsilon: CertifiedReal
    epsilon_pure: Fraction
    epsilon_l2: CertifiedReal
    vector: tuple[Fraction, ...] | None
    vector_note: str
    epsilon_exact: CertifiedReal | None
    delta_exact_at_epsilon: CertifiedReal | None

    def as_json(self) -> dict[str, object]:
        """JSON form: ``epsilon`` is Theorem 1.3's ε as a decimal (its certified upper bound)."""
        exact: dict[str, object] | None = None
        if self.vector is not None and self.epsilon_exact is not None and self.delta_exact_at_epsilon is not None:
            exact = {
                "vector": _vector_text(self.vector),
                "note": self.vector_note,
                "epsilon": format_directed(self.epsilon_exact.upper, 20, upward=True),
                "epsilon_rounded": "up",
                "epsilon_enclosure": {
                    "lower": fraction_text(self.epsilon_exact.lower),
                    "upper": fraction_text(self.epsilon_exact.upper),
                },
                "delta_at_theorem_epsilon": self.delta_exact_at_epsilon.as_json("up"),
            }
        return {
            # Theorem 1.3's ε is achieved by the mechanism: rounded up from the enclosure's upper end
            "epsilon": format_directed(self.epsilon.upper, 20, upward=True),
            "epsilon_rounded": "up",
            "epsilon_enclosure": self.epsilon.as_json("up"),
            "epsilon_pure": fraction_text(self.epsilon_pure),
            "epsilon_l2": self.epsilon_l2.as_json("up"),
            "scale": fraction_text(self.scale),
            "l1_sensitivity": fraction_text(self.l1_sensitivity),
            "l2_sensitivity_squared": fraction_text(self.l2_sensitivity_squared),
            "delta": fraction_text(self.delta),
            "exact_profile": exact if exact is not None else {"note": self.vector_note},
        }


def _vector_text(vector: tuple[Fraction, ...]) -> str:
    values = sorted(set(vector))
    if len(values) == 1:
        return f"{len(vector)} x {exact_text(values[0])}"
    return ",".join(fraction_text(v) for v in vector)


def _default_vector(l1: Fraction, l2_squared: Fraction) -> tuple[tuple[Fraction, ...] | None, str]:
    ratio = l1**2 / l2_squared
    if ratio.denominator != 1 or not 1 <= ratio.numerator <= MAX_DIMENSION:
        return None, (
            "no exact value: Δ1²/Δ2² is not an integer h <= MAX_DIMENSION, so there is no equal-entry vector "
            "with these norms; pass the sensitivity vector to get the exact profile"
        )
    height = ratio.numerator
    entry = l2_squared / l1
    return (entry,) * height, (
        f"equal-entry vector {exact_text(entry)}·1_{height} (the neighbouring difference of a tree mechanism "
        "with h levels); other vectors with the same norms can need a larger epsilon"
    )


def theorem_1_3_report(
    *,
    delta: RationalLike,
    scale: RationalLike,
    l1_sensitivity: RationalLike,
    l2_sensitivity: RationalLike | None,
    l2_sensitivity_squared: RationalLike | None = None,
    sensitivities: Sequence[object] | None = None,
) -> Theorem13Report:
    """Theorem 1.3 (refused for λ <= Δ1, as the theorem) and the exact profile beside it (see module doc).

    ``sensitivities``: the vector the exact values are computed for (its ℓ1 and ℓ2 norms must not exceed
    Δ1 and Δ2); by default the equal-entry vector with norms Δ1 and Δ2 when it exists.

    Args:
        delta: δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        scale: λ, the Laplace scale > 0, exact.
        l1_sensitivity: Δ1 > 0, exact.
        l2_sensitivity: Δ2 > 0, exact, or ``None`` when ``l2_sensitivity_squared`` is given.
        l2_sensitivity_squared: Δ2² > 0, exact, or ``None`` (then ``l2_sensitivity`` is used).
        sensitivities: the sensitivity vector (exact rationals) the exact values are computed for, or ``None``.
    """
    epsilon = laplace_epsilon_theorem_1_3(
        scale=scale,
        l1_sensitivity=l1_sensitivity,
        l2_sensitivity=l2_sensitivity,
        delta=delta,
        l2_sensitivity_squared=l2_sensitivity_squared,
    )
    lam = positive_fraction(scale, "scale")
    l1 = positive_fraction(l1_sensitivity, "l1_sensitivity")
    target = open_unit_fraction(delta, "delta")
    l2_squared = (
        positive_fraction(l2_sensitivity, "l2_sensitivity") ** 2
        if l2_sensitivity is not None
        else positive_fraction(l2_sensitivity_squared, "l2_sensitivity_squared")
    )
    if sensitivities is None:
        vector, note = _default_vector(l1, l2_squared)
    else:
        if isinstance(sensitivities, (str, bytes)) or not isinstance(sensitivities, Sequence):
            raise TypeError("sensitivities must be a sequence of exact rationals")
        vector = tuple(to_fraction(v, f"sensitivities[{i}]") for i, v in enumerate(sensitivities))
        if sum(abs(v) for v in vector) > l1 or sum(v * v for v in vector) > l2_squared:
            raise ValueError("sensitivities must have l1 norm <= l1_sensitivity and l2 norm <= the l2 sensitivity")
        note = "the given sensitivity vector"
    exact = at_theorem = None
    if vector is not None:
        exact = laplace_epsilon(delta=target, scale=lam, sensitivities=vector)
        at_theorem = laplace_delta_worst_case(epsilon=epsilon.lower, scale=lam, sensitivity_vectors=[vector]).delta
    return Theorem13Report(
        scale=lam,
        l1_sensitivity=l1,
        l2_sensitivity_squared=l2_squared,
        delta=target,
        epsilon=epsilon,
        epsilon_pure=l1 / lam,
        epsilon_l2=l2_laplace_epsilon(scale=lam, l2_sensitivity=None, delta=target, l2_sensitivity_squared=l2_squared),
        vector=vector,
        vector_note=note,
        epsilon_exact=exact,
        delta_exact_at_epsilon=at_theorem,
    )
