"""TDA paper, Theorem 1 (privacy part) and its proof: InfTDA with N_Z(0, d/ρ) noise per level is ρ-zCDP under
substitution neighbours; plus the zCDP <-> (ε, δ) conversions the package uses.

Method (symbolic in d and ρ, sympy):

1. Level sensitivity: a substitution moves one record from cell y to cell y' of a level (``substitute``, applied
   to symbolic counts); the program computes the change of the level's count vector from that model, checks
   that it keeps the number of records (the root n is public and exact, so a model that changes n is not a
   substitution) and that its squared ℓ2 norm equals the claimed Δ² = ``sensitivity_squared``; and takes the
   brute-force maximum over every dataset and substitution pair on small hierarchies from the entry TDA
   Algorithm 1 (sensitivity √2) (``verification/tda/checks/calibration.py``), which must agree. That entry is
   verified (finite), and steps 2 and 3 apply cited theorems (CKS 2020 Theorem 14, Bun–Steinke Lemma 2.3):
   the registry marks Theorem 1 (privacy) "proved, conditional" on them.
2. With σ² = d/ρ (Algorithm 1, line 6) each level is Δ²/(2σ²)-zCDP (CKS 2020, Theorem 14), which simplifies to
   ρ/d, the budget the proof allocates per level.
3. Σ_{level=1}^{d} ρ/d = ρ (adaptive composition, Bun–Steinke 2016, Lemma 2.3).
4. The closed form ρ* = (sqrt(ε + L) - sqrt(L))², L = log(1/δ), solves ρ + 2 sqrt(ρ L) = ε, and it is the unique
   positive root: with s = sqrt(ρ) the equation is the quadratic s² + 2 sqrt(L) s - ε = 0, whose roots have
   product -ε < 0, so exactly one is positive; ρ + 2 sqrt(ρ L) is strictly increasing in ρ.
5. Bun–Steinke Proposition 1.3 from the Markov (Chernoff) bound δ <= exp((α-1)(αρ-ε)): minimised at
   α = (ε + ρ)/(2ρ), giving exp(-(ε-ρ)²/(4ρ)), which equals δ at ε = ρ + 2 sqrt(ρ L).
6. CKS 2020 Corollary 13 multiplies that bound by (1 - 1/α)^α/(α - 1) = (1 - 1/α)^(α-1)/α < 1, so at every α
   (and hence at the optimum) the tight conversion is never worse than the simple one; the derivatives the
   package's optimiser brackets are checked: d/dα of log δ(α) = (2α-1)ρ - ε + log(1 - 1/α) and
   (α-1)² d/dα ε(α) = ρ(α-1)² + log α - L.

``prove(variance_factor=..., sensitivity_squared=..., conversion_coefficient=..., substitution=...)`` takes the
constants of σ² = variance_factor·d/ρ, of Δ², of ε = ρ + c sqrt(ρ L), and the model of a substitution, so that a
wrong constant or a wrong neighbour model (e.g. both counts +1) makes the program FAIL.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import sympy as sp

from ...core.proof import ProofRecord, print_record
from ...core.proof_links import mutation, proves

PAPER = "TDA"
STATEMENT = (
    "InfTDA (Algorithm 1) adds N_Z(0, d/ρ) noise to each of the d levels; under substitution neighbours every "
    "level's count vector has ℓ2 sensitivity sqrt(2), so each level is (ρ/d)-zCDP and the mechanism is ρ-zCDP "
    "(Theorem 1); ρ-zCDP gives (ρ + 2 sqrt(ρ log(1/δ)), δ)-DP, whose inverse is the unique positive root "
    "ρ = (sqrt(ε + log(1/δ)) - sqrt(log(1/δ)))², and the tight conversion of CKS Corollary 13 is never worse."
)

Expr = Any


def _is_zero(expr: Expr) -> bool:
    return bool(sp.simplify(expr) == 0)


def _rational(value: Fraction | int) -> Expr:
    value = Fraction(value)
    return sp.Rational(value.numerator, value.denominator)


def substitute(counts: Sequence[Expr], removed: int, added: int) -> list[Expr]:
    """A level's counts after a substitution: one record leaves cell ``removed`` and enters cell ``added``."""
    after = list(counts)
    after[removed] -= 1
    after[added] += 1
    return after


def both_counts_plus_one(counts: Sequence[Expr], removed: int, added: int) -> list[Expr]:
    """A wrong model of a substitution (for the mutation test): both cells gain a record, so n changes."""
    after = list(counts)
    after[removed] += 1
    after[added] += 1
    return after


def brute_force_level_sensitivity() -> tuple[int, str]:
    """The entry TDA Algorithm 1 (sensitivity √2)'s computation: the largest squared ℓ2 change of a level's count
    vector (levels >= 1) over every dataset and substitution pair of its small hierarchies, and what it covered.
    ``(-1, why)`` when the root's count changed somewhere (then the neighbours are not substitutions)."""
    from ..checks.calibration import QUICK_HIERARCHIES, inftda_level_sensitivity

    found = inftda_level_sensitivity(QUICK_HIERARCHIES, rhos=())
    shapes = ", ".join(f"{'x'.join(map(str, h.categories))} (n = {h.records})" for h in found.hierarchies)
    if any(h.substitution[0] for h in found.hierarchies):
        return -1, f"the root count changed on {shapes}"
    return max(value for h in found.hierarchies for value in h.substitution[1:]), shapes


