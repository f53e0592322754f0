"""Proof programs: each establishes a paper statement for all parameter values (see ``_framework``)."""
