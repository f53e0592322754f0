"""Load the checkout's ``verification/`` folder as ``reference_verification`` before any test imports it."""

from reference.crossing import verification_package

verification_package()
