"""CIP's proof programs: each establishes its statements for all parameters (see ``docs/proofs.md``).

Each program is marked with ``@proves`` and returns a ``ProofRecord``; ``common`` holds Definition 3.1's
exponent readings, the noncommutative word rewriter and block products the programs share.
"""
