"""The participation doctests of docs/validating.md (the ``{doctest}`` blocks naming a contribution model) run
here with the standard doctest module, as sphinx's doctest builder runs them in CI."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
FENCE = re.compile(r"^```\{doctest\}\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def test_participation_doctests_run() -> None:
    text = (ROOT / "docs" / "validating.md").read_text(encoding="utf-8")
    blocks = [block for block in FENCE.findall(text) if "participation" in block or "sensitivity_squared(" in block]
    assert len(blocks) == 2  # the DP-FTRL vector example and the fixed-epoch one, in order (they share names)
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    names: dict[str, object] = {}
    for number, block in enumerate(blocks):
        test = parser.get_doctest(block, names, f"validating.md participation block {number}", None, 0)
        runner.run(test, clear_globs=False)
        names.update(test.globs)  # sphinx runs a page's blocks in one namespace
    assert runner.summarize(verbose=False).failed == 0
