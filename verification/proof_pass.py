"""A pass over the three papers' proofs, step by step: every displayed identity or inequality of a proof is
either checked by a registry entry (exact, symbolic, certified or exhaustive; a step that fails as printed is an
erratum entry with its counterexample) or carries a stated reason why no computation here checks it.

The list is data, read by a test (every step names exactly one of an entry that exists, or a reason) and by the
report (the counts and the reasons). Steps are named as the proof prints them. Each paper's steps live in its
``verification/<package>/paper_text.py``; this gathers them in the order of the table of papers.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType

from .core.paper_text import ProofStep
from .papers import PAPERS, Paper


def _paper_text(paper: Paper) -> ModuleType:
    """The paper's ``verification/<package>/paper_text.py`` (imported by name from the table of papers)."""
    return importlib.import_module(f"{__package__}.{paper.package}.paper_text")


#: The proofs of the papers, display by display.
PROOF_STEPS: tuple[ProofStep, ...] = tuple(step for paper in PAPERS for step in _paper_text(paper).PROOF_STEPS)


def step_errors(steps: Sequence[ProofStep], registry_keys: set[str]) -> list[str]:
    """Steps that name neither an existing entry nor a reason, or both."""
    errors = []
    for step in steps:
        where = f"{step.paper} {step.proof}: {step.step[:60]}"
        if (step.checked_by is None) == (step.reason is None):
            errors.append(f"{where}: give exactly one of an entry and a reason")
        elif step.checked_by is not None and step.checked_by not in registry_keys:
            errors.append(f"{where}: no registry entry {step.checked_by!r}")
    return errors


def proof_pass_markdown(steps: Sequence[ProofStep] = PROOF_STEPS) -> list[str]:
    """The report's account of the pass: counts per paper, and every step left unchecked with its reason."""
    lines = ["Proofs read step by step (`reference_verification.proof_pass`): each displayed step is checked by an "
             "entry, or its reason is stated:", ""]
    for paper in dict.fromkeys(step.paper for step in steps):
        own = [step for step in steps if step.paper == paper]
        checked = sum(1 for step in own if step.checked_by)
        lines.append(f"- **{paper}**: {len(own)} steps, {checked} checked by an entry, {len(own) - checked} with a reason")
    for step in (step for step in steps if step.reason):
        lines.append(f"  - {step.paper} {step.proof}, '{step.step}': {step.reason}")
    return lines
