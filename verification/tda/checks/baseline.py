"""TDA Section 1's baseline: a noisy contingency table answers a k-way marginal query by summing noisy cells.

The sentence: adding Gaussian noise to each count of the contingency table, "the variance grows linearly with the
number of noisy counts required, leading to an absolute error of Õ(e^((d−k)/2)) for any marginal with |S| = k".
The number of cells summed for a query (S, y) is Π_(i ∉ S)|X_i|, counted here by enumerating the table; with
i.i.d. noise of variance σ² per cell the answer's variance is σ² times that count, so its standard deviation is
σ·sqrt(Π_(i ∉ S)|X_i|). That is e^((d−k)/2) only when every |X_i| = e; for binary attributes it is 2^((d−k)/2)
(within the printed bound), and for |X_i| = 3 it is 3^((d−k)/2), whose ratio to e^((d−k)/2), (3/e)^((d−k)/2),
grows without bound (3 > e, certified): the printed rate fails for any attribute with more than two values.
"""

from __future__ import annotations

import itertools
import math

from flint import arb

from reference.core.certified import CertifiedReal, working_precision

from ...core.claims import Budget, Outcome, Status


def cells_summed(sizes: tuple[int, ...], subset: tuple[int, ...], value: tuple[int, ...]) -> int:
    """How many cells of the contingency table over ``sizes`` a marginal query (S, y) adds up, by enumeration."""
    return sum(
        1 for cell in itertools.product(*(range(size) for size in sizes))
        if all(cell[attribute] == entry for attribute, entry in zip(subset, value, strict=True))
    )


def check_contingency_table_error(budget: Budget) -> Outcome:
    """The variance factor of every marginal query on small tables, and the growth of (3/e)^(d−k)."""
    shapes = budget.pick(((2, 2, 2), (3, 3, 3), (2, 3, 4)), ((2, 2, 2, 2), (3, 3, 3, 3), (2, 3, 4, 5)))
    for sizes in shapes:
        for order in range(len(sizes) + 1):
            for subset in itertools.combinations(range(len(sizes)), order):
                expected = math.prod(size for i, size in enumerate(sizes) if i not in subset)
                value = tuple(0 for _ in subset)
                if cells_summed(sizes, subset, value) != expected:
                    return Outcome(Status.ERROR, f"the cell count of {subset} on {sizes} is not Π_(i∉S)|X_i|")
    with working_precision(128):
        e_upper = CertifiedReal.from_arb(arb(1).exp()).upper
    if not e_upper < 3:
        return Outcome(Status.ERROR, "e < 3 was not certified")
    depth, order = 12, 2
    ternary_variance = 3 ** (depth - order)
    return Outcome(
        Status.REFUTED,
        f"counted on every query (S, y) of tables {list(shapes)}: the answer sums Π_(i∉S)|X_i| noisy cells, so its "
        "variance is σ²·Π_(i∉S)|X_i| and its standard deviation σ·sqrt(Π_(i∉S)|X_i|). With |X_i| = 3 for every i "
        f"this is 3^((d−k)/2) (at d = {depth}, k = {order}: variance factor {ternary_variance} against "
        f"e^(d−k) < {math.ceil(e_upper ** (depth - order))}), and 3^((d−k)/2)/e^((d−k)/2) = (3/e)^((d−k)/2) "
        "is unbounded since e < 3 (Arb): no polylogarithmic factor hides it. Binary attributes give 2^((d−k)/2), "
        "within the printed rate.",
        counterexample="every |X_i| = 3: the error of a k-way marginal is Θ(3^((d−k)/2)) (up to the log factor of "
        "the maximum over queries), not Õ(e^((d−k)/2))",
        corrected="Õ(sqrt(Π_(i∉S)|X_i|)) = Õ(max_i|X_i|^((d−k)/2)); e^((d−k)/2) only when every |X_i| <= e "
        "(binary attributes)",
    )
