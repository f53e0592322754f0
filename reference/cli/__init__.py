"""The command line, the ``reference`` console script: :mod:`reference.cli.main` wires one module per command group.

``calibrate``, ``audit``, ``kary``, ``inftda`` and ``cascade`` each live in the module of that name;
:mod:`reference.cli.common` holds what they share (the options declared once, readers, output;
:mod:`reference.cli.human_layout` the human layout of a result), and
:mod:`reference.cli.plugins` adds the commands other installed packages declare under the entry point group
``reference.commands`` (so the verification adds the main job, the report command).
"""

#: The command line has no names to import: it runs as ``python -m reference`` or ``reference`` (the console
#: script ``reference.cli.main:main``).
__all__: list[str] = []
