"""CIP Appendix E.5's range sampler draws every contiguous range with the same probability, for every n >= 1.

The scheme: with probability 2/(n + 1) a single cell, uniform among the n cells; otherwise the span of two
distinct cells, a uniform pair among n(n − 1)/2. There are n(n + 1)/2 ranges, so the scheme is uniform iff
both branches give each of their ranges probability 2/(n(n + 1)): two rational identities in the symbol n,
checked by sympy. The pair identity divides by n − 1, so it covers n >= 2; at n = 1 there is no pair and the
one range must come from the coin alone, which is a third step: P(heads) = 1 there.
"""

from __future__ import annotations

import sympy as sp

from ...core.proof import ProofRecord
from ...core.proof_links import mutation, proves

PAPER = "CIP"
STATEMENT = "flip a coin with P(heads) = 2/(n+1): heads a single cell, tails the span of two distinct cells — a uniform range"


@proves(PAPER, "Appendix E.5 sampling", mutations=(mutation("P(heads) = 1/(n + 1)", heads=1), mutation("P(heads) = 3/(n + 1)", heads=3)))
def prove(heads: int = 2) -> ProofRecord:
    """``heads``: the numerator of P(heads) = heads/(n + 1) (2 in the paper)."""
    record = ProofRecord(PAPER, "Appendix E.5 sampling", STATEMENT)
    n = sp.symbols("n", integer=True, positive=True)
    uniform = 1 / (n * (n + 1) / 2)
    single = sp.Integer(heads) / (n + 1) / n
    pair = (1 - sp.Integer(heads) / (n + 1)) / (n * (n - 1) / 2)
    record.step("P(single cell c) = 2/(n+1)·1/n equals 1/#ranges = 2/(n(n+1)) (sympy, symbolic in n)",
                sp.simplify(single - uniform) == 0)
    record.step("P(span of a pair) = (1 − 2/(n+1))·2/(n(n−1)) equals 2/(n(n+1)) for n >= 2 (sympy)",
                sp.simplify(pair - uniform) == 0)
    record.step("n = 1 (no pair to draw): P(heads) = 2/(1+1) = 1, the one range's probability 2/(1·2)",
                sp.Integer(heads) / 2 == 1)
    return record