@proves(
    "TDA",
    "Theorem 1 (privacy)",
    mutations=(
        mutation("σ² = 2d/ρ", variance_factor=Fraction(2)),
        mutation("σ² = d/(2ρ)", variance_factor=Fraction(1, 2)),
        mutation("Δ² = 1", sensitivity_squared=1),
        mutation("ρ + sqrt(ρ log(1/δ)) = ε", conversion_coefficient=Fraction(1)),
        mutation("substitution modelled as both counts +1", substitution=both_counts_plus_one),
    ),
)
def prove(
    variance_factor: Fraction = Fraction(1),
    sensitivity_squared: Fraction | int = 2,
    conversion_coefficient: Fraction = Fraction(2),
    substitution: Callable[[Sequence[Expr], int, int], list[Expr]] = substitute,
) -> ProofRecord:
    """Prove the privacy accounting of InfTDA and the conversions (raise ProofFailure if a step fails)."""
    record = ProofRecord(PAPER, "Theorem 1 (privacy)", STATEMENT)
    d = sp.Symbol("d", positive=True, integer=True)
    level = sp.Symbol("level", positive=True, integer=True)
    rho, eps, log_inv = sp.symbols("rho epsilon L", positive=True)

    # 1. level sensitivity, from the model of a substitution applied to symbolic counts: the record leaves cell
    # 0 (y) and enters cell 1 (y'); cell 2 stands for every other cell of the level
    counts = list(sp.symbols("x_y x_yprime x_other", integer=True, nonnegative=True))
    change = [sp.expand(after - before) for after, before in zip(substitution(counts, 0, 1), counts)]
    record.step(
        f"the modelled substitution changes the level's counts by {change} (cells y, y', any other): the number of "
        f"records stays n (the root is public and exact), so the change sums to {sp.expand(sum(change))} = 0",
        _is_zero(sum(change)) and all(not entry.free_symbols for entry in change),
    )
    derived = sp.expand(sum(entry**2 for entry in change))
    claimed_d2 = _rational(sensitivity_squared)
    record.step(
        f"its squared ℓ2 norm is {derived} (0 at a level where y and y' share their prefix); the calibration's "
        f"Δ² = {claimed_d2} must equal it",
        bool(derived == claimed_d2),
    )
    brute, covered = brute_force_level_sensitivity()
    record.step(
        f"the entry TDA Algorithm 1 (sensitivity √2) finds the same maximum by brute force over every dataset and "
        f"substitution pair of {covered}: {brute} (the root count never changes)",
        brute == derived,
    )

    # 2. per-level zCDP of the multivariate discrete Gaussian with σ² = d/ρ
    sigma_squared = _rational(variance_factor) * d / rho
    per_level = claimed_d2 / (2 * sigma_squared)
    record.step(
        f"with σ² = {variance_factor}·d/ρ each level is Δ²/(2σ²) = {sp.simplify(per_level)}-zCDP "
        "(CKS 2020, Theorem 14), which must be the allocated budget ρ/d",
        _is_zero(per_level - rho / d),
    )

    # 3. adaptive composition over the d levels
    total = sp.summation(per_level, (level, 1, d))
    record.step(
        f"composition over levels 1..d: Σ Δ²/(2σ²) = {sp.simplify(total)} must equal ρ (Bun–Steinke, Lemma 2.3)",
        _is_zero(total - rho),
    )

    # 4. the closed form of rho_from_epsilon_delta and its uniqueness
    c = _rational(conversion_coefficient)
    closed = (sp.sqrt(eps + log_inv) - sp.sqrt(log_inv)) ** 2
    residual = sp.expand(closed + c * (sp.sqrt(eps + log_inv) - sp.sqrt(log_inv)) * sp.sqrt(log_inv) - eps)
    record.step(
        f"ρ* = (sqrt(ε + L) - sqrt(L))² solves ρ + {c} sqrt(ρ L) = ε (sqrt(ρ*) = sqrt(ε + L) - sqrt(L) > 0)",
        _is_zero(residual),
    )
    s = sp.Symbol("s", real=True)
    roots = sp.solve(sp.Eq(s**2 + c * sp.sqrt(log_inv) * s - eps, 0), s)
    negative = [root for root in roots if bool(sp.simplify(root).is_negative)]
    others = [root for root in roots if root not in negative]
    rationalised = eps / (sp.sqrt(eps + log_inv) + sp.sqrt(log_inv))  # = sqrt(ε + L) - sqrt(L), visibly > 0
    record.step(
        "with s = sqrt(ρ) the equation is a quadratic whose roots have product -ε < 0, so exactly one is "
        "positive; the other root is sqrt(ε + L) - sqrt(L) = ε/(sqrt(ε + L) + sqrt(L)) > 0",
        len(roots) == 2
        and _is_zero(roots[0] * roots[1] + eps)
        and len(negative) == 1
        and len(others) == 1
        and _is_zero(others[0] - (sp.sqrt(eps + log_inv) - sp.sqrt(log_inv)))
        and _is_zero(sp.radsimp(rationalised) - (sp.sqrt(eps + log_inv) - sp.sqrt(log_inv)))
        and bool(rationalised.is_positive),
    )
    h_prime = sp.diff(rho + c * sp.sqrt(rho * log_inv), rho)
    record.step(
        f"ρ + {c} sqrt(ρ L) is strictly increasing in ρ > 0 (derivative {h_prime} > 0), so the root is unique",
        bool(sp.simplify(h_prime).is_positive),
    )

    # 5. the simple conversion from the Markov bound exp((α-1)(αρ-ε))
    alpha = sp.Symbol("alpha", positive=True)
    log_markov = (alpha - 1) * (alpha * rho - eps)
    best = sp.solve(sp.diff(log_markov, alpha), alpha)
    record.step(
        "the Markov bound exp((α-1)(αρ-ε)) is minimised at α = (ε+ρ)/(2ρ) (its exponent is convex in α)",
        len(best) == 1 and _is_zero(best[0] - (eps + rho) / (2 * rho)) and bool(sp.diff(log_markov, alpha, 2).is_positive),
    )
    minimum = sp.simplify(log_markov.subs(alpha, best[0]))
    record.step(
        "its minimum exponent is -(ε-ρ)²/(4ρ)", _is_zero(minimum + (eps - rho) ** 2 / (4 * rho))
    )
    at_simple = minimum.subs(eps, rho + c * sp.sqrt(rho * log_inv))
    record.step(
        f"at ε = ρ + {c} sqrt(ρ L) the bound is exp(-L) = δ: ρ-zCDP gives (ρ + {c} sqrt(ρ log(1/δ)), δ)-DP "
        "(Bun–Steinke, Proposition 1.3)",
        _is_zero(at_simple + log_inv),
    )

    # 6. the tight conversion (CKS Corollary 13) is never worse, and the optimiser's derivatives
    t = sp.Symbol("t", positive=True)  # α = 1 + t
    factor = (1 - 1 / alpha) ** alpha / (alpha - 1)
    rdp_form = (1 - 1 / alpha) ** (alpha - 1) / alpha
    record.step(
        "(1-1/α)^α/(α-1) = (1-1/α)^(α-1)/α (the Rényi-DP form of CKS Proposition 12)",
        _is_zero(sp.expand_power_base(sp.simplify(factor.subs(alpha, 1 + t) - rdp_form.subs(alpha, 1 + t)), force=True)),
    )
    log_factor = sp.expand_log(sp.log(rdp_form.subs(alpha, 1 + t)), force=True)  # t log(t/(1+t)) - log(1+t)
    record.step(
        "log of that factor is t·log(t/(1+t)) - log(1+t) with t = α - 1 > 0: both terms negative "
        "(t/(1+t) < 1, 1+t > 1), so the factor is < 1 and δ_CKS(α) < δ_Markov(α) at every α > 1",
        _is_zero(log_factor - (t * (sp.log(t) - sp.log(1 + t)) - sp.log(1 + t)))
        and bool(sp.simplify(t / (1 + t) - 1).is_negative),
    )
    log_delta = log_markov + alpha * sp.log(1 - 1 / alpha) - sp.log(alpha - 1)
    record.step(
        "d/dα log δ_CKS(α) = (2α-1)ρ - ε + log(1-1/α), strictly increasing (second derivative 2ρ + 1/(α(α-1)))",
        _is_zero((sp.diff(log_delta, alpha) - ((2 * alpha - 1) * rho - eps + sp.log(1 - 1 / alpha))).subs(alpha, 1 + t))
        and _is_zero((sp.diff(log_delta, alpha, 2) - (2 * rho + 1 / (alpha * (alpha - 1)))).subs(alpha, 1 + t)),
    )
    eps_alpha = alpha * rho + (log_inv + (alpha - 1) * sp.log(1 - 1 / alpha) - sp.log(alpha)) / (alpha - 1)
    record.step(
        "solving δ_CKS(α) = e^-L for ε gives ε(α) = αρ + (L + (α-1) log(1-1/α) - log α)/(α-1), and "
        "(α-1)² ε'(α) = ρ(α-1)² + log α - L (increasing in α: one minimum)",
        _is_zero(sp.expand_log(log_delta.subs(eps, eps_alpha).subs(alpha, 1 + t) + log_inv, force=True))
        and _is_zero(
            ((alpha - 1) ** 2 * sp.diff(eps_alpha, alpha) - (rho * (alpha - 1) ** 2 + sp.log(alpha) - log_inv)).subs(
                alpha, 1 + t
            )
        ),
    )
    return record


if __name__ == "__main__":
    print_record(prove())
