"""TDA Section 2 (Preliminaries): the data model (Definitions 1–4, Observation 1), the marginal count, zCDP."""

from __future__ import annotations

from ...core.claims import Budget, Claim, Method, Outcome, Status
from ..checks import calibration as zcdp_checks

PAPER = "TDA"


def check_definition_1(budget: Budget) -> Outcome:
    from reference.tda.data import default_dataset, prefix_counts
    from reference.tda.mechanism import inftda_numeric

    from ..checks.mechanism import check_release_consistency

    hierarchy, records = default_dataset(size=budget.pick(1000, 10000), seed=6)
    tree = prefix_counts(records, hierarchy)
    rng = __import__("numpy").random.default_rng(7)
    results = [
        check_release_consistency(inftda_numeric(tree, hierarchy, rho, rng), len(records)) for rho in (0.1, 1.0, 10.0)
    ]
    holds = all(r.holds for r in results)
    return Outcome(
        Status.VERIFIED if holds else Status.REFUTED,
        "InfTDA's release is a non-negative hierarchical tree with root n (ρ = 0.1, 1, 10 on the default dataset): "
        + " ".join(r.summary() for r in results),
    )


def check_definitions_2_4(budget: Budget) -> Outcome:
    import numpy as np

    from reference.tda.data import default_dataset, prefix_counts

    hierarchy, records = default_dataset(size=budget.pick(500, 3000), seed=8)
    tree = prefix_counts(records, hierarchy)
    checked = 0
    for level in range(1, hierarchy.depth + 1):
        for prefix, count in tree.level(level).items():
            # Definition 4: the k-hierarchical query is the marginal on S = [1..k] with value y = prefix, i.e. the
            # number of records whose first k attributes equal y (Definitions 2–3), counted here by brute force
            matches = int(np.sum(np.all(records[:, :level] == np.array(prefix), axis=1)))
            checked += 1
            if matches != count:
                return Outcome(Status.REFUTED, f"prefix {prefix}: tree {count}, brute force {matches}")
    return Outcome(
        Status.VERIFIED,
        f"every stored k-hierarchical count ({checked} prefixes, n = {len(records)}, d = {hierarchy.depth}) equals the "
        "marginal counting query of Definitions 2–3 on S = [1..k], counted by brute force",
    )


def check_observation_1(budget: Budget) -> Outcome:
    from reference.tda.data import default_dataset, prefix_counts

    hierarchy, records = default_dataset(size=budget.pick(1000, 20000), seed=5)
    tree = prefix_counts(records, hierarchy)
    holds = tree.is_consistent() and tree.total == len(records)
    return Outcome(
        Status.VERIFIED if holds else Status.REFUTED,
        f"the prefix-count tree of {len(records)} records (d = {hierarchy.depth}) is hierarchically consistent: each "
        f"k-hierarchical count equals the sum of its (k + 1)-children, and the root is n: {holds}",
    )


def check_marginal_count(budget: Budget) -> Outcome:
    """§2 after Definition 3: 'There are 2^d possible k-way marginal queries (the power set of [d])'."""
    import itertools
    import math

    rows = []
    mismatch = ""
    for sizes in budget.pick(((3, 2), (2, 2, 2)), ((3, 2), (2, 2, 2), (2, 3, 4), (4, 2, 3, 2))):
        depth = len(sizes)
        subsets = [s for k in range(depth + 1) for s in itertools.combinations(range(depth), k)]
        queries = {k: sum(math.prod(sizes[i] for i in s) for s in subsets if len(s) == k) for k in range(depth + 1)}
        total_queries = sum(queries.values())
        assert total_queries == math.prod(1 + size for size in sizes)  # Σ_S Π_(i∈S)|X_i| = Π(1 + |X_i|)
        power_set = len(subsets) == 2**depth
        fixed = {k: math.comb(depth, k) for k in range(1, depth + 1)}
        rows.append(
            f"|X| = {list(sizes)}: 2^d = {2**depth}; subsets S of every order: {len(subsets)}; of order k: "
            f"{fixed}; queries (S, y) of order k (Definition 3): { {k: v for k, v in queries.items() if k} }; all "
            f"orders: {total_queries} = Π(1 + |X_i|)"
        )
        if power_set and not mismatch and any(v != 2**depth for k, v in queries.items() if k):
            mismatch = rows[-1]
    return Outcome(
        Status.REFUTED if mismatch else Status.VERIFIED,
        "Counted by enumeration: " + "; ".join(rows) + ". Only the attribute subsets S of all orders together number "
        "2^d; Definition 3's k-way marginal queries (pairs (S, y)) number Σ_(|S|=k) Π_(i∈S)|X_i|, and the k-way "
        "marginals (subsets S with |S| = k) C(d, k).",
        counterexample=mismatch or None,
        corrected="there are 2^d marginals (subsets S ⊆ [d], all orders k together; C(d, k) of order k) and "
        "Π_i(1 + |X_i|) marginal queries (S, y) of all orders",
    )


def check_conversions(budget: Budget) -> Outcome:
    tight = zcdp_checks.tight_conversion_never_worse(budget.pick(2, 10))
    exact = zcdp_checks.discrete_gaussian_below_zcdp(budget.pick(2, 5))
    holds = tight.holds and exact.holds
    return Outcome(Status.VERIFIED if holds else Status.REFUTED, f"{tight.summary()} {exact.summary()}")


def claims() -> list[Claim]:
    """All entries of Section 2."""
    return [
        Claim(
            PAPER,
            "Definition 1",
            "a non-negative hierarchical tree: non-negative integer attributes, each internal node the sum of its "
            "children (InfTDA's output is one)",
            Method.EXHAUSTIVE,
            check_definition_1,
            implements=("reference.tda.data.Hierarchy", "reference.tda.data.read_csv"),
        ),
        Claim(
            PAPER,
            "Definitions 2–4",
            "counting queries, k-way marginal queries, and k-hierarchical queries (marginals on the first k attributes)",
            Method.EXHAUSTIVE,
            check_definitions_2_4,
            implements=("reference.tda.data.PrefixTree", "reference.tda.data.prefix_counts"),
        ),
        Claim(
            PAPER,
            "Observation 1",
            "hierarchical consistency: each k-hierarchical count is the sum of the (k + 1)-hierarchical counts below it",
            Method.EXHAUSTIVE,
            check_observation_1,
            implements=("reference.tda.data.prefix_counts",),
        ),
        Claim(
            PAPER,
            "Section 2 (number of marginal queries)",
            "there are 2^d possible k-way marginal queries, the cardinality of the power set of [d]",
            Method.EXHAUSTIVE,
            check_marginal_count,
            implements=("reference.tda.data.Hierarchy",),
        ),
        Claim(
            PAPER,
            "zCDP to (ε, δ)",
            "ρ-zCDP gives (ρ + 2 sqrt(ρ log(1/δ)), δ)-DP; the tight conversion and the exact discrete-Gaussian profile "
            "are never worse",
            Method.CERTIFIED,
            check_conversions,
            implements=("reference.privacy.zcdp.epsilon_from_rho_simple", "reference.privacy.zcdp.epsilon_from_rho_tight"),
        ),
    ]
