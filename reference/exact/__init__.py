"""Exact (symbolic) layer: integers, Fractions, sympy. No float enters a result computed here."""
