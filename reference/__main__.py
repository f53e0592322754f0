"""``python -m reference``: the command line (see :mod:`reference.cli`)."""

import sys

from reference.cli import main

sys.exit(main())
