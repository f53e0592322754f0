"""The Coq theorems behind the library's own audits rather than a statement of the three papers.

They are compiled and checked with the registry's theorems (``verification/coq.py``), and the report lists them
with their verdicts (``verification/audits.py``).
"""

from __future__ import annotations

from .core.claims import CoqTheorem

#: Theorems that back the library's own audits rather than a statement of the three papers, so no registry entry
#: names them: the linear-noise audit's discrete Laplace verdicts (the papers make no claim about integer noise),
#: and the discrete Gaussian's privacy, which TDA cites (CKS 2020 Theorem 14) rather than states — its real-order
#: part is proved conditional on a named premise, so it cannot lift the TDA entry that cites it.
AUDIT_THEOREMS = (
    CoqTheorem(
        "DiscreteLaplacePrivacy.v", "workload_dp_probability",
        "the release W x + B z, z i.i.d. discrete Laplace of scale b on Z^n, with add/remove neighbours x' = x ± e_j "
        "and W e_j = B u_j for integer vectors u_j, is ε-DP with ε = max_j ‖u_j‖₁/b: "
        "P[y(x) ∈ S] <= exp(ε) P[y(x') ∈ S] for every set S of outputs (the audit's ε for integer noise)",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteLaplacePrivacy.v", "discrete_laplace_dp_probability",
        "the same for any neighbouring relation whose shifts a(x') − a(x) are B u with u integer and ‖u‖₁ <= Δ: ε = Δ/b",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteLaplacePrivacy.v", "lattice_leak_probability",
        "a shift a(x') − a(x) that is B u for no integer u: the set {a(x) + B z : z integer} has probability 1 under x "
        "and 0 under x' (the audit's lattice-leak verdict)",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteLaplacePrivacy.v", "lattice_leak_not_dp",
        "with such a shift no ε satisfies P[y(x) ∈ S] <= exp(ε) P[y(x') ∈ S] for that S",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteLaplacePrivacy.v", "mass_finite",
        "the discrete Laplace weights Π_i exp(−|z_i|/b) have a finite sum over Z^n (at most (2/(1 − e^(−1/b)))^n), "
        "so the probabilities above are the weights' sums divided by it",
    ),
    # the discrete Gaussian: what the discrete-Gaussian ρ (reference.privacy.zcdp.rho_discrete_gaussian) and the
    # TDA privacy accounting (which cites CKS 2020 Theorem 14 for it) rest on
    CoqTheorem(
        "DiscreteGaussianPrivacy.v", "gmass_finite",
        "the discrete Gaussian weights exp(−‖z − m‖²/(2σ²)) have a finite sum Z(m) over Z^n for every real centre m "
        "(at most a constant times the discrete Laplace sum of scale σ), so N_Z(μ, σ²I) is a normalised law",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteGaussianPrivacy.v", "gmass_shift",
        "Z(m + u) = Z(m) for every integer vector u: all integer centres share one normalising constant",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteGaussianPrivacy.v", "privacy_loss",
        "the privacy loss of N_Z(μ, σ²I) against N_Z(ν, σ²I) at z (μ, ν integer vectors) is "
        "ln(P_μ(z)/P_ν(z)) = Σ_i (μ_i − ν_i)(2z_i − μ_i − ν_i)/(2σ²)",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteGaussianPrivacy.v", "renyi_integer_order",
        "for every integer order k > 1 the Rényi divergence of N_Z(μ, σ²I) from N_Z(ν, σ²I) is exactly "
        "k‖μ − ν‖²/(2σ²) (exact whenever kμ + (1 − k)ν is an integer vector; not for a general real order)",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteGaussianPrivacy.v", "renyi_real_order",
        "at every real order α ≠ 1: D_α = α‖μ − ν‖²/(2σ²) + ln(Z(m)/Z(0))/(α − 1) with m = αμ + (1 − α)ν, so the "
        "divergence is α‖μ − ν‖²/(2σ²) exactly only where Z(m) = Z(0) (integer centres), not for every α",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteGaussianPrivacy.v", "zcdp_integer_order",
        "f(x) + Z with Z ~ N_Z(0, σ²I), f integer-valued with ‖f(x) − f(x')‖² <= Δ² on neighbours: "
        "D_k(f(x) + Z ‖ f(x') + Z) <= ρk with ρ = Δ²/(2σ²) for every integer order k > 1 (unconditional)",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteGaussianPrivacy.v", "zcdp",
        "the same release is ρ-zCDP at every real order α > 1, CONDITIONAL on the premise theta_premise: "
        "Z(m) <= Z(0) for every real centre m (the theta-function inequality CKS 2020 prove by Poisson "
        "summation; a hypothesis of the theorem, not proved in Coq)",
        whole=False,
    ),
    CoqTheorem(
        "DiscreteGaussianPrivacy.v", "theta_lift",
        "the one-dimensional theta inequality Σ_(x∈Z) exp(−(x − c)²/(2σ²)) <= Σ_(x∈Z) exp(−x²/(2σ²)) for every real c "
        "gives Z(m) <= Z(0) for every real centre m in R^n (the mass on Z^(1+n) is the product of the masses)",
        whole=True,
    ),
    CoqTheorem(
        "DiscreteGaussianPrivacy.v", "zcdp_theta1",
        "f(x) + Z is ρ-zCDP (ρ = Δ²/(2σ²)) at every real order α > 1, CONDITIONAL on the premise theta_premise_1: "
        "the one-dimensional theta inequality above (CKS 2020 prove it by Poisson summation; a hypothesis of the "
        "theorem, not proved in Coq)",
        whole=False,
    ),
    CoqTheorem(
        "DiscreteGaussianPrivacy.v", "renyi_additive",
        "for an integer order k > 1 the divergence of the laws on Z^n is the sum of the coordinates' divergences",
        whole=True,
    ),
)
