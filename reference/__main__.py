"""``python -m reference``: the command line (see :mod:`reference.cli.main`)."""

import sys

from reference.cli.main import main

sys.exit(main())
