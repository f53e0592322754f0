"""Package list for setuptools (the metadata is in pyproject.toml).

The repository's top-level ``verification/`` folder installs as the package ``reference_verification``: the
verification of the papers ships with the library (``reference report`` runs it) under a name that
cannot collide with anything in a user's environment, while the checkout keeps the layout's ``verification/``. The Coq sources under ``proofs/coq`` ship as
``reference_verification/coq_sources``.
"""

from setuptools import find_packages, setup

library = find_packages(include=["reference", "reference.*"])
verification = [
    "reference_verification" + name[len("verification"):]
    for name in find_packages(include=["verification", "verification.*"])
]
# The Coq sources ship inside the verification package (as ``reference_verification/coq_sources``), so that an
# installed report compiles the same proofs the checkout holds; ``proofs/coq`` stays their home in the repository.
COQ = "reference_verification.coq_sources"
setup(
    packages=[*library, *verification, COQ],
    package_dir={"reference_verification": "verification", COQ: "proofs/coq"},
)
