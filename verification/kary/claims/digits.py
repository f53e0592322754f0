"""KARY digit representations: Definitions 3.1, 3.2 and 3.8 (odd arity) and C.1 (even arity)."""

from __future__ import annotations

from ...core.claims import Budget, Claim, CoqTheorem, Method, Outcome, Status
from .common import PAPER


def _digit_definition(kind: str, budget: Budget) -> Outcome:
    """Exhaustive: every value in the stated range has exactly one digit vector of the stated digit set, found by
    enumerating ALL digit vectors (independent of the division-based digit functions), and the functions agree."""
    from itertools import product

    from reference.kary import digits as kary_digits

    cases = 0
    arities = {"standard": (2, 3, 4, 5), "offset": (3, 5, 7), "even": (2, 4, 6)}[kind]
    for arity in arities:
        for width in range(1, budget.pick(4, 5) + 1):
            if arity**width > 20000:
                continue
            if kind == "standard":
                digit_set = range(0, arity)
                low, high = 0, arity**width - 1
                function = kary_digits.digits
            elif kind == "offset":
                c = (arity - 1) // 2
                digit_set = range(-c, c + 1)
                low, high = -(arity**width - 1) // 2, (arity**width - 1) // 2
                function = kary_digits.offset_digits
            else:
                c = arity // 2
                digit_set = range(-c + 1, c + 1)
                low = -(c - 1) * (arity**width - 1) // (arity - 1)
                high = arity * (arity**width - 1) // (2 * (arity - 1))
                function = kary_digits.even_offset_digits
            seen: dict[int, tuple[int, ...]] = {}
            for vector in product(digit_set, repeat=width):
                value = sum(d * arity**i for i, d in enumerate(vector))
                if value in seen:
                    return Outcome(
                        Status.REFUTED,
                        f"arity {arity}, width {width}: {value} has two representations",
                        counterexample=f"arity {arity}, width {width}, value {value}",
                    )
                seen[value] = tuple(vector)
            if set(seen) != set(range(low, high + 1)):
                return Outcome(
                    Status.REFUTED,
                    f"arity {arity}, width {width}: represented values are not [{low}, {high}]",
                    counterexample=f"arity {arity}, width {width}",
                )
            for value, vector in seen.items():
                cases += 1
                if function(value, arity, width) != vector:
                    return Outcome(Status.REFUTED, f"the digit function disagrees at arity {arity}, value {value}")
    return Outcome(
        Status.VERIFIED,
        f"enumerating every digit vector ({cases} values, arities {list(arities)}, widths up to "
        f"{budget.pick(4, 5)}): each value of the stated range has exactly one representation, no other value has "
        "one, and reference.kary.digits returns it",
    )


def check_definition_3_1(budget: Budget) -> Outcome:
    from reference.kary import tree as kary_tree

    cases = 0
    for arity in (2, 3, 4, 5):
        for height in range(1, budget.pick(4, 6) + 1):
            if arity**height > 5000:
                continue
            leaves = arity**height
            for level in range(1, height + 2):
                width = arity ** (level - 1)
                intervals = [kary_tree.vertex_interval((level, index), arity) for index in range(leaves // width)]
                # each level partitions [1, k^h] into consecutive blocks of k^(ℓ−1) leaves
                expected = [(1 + i * width, (i + 1) * width) for i in range(leaves // width)]
                cases += 1
                if intervals != expected:
                    return Outcome(Status.REFUTED, f"arity {arity}, level {level}: {intervals[:3]}…")
                if level > 1:  # every vertex is the disjoint union of its k children one level down
                    for index, (low, high) in enumerate(intervals):
                        children = [
                            kary_tree.vertex_interval((level - 1, index * arity + c), arity) for c in range(arity)
                        ]
                        if children[0][0] != low or children[-1][1] != high:
                            return Outcome(
                                Status.REFUTED, f"arity {arity}, vertex ({level}, {index}): children {children}"
                            )
    return Outcome(
        Status.VERIFIED,
        f"the k-ary tree's vertices, as computed (reference.kary.tree.vertex_interval), partition every level "
        f"into blocks of k^(ℓ−1) leaves and each vertex is the union of its k children: {cases} levels checked "
        "(arities 2..5)",
    )


def claims() -> list[Claim]:
    """The entries of this part of KARY, in the paper's order."""
    M = Method
    c = Claim
    return [
        c(
            PAPER,
            "Definition 3.1",
            "the k-ary tree 𝒯_(k,h): k^h leaves, every vertex the interval of leaves below it, k children per vertex",
            M.EXHAUSTIVE,
            check_definition_3_1,
            implements=("reference.kary.digits.digits", "reference.kary.digits.representation"),
        ),
        c(
            PAPER,
            "Definition 3.2",
            "every t in [0, k^w − 1] has a unique w-digit base-k representation with digits in {0, …, k − 1}",
            M.EXHAUSTIVE,
            lambda b: _digit_definition("standard", b),
            implements=("reference.kary.digits.digits",),
            coq=(
                CoqTheorem(
                    "KaryDigits.v",
                    "standard_digits",
                    "for every arity k >= 2, width w and integer t: 0 <= t <= k^w − 1 iff t has exactly one w-digit "
                    "vector with digits in {0, …, k − 1} (t = 0 included)",
                    whole=True,
                ),
            ),
        ),
        c(
            PAPER,
            "Definition 3.8",
            "odd k: every t in [−(k^w − 1)/2, (k^w − 1)/2] has a unique w-digit representation with digits in "
            "{−(k − 1)/2, …, (k − 1)/2}",
            M.EXHAUSTIVE,
            lambda b: _digit_definition("offset", b),
            implements=("reference.kary.digits.offset_digits",),
            coq=(
                CoqTheorem(
                    "KaryDigits.v",
                    "odd_offset_digits",
                    "for every odd arity k >= 3, width w and integer t: −(k^w − 1) <= 2t <= k^w − 1 iff t has exactly "
                    "one w-digit vector with digits in {−(k − 1)/2, …, (k − 1)/2} (zero and negative t included)",
                    whole=True,
                ),
            ),
        ),
        c(
            PAPER,
            "Definition C.1",
            "even k: offset representation with digits in {−k/2 + 1, …, k/2}",
            M.EXHAUSTIVE,
            lambda b: _digit_definition("even", b),
            implements=("reference.kary.digits.even_offset_digits",),
            coq=(
                CoqTheorem(
                    "KaryDigits.v",
                    "even_offset_digits",
                    "for every even arity k >= 2, width w and integer t: −(k − 2)(k^w − 1) <= 2(k − 1)t <= k(k^w − 1) "
                    "iff t has exactly one w-digit vector with digits in {−k/2 + 1, …, k/2}",
                    whole=True,
                ),
            ),
        ),
    ]
