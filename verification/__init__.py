"""The verification of the papers: runs every paper's claims and says, statement by statement, what was checked
and found.

``papers`` (the table of papers every part iterates), ``registry`` (every paper's entries), ``report`` (terminal
table, Markdown, JSON), ``links`` (statement ↔ code ↔ proof), ``completeness`` (the committed index of the
papers' numbered statements against the registry; ``index_statements`` regenerates the index from the paper texts,
``unregistered`` names the statements checked within another entry), ``plots``. The floor plan:
``docs/architecture.md``.
"""
