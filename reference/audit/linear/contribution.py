"""Contribution models: the largest sensitivity over a participation scheme's patterns when each participation
contributes a count, a signed value or a vector.

A user touching the pattern S of inputs changes the input by ``V = Σ_{i∈S} e_i c_iᵀ`` (one row ``c_i`` per input
of S; one column for scalar inputs).

**Gaussian kinds.** With ``Q = Wᵀ(B D Bᵀ)⁺W`` (positive semi-definite) the squared Mahalanobis sensitivity of V is
``‖(B D Bᵀ)^{+½} W V‖_F² = Σ_{i,j∈S} Q_ij ⟨c_i, c_j⟩`` (one independent Gaussian release per column of V). It is
convex in V, so its maximum over a product of convex sets sits at extreme points:

* ``counts`` (c_i ∈ [0, 1]): the vertices are 0/1, and the families are closed under subsets, so the maximum is
  ``max_S 1_Sᵀ Q 1_S`` (:func:`reference.audit.linear.pattern_maxima.max_quadratic`);
* ``signed`` (c_i ∈ [-1, 1]): ``max_S max_{s∈{±1}^S} sᵀ Q_S s``;
* ``vector`` (‖c_i‖₂ <= 1, any dimension): the Gram matrix G of the c_i is any positive semi-definite matrix
  with diagonal <= 1 (a dimension of |S| realises each), so the maximum is ``max_S SDP(S)`` with
  ``SDP(S) = max{⟨Q_S, G⟩ : G ⪰ 0, G_ii <= 1}``.

Always ``signed <= vector <= Σ_{i,j∈S} |Q_ij|`` (|G_ij| <= 1). When signs s make ``s_i s_j Q_ij >= 0`` for every pair
that can share a pattern (the Gram matrix is *balanced*), ``c_i = s_i e`` attains that bound: signed and vector
both equal the counts maximum of |Q|. Otherwise signed is enumerated over patterns × signs, and each pattern's
SDP is bracketed: below by the exact value at rational vectors scaled into the ball (from a float
block-coordinate ascent), above by weak duality — for y with ``Diag(y) − Q_S ⪰ 0`` (checked exactly by an LDLᵀ
in rationals), ``⟨Q_S, G⟩ <= Σ y_i G_ii <= Σ y_i``. The SDP value is in general irrational, so the vector maximum
is then a certified bracket, named as such.

**Laplace kinds** (``‖M V‖₁``, M the strategy or the integer draw shifts): counts and signed as above with the
ℓ1 norm (convex); a vector model has no ℓ1 meaning here and is refused.

A scheme without a named model is accepted only where the models agree (no negative Gram entry between inputs
that can share a pattern; for ℓ1, every row of M of one sign); otherwise it is refused, naming the choice.

The cost limits are fields of :class:`~reference.audit.linear.size_limits.SizeLimits` (``limits=``): the
enumeration over patterns × signs (``enumeration_work``), the patterns and pattern size whose SDP is bracketed
(``sdp_patterns``, ``sdp_size``) and the patterns whose signs are enumerated for a lower bound
(``sign_enumeration``); a bracket left by one of them names it and its flag.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Sequence
from fractions import Fraction

from reference.audit.linear import pattern_maxima, pattern_walk
from reference.audit.linear.participation import Contribution, Participation, any_records
from reference.audit.linear.pattern_walk import PatternMaximum
from reference.audit.linear.semidefinite import sdp_bracket
from reference.audit.linear.size_limits import DEFAULT_LIMITS, SizeLimits


def unnamed_model_message(where: str) -> str:
    """The refusal of a scheme without a named contribution model where the models differ, naming the three models.


    Args:
        where: what makes the models differ, as a clause (e.g. "the workload's Gram matrix has a negative entry ...").
    """
    return (f"participation: {where}, so counts, signed and vector contributions give different sensitivities; "
            "name the contribution model: 'counts' (each participation adds a value in [0, 1]: counting, "
            "histograms), 'signed' (a value in [-1, 1]) or 'vector' (a vector of l2 norm <= 1: DP-FTRL, "
            "DP-SGD with matrix factorization)")


# ----------------------------------------------------------------------------------------------- Gaussian kinds


def max_pattern_quadratic(scheme: Participation, quadratic: Sequence[Sequence[int]],
                          denominator: int, *, limits: SizeLimits = DEFAULT_LIMITS) -> PatternMaximum:
    """max over the patterns and the contribution model of ``Σ Q_ij ⟨c_i, c_j⟩``, Q = ``quadratic`` /
    ``denominator`` (integers, symmetric, positive semi-definite).

    Args:
        scheme: the participation scheme; its ``contribution`` names the model (None: accepted only where the models
            agree).
        quadratic: the numerators of Q = Wᵀ(B D Bᵀ)⁺W (inputs × inputs), integer rows.
        denominator: Q's common denominator, a positive integer.
        limits: the cost limits applied (``enumeration_work``, ``bound_work``, ``vector_bound_work``,
            ``improve_work``, ``sdp_patterns``, ``sdp_size``, ``sign_enumeration``); default
            :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.

    Raises:
        ValueError: the scheme names no model and Q has a negative entry between inputs that may share a pattern,
            or a size over its work limit.
    """
    model = scheme.contribution
    if _no_shared_entry(scheme, quadratic):
        # every pair that can share a pattern has Q_ij = 0 (a banded strategy, band <= separation): the value is
        # Σ_{i∈S} Q_ii |c_i|² whatever the model, a linear maximum
        value, pattern = pattern_maxima.best_linear(scheme, [row[i] for i, row in enumerate(quadratic)])
        exact = Fraction(value, denominator)
        return PatternMaximum(exact, exact, pattern, "no Gram entry between inputs that share a pattern (a banded "
                              "strategy within the separation): the sum of the diagonal, dynamic programming; "
                              "counts, signed and vector contributions agree", scheme.count(len(quadratic)),
                              (1,) * len(pattern))
    negative = _negative_shared_entry(scheme, quadratic)
    if model is None and negative is not None:
        i, j = negative
        raise ValueError(unnamed_model_message(f"the workload's Gram matrix has a negative entry (Q[{i}][{j}] < 0) "
                                               "between inputs one user may share"))
    if model in (None, "counts") or negative is None:
        found = pattern_maxima.max_quadratic(scheme, quadratic, denominator, limits=limits)
        if negative is None and model != "counts":
            return _with_method(found, "no negative Gram entry between inputs that share a pattern, so counts, "
                                "signed and vector contributions agree; " + found.method)
        return found
    signs = _balancing_signs(scheme, len(quadratic), lambda i, j: quadratic[i][j])
    absolute = [[abs(entry) for entry in row] for row in quadratic]
    if signs is not None:
        found = pattern_maxima.max_quadratic(scheme, absolute, denominator, limits=limits)
        return PatternMaximum(found.lower, found.upper, found.pattern,
                              f"signs make every shared Gram entry non-negative (a balanced Gram matrix), so "
                              f"signed and vector contributions equal the counts maximum of |Q|; {found.method}",
                              found.patterns, tuple(signs[i] for i in found.pattern))
    signed = _max_signed_quadratic(scheme, quadratic, absolute, denominator, limits)
    if model == "signed":
        return signed
    return _max_vector_quadratic(scheme, quadratic, absolute, denominator, signed, limits)


def _with_method(found: PatternMaximum, method: str) -> PatternMaximum:
    """A counts maximum that is also the signed one: the signs are all +1."""
    return PatternMaximum(found.lower, found.upper, found.pattern, method, found.patterns, (1,) * len(found.pattern))


def _no_shared_entry(scheme: Participation, quadratic: Sequence[Sequence[int]]) -> bool:
    """Is Q_ij = 0 for every pair i != j that may share a pattern? (Checked on the entries at distance >= the
    separation for min-separation and fixed epochs, in C loops over row slices.)"""
    inputs = len(quadratic)
    if scheme.kind in ("min-separation", "fixed-epoch") and scheme.records > 1:
        gap = scheme.spacing
        if scheme.kind == "fixed-epoch":
            return not any(quadratic[i][j] for i in range(inputs)
                           for j in range(i + gap, min(inputs, i + gap * (scheme.records - 1) + 1), gap))
        return not any(any(row[i + gap:]) for i, row in enumerate(quadratic))
    if scheme.records == 1 and scheme.kind != "once-per-block":
        return True
    return not any(quadratic[i][j] for i in range(inputs) for j in range(i + 1, inputs) if scheme.may_share(i, j))


def _negative_shared_entry(scheme: Participation, quadratic: Sequence[Sequence[int]]) -> tuple[int, int] | None:
    for i, row in enumerate(quadratic):
        if min(row) >= 0:
            continue
        for j, entry in enumerate(row):
            if entry < 0 and scheme.may_share(i, j):
                return (i, j)
    return None


def _balancing_signs(scheme: Participation, inputs: int,
                     entry: Callable[[int, int], int]) -> list[int] | None:
    """Signs s with s_i s_j entry(i, j) >= 0 for every pair that may share a pattern (a 2-colouring by breadth
    first search), or None when there are none."""
    signs: list[int] = [0] * inputs
    for root in range(inputs):
        if signs[root]:
            continue
        signs[root] = 1
        queue = deque([root])
        while queue:
            i = queue.popleft()
            for j in range(inputs):
                if j == i or not entry(i, j) or not scheme.may_share(i, j):
                    continue
                wanted = signs[i] if entry(i, j) > 0 else -signs[i]
                if not signs[j]:
                    signs[j] = wanted
                    queue.append(j)
                elif signs[j] != wanted:
                    return None
    return signs


def _signed_work(scheme: Participation, inputs: int, per_element: int) -> int:
    """Elementary steps of an enumeration over patterns × signs (the first sign fixed: ±V give one value)."""
    return sum(count * 2 ** max(size - 1, 0) * max(size, 1) * per_element
               for size, count in enumerate(scheme.sizes(inputs)))


def _largest_patterns(scheme: Participation, inputs: int, quadratic: Sequence[Sequence[int]],
                      count: int) -> list[tuple[int, tuple[int, ...]]]:
    """The ``count`` largest ``(1_Sᵀ Q 1_S, S)`` over the patterns S (Q symmetric), largest first (as
    ``heapq.nlargest`` ranks them), by one enumeration keeping a heap of ``count``."""
    heap: list[tuple[int, tuple[int, ...]]] = []

    def visit(pattern: tuple[int, ...], state: int, value: int) -> None:
        if len(heap) < count:
            heapq.heappush(heap, (value, pattern))
        elif (value, pattern) > heap[0]:
            heapq.heapreplace(heap, (value, pattern))

    pattern_walk.walk_patterns(scheme, inputs, 0, pattern_walk.quadratic_extend(quadratic), visit)
    return sorted(heap, reverse=True)


#: The signs of an enumeration over patterns × signs: the first element's is fixed (±V give one value).
_FIRST_SIGN = (1,)
_SIGNS = (1, -1)


def _best_signs_quadratic(quadratic: Sequence[Sequence[int]], pattern: Sequence[int],
                          limits: SizeLimits) -> tuple[int, tuple[int, ...]]:
    """max over s ∈ {±1}^pattern of sᵀ Q s: every sign vector when the pattern has at most
    ``limits.sign_enumeration`` inputs, else single flips from all-ones (a lower bound)."""
    size = len(pattern)
    if size == 0:
        return 0, ()

    def value(signs: Sequence[int]) -> int:
        return sum(signs[a] * signs[b] * quadratic[i][j] for a, i in enumerate(pattern) for b, j in enumerate(pattern))

    if size <= limits.sign_enumeration:
        best: tuple[int, tuple[int, ...]] = (value((1,) * size), (1,) * size)
        for mask in range(1, 2 ** (size - 1)):
            signs = (1, *(-1 if mask >> bit & 1 else 1 for bit in range(size - 1)))
            current = value(signs)
            if current > best[0]:
                best = (current, signs)
        return best
    signs_list = [1] * size
    current = value(signs_list)
    improved = True
    while improved:
        improved = False
        for position in range(size):
            signs_list[position] = -signs_list[position]
            trial = value(signs_list)
            if trial > current:
                current, improved = trial, True
            else:
                signs_list[position] = -signs_list[position]
    return current, tuple(signs_list)


def _max_signed_quadratic(scheme: Participation, quadratic: Sequence[Sequence[int]],
                          absolute: Sequence[Sequence[int]], denominator: int, limits: SizeLimits) -> PatternMaximum:
    inputs = len(quadratic)
    patterns = scheme.count(inputs)
    work = _signed_work(scheme, inputs, 1)
    if work <= limits.enumeration_work:
        def extend(state: tuple[int, tuple[int, ...]], pattern: tuple[int, ...],
                   j: int) -> list[tuple[tuple[int, tuple[int, ...]], int]]:
            total, signs = state
            cross = sum([sign * quadratic[i][j] for i, sign in zip(pattern, signs)])
            extended = []
            for sign in _SIGNS if pattern else _FIRST_SIGN:
                value = total + quadratic[j][j] + 2 * sign * cross
                extended.append(((value, (*signs, sign)), value))
            return extended

        start: tuple[int, tuple[int, ...]] = (0, ())
        value, pattern, (_, signs) = pattern_walk.best_pattern(scheme, inputs, start, extend)
        exact = Fraction(value, denominator)
        return PatternMaximum(exact, exact, pattern, f"enumeration of all {patterns} patterns x signs", patterns,
                              signs)
    bound = pattern_maxima.max_quadratic(scheme, absolute, denominator, limits=limits)
    lower, signs = _best_signs_quadratic(quadratic, bound.pattern, limits)
    return PatternMaximum(Fraction(lower, denominator), bound.upper, bound.pattern,
                          "signed: upper bound sum |Q_ij| over the patterns (" + bound.method + "); lower bound "
                          f"at its maximiser with the best signs found{_sign_note(limits, len(bound.pattern))}"
                          f"{pattern_maxima.enumeration_note(limits, work, bound.upper * denominator <= lower)}", patterns,
                          signs)


def _sign_note(limits: SizeLimits, size: int) -> str:
    """The clause saying the signs of a pattern were searched by single flips, not enumerated (empty when they
    were enumerated)."""
    if size <= limits.sign_enumeration:
        return ""
    return f" (by single flips: a pattern of {limits.over('sign_enumeration', size, 'inputs')})"


# ------------------------------------------------------------------------------------------------ vector model


def _max_vector_quadratic(scheme: Participation, quadratic: Sequence[Sequence[int]],
                          absolute: Sequence[Sequence[int]], denominator: int,
                          signed: PatternMaximum, limits: SizeLimits) -> PatternMaximum:
    """The bracket of max_S SDP(S) (module docstring): signed <= vector <= Σ|Q_ij|, refined pattern by pattern,
    the largest Σ|Q_ij| first, while it can matter."""
    inputs = len(quadratic)
    patterns = scheme.count(inputs)
    lower, best_pattern = signed.lower * denominator, signed.pattern
    work = patterns * max(1, scheme.most_inputs(inputs))
    enumerable = work <= limits.enumeration_work

    def absolute_sum(pattern: tuple[int, ...]) -> int:
        return sum(absolute[i][j] for i in pattern for j in pattern)

    global_bound: Fraction | None = None  # an upper bound over the patterns not examined
    if enumerable:
        ranked = _largest_patterns(scheme, inputs, absolute, limits.sdp_patterns + 1)
        how = f"enumeration of the {patterns} patterns"
    else:
        bound = pattern_maxima.max_quadratic(scheme, absolute, denominator, limits=limits)
        global_bound = bound.upper * denominator
        ranked = [(absolute_sum(bound.pattern), bound.pattern)]  # its maximiser raises the floor
        how = ("sum |Q_ij| over the patterns (" + bound.method + "); the patterns are ranked only by an enumeration: "
               + limits.over("enumeration_work", work, "steps"))
    upper = Fraction(0) if global_bound is None else global_bound
    done: list[frozenset[int]] = []
    bracketed = 0
    stopped = ""  # the limit that ended the bracketing, when one did
    for position, (absolute_value, pattern) in enumerate(ranked):
        if absolute_value <= lower:
            break
        if position == limits.sdp_patterns or len(pattern) > limits.sdp_size:
            upper = max(upper, Fraction(absolute_value))  # every later pattern has at most this sum
            stopped = (f"; bracketing stopped at {limits.over('sdp_patterns', position + 1, 'patterns')}"
                       if position == limits.sdp_patterns else
                       f"; bracketing stopped at a pattern of {limits.over('sdp_size', len(pattern), 'inputs')}")
            break
        members = frozenset(pattern)
        if any(members <= earlier for earlier in done):
            continue  # SDP(S) <= SDP(S') for S ⊆ S' (a zero vector is allowed)
        done.append(members)
        block = [[quadratic[i][j] for j in pattern] for i in pattern]
        if _block_balanced(block):
            low = high = Fraction(absolute_value)  # signs attain Σ|Q_ij| on this pattern
        else:
            bracketed += 1
            low, high = sdp_bracket(block)
        if low > lower:
            lower, best_pattern = low, pattern
        upper = max(upper, min(high, Fraction(absolute_value)))
    upper = max(upper, lower)
    method = (f"vector contributions: the semidefinite bound max <Q_S, G> (G psd, diag <= 1) per pattern, "
              f"bracketed by exact primal vectors and an exact dual certificate on {bracketed} pattern(s) without "
              f"balancing signs (the balanced ones equal sum |Q_ij|); the rest bounded by sum |Q_ij| ({how}); signed "
              f"contributions give the floor{stopped if upper > lower else ''}")
    return PatternMaximum(lower / denominator, upper / denominator, best_pattern, method, patterns)


def _block_balanced(block: Sequence[Sequence[int]]) -> bool:
    """Do signs make every entry of the (whole) block non-negative?"""
    def entry(a: int, b: int) -> int:
        return block[a][b]

    return _balancing_signs(any_records(records=len(block)), len(block), entry) is not None


# ------------------------------------------------------------------------------------------------ Laplace kinds


def max_pattern_l1(scheme: Participation, columns: Sequence[Sequence[int]], denominator: int, *,
                   limits: SizeLimits = DEFAULT_LIMITS) -> PatternMaximum:
    """max over the patterns and the contribution model of ``‖M V‖₁``, M given by its integer ``columns`` /
    ``denominator`` (counts and signed; vectors are refused).

    Args:
        scheme: the participation scheme; its ``contribution`` names the model (``"vector"`` is refused).
        columns: the numerators of M's columns (M the strategy or the integer draw shifts), one per input, integer and
            all of one length.
        denominator: M's common denominator, a positive integer.
        limits: the cost limits applied (``enumeration_work``, ``improve_work``, ``sign_enumeration``); default
            :data:`~reference.audit.linear.size_limits.DEFAULT_LIMITS`.

    Raises:
        ValueError: a vector model, or no model named while a row of M has entries of both signs.
    """
    model: Contribution | None = scheme.contribution
    if model == "vector":
        raise ValueError("participation: contribution 'vector' (an l2 ball) is defined for gaussian noise; "
                         "laplace kinds take 'counts' or 'signed'")
    rows = len(columns[0]) if columns else 0
    one_sign = all(all(column[r] >= 0 for column in columns) or all(column[r] <= 0 for column in columns)
                   for r in range(rows))
    if model is None and not one_sign:
        raise ValueError(unnamed_model_message("a row of the strategy (or of the draw shifts) has entries of both "
                                               "signs"))
    if model in (None, "counts"):
        return pattern_maxima.max_l1(scheme, columns, denominator, limits=limits)
    if one_sign:  # ‖M_S s‖₁ <= Σ_{j∈S} ‖M_j‖₁ = ‖M_S 1‖₁: signed and counts agree
        found = pattern_maxima.max_l1(scheme, columns, denominator, limits=limits)
        return PatternMaximum(found.lower, found.upper, found.pattern, "every row of the map has one sign, so signed "
                              "and counts contributions agree; " + found.method, found.patterns,
                              (1,) * len(found.pattern))
    inputs = len(columns)
    patterns = scheme.count(inputs)
    norms = [sum(abs(entry) for entry in column) for column in columns]
    signs = _column_balancing_signs(columns)
    if signs is not None:
        value, pattern = pattern_maxima.best_linear(scheme, norms)
        exact = Fraction(value, denominator)
        return PatternMaximum(exact, exact, pattern, "signed: signs make every row of the map one-signed, so the l1 "
                              "norm is additive over the pattern (dynamic programming)", patterns,
                              tuple(signs[j] for j in pattern))
    work = _signed_work(scheme, inputs, rows)
    if work <= limits.enumeration_work:
        def extend(state: tuple[list[int], tuple[int, ...]], pattern: tuple[int, ...],
                   j: int) -> list[tuple[tuple[list[int], tuple[int, ...]], int]]:
            summed, signs = state
            extended = []
            for sign in _SIGNS if pattern else _FIRST_SIGN:
                new = [a + sign * b for a, b in zip(summed, columns[j])]
                extended.append(((new, (*signs, sign)), sum(map(abs, new))))
            return extended

        start: tuple[list[int], tuple[int, ...]] = ([0] * rows, ())
        value, pattern, (_, chosen) = pattern_walk.best_pattern(scheme, inputs, start, extend)
        exact = Fraction(value, denominator)
        return PatternMaximum(exact, exact, pattern, f"enumeration of all {patterns} patterns x signs", patterns,
                              chosen)
    upper, pattern = pattern_maxima.best_linear(scheme, norms)
    lower, chosen = _best_signs_l1(columns, pattern, rows, limits)
    return PatternMaximum(Fraction(lower, denominator), Fraction(upper, denominator), pattern,
                          "signed: triangle-inequality dynamic-programming bound; lower bound at its maximiser with "
                          f"the best signs found{_sign_note(limits, len(pattern))}"
                          f"{pattern_maxima.enumeration_note(limits, work, upper <= lower)}", patterns, chosen)


def _column_balancing_signs(columns: Sequence[Sequence[int]]) -> list[int] | None:
    """Signs s_j making every row of [s_j M_j] one-signed (then ‖M_S s‖₁ = Σ_{j∈S} ‖M_j‖₁), or None."""
    inputs = len(columns)
    rows = len(columns[0]) if columns else 0
    parent = list(range(inputs))
    parity = [0] * inputs  # sign of j relative to its root: 0 same, 1 flipped

    def find(j: int) -> tuple[int, int]:
        flip = 0
        while parent[j] != j:
            flip ^= parity[j]
            j = parent[j]
        return j, flip

    for r in range(rows):
        previous: tuple[int, int] | None = None  # (column, sign of its entry)
        for j in range(inputs):
            entry = columns[j][r]
            if not entry:
                continue
            sign = 1 if entry > 0 else 0
            if previous is not None:
                # s_j · entry and s_prev · entry_prev of one sign: parity(j) xor parity(prev) = sign xor sign_prev
                wanted = sign ^ previous[1]
                (root_a, flip_a), (root_b, flip_b) = find(j), find(previous[0])
                if root_a == root_b:
                    if flip_a ^ flip_b != wanted:
                        return None
                else:
                    parent[root_a], parity[root_a] = root_b, flip_a ^ flip_b ^ wanted
            previous = (j, sign)
    return [-1 if find(j)[1] else 1 for j in range(inputs)]


def _best_signs_l1(columns: Sequence[Sequence[int]], pattern: Sequence[int], rows: int,
                   limits: SizeLimits) -> tuple[int, tuple[int, ...]]:
    def value(signs: Sequence[int]) -> int:
        return sum(abs(sum(sign * columns[j][r] for sign, j in zip(signs, pattern))) for r in range(rows))

    size = len(pattern)
    if size == 0:
        return 0, ()
    if size <= limits.sign_enumeration:
        candidates = ((1, *(-1 if mask >> bit & 1 else 1 for bit in range(size - 1))) for mask in range(2 ** (size - 1)))
        best = max(((value(signs), signs) for signs in candidates), key=lambda pair: pair[0])
        return best[0], tuple(best[1])
    return value((1,) * size), (1,) * size
