"""The Coq discrete Gaussian theorems speak about the laws the library draws and the ρ it reports.

``DiscreteGaussianPrivacy.v`` proves, for N_Z(μ, σ²I) on Z^n with integer centres: the privacy loss
ln(P_μ(z)/P_ν(z)) = Σ_i (μ_i − ν_i)(2z_i − μ_i − ν_i)/(2σ²) ([privacy_loss]); the Rényi divergence of integer order
k > 1 is exactly k‖μ − ν‖²/(2σ²) ([renyi_integer_order]); hence ρ-zCDP with ρ = Δ²/(2σ²) at integer orders
([zcdp_integer_order], [rho]); and, for a real order, D_α = α‖μ − ν‖²/(2σ²) + ln(Z(m)/Z(0))/(α − 1) with
m = αμ + (1 − α)ν ([renyi_real_order]), so the real-order bound needs the premise Z(m) <= Z(0). Here, on small
integer examples:

- the privacy loss and the divergence are computed independently from the definition (normalised weights summed
  in mpmath at 60 digits over a window whose left-out tail is below 10^-80, each normaliser about its own
  centre), and Coq proves its formula equal, on the same vectors, to the integer numerator this computation
  found — a wrong numerator does not compile;
- Coq's ρ (Δ² = 2 per TDA level, σ² = d/ρ) equals :func:`reference.privacy.zcdp.rho_discrete_gaussian`;
- for a real order with a half-integer centre the divergence is strictly below α‖μ − ν‖²/(2σ²), by the amount
  ln(Z(m)/Z(0))/(α − 1) that the Coq identity names: "exactly α(μ − ν)²/(2σ²)" holds at integer centres only.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import pytest
from reference_verification.coq import Build, run_snippet

from reference.privacy.zcdp import rho_discrete_gaussian

HEADER = """From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint matrix.
From mathcomp.classical Require Import classical_sets.
From mathcomp.analysis Require Import reals ereal sequences exp.
From mathcomp Require Import ring.
From Reference Require Import DiscreteGaussianPrivacy.
Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.
(* an integer vector read from a list *)
Definition vec (n : nat) (s : seq int) : 'cV[int]_n := \\col_(i < n) nth 0 s i.
"""

DIGITS = 60
#: (σ², μ, ν, z): integer centres and a point, one and two coordinates.
LOSS_CASES = [
    (Fraction(3, 2), (1,), (0,), (4,)),
    (Fraction(1, 3), (2,), (-1,), (0,)),
    (Fraction(5), (1, -2), (0, 1), (3, 0)),
]
#: (σ², μ, ν, k): integer orders.
RENYI_CASES = [
    (Fraction(3, 2), (1,), (0,), 2),
    (Fraction(1, 2), (0,), (2,), 3),
    (Fraction(2), (1, -1), (0, 1), 2),
]


def _coq_int(value: int) -> str:
    return f"({value})%Z" if value < 0 else f"{value}%Z"


def _coq_vector(entries: tuple[int, ...]) -> str:
    return f"(vec {len(entries)} [:: " + "; ".join(_coq_int(v) for v in entries) + "])"


def _window(centre: int, sigma_squared: Fraction) -> range:
    """Integers within W of ``centre``, W²/(2σ²) > 190: every left-out weight is below e^-190 < 10^-82 and the
    tail (a geometric sum beyond W) below 10^-80 of the peak."""
    half = math.isqrt(int(380 * sigma_squared) + 1) + 2
    return range(centre - half, centre + half + 1)


def _weight(point: tuple[int, ...], centre: tuple[mpmath.mpf | int, ...], sigma_squared: Fraction) -> mpmath.mpf:
    distance = sum((mpmath.mpf(x) - c) ** 2 for x, c in zip(point, centre))
    return mpmath.exp(-distance / (2 * mpmath.mpf(sigma_squared.numerator) / sigma_squared.denominator))


def _points(centres: list[tuple[int, ...]], sigma_squared: Fraction) -> list[tuple[int, ...]]:
    """Every integer point within the window of at least one centre in each coordinate (the union)."""
    axes = []
    for axis in range(len(centres[0])):
        low = min(_window(c[axis], sigma_squared).start for c in centres)
        high = max(_window(c[axis], sigma_squared).stop for c in centres)
        axes.append(range(low, high))
    return list(itertools.product(*axes))


def _law(centre: tuple[int, ...], sigma_squared: Fraction, points: list[tuple[int, ...]]) -> dict[tuple[int, ...], mpmath.mpf]:
    """N_Z(centre, σ²I) on ``points``, normalised by its own sum over the same points."""
    weights = {p: _weight(p, centre, sigma_squared) for p in points}
    total = mpmath.fsum(weights.values())
    return {p: w / total for p, w in weights.items()}


def _divergence(order: mpmath.mpf, mu: tuple[int, ...], nu: tuple[int, ...], sigma_squared: Fraction) -> mpmath.mpf:
    points = _points([mu, nu], sigma_squared)
    p, q = _law(mu, sigma_squared, points), _law(nu, sigma_squared, points)
    return mpmath.log(mpmath.fsum(p[x] ** order * q[x] ** (1 - order) for x in points)) / (order - 1)


def _numerator(value: mpmath.mpf, sigma_squared: Fraction) -> int:
    """The integer N with value = N/(2σ²), checked to 10^-40 (the computation's error is below 10^-70)."""
    scaled = value * 2 * mpmath.mpf(sigma_squared.numerator) / sigma_squared.denominator
    numerator = int(mpmath.nint(scaled))
    assert abs(scaled - numerator) < mpmath.mpf(10) ** -40, (value, sigma_squared)
    return numerator


def test_the_privacy_loss_and_the_divergence_are_coqs_formulas(coq_build: Build) -> None:
    lemmas, wrong = [], []
    with mpmath.workdps(DIGITS):
        for index, (sigma_squared, mu, nu, point) in enumerate(LOSS_CASES):
            points = _points([mu, nu], sigma_squared)
            p, q = _law(mu, sigma_squared, points), _law(nu, sigma_squared, points)
            numerator = _numerator(mpmath.log(p[point] / q[point]), sigma_squared)
            statement = (f"Lemma loss_{index} (R : realType) (sigma : R) : 0 < sigma ->\n"
                         f"  ln (gprob sigma {_coq_vector(mu)} {_coq_vector(point)} / "
                         f"gprob sigma {_coq_vector(nu)} {_coq_vector(point)}) = {{}}%:~R / (2 * sigma ^+ 2).\n"
                         "Proof. by move=> s0; rewrite privacy_loss// /loss_numerator !big_ord_recr big_ord0 !mxE. Qed.\n")
            lemmas.append(statement.format(_coq_int(numerator)))
            wrong.append(statement.format(_coq_int(numerator + 1)))
        for index, (sigma_squared, mu, nu, order) in enumerate(RENYI_CASES):
            numerator = _numerator(_divergence(mpmath.mpf(order), mu, nu, sigma_squared), sigma_squared)
            statement = (f"Lemma renyi_{index} (R : realType) (sigma : R) : 0 < sigma ->\n"
                         f"  renyi sigma {order}%:~R {_coq_vector(mu)} {_coq_vector(nu)} = {{}}%:~R / (2 * sigma ^+ 2).\n"
                         "Proof. by move=> s0; rewrite renyi_integer_order// -intrM /sqnorm !big_ord_recr big_ord0 !mxE. "
                         "Qed.\n")
            lemmas.append(statement.format(_coq_int(numerator)))
            wrong.append(statement.format(_coq_int(2 * numerator)))
    run_snippet(coq_build, HEADER + "".join(lemmas), "DiscreteGaussianFormulas")
    # a wrong numerator is caught by Coq: one wrong lemma of each kind
    for name, text in (("DiscreteGaussianWrongLoss", wrong[0]), ("DiscreteGaussianWrongRenyi", wrong[len(LOSS_CASES)])):
        with pytest.raises(RuntimeError, match=name):
            run_snippet(coq_build, HEADER + text, name)


@pytest.mark.parametrize("levels", [1, 3, 8])
def test_coqs_rho_is_the_librarys_rho_at_the_tda_calibration(coq_build: Build, levels: int) -> None:
    """TDA: Δ² = 2 per level (one record substituted moves two counts by one), σ² = d/ρ at total ρ = 1/2."""
    sigma_squared = Fraction(levels) / Fraction(1, 2)
    rho = rho_discrete_gaussian(sigma_squared=sigma_squared, sensitivity_squared=2)
    assert rho == Fraction(2) / (2 * sigma_squared)  # derived by hand: Δ²/(2σ²)
    snippet = HEADER + f"""
Lemma tda_rho (R : realType) (sigma Delta : R) :
  sigma ^+ 2 = {sigma_squared.numerator}%:R / {sigma_squared.denominator}%:R -> Delta ^+ 2 = 2%:R ->
  rho sigma Delta = {rho.numerator}%:R / {rho.denominator}%:R.
Proof. by move=> s2 d2; rewrite /rho s2 d2; field. Qed.
(* the integer-order zCDP of a level release at that rho: every neighbour pair moves the counts by <= 2 in l2^2 *)
Lemma tda_level (R : realType) (sigma Delta : R) (n : nat) (Data : Type) (f : Data -> 'cV[int]_n)
    (adj : Data -> Data -> Prop) :
  0 < sigma -> sigma ^+ 2 = {sigma_squared.numerator}%:R / {sigma_squared.denominator}%:R -> Delta ^+ 2 = 2%:R ->
  (forall x x', adj x x' -> (sqnorm (f x - f x'))%:~R <= 2%:R :> R) ->
  forall x x' (k : int), adj x x' -> 1 < k ->
  renyi sigma k%:~R (f x) (f x') <= {rho.numerator}%:R / {rho.denominator}%:R * k%:~R.
Proof.
move=> s0 s2 d2 sens x x' k xx' k1; rewrite -(@tda_rho R sigma Delta s2 d2).
apply: (@zcdp_integer_order R n sigma s0 Data f adj Delta _ x x' k xx' k1) => y y' yy'.
by rewrite d2; exact: sens.
Qed.
"""
    run_snippet(coq_build, snippet, "DiscreteGaussianTdaRho")


def test_the_exact_identity_fails_off_the_integer_centres() -> None:
    """α = 3/2, μ − ν = 1: the centre m = ν + 3/2 is a half-integer, and D_α = α/(2σ²) + ln(Z(1/2)/Z(0))/(α − 1)
    (the Coq identity [renyi_real_order]) is strictly below α/(2σ²) — the printed "exactly" is false here."""
    # a small σ² makes the gap large: Z(1/2)/Z(0) = θ-ratio ≈ 1 − 4e^(−2π²σ²), about 0.7 at σ² = 1/8
    sigma_squared, mu, nu = Fraction(1, 8), (1,), (0,)
    with mpmath.workdps(DIGITS):
        order = mpmath.mpf(3) / 2
        found = _divergence(order, mu, nu, sigma_squared)
        bound = order / (2 * mpmath.mpf(sigma_squared.numerator) / sigma_squared.denominator)
        points = _points([(0,)], sigma_squared)
        theta = [mpmath.fsum(_weight(x, (mpmath.mpf(centre),), sigma_squared) for x in points)
                 for centre in (mpmath.mpf(1) / 2 + 1, 0)]  # m = αμ + (1 − α)ν = 3/2
        predicted = bound + mpmath.log(theta[0] / theta[1]) / (order - 1)
        assert abs(found - predicted) < mpmath.mpf(10) ** -40
        assert bound - found > mpmath.mpf(10) ** -2, (found, bound)  # strictly below, far beyond the error
        # and at the integer order 2 (centre 2μ − ν = 2, an integer) the identity is exact
        exact = _divergence(mpmath.mpf(2), mu, nu, sigma_squared)
        assert abs(exact - 2 * bound / order) < mpmath.mpf(10) ** -40
