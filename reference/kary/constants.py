"""The leading constants that the KARY paper compares, certified with Arb ball arithmetic.

KARY paper (Andersson, Pagh, Steiner, Torkamani, "Count on Your Elders"). The paper writes ``log`` for
``log2``; here every base-2 logarithm is spelled ``log2`` and ``log`` is natural. A *leading constant* is the
coefficient B in a mean squared error ``(B/ε²) log2(T)³ + o(log2(T)³)``, i.e. the value at ε = 1.

Leading constants of the tree mechanisms (functions of the arity, called ``k`` in the paper):

* Theorem 3.7 (k-ary tree, no subtraction, any arity >= 2): ``(arity − 1) / log2(arity)³``;
* Corollary 4.9 / Theorem 1.1 (offset digits, odd arity >= 3): ``arity (1 − 1/arity²) / (2 log2(arity)³)``;
* Corollary C.3 (even-arity variant, even arity >= 2): ``arity / (2 log2(arity)³)``.

Each is ``p(arity) / log2(arity)³`` with ``p`` an exact rational function, so the value is enclosed as
``p / (log(arity)/log(2))³`` in an Arb ball (rigorous: the exact value lies in the ball), exactly when the
arity is a power of two (then log2 is an integer).

:func:`certified_argmin` proves which admissible integer arity minimises a constant, over *all* admissible
integers: on a finite range the enclosures are compared and a comparison is decided only when two balls are
disjoint (the precision is doubled otherwise); beyond it :func:`certify_tail` proves with sympy that the
constant is strictly increasing on ``[tail_start, ∞)`` (the derivative's sign is reduced to ``log x > 3`` and
rational functions with nonnegative coefficients after the substitution ``x = tail_start + u``, u >= 0).

The Henzinger–Upadhyay–Upadhyay (HUU) side of Theorem 1.2: :func:`huu_constant` (C_{ε,δ}),
:func:`huu_mse_bound` (C_{ε,δ}² (1 + log(4T/5)/π)²), :func:`huu_leading_constant` (B_{ε,δ} of Proof 5.3,
derived from the bound's leading term: ``4 log(2)³ / π²``), :func:`lemma_5_1_exponent` and
:func:`theorem_1_2_exponent` (B_ε / B_{ε,δ}: the pure mechanism has the smaller leading term when
``δ <= T^-(B_ε/B_{ε,δ})``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from flint import arb

from reference.core.certified import CertifiedReal, UndecidedComparisonError, working_precision
from reference.core.certified import ball as _ball
from reference.core.exact_text import message_value
from reference.core.options import LeadingConstantFamilyKey, Parity
from reference.core.validate import RationalLike, check_positive_int, open_unit_fraction, to_fraction
from reference.core.verdict import Decided
from reference.kary.digits import check_arity

#: Precision (bits) of single evaluations; comparisons double it up to MAX_BITS when balls overlap.
DEFAULT_BITS = 128
MAX_BITS = 1 << 14



@dataclass(frozen=True)
class LeadingConstantFamily:
    """One of the three leading constants, ``numerator(arity) / log2(arity)³``, with its admissible arities.

    ``numerator`` is applied to a ``Fraction`` (exact value) or a sympy symbol (the tail proof); it must be a
    rational function written with ``+ - * /`` only, so that it means the same thing for both.
    """

    key: LeadingConstantFamilyKey
    statement: str
    formula: str
    minimum_arity: int
    parity: Parity
    numerator: Callable[[Any], Any]

    def admissible(self, arity: int) -> bool:
        """Whether ``arity`` is an arity the statement is made for.

        Args:
            arity: k, an integer.
        """
        if arity < self.minimum_arity:
            return False
        if self.parity == "odd":
            return arity % 2 == 1
        if self.parity == "even":
            return arity % 2 == 0
        return True

    def describe_admissible(self, minimum_arity: int | None = None) -> str:
        """E.g. ``"odd arity >= 3"``.

        Args:
            minimum_arity: the least arity to state, or ``None`` for the family's own.
        """
        low = self.minimum_arity if minimum_arity is None else minimum_arity
        kind = "" if self.parity == "any" else f"{self.parity} "
        return f"{kind}arity >= {low}"


FAMILIES: dict[LeadingConstantFamilyKey, LeadingConstantFamily] = {
    family.key: family
    for family in (
        LeadingConstantFamily("theorem_3_7", "Theorem 3.7", "(k − 1)/log2(k)³", 2, "any", lambda k: k - 1),
        LeadingConstantFamily(
            "corollary_4_9", "Corollary 4.9", "k(1 − 1/k²)/(2 log2(k)³)", 3, "odd", lambda k: (k * k - 1) / (2 * k)
        ),
        LeadingConstantFamily("corollary_c3", "Corollary C.3", "k/(2 log2(k)³)", 2, "even", lambda k: k / 2),
    )
}


def get_family(family: str | LeadingConstantFamily) -> LeadingConstantFamily:
    """A family by key (``"theorem_3_7"``, ``"corollary_4_9"``, ``"corollary_c3"``) or the object itself.

    Args:
        family: ``"theorem_3_7"``, ``"corollary_4_9"`` or ``"corollary_c3"``, or a :class:`LeadingConstantFamily`.
    """
    if isinstance(family, LeadingConstantFamily):
        return family
    if isinstance(family, str) and family in FAMILIES:
        return FAMILIES[family]
    raise ValueError(f"family must be one of {', '.join(FAMILIES)}; got {family!r}")


# ------------------------------------------------------------------------------------------ evaluation


def _power_of_two_exponent(value: int) -> int | None:
    return value.bit_length() - 1 if value & (value - 1) == 0 else None


def _family_arity(family: LeadingConstantFamily, arity: int) -> int:
    """An arity the family's statement admits (its parity and least arity), by the one KARY arity check."""
    return check_arity(arity, parity=family.parity, minimum=family.minimum_arity, needed_by=family.statement)


