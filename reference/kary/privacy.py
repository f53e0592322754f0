"""KARY's Laplace statements (Andersson, Pagh, Steiner, Torkamani), certified with Arb balls.

Conventions: ``Lap(b)`` has density ``exp(-|x|/b)/(2b)`` and variance ``2b²``; ``b`` (``scale``, the paper's
λ) is a scale, not a standard deviation. ``Δ1`` and ``Δ2`` are the ℓ1 and ℓ2 sensitivities of ``f`` over the
neighbouring relation in use (for a k-ary tree leaf they are the length h of its root path and ``sqrt(h)``).
``ln`` is natural (the paper writes ``log`` for log2 and ``ln`` for the natural logarithm). Inputs are exact
rationals (floats are refused); since Δ2 is often irrational, every function taking it also accepts
``l2_sensitivity_squared = Δ2²`` instead (pass ``l2_sensitivity=None``).

Statements implemented (each refused outside the range it is stated for, with a pointer to the exact profile
of :mod:`reference.privacy.laplace_profile`, which works for every ε >= 0, δ ∈ (0, 1) and scale > 0):

* Lemma A.2: ``Lap(Δ1/ε)^d`` is ε-DP — :func:`laplace_scale` (exact).
* Lemma A.3 (classical Gaussian, Dwork & Roth): ``reference.privacy.gaussian.sigma_classical`` with
  ``sensitivity_squared = Δ2²`` (stated for ε, δ ∈ (0, 1)).
* Theorem 1.3: ``Lap(λ)^d`` with λ > Δ1 is (ε, δ)-DP for
  ``ε = min{Δ1/λ, (Δ2/λ)(Δ2/(2λ) + sqrt(2 ln(1/δ)))}`` — :func:`laplace_epsilon_theorem_1_3`; its second term
  alone (Proof 5.9's ε') is :func:`l2_laplace_epsilon`.
* Lemma 5.5: ``Lap(Δ2/a)^d`` is (ε, δ)-DP for ε, δ ∈ (0, 1), ``a = sqrt(2 ln(1/δ)) (sqrt(1 + ε/ln(1/δ)) - 1)``
  — :func:`l2_laplace_a`, :func:`l2_laplace_scale`. ``a`` is evaluated as the algebraically equal
  ``sqrt(2) ε / (sqrt(ln(1/δ)) + sqrt(ln(1/δ) + ε))``, which has no cancellation.
* Lemma 5.4 (heterogeneous composition of ε_j-DP mechanisms, Kairouz–Oh–Viswanath Theorem 3.5 simplified):
  ``ε~ = min{Σ ε_j, Σ (e^ε_j - 1) ε_j/(e^ε_j + 1) + sqrt(2 ln(1/δ) Σ ε_j²)}`` —
  :func:`heterogeneous_composition_epsilon`; the optimal composition it bounds is in
  :mod:`reference.privacy.pure_composition`.
* Corollary 5.7: ``Var[Lap] <= (w²/(2 (sqrt(1 + w) - 1)²)) Var[Gauss]``, ``w = ε/ln(1/δ)``, for ε <= ln(1/δ);
  the factor tends to 2 as ε -> 0 — :func:`corollary_5_7_factor` (evaluated as the equal
  ``(1 + sqrt(1 + w))²/2``), and the ratio of the two variances itself, :func:`corollary_5_7_variance_ratio`.

Every irrational result is a :class:`~reference.core.certified.CertifiedReal` enclosing the formula's
exact value (Arb ball arithmetic via python-flint, about 24 significant digits). A *scale* to be used as
sufficient is the enclosure's ``upper`` end (:func:`l2_laplace_sufficient_scale`); an ε of a given noise is
quoted as the ``upper`` end, which is then an upper bound of the formula's ε.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from flint import arb

from reference.core.certified import TARGET_ACCURACY_BITS, CertifiedReal, enclose, working_precision
from reference.core.certified import ball as _ball
from reference.core.exact_text import exact_text
from reference.core.validate import RationalLike, open_unit_fraction, positive_fraction, to_fraction

START_PRECISION = 192
MAX_PRECISION = 1 << 14

_EXACT_PROFILE = (
    "for any scale use the exact privacy profile of the sensitivity vector: "
    "reference.privacy.laplace_profile.laplace_epsilon / laplace_delta (and reference.privacy.laplace_scale."
    "laplace_scale_exact for a "
    "calibration), which work for every epsilon >= 0 and delta in (0, 1)"
)


def _certified(compute: Callable[[], arb], label: str) -> CertifiedReal:
    """Evaluate the Arb expression ``compute`` at rising precision until it has TARGET_ACCURACY_BITS."""
    return enclose(compute, label, start_bits=START_PRECISION, target_bits=TARGET_ACCURACY_BITS, max_bits=MAX_PRECISION)


def _log_inverse(delta: Fraction) -> arb:
    """ln(1/δ) as a ball at the current precision."""
    return (1 / _ball(delta)).log()


def _l2_squared(l2_sensitivity: object, l2_sensitivity_squared: object) -> Fraction:
    """Δ2² from exactly one of ``l2_sensitivity`` (Δ2) and ``l2_sensitivity_squared`` (Δ2²)."""
    if (l2_sensitivity is None) == (l2_sensitivity_squared is None):
        raise TypeError(
            "give exactly one of l2_sensitivity (Δ2) and l2_sensitivity_squared (Δ2², for an irrational Δ2 "
            "such as sqrt(h) on a tree path of length h)"
        )
    if l2_sensitivity is not None:
        return positive_fraction(l2_sensitivity, "l2_sensitivity") ** 2
    return positive_fraction(l2_sensitivity_squared, "l2_sensitivity_squared")


def _epsilon_below_log_inverse(epsilon: Fraction, delta: Fraction) -> bool:
    """Certified ``ε <= ln(1/δ)``. Equality is impossible for rational ε > 0 (e^ε is irrational), so raising
    the precision always separates the two."""
    precision = START_PRECISION
    while precision <= MAX_PRECISION:
        with working_precision(precision):
            difference = _log_inverse(delta) - _ball(epsilon)
        if difference > 0:
            return True
        if difference < 0:
            return False
        precision *= 2
    raise ArithmeticError(f"could not compare epsilon={exact_text(epsilon)} with ln(1/delta)")


# ---------------------------------------------------------------------------------------------- Lemma A.2


def laplace_scale(*, epsilon: RationalLike, l1_sensitivity: RationalLike) -> Fraction:
    """Lemma A.2 (Laplace mechanism): the scale ``Δ1/ε`` that makes ``f(D) + Lap(Δ1/ε)^d`` ε-DP (exact).

    ``epsilon > 0`` and ``l1_sensitivity = Δ1 > 0`` are exact rationals. It is also the smallest scale for
    pure ε-DP whenever some neighbouring difference attains ‖v‖_1 = Δ1.

    Args:
        epsilon: ε > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        l1_sensitivity: Δ1 > 0, the ℓ1 sensitivity, exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    eps = positive_fraction(epsilon, "epsilon")
    l1 = positive_fraction(l1_sensitivity, "l1_sensitivity")
    return l1 / eps


