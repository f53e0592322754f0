"""KARY's verification: the claims registry (one module per section), cross-checks, proof programs."""
