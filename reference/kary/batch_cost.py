"""Cost before work for KARY's vectorised counters: the table of noise slots and the arity × height steps.

A batch counter allocates a table over the tree's noise indices and loops over the arity at every level; a
huge arity with a short stream would allocate about k/2 slots and loop k times for four outputs. These checks
refuse such parameters at once, naming the estimate, the limit and the alternative (the online counter).
"""

from __future__ import annotations

#: Largest table of noise slots (the tree's capacity, or k**h padded leaves) a batch counter allocates:
#: 10**8 float64 values are 0.8 GB. A huge arity with a short stream would otherwise allocate about k/2 slots.
MAX_NOISE_SLOTS = 10**8


def check_slots(slots: int, arity: int, steps: int) -> None:
    """Cost before work: refuse a noise table past MAX_NOISE_SLOTS, naming what makes it large.

    Args:
        slots: the number of noise slots the counter would allocate.
        arity: k, the tree's arity (named in the error).
        steps: T, the horizon (named in the error).
    """
    if slots > MAX_NOISE_SLOTS:
        raise ValueError(
            f"arity {arity} at horizon {steps} needs a table of {slots} noise slots (the tree's capacity), over the "
            f"limit of {MAX_NOISE_SLOTS}: use a smaller arity (or the OnlineCounter, which draws lazily)"
        )


#: The vectorised sums loop over the arity at every level (arity × height numpy steps) and hold a
#: (parents × arity) grid: past these bounds the batch would take minutes (arity 10**8 at T = 4).
MAX_ARITY_STEPS = 10**6


def check_batch_cost(arity: int, steps: int, height: int) -> None:
    """Cost before work for the vectorised counters: refuse arity × height past MAX_ARITY_STEPS.

    Args:
        arity: k, the tree's arity.
        steps: T, the horizon (named in the error).
        height: h, the tree's height for T.
    """
    if arity * height > MAX_ARITY_STEPS:
        raise ValueError(
            f"arity {arity} at height {height} (horizon {steps}) needs {arity * height} vectorised steps, over the "
            f"limit of {MAX_ARITY_STEPS}: use a smaller arity (or the OnlineCounter, which steps one bit at a time)"
        )