# ---------------------------------------------------------------------------------------------- Theorem 1.3


def _proof_5_9_epsilon(scale: Fraction, l2_squared: Fraction, delta: Fraction) -> CertifiedReal:
    """ε' = a(a/2 + sqrt(2 ln(1/δ))) with a = Δ2/λ, i.e. Δ2²/(2λ²) + sqrt(2 Δ2² ln(1/δ))/λ (no range check)."""
    return _certified(
        lambda: (
            _ball(l2_squared / (2 * scale**2)) + (2 * _ball(l2_squared) * _log_inverse(delta)).sqrt() / _ball(scale)
        ),
        "the l2 Laplace epsilon",
    )


def l2_laplace_epsilon(
    *,
    delta: RationalLike,
    scale: RationalLike,
    l2_sensitivity: RationalLike | None,
    l2_sensitivity_squared: RationalLike | None = None,
) -> CertifiedReal:
    """Proof 5.9's ε' = ``(Δ2/λ)(Δ2/(2λ) + sqrt(2 ln(1/δ)))``: the ε that Lemma 5.4 gives ``Lap(λ)^d`` noise.

    This is the second term of Theorem 1.3 without the theorem's condition λ > Δ1: the argument (Lemma 5.4
    applied coordinate-wise with ε_j = |v_j|/λ, then Σ ε_j² <= (Δ2/λ)²) uses no range of ε, so it applies to
    every λ > 0 and δ ∈ (0, 1) (the verification checks it against the exact profile for λ <= Δ1 too).
    ``scale = λ > 0``; Δ2 as ``l2_sensitivity`` or ``l2_sensitivity_squared``.

    Args:
        delta: δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        scale: λ > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        l2_sensitivity: Δ2 > 0, exact (int, Fraction or str such as ``"1/3"``; not float); ``None`` to give
            ``l2_sensitivity_squared`` instead.
        l2_sensitivity_squared: Δ2² > 0, exact (int, Fraction or str such as ``"1/3"``; not float), when
            ``l2_sensitivity`` is ``None``.
    """
    lam = positive_fraction(scale, "scale")
    target = open_unit_fraction(delta, "delta")
    l2_squared = _l2_squared(l2_sensitivity, l2_sensitivity_squared)
    return _proof_5_9_epsilon(lam, l2_squared, target)


