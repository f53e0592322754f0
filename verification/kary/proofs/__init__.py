"""KARY's proof programs: each establishes its statements for all parameters (see ``docs/proofs.md``)."""
