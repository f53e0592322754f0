"""Proof programs of the audits' own statements."""