def laplace_epsilon_theorem_1_3(
    *,
    delta: RationalLike,
    scale: RationalLike,
    l1_sensitivity: RationalLike,
    l2_sensitivity: RationalLike | None,
    l2_sensitivity_squared: RationalLike | None = None,
) -> CertifiedReal:
    """Theorem 1.3: ``ε = min{Δ1/λ, (Δ2/λ)(Δ2/(2λ) + sqrt(2 ln(1/δ)))}`` for ``f(D) + Lap(λ)^d``, λ > Δ1.

    ``scale = λ``, ``l1_sensitivity = Δ1``, Δ2 (``l2_sensitivity``, or ``l2_sensitivity=None`` and
    ``l2_sensitivity_squared = Δ2²``), ``delta`` ∈ (0, 1), all exact. Returns an enclosure of the theorem's
    ε; its ``upper`` end is the number to quote (an upper bound of the theorem's ε, which upper-bounds the
    exact ε). Refuses Δ2 > Δ1 (impossible: ‖v‖_2 <= ‖v‖_1) and λ <= Δ1 (outside the theorem), pointing to
    the exact profile.

    Args:
        delta: δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        scale: λ > Δ1, exact (int, Fraction or str such as ``"1/3"``; not float).
        l1_sensitivity: Δ1 > 0, exact (int, Fraction or str such as ``"1/3"``; not float).
        l2_sensitivity: Δ2 in (0, Δ1], exact (int, Fraction or str such as ``"1/3"``; not float); ``None`` to give
            ``l2_sensitivity_squared`` instead.
        l2_sensitivity_squared: Δ2² > 0, exact (int, Fraction or str such as ``"1/3"``; not float), when
            ``l2_sensitivity`` is ``None``.
    """
    lam = positive_fraction(scale, "scale")
    l1 = positive_fraction(l1_sensitivity, "l1_sensitivity")
    target = open_unit_fraction(delta, "delta")
    l2_squared = _l2_squared(l2_sensitivity, l2_sensitivity_squared)
    if l2_squared > l1**2:
        raise ValueError(
            f"the l2 sensitivity cannot exceed the l1 sensitivity (‖v‖_2 <= ‖v‖_1): got Δ2² = "
            f"{exact_text(l2_squared)} > Δ1² = {exact_text(l1**2)}"
        )
    if lam <= l1:
        raise ValueError(
            f"scale must be > l1_sensitivity for Theorem 1.3 of the KARY paper (the range it is stated for), "
            f"got scale={exact_text(lam)} <= {exact_text(l1)}; {_EXACT_PROFILE}"
        )
    pure = l1 / lam
    approximate = _proof_5_9_epsilon(lam, l2_squared, target)
    return CertifiedReal(min(pure, approximate.lower), min(pure, approximate.upper))


# ---------------------------------------------------------------------------------------------- Lemma 5.5


def _lemma_5_5_range(epsilon: object, delta: object) -> tuple[Fraction, Fraction]:
    eps = positive_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    if eps >= 1:
        raise ValueError(
            f"epsilon must be in (0, 1) for Lemma 5.5 of the KARY paper (the range it is stated for), got "
            f"{exact_text(eps)}; for every epsilon > 0 and a given sensitivity vector use "
            "reference.privacy.laplace_scale.laplace_scale_exact"
        )
    return eps, target


def _a_ball(epsilon: Fraction, delta: Fraction) -> arb:
    log_inverse = _log_inverse(delta)
    return arb(2).sqrt() * _ball(epsilon) / (log_inverse.sqrt() + (log_inverse + _ball(epsilon)).sqrt())


