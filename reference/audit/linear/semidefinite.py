"""A certified bracket of the semidefinite maximum max{⟨Q, G⟩ : G ⪰ 0, G_ii <= 1} for an integer symmetric Q: the
largest Σ Q_ij ⟨c_i, c_j⟩ over vectors c_i of norm at most 1 (the vector contribution model of
:mod:`reference.audit.linear.contribution`). Floats guide; both ends are exact rationals, checked exactly."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np


def sdp_bracket(block: Sequence[Sequence[int]], seed: int = 0) -> tuple[Fraction, Fraction]:
    """Certified [lower, upper] of max{⟨Q, G⟩ : G ⪰ 0, G_ii <= 1} for an integer symmetric Q (``block``).

    A float block-coordinate ascent over unit vectors (each v_i set to the direction of Σ_{j≠i} Q_ij v_j) guides
    both sides: the lower bound is the exact value at its vectors read as rationals and scaled into the unit ball;
    the upper bound is Σ y_i for y_i = Q_ii + ‖Σ_{j≠i} Q_ij v_j‖ (the stationarity multipliers) plus a margin,
    accepted only when Diag(y) − Q is positive definite exactly (rational LDLᵀ); else Σ|Q_ij| (y_i = Σ_j |Q_ij|
    makes Diag(y) − Q diagonally dominant).

    Args:
        block: the symmetric integer matrix Q, as rows (empty: the bracket [0, 0]).
        seed: seed of the float ascent's random starting vectors (default 0); the bracket is certified whatever
            it is, only its width depends on it.
    """
    size = len(block)
    absolute = Fraction(sum(abs(entry) for row in block for entry in row))
    if size == 0:
        return Fraction(0), Fraction(0)
    matrix = np.array([[float(entry) for entry in row] for row in block])
    rng = np.random.default_rng(seed)
    best_vectors, best_value = None, -math.inf
    for _ in range(2):  # restarts: the ascent is local; at full rank its stationary points are almost always global
        vectors = rng.standard_normal((size, size))
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        for _sweep in range(20000):
            movement = 0.0
            for i in range(size):
                pull = matrix[i] @ vectors - matrix[i, i] * vectors[i]
                norm = float(np.linalg.norm(pull))
                if norm > 0:
                    moved = pull / norm
                    movement = max(movement, float(np.max(np.abs(moved - vectors[i]))))
                    vectors[i] = moved
            if movement < 1e-14:
                break
        value = float(np.sum(matrix * (vectors @ vectors.T)))
        if value > best_value:
            best_vectors, best_value = vectors.copy(), value
    assert best_vectors is not None
    lower = _exact_primal(block, best_vectors)
    multipliers = np.array([float(block[i][i]) + float(np.linalg.norm(matrix[i] @ best_vectors
                                                                       - matrix[i, i] * best_vectors[i]))
                            for i in range(size)])
    # an ascent stopped short of stationarity leaves Diag(y) − Q slightly indefinite: lift y by its least
    # eigenvalue (a float guide; the exact test below decides)
    least = float(np.linalg.eigvalsh(np.diag(multipliers) - matrix)[0])
    multipliers += max(0.0, -least)
    scale = float(absolute) / size
    for margin_exponent in (-14, -13, -12, -11, -10, -9, -7, -5):
        margin = Fraction(scale) * Fraction(10) ** margin_exponent
        dual: list[Fraction] = [Fraction(float(value)) + margin for value in multipliers]
        if _positive_definite([[(dual[i] if i == j else Fraction(0)) - block[i][j] for j in range(size)]
                               for i in range(size)]):
            return lower, max(lower, min(sum(dual, Fraction(0)), absolute))
    return lower, absolute


def _exact_primal(block: Sequence[Sequence[int]], vectors: np.ndarray) -> Fraction:
    """⟨Q, G⟩ exactly, G the Gram matrix of the float vectors read as rationals, each scaled by a rational
    factor that puts it inside the unit ball."""
    rows = []
    for vector in vectors.tolist():
        exact = [Fraction(entry) for entry in vector]
        norm_squared = sum((entry * entry for entry in exact), Fraction(0))
        if norm_squared == 0:
            rows.append(exact)
            continue
        factor = Fraction(1 / math.sqrt(float(norm_squared)))
        while factor * factor * norm_squared > 1:
            factor *= 1 - Fraction(1, 2**50)
        rows.append([entry * factor for entry in exact])
    size = len(rows)
    total = Fraction(0)
    for i in range(size):
        for j in range(size):
            if block[i][j]:
                total += block[i][j] * sum((a * b for a, b in zip(rows[i], rows[j])), Fraction(0))
    return total


def _positive_definite(matrix: Sequence[Sequence[Fraction]]) -> bool:
    """Exact test by LDLᵀ elimination: every pivot positive."""
    work = [list(row) for row in matrix]
    size = len(work)
    for k in range(size):
        pivot = work[k][k]
        if pivot <= 0:
            return False
        for i in range(k + 1, size):
            if work[i][k]:
                factor = work[i][k] / pivot
                for j in range(k + 1, size):
                    work[i][j] -= factor * work[k][j]
    return True