def _enclose(family: LeadingConstantFamily, arity: int, bits: int) -> CertifiedReal:
    """Enclosure of ``numerator(arity)/log2(arity)³`` (exact for powers of two), no validation."""
    numerator = Fraction(family.numerator(Fraction(arity)))
    exponent = _power_of_two_exponent(arity)
    if exponent is not None:
        return CertifiedReal.exact(numerator / exponent**3)
    with working_precision(bits):
        log2 = arb(arity).log() / arb(2).log()
        return CertifiedReal.from_arb(_ball(numerator) / log2**3)


def leading_constant(
    family: LeadingConstantFamilyKey | LeadingConstantFamily, arity: int, *, bits: int = DEFAULT_BITS
) -> CertifiedReal:
    """Certified leading constant of ``family`` at ``arity`` (Arb at ``bits`` bits; exact for powers of 2).

    Args:
        family: ``"theorem_3_7"``, ``"corollary_4_9"`` or ``"corollary_c3"``, or a :class:`LeadingConstantFamily`.
        arity: k, an admissible arity of the family (an integer).
        bits: the Arb working precision, an integer >= 64 (default 128).
    """
    chosen = get_family(family)
    value = _family_arity(chosen, arity)
    precision = check_positive_int(bits, "bits", minimum=64)
    return _enclose(chosen, value, precision)


def leading_constant_theorem_3_7(arity: int, *, bits: int = DEFAULT_BITS) -> CertifiedReal:
    """Theorem 3.7: ``(arity − 1)/log2(arity)³`` for integer arity >= 2 (certified, Arb).

    Args:
        arity: k, an integer >= 2.
        bits: the Arb working precision, an integer >= 64 (default 128).
    """
    return leading_constant("theorem_3_7", arity, bits=bits)


def leading_constant_corollary_4_9(arity: int, *, bits: int = DEFAULT_BITS) -> CertifiedReal:
    """Corollary 4.9 / Theorem 1.1: ``arity (1 − 1/arity²)/(2 log2(arity)³)`` for odd arity >= 3 (Arb).

    Args:
        arity: k, an odd integer >= 3.
        bits: the Arb working precision, an integer >= 64 (default 128).
    """
    return leading_constant("corollary_4_9", arity, bits=bits)