def l2_laplace_a(*, epsilon: RationalLike, delta: RationalLike) -> CertifiedReal:
    """Lemma 5.5's ``a_{ε,δ} = sqrt(2 ln(1/δ)) (sqrt(1 + ε/ln(1/δ)) - 1)``, for ε, δ ∈ (0, 1).

    It is the positive root of ``a (a/2 + sqrt(2 ln(1/δ))) = ε`` (proved in ``verification/kary/proofs/lemma_5_5.py``);
    evaluated without cancellation as ``sqrt(2) ε / (sqrt(ln(1/δ)) + sqrt(ln(1/δ) + ε))``.

    Args:
        epsilon: ε in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        delta: δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    eps, target = _lemma_5_5_range(epsilon, delta)
    return _certified(lambda: _a_ball(eps, target), "a_{epsilon,delta}")


def l2_laplace_scale(
    *,
    epsilon: RationalLike,
    delta: RationalLike,
    l2_sensitivity: RationalLike,
    l2_sensitivity_squared: RationalLike | None = None,
) -> CertifiedReal:
    """Lemma 5.5's scale ``Δ2 / a_{ε,δ}`` making ``f(D) + Lap(Δ2/a)^d`` (ε, δ)-DP, for ε, δ ∈ (0, 1).

    Δ2 as ``l2_sensitivity`` or (``l2_sensitivity=None``) ``l2_sensitivity_squared``. The ``upper`` end of
    the enclosure is a rational certified >= the lemma's scale: use it (or
    :func:`l2_laplace_sufficient_scale`) as the sufficient scale.

    Args:
        epsilon: ε in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        delta: δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        l2_sensitivity: Δ2 > 0, exact (int, Fraction or str such as ``"1/3"``; not float); ``None`` to give
            ``l2_sensitivity_squared`` instead.
        l2_sensitivity_squared: Δ2² > 0, exact (int, Fraction or str such as ``"1/3"``; not float), when
            ``l2_sensitivity`` is ``None`` (give exactly one).
    """
    eps, target = _lemma_5_5_range(epsilon, delta)
    l2_squared = _l2_squared(l2_sensitivity, l2_sensitivity_squared)
    return _certified(lambda: _ball(l2_squared).sqrt() / _a_ball(eps, target), "the Lemma 5.5 scale")


def l2_laplace_sufficient_scale(
    *,
    epsilon: RationalLike,
    delta: RationalLike,
    l2_sensitivity: RationalLike,
    l2_sensitivity_squared: RationalLike | None = None,
) -> Fraction:
    """A rational scale certified >= Lemma 5.5's ``Δ2/a_{ε,δ}`` (the upper end of :func:`l2_laplace_scale`).

    Args:
        epsilon: ε in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        delta: δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        l2_sensitivity: Δ2 > 0, exact (int, Fraction or str such as ``"1/3"``; not float); ``None`` to give
            ``l2_sensitivity_squared`` instead.
        l2_sensitivity_squared: Δ2² > 0, exact (int, Fraction or str such as ``"1/3"``; not float), when
            ``l2_sensitivity`` is ``None``.
    """
    return l2_laplace_scale(
        epsilon=epsilon, delta=delta, l2_sensitivity=l2_sensitivity, l2_sensitivity_squared=l2_sensitivity_squared
    ).upper


# ---------------------------------------------------------------------------------------------- Lemma 5.4


def _epsilons(epsilons: object) -> tuple[Fraction, ...]:
    if isinstance(epsilons, (str, bytes)) or not isinstance(epsilons, Sequence):
        raise TypeError(f"epsilons must be a sequence of exact rationals, got {type(epsilons).__name__}")
    if len(epsilons) == 0:
        raise ValueError("epsilons must contain at least one epsilon_j")
    values = tuple(to_fraction(value, f"epsilons[{i}]") for i, value in enumerate(epsilons))
    for i, value in enumerate(values):
        if value <= 0:
            raise ValueError(
                f"epsilons[{i}] must be > 0 (Lemma 5.4 composes epsilon_j > 0), got {exact_text(value)}"
            )
    return values


def heterogeneous_composition_epsilon(*, epsilons: Sequence[RationalLike], delta: RationalLike) -> CertifiedReal:
    """Lemma 5.4: the k-fold adaptive composition of ε_j-DP mechanisms is (ε~, δ)-DP for

    ``ε~ = min{Σ ε_j, Σ (e^ε_j - 1) ε_j / (e^ε_j + 1) + sqrt(2 ln(1/δ) Σ ε_j²)}``

    (Kairouz, Oh, Viswanath, Theorem 3.5, with their middle term dropped). ``epsilons``: a non-empty sequence
    of exact rationals > 0; ``delta`` ∈ (0, 1). ``(e^x - 1)/(e^x + 1)`` is evaluated as
    ``expm1(x)/(expm1(x) + 2)``. Compare with the optimal composition,
    :func:`reference.privacy.pure_composition.optimal_composition_epsilon`.

    Args:
        epsilons: the ε_j > 0 of the composed mechanisms, a non-empty sequence, each exact (int, Fraction or str such as
            ``"1/3"``; not float).
        delta: δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    values = _epsilons(epsilons)
    target = open_unit_fraction(delta, "delta")
    simple = sum(values, Fraction(0))
    squares = sum((value**2 for value in values), Fraction(0))

    def advanced() -> arb:
        total = arb(0)
        for value in values:
            growth = _ball(value).expm1()
            total += growth * _ball(value) / (growth + 2)
        return total + (2 * _log_inverse(target) * _ball(squares)).sqrt()

    second = _certified(advanced, "the Lemma 5.4 epsilon")
    return CertifiedReal(min(simple, second.lower), min(simple, second.upper))


