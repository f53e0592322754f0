"""TDA's verification: the claims registry, cross-checks, proof programs."""