def leading_constant_corollary_c3(arity: int, *, bits: int = DEFAULT_BITS) -> CertifiedReal:
    """Corollary C.3: ``arity/(2 log2(arity)³)`` for even arity >= 2 (certified, Arb).

    (Claim 1 of Appendix C, which the corollary rests on, is stated for even arity >= 4; arity 2 is accepted
    because the formula is the binary tree's there, and it does not change the minimiser.)

    Args:
        arity: k, an even integer >= 2.
        bits: the Arb working precision, an integer >= 64 (default 128).
    """
    return leading_constant("corollary_c3", arity, bits=bits)


# --------------------------------------------------------------------------------------- tail argument


@dataclass(frozen=True)
class TailCertificate(Decided):
    """Proof that a family's constant is strictly increasing on ``[tail_start, ∞)`` (real arity).

    Writing f(x) = p(x)/log2(x)³: f'(x) = log(2)³ (p'(x) log x − 3 p(x)/x) / log(x)⁴ and
    p' log x − 3p/x = p'(x) (log x − 3) + s(x) with s = 3p' − 3p/x. ``steps`` lists each fact with its
    computed truth value; the certificate holds when every step does.
    """

    family: str
    tail_start: int
    derivative_numerator: str
    remainder: str
    steps: tuple[tuple[str, bool], ...]

    @property
    def holds(self) -> bool:
        """Every step was established."""
        return all(holds for _, holds in self.steps)

    def summary(self) -> str:
        """The argument in one sentence."""
        return (
            f"f'(x) = log(2)³ ({self.derivative_numerator})/log(x)⁴ = log(2)³ (p'(x)(log x − 3) + "
            f"{self.remainder})/log(x)⁴ > 0 on [{self.tail_start}, ∞): p' > 0 and {self.remainder} >= 0 there "
            f"(nonnegative coefficients after x = {self.tail_start} + u), log x >= log {self.tail_start} > 3 "
            "(Arb)"
        )


def _nonnegative_on_ray(expression: Any, x: Any, start: int, *, strict: bool) -> bool:
    """Certify ``expression(x) >= 0`` (``> 0`` if ``strict``) for all real x >= start, for a rational function.

    Numerator and denominator are expanded in u = x − start; if both have only nonnegative (rational)
    coefficients and the denominator's constant term is positive (and, for ``strict``, the numerator's too),
    the claim holds for every u >= 0. Returns False when the sufficient condition is not met.
    """
    import sympy as sp

    u = sp.Symbol("u", nonnegative=True)
    numerator, denominator = sp.fraction(sp.cancel(sp.together(expression)))
    polys = []
    for part in (numerator, denominator):
        poly = sp.Poly(sp.expand(part.subs(x, start + u)), u)
        coefficients = poly.all_coeffs()
        if not all(c.is_Rational and c >= 0 for c in coefficients):
            return False
        polys.append(poly)
    numerator_poly, denominator_poly = polys
    if not denominator_poly.eval(0) > 0:
        return False
    return bool(numerator_poly.eval(0) > 0) if strict else True


def _log_exceeds_three(value: int) -> bool:
    """Certified ``log(value) > 3`` (Arb ball entirely above 3)."""
    with working_precision(DEFAULT_BITS):
        return bool(arb(value).log() > 3)


def default_tail_start() -> int:
    """The smallest integer K >= 2 with log K > 3 certified (K = 21, as e³ = 20.0855...)."""
    candidate = 2
    while not _log_exceeds_three(candidate):
        candidate += 1
    return candidate


