"""``python -m reference``: the command line (see :mod:`reference.cli.main`)."""

import sys

from reference.cli.main import main

if __name__ == "__main__":  # importing this module (documentation tools do) must not run the command line
    sys.exit(main())
