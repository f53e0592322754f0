"""The sample-audit examples of docs/validating.md run verbatim (every ```python block whose first line is
``# sample audit: ...``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

GUIDE = Path(__file__).resolve().parents[3] / "docs" / "validating.md"
FENCE = re.compile(r"^```python\n(# sample audit:.*?)^```$", re.MULTILINE | re.DOTALL)
BLOCKS = FENCE.findall(GUIDE.read_text(encoding="utf-8"))


def test_the_guide_has_the_sample_audit_examples() -> None:
    assert len(BLOCKS) == 2


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_sample_audit_example_runs(index: int) -> None:
    exec(compile(BLOCKS[index], f"docs/validating.md sample audit block {index + 1}", "exec"), {"__name__": "guide"})