def certify_tail(
    family: LeadingConstantFamilyKey | LeadingConstantFamily, tail_start: int | None = None
) -> TailCertificate:
    """Prove with sympy (plus one Arb comparison) that the family's constant increases on [tail_start, ∞).

    Steps: (1) the derivative identity f' = log(2)³ (p' log x − 3p/x)/log(x)⁴ (sympy ``simplify`` of the
    difference to 0); (2) the split p' log x − 3p/x = p'(log x − 3) + s(x) (exact rational identity);
    (3) p' > 0 and (4) s >= 0 on [tail_start, ∞) (:func:`_nonnegative_on_ray`); (5) log is increasing and
    log(tail_start) > 3 (Arb). Then f' > 0 on [tail_start, ∞), so f is strictly increasing there.

    Args:
        family: ``"theorem_3_7"``, ``"corollary_4_9"`` or ``"corollary_c3"``, or a :class:`LeadingConstantFamily`.
        tail_start: the start K of the ray, an integer >= 2 with log K > 3, or ``None`` (:func:`default_tail_start`).
    """
    chosen = get_family(family)
    start = default_tail_start() if tail_start is None else check_positive_int(tail_start, "tail_start", minimum=2)
    return _certify_tail(chosen, start)


@lru_cache(maxsize=64)
def _certify_tail(chosen: LeadingConstantFamily, start: int) -> TailCertificate:
    """The sympy work of :func:`certify_tail` (cached: the certificate is immutable)."""
    import sympy as sp  # imported here: slow to import, and only the tail proof needs it

    x = sp.Symbol("x", positive=True)
    p = sp.together(chosen.numerator(x))
    dp = sp.together(sp.diff(p, x))
    f = p / (sp.log(x) / sp.log(2)) ** 3
    bracket = dp * sp.log(x) - 3 * p / x
    remainder = sp.cancel(3 * dp - 3 * p / x)
    derivative_ok = sp.simplify(sp.diff(f, x) - sp.log(2) ** 3 * bracket / sp.log(x) ** 4) == 0
    split_ok = sp.expand(bracket - (dp * (sp.log(x) - 3) + remainder)) == 0
    steps = (
        ("derivative: f'(x) = log(2)³ (p'(x) log x − 3 p(x)/x)/log(x)⁴ (sympy)", bool(derivative_ok)),
        (f"split: p' log x − 3p/x = p'(log x − 3) + s(x), s(x) = {remainder}", bool(split_ok)),
        (f"p'(x) = {dp} > 0 for x >= {start}", _nonnegative_on_ray(dp, x, start, strict=True)),
        (f"s(x) = {remainder} >= 0 for x >= {start}", _nonnegative_on_ray(remainder, x, start, strict=False)),
        (
            f"log x >= log {start} > 3 for x >= {start} (d/dx log x = 1/x > 0; Arb)",
            bool(sp.diff(sp.log(x), x).is_positive) and _log_exceeds_three(start),
        ),
    )
    return TailCertificate(chosen.key, start, str(sp.simplify(bracket)), str(remainder), steps)


# -------------------------------------------------------------------------------------------- argmin


@dataclass(frozen=True)
class ArgminCertificate:
    """The proved minimiser of a leading constant over all admissible integer arities.

    ``finite_range`` are the arities whose enclosures were compared (every admissible arity below the
    tail and the first two at or above ``tail.tail_start``); ``tail`` proves the constant is strictly
    increasing from ``tail.tail_start`` on, so no larger arity can be smaller than those two. ``gap`` encloses
    ``value(runner_up) − value(argmin)`` and is certified positive.
    """

    family: str
    statement: str
    admissible: str
    argmin: int
    value: CertifiedReal
    runner_up: int
    runner_up_value: CertifiedReal
    gap: CertifiedReal
    finite_range: tuple[int, ...]
    values: tuple[CertifiedReal, ...]
    tail: TailCertificate
    precision_bits: int

    @property
    def tail_argument(self) -> str:
        """How arities beyond ``finite_range`` are excluded."""
        return (
            f"{self.tail.summary()}; so every admissible arity above {self.finite_range[-1]} has a larger "
            f"constant than arities {self.finite_range[-2]} and {self.finite_range[-1]}, which were compared"
        )


def _ordered(values: list[tuple[int, CertifiedReal]]) -> bool:
    """The first two (sorted by midpoint) are certified below all the others, and the first below the second."""
    (_, best), (_, second) = values[0], values[1]
    return best.upper < second.lower and all(second.upper < other.lower for _, other in values[2:])


