"""Checks of the exact samplers and their laws that involve no randomness.

* **Exhaustive** (:func:`check_enumeration`): run an exact sampler on *every* bit string up to ``max_bits``
  (:class:`~reference.core.randomness.ScriptedBits`; a string is extended only when the sampler asks for more
  bits, so the finished strings form a prefix-free set). Each output ``x`` then has probability exactly
  ``low_x + (part of the unfinished mass U)``, so the sampler's ``P_s[x]`` lies in ``[low_x, low_x + U]``; the
  check passes iff that interval meets the certified enclosure of the true ``P[x]`` for every ``x`` seen, so
  ``|P_s[x] - P[x]| <= U`` (plus the enclosure's width). Tight for the Bernoulli primitives; the composite
  samplers use too many bits for a small ``U``.
* **Certified facts** (:func:`check_discrete_gaussian_bounds`): CKS Corollary 9 as quoted by TDA Corollary 1:
  ``Var[Z] <= σ²`` and ``P[Z >= t] <= exp(-t²/(2σ²))``, decided from Arb enclosures.

The seeded statistical checks (goodness of fit, moments) are in :mod:`reference_verification.samplers.checks`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from reference.core.certified import CertifiedReal, format_directed
from reference.core.randomness import BitsExhausted, RandomBits, ScriptedBits
from reference.core.validate import RationalLike, check_positive_int, positive_fraction, to_fraction
from reference.core.verdict import Decided
from reference.samplers import exact as exact_samplers
from reference.samplers import inversion
from reference.samplers import pmf as discrete


@dataclass(frozen=True)
class EnumerationCheck(Decided):
    """An exhaustive check over all bit strings of at most ``max_bits`` bits (no randomness in the verdict).

    ``lower_masses`` maps each output seen to the exact mass of the finished strings giving it; ``unresolved``
    is the exact mass of the strings still unfinished at ``max_bits``; ``worst_gap`` is an upper bound on
    ``max_x |P_s[x] - P[x]|`` implied by the enumeration and the certified pmf.
    """

    name: str
    max_bits: int
    strings: int
    lower_masses: tuple[tuple[int, Fraction], ...]
    unresolved: Fraction
    worst_gap: Fraction
    holds: bool
    detail: str

    def summary(self) -> str:
        """One line: verdict, name and the detail."""
        return f"{'PASS' if self.holds else 'FAIL'} {self.name}: {self.detail}"


EnumerationKind = Literal[
    "bernoulli", "bernoulli_exp_minus", "discrete-laplace", "discrete-gaussian", "discrete_gaussian_rejection"
]
#: Word size of the enumerated inversion sampler: 3 digits of ``V`` and a sign bit, so that bit strings of a
#: dozen bits reach both the table's decisions and its exact resolution path (production words are 64 bits).
ENUMERATION_WORD_BITS = 4


def enumerate_outcomes(
    sample: Callable[[RandomBits], int], max_bits: int, max_strings: int = 2_000_000
) -> tuple[dict[int, Fraction], Fraction, int]:
    """Run ``sample`` on every bit string it can consume up to ``max_bits`` bits (depth first).

    Returns ``(masses, unresolved, strings)``: the exact probability of each output over the strings that
    finish within ``max_bits`` bits, the exact mass of those that do not, and how many strings were run.
    A string is extended by one bit only when the sampler ran out of bits on it, so a finished string is
    consumed entirely and the finished strings are prefix-free (their masses ``2**-length`` add up exactly).
    """
    limit = check_positive_int(max_bits, "max_bits", minimum=0)
    cap = check_positive_int(max_strings, "max_strings")
    masses: dict[int, Fraction] = {}
    unresolved = Fraction(0)
    stack = [(0, 0)]
    strings = 0
    while stack:
        value, length = stack.pop()
        strings += 1
        if strings > cap:
            raise ValueError(f"more than max_strings = {cap} bit strings; lower max_bits")
        source = ScriptedBits(value, length)
        try:
            outcome = sample(source)
        except BitsExhausted:
            if length < limit:
                stack.append((2 * value + 1, length + 1))
                stack.append((2 * value, length + 1))
            else:
                unresolved += Fraction(1, 1 << length)
            continue
        if source.used != length:
            raise ArithmeticError(f"the sampler finished after {source.used} of {length} scripted bits")
        masses[outcome] = masses.get(outcome, Fraction(0)) + Fraction(1, 1 << length)
    return masses, unresolved, strings


def _enumeration_target(
    kind: str, parameter: Fraction
) -> tuple[Callable[[RandomBits], int], Callable[[int], CertifiedReal]]:
    if kind == "bernoulli":
        if not 0 <= parameter <= 1:
            raise ValueError(f"parameter must be in [0, 1] for bernoulli, got {parameter}")
        exact = CertifiedReal.exact(parameter)
        return (lambda s: exact_samplers.bernoulli(parameter, source=s)), (
            lambda x: exact if x == 1 else CertifiedReal(1 - exact.upper, 1 - exact.lower)
        )
    if kind == "bernoulli_exp_minus":
        if parameter < 0:
            raise ValueError(f"parameter must be >= 0 for bernoulli_exp_minus, got {parameter}")
        one = discrete.exp_minus(parameter)
        return (lambda s: exact_samplers.bernoulli_exp_minus(parameter, source=s)), (
            lambda x: one if x == 1 else CertifiedReal(1 - one.upper, 1 - one.lower)
        )
    if kind == "discrete-laplace":
        return (lambda s: exact_samplers.discrete_laplace(parameter, source=s)), (
            lambda x: discrete.discrete_laplace_pmf(x, parameter)
        )
    if kind == "discrete-gaussian":
        table = inversion.inversion_table(positive_fraction(parameter, "parameter"), ENUMERATION_WORD_BITS)
        if table is None:
            raise ValueError(f"parameter {parameter} is too large for an enumerated inversion table")
        return (lambda s: inversion.inversion_draws(table, 1, s)[0]), (
            lambda x: discrete.discrete_gaussian_pmf(x, parameter)
        )
    if kind == "discrete_gaussian_rejection":
        return (lambda s: exact_samplers.discrete_gaussian_rejection(parameter, source=s)), (
            lambda x: discrete.discrete_gaussian_pmf(x, parameter)
        )
    raise ValueError(
        "kind must be one of bernoulli, bernoulli_exp_minus, discrete_laplace, discrete_gaussian, "
        f"discrete_gaussian_rejection; got {kind!r}"
    )


def check_enumeration(kind: object, parameter: RationalLike, max_bits: int = 16) -> EnumerationCheck:
    """Exhaustive check of an exact sampler over all bit strings of at most ``max_bits`` bits (module docstring).

    ``kind`` is "bernoulli" (``parameter`` = p), "bernoulli_exp_minus" (γ), "discrete-laplace" (scale) or
    "discrete-gaussian" (σ²: the inversion sampler of :mod:`reference.samplers.inversion`, the same code with
    :data:`ENUMERATION_WORD_BITS`-bit words) or "discrete_gaussian_rejection" (σ², CKS). Passes iff for every
    output ``x`` seen, ``[low_x, low_x + unresolved]`` meets the
    certified enclosure of the true ``P[x]``; also requires the unseen outcomes of a Bernoulli to have
    ``P <= unresolved``.
    """
    value = to_fraction(parameter, "parameter")
    if not isinstance(kind, str):
        raise TypeError(f"kind must be a string, got {type(kind).__name__}")
    sample, pmf = _enumeration_target(kind, value)
    masses, unresolved, strings = enumerate_outcomes(sample, max_bits)
    outcomes = sorted(masses)
    if kind in ("bernoulli", "bernoulli_exp_minus"):
        outcomes = sorted(set(outcomes) | {0, 1})
    worst = Fraction(0)
    failures: list[str] = []
    for x in outcomes:
        low = masses.get(x, Fraction(0))
        truth = pmf(x)
        if truth.upper < low or truth.lower > low + unresolved:
            failures.append(
                f"x = {x}: sampler mass in {CertifiedReal(low, low + unresolved).bounds(6)}, "
                f"true P in {truth.bounds(6)}"
            )
        gap = max(truth.upper - low, low + unresolved - truth.lower)
        worst = max(worst, gap)
    finished = 1 - unresolved
    detail = (
        f"{strings} bit strings up to {max_bits} bits; finished mass {format_directed(finished, 9, upward=False)}, unresolved "
        f"{format_directed(unresolved, 3, upward=True)}; outcomes seen {outcomes[:8]}{'...' if len(outcomes) > 8 else ''}; "
        f"max |P_sampler[x] - P[x]| <= {format_directed(worst, 3, upward=True)}"
        + ("; INCONSISTENT: " + "; ".join(failures) if failures else "")
    )
    return EnumerationCheck(
        f"exhaustive {kind}({value})",
        max_bits,
        strings,
        tuple((x, masses.get(x, Fraction(0))) for x in outcomes),
        unresolved,
        worst,
        not failures,
        detail,
    )


@dataclass(frozen=True)
class CertifiedCheck(Decided):
    """A certified comparison over a finite set of cases: ``holds`` iff every case is decided true from
    rigorous enclosures (never from an enclosure containing the threshold). ``undecided`` lists cases that
    could not be decided either way (counted as not passed)."""

    name: str
    cases: int
    holds: bool
    counterexample: str | None
    detail: str

    def summary(self) -> str:
        """One line: verdict, name and the detail."""
        return f"{'PASS' if self.holds else 'FAIL'} {self.name}: {self.detail}"


def check_discrete_gaussian_bounds(sigma_squared_values: Sequence[object], max_m: int = 60) -> CertifiedCheck:
    """CKS Corollary 9 / InfTDA Corollary 1 for ``Z ~ N_Z(0, σ²)``: ``Var[Z] <= σ²`` (checked strictly:
    certified upper end of the variance < σ²) and ``P[Z >= t] <= exp(-t²/(2σ²))`` for every real ``t >= 0``.

    The tail bound is checked for integers ``m = 1..max_m``; that covers every real ``t`` in ``[0, max_m]``:
    for ``m - 1 < t <= m``, ``P[Z >= t] = P[Z >= m] <= exp(-m²/(2σ²)) <= exp(-t²/(2σ²))`` (``t = 0`` is
    trivial). Each comparison uses the certified tail's upper end against a certified lower bound of the
    exponential. The first failing case (smallest σ² in the given order, then smallest ``m``) is reported.
    """
    top = check_positive_int(max_m, "max_m")
    cases = 0
    worst_ratio = 0.0
    for raw in sigma_squared_values:
        s2 = positive_fraction(raw, "sigma_squared")
        cases += 1
        variance = discrete.discrete_gaussian_variance(s2)
        if not variance.upper < s2:
            example = f"sigma_squared = {s2}: variance enclosure upper end {float(variance.upper)!r} is not < {s2}"
            return CertifiedCheck("discrete Gaussian variance and tail bounds", cases, False, example, example)
        for m in range(1, top + 1):
            cases += 1
            tail = discrete.discrete_gaussian_tail(m, s2)
            bound = discrete.exp_minus(Fraction(m * m) / (2 * s2))
            if not tail.upper <= bound.lower:
                example = (
                    f"sigma_squared = {s2}, m = {m}: P[Z >= m] in {tail.bounds(6)}, "
                    f"exp(-m^2/(2 sigma^2)) in {bound.bounds(6)}"
                )
                return CertifiedCheck("discrete Gaussian variance and tail bounds", cases, False, example, example)
            if bound.upper > 0:
                worst_ratio = max(worst_ratio, float(tail.upper / bound.upper) if bound.upper else 0.0)
    detail = (
        f"{cases} certified comparisons: Var < sigma^2 for {len(sigma_squared_values)} values of sigma^2, and "
        f"P[Z >= m] <= exp(-m^2/(2 sigma^2)) for m = 1..{top} (largest ratio tail/bound {worst_ratio:.4g})"
    )
    return CertifiedCheck("discrete Gaussian variance and tail bounds", cases, True, None, detail)
