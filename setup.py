"""Package list for setuptools (the metadata is in pyproject.toml).

The repository's top-level ``verification/`` folder installs as the package ``reference_verification``: the
verification of the papers ships with the library (``python -m reference report`` runs it) under a name that
cannot collide with anything in a user's environment, while the checkout keeps the layout's ``verification/``.
"""

from setuptools import find_packages, setup

library = find_packages(include=["reference", "reference.*"])
verification = [
    "reference_verification" + name[len("verification"):]
    for name in find_packages(include=["verification", "verification.*"])
]
setup(packages=library + verification, package_dir={"reference_verification": "verification"})