def certified_argmin(
    family: LeadingConstantFamilyKey | LeadingConstantFamily,
    *,
    minimum_arity: int | None = None,
    tail_start: int | None = None,
) -> ArgminCertificate:
    """Prove the minimiser (and runner-up) of a leading constant over all admissible integer arities.

    ``minimum_arity`` may raise the family's smallest admissible arity (e.g. 4 for Appendix C's Claim 1).
    Enclosures on the finite range are compared at rising precision until the two smallest are disjoint
    from each other and from all the rest (:class:`UndecidedComparisonError` past MAX_BITS); the tail is
    :func:`certify_tail`. Raises ``ArithmeticError`` if the tail certificate does not hold.

    Args:
        family: ``"theorem_3_7"``, ``"corollary_4_9"`` or ``"corollary_c3"``, or a :class:`LeadingConstantFamily`.
        minimum_arity: ``None`` (the family's smallest admissible arity) or a larger integer.
        tail_start: ``None`` (the default tail) or an integer >= 2 from which the tail certificate starts.
    """
    chosen = get_family(family)
    low = (
        chosen.minimum_arity
        if minimum_arity is None
        else check_positive_int(minimum_arity, "minimum_arity", minimum=chosen.minimum_arity)
    )
    tail = certify_tail(chosen, tail_start)
    if not tail.holds:
        failed = [text for text, holds in tail.steps if not holds]
        raise ArithmeticError(f"the tail argument for {chosen.statement} does not hold: {failed}")
    arities: list[int] = []
    candidate, beyond = low, 0
    while beyond < 2:
        if chosen.admissible(candidate):
            arities.append(candidate)
            beyond += candidate >= max(tail.tail_start, low)
        candidate += 1
    bits = DEFAULT_BITS
    while bits <= MAX_BITS:
        enclosures = [(arity, _enclose(chosen, arity, bits)) for arity in arities]
        ranked = sorted(enclosures, key=lambda item: item[1].midpoint)
        if _ordered(ranked):
            (best, best_value), (second, second_value) = ranked[0], ranked[1]
            gap = CertifiedReal(second_value.lower - best_value.upper, second_value.upper - best_value.lower)
            return ArgminCertificate(
                chosen.key,
                chosen.statement,
                chosen.describe_admissible(low),
                best,
                best_value,
                second,
                second_value,
                gap,
                tuple(arities),
                tuple(value for _, value in enclosures),
                tail,
                bits,
            )
        bits *= 2
    raise UndecidedComparisonError(f"{chosen.statement}: enclosures still overlap at {MAX_BITS} bits")


# --------------------------------------------------------------------------------- HUU and Theorem 1.2


def _huu_inner(epsilon: Fraction, delta: Fraction) -> arb:
    """C_{ε,δ} = (2/ε) sqrt(4/9 + log(sqrt(2/π)/δ)) at the current precision."""
    inner = _ball(Fraction(4, 9)) + (2 / arb.pi()).log() / 2 - _ball(delta).log()
    return 2 / _ball(epsilon) * inner.sqrt()


def huu_constant(*, epsilon: RationalLike, delta: RationalLike, bits: int = DEFAULT_BITS) -> CertifiedReal:
    """C_{ε,δ} = (2/ε) sqrt(4/9 + log((1/δ) sqrt(2/π))) of Henzinger–Upadhyay–Upadhyay (KARY §1).

    ε and δ must lie in (0, 1), the range on which the paper (footnote 1) says C_{ε,δ} is valid. The
    radicand is at least 4/9 + log(2/π)/2 = 0.2186... > 0 there. Arb evaluation, certified.

    Args:
        epsilon: ε in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        delta: δ in (0, 1), exact (int, Fraction or str; not float).
        bits: the Arb working precision, an integer >= 64 (default 128).
    """
    eps = open_unit_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    precision = check_positive_int(bits, "bits", minimum=64)
    with working_precision(precision):
        return CertifiedReal.from_arb(_huu_inner(eps, target))