# ---------------------------------------------------------------------------------------------- Corollary 5.7


def corollary_5_7_factor(*, epsilon: RationalLike, delta: RationalLike) -> CertifiedReal:
    """Corollary 5.7's variance factor ``w² / (2 (sqrt(1 + w) - 1)²)``, ``w = ε / ln(1/δ)``.

    Stated for ε > 0, δ ∈ (0, 1) with ε <= ln(1/δ) (decided with certified Arb comparisons; refused
    otherwise). Evaluated as the algebraically equal ``(1 + sqrt(1 + w))² / 2``: it increases from its limit 2
    (ε -> 0) to ``(1 + sqrt 2)²/2 = 2.914...`` at ε = ln(1/δ). Note that the corollary compares Lemma 5.5 and
    Lemma A.3, which are both stated for ε < 1 only (see :func:`corollary_5_7_variance_ratio`).

    Args:
        epsilon: ε > 0 with ε <= ln(1/δ), exact (int, Fraction or str such as ``"1/3"``; not float).
        delta: δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    eps = positive_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    if not _epsilon_below_log_inverse(eps, target):
        raise ValueError(
            f"epsilon must be <= ln(1/delta) for Corollary 5.7 of the KARY paper (the range it is stated for), "
            f"got epsilon={exact_text(eps)}, delta={exact_text(target)}"
        )
    return _certified(lambda: (1 + (1 + _ball(eps) / _log_inverse(target)).sqrt()) ** 2 / 2, "the Corollary 5.7 factor")


def corollary_5_7_variance_ratio(*, epsilon: RationalLike, delta: RationalLike) -> CertifiedReal:
    """The exact ratio Var[Lemma 5.5's Laplace] / Var[Lemma A.3's Gaussian] at the same (ε, δ) and Δ2.

    ``2 (Δ2/a)² / (2 ln(1.25/δ) Δ2²/ε²) = (sqrt(ln(1/δ)) + sqrt(ln(1/δ) + ε))² / (2 ln(1.25/δ))``, independent
    of Δ2. Both lemmas are stated for ε, δ ∈ (0, 1), so that is the range accepted. It is below
    :func:`corollary_5_7_factor` by the factor ``ln(1/δ)/ln(1.25/δ) < 1`` (Proof 5.8's inequality).

    Args:
        epsilon: ε in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        delta: δ in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
    """
    eps, target = _lemma_5_5_range(epsilon, delta)

    def ratio() -> arb:
        log_inverse = _log_inverse(target)
        numerator = (log_inverse.sqrt() + (log_inverse + _ball(eps)).sqrt()) ** 2
        return numerator / (2 * (_ball(Fraction(5, 4)) / _ball(target)).log())

    return _certified(ratio, "the Corollary 5.7 variance ratio")


__all__ = [
    "corollary_5_7_factor",
    "corollary_5_7_variance_ratio",
    "heterogeneous_composition_epsilon",
    "l2_laplace_a",
    "l2_laplace_epsilon",
    "l2_laplace_scale",
    "l2_laplace_sufficient_scale",
    "laplace_epsilon_theorem_1_3",
    "laplace_scale",
]
