"""The command line, the ``reference`` console script: :mod:`reference.cli.main` wires one module per command group.

``report`` (the main job), ``calibrate``, ``audit``, ``kary``, ``inftda`` and ``cascade`` each live in the module of
that name; :mod:`reference.cli.common` holds what they share (the options declared once, readers, output).
"""