def huu_mse_bound(
    horizon: int,
    *,
    epsilon: RationalLike,
    delta: RationalLike,
    bits: int = DEFAULT_BITS,
) -> CertifiedReal:
    """The HUU bound C_{ε,δ}² (1 + log(4T/5)/π)² on the mean squared error, T = ``horizon`` >= 1 (Arb).

    Args:
        horizon: T, an integer >= 1.
        epsilon: ε in (0, 1), exact (int, Fraction or str such as ``"1/3"``; not float).
        delta: δ in (0, 1), exact (int, Fraction or str; not float).
        bits: the Arb working precision, an integer >= 64 (default 128).
    """
    eps = open_unit_fraction(epsilon, "epsilon")
    target = open_unit_fraction(delta, "delta")
    steps = check_positive_int(horizon, "horizon")
    precision = check_positive_int(bits, "bits", minimum=64)
    with working_precision(precision):
        factor = 1 + _ball(Fraction(4 * steps, 5)).log() / arb.pi()
        return CertifiedReal.from_arb(_huu_inner(eps, target) ** 2 * factor**2)


def huu_leading_constant(*, bits: int = DEFAULT_BITS) -> CertifiedReal:
    """B_{ε,δ} of Proof 5.3: the HUU bound's leading coefficient of ``log2(T)² log2(1/δ)/ε²``.

    C² (1 + log(4T/5)/π)² = (4/ε²)(log(1/δ) + 4/9 + log(2/π)/2)(1 + log(4T/5)/π)², whose leading term as
    T → ∞, δ → 0 is (4/(π² ε²)) log(T)² log(1/δ) = (4 log(2)³/π²) log2(T)² log2(1/δ)/ε². So
    B_{ε,δ} = 4 log(2)³/π² = 4/(π² log2(e)³) (the paper's expression; log2 e = 1/log 2). Arb, certified.
    (The symbolic limit is in ``verification/kary/proofs/argmin.py``.)

    Args:
        bits: the Arb working precision, an integer >= 64 (default 128).
    """
    precision = check_positive_int(bits, "bits", minimum=64)
    with working_precision(precision):
        return CertifiedReal.from_arb(4 * arb(2).log() ** 3 / arb.pi() ** 2)


def _positive_enclosure(value: object, name: str) -> CertifiedReal:
    if isinstance(value, CertifiedReal):
        if value.lower <= 0:
            raise ValueError(f"{name} must be certainly positive, got the enclosure [{value.lower}, {value.upper}]")
        return value
    number = to_fraction(value, name)
    if number <= 0:
        raise ValueError(f"{name} must be > 0, got {message_value(number)}")
    return CertifiedReal.exact(number)


def lemma_5_1_exponent(b_pure: RationalLike | CertifiedReal, b_approx: RationalLike | CertifiedReal) -> CertifiedReal:
    """Lemma 5.1's exponent r = B_ε/B_{ε,δ}: the pure bound's leading term is <= the approximate one's iff
    δ <= T^-r (B_ε log2(T)³ <= B_{ε,δ} log2(T)² log2(1/δ)  <=>  log(1/δ) >= r log T, in any base).

    ``b_pure``, ``b_approx``: positive exact rationals or certainly positive :class:`CertifiedReal`. The
    quotient enclosure [lower/upper', upper/lower'] is exact rational interval arithmetic.

    Args:
        b_pure: B_ε, a positive exact rational or a certainly positive :class:`CertifiedReal`.
        b_approx: B_{ε,δ}, a positive exact rational or a certainly positive :class:`CertifiedReal`.
    """
    pure = _positive_enclosure(b_pure, "b_pure")
    approx = _positive_enclosure(b_approx, "b_approx")
    return CertifiedReal(pure.lower / approx.upper, pure.upper / approx.lower)


def theorem_1_2_exponent(arity: int = 19, *, bits: int = DEFAULT_BITS) -> CertifiedReal:
    """B_ε(arity)/B_{ε,δ}: Corollary 4.9's constant at odd ``arity`` over :func:`huu_leading_constant`.

    Theorem 1.2 (arity 19) claims it is < 0.92.

    Args:
        arity: k, an odd integer >= 3 (default 19, the theorem's).
        bits: the Arb working precision, an integer >= 64 (default 128).
    """
    return lemma_5_1_exponent(leading_constant_corollary_4_9(arity, bits=bits), huu_leading_constant(bits=bits))
