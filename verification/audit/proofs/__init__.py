"""Proof programs for the audits' own statements (not a paper's): that the values they certify are exact."""
