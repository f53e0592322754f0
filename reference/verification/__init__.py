"""The report: runs every paper's claims and says, statement by statement, what was checked and found.

``report`` (terminal table, Markdown, JSON), ``links`` (statement ↔ code ↔ proof), ``completeness`` (numbered
statements found in the papers against the registry), ``plots``.
"""
