"""Asking Coq's ``Print Assumptions`` about many theorems cheaply, and keeping the answers with the build.

Coq walks a theorem's whole dependency tree (most of it Mathematical Components, shared by all) for every
``Print Assumptions``, about a second each: 61 theorems took 42 s of CPU. :func:`ask_assumptions` asks the
theorems expected closed as one tuple of their proofs first, and :func:`kept_answers` keeps a cached build's
answers so that the next run over the same build asks nothing. What runs ``coqc`` is passed in
(:mod:`reference_verification.coq` binds it to a build), so this module needs only the standard library.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

from .coq_text import CLOSED
from .core.claims import CoqTheorem

#: The name of the tuple of the theorems expected closed, asked about at once by :func:`ask_assumptions`.
EXPECTED_CLOSED = "reference_expected_closed"


def ask_assumptions(
    theorems: list[CoqTheorem],
    *,
    prefix: str,
    run: Callable[[str], str],
    expected_closed: Callable[[CoqTheorem], bool],
) -> dict[CoqTheorem, str]:
    """What ``Print Assumptions`` says for each theorem: :data:`~reference_verification.coq_text.CLOSED`, or the
    axioms it depends on.

    The theorems ``expected_closed`` (their file declares no library axiom) are asked about at once first, as one
    tuple of their proofs, whose tree is the union of theirs: when the tuple is closed under the global context, so
    is each of them (a theorem's assumptions are among the tuple's), which is the answer each would get alone. When
    it is not, each is asked alone, as are the other theorems (their answers name the axioms).

    Args:
        theorems: the theorems to ask about.
        prefix: the logical prefix the build maps its folder to (``-Q . Prefix``).
        run: compiles a snippet of Coq commands against the build and returns what Coq printed.
        expected_closed: whether a theorem's file is expected to use no axiom at all.
    """

    def qualified(theorem: CoqTheorem) -> str:
        return f"{prefix}.{Path(theorem.file).stem}.{theorem.name}"

    def ask(together: list[CoqTheorem], alone: list[tuple[int, CoqTheorem]]) -> dict[str, str]:
        modules = sorted({Path(theorem.file).stem for theorem in [*together, *(t for _, t in alone)]})
        lines = [f"From {prefix} Require {' '.join(modules)}."] if modules else []
        if together:
            # explicit (@) so that implicit arguments are not inferred; a tuple of proofs is a term like any other
            proofs = ", ".join(f"@{qualified(theorem)}" for theorem in together)
            lines += [f"Definition {EXPECTED_CLOSED} := ({proofs}).",
                      'Goal True. idtac "@@together". exact I. Qed.', f"Print Assumptions {EXPECTED_CLOSED}."]
        for index, theorem in alone:
            lines += [f'Goal True. idtac "@@{index}". exact I. Qed.', f"Print Assumptions {qualified(theorem)}."]
        printed = run("\n".join(lines) + "\n")
        sections = re.split(r"^@@(\w+)\s*$", printed, flags=re.MULTILINE)
        return {sections[i]: sections[i + 1].strip() for i in range(1, len(sections) - 1, 2)}

    closed_ones = [theorem for theorem in theorems if expected_closed(theorem)]
    together = closed_ones if len(closed_ones) > 1 else []
    alone = [(index, theorem) for index, theorem in enumerate(theorems) if theorem not in together]
    # two coqc runs: the library-axiom files load mathcomp-analysis, which the others do not need; apart, neither
    # process holds both (peak memory 0.94 GB in one run)
    found = {**ask(together, []), **ask([], alone)} if together and alone else ask(together, alone)
    if together and found.get("together") != CLOSED:  # some theorem has an axiom: each is asked alone
        found.update(ask([], [(index, theorem) for index, theorem in enumerate(theorems) if theorem in together]))
    elif together:
        found.update({str(index): CLOSED for index, theorem in enumerate(theorems) if theorem in together})
    return {theorem: found.get(str(index), "no answer from Print Assumptions") for index, theorem in enumerate(theorems)}


def kept_answers(
    path: Path | None,
    theorems: list[CoqTheorem],
    ask: Callable[[list[CoqTheorem]], dict[CoqTheorem, str]],
) -> tuple[dict[CoqTheorem, str], int]:
    """The answers for ``theorems``: those kept in ``path`` read back, the others asked (``ask``) and kept there;
    also how many were read back.

    Why this is sound: ``Print Assumptions`` reads only the compiled ``.vo`` files, and a cached build is keyed by
    everything its compilation depends on (``coq.source_key``), so an answer kept with the build is the answer the
    same query gives again. Answers that came back as "no answer" are never kept; a damaged file is ignored.

    Args:
        path: the file kept beside a cached build, or None (nothing is kept: every theorem is asked).
        theorems: the theorems to answer for.
        ask: asks Coq about a list of theorems (:func:`ask_assumptions` bound to the build).
    """
    kept: dict[str, str] = {}
    if path is not None:
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            loaded = {}
        if isinstance(loaded, dict):
            kept = {str(name): answer for name, answer in loaded.items() if isinstance(answer, str)}

    def name(theorem: CoqTheorem) -> str:
        return f"{theorem.file}:{theorem.name}"

    missing = [theorem for theorem in theorems if name(theorem) not in kept]
    fresh = ask(missing) if missing else {}
    new = {name(theorem): answer for theorem, answer in fresh.items() if not answer.startswith("no answer")}
    if path is not None and new:
        temporary = path.with_name(f"{path.name}.{os.getpid()}")
        try:  # whole-file replace: a reader sees the old answers or the new ones, never a half-written file
            temporary.write_text(json.dumps({**kept, **new}, indent=1, sort_keys=True) + "\n", encoding="utf-8")
            temporary.replace(path)
        except OSError:
            pass  # a cache that cannot be written only costs the next run the queries
    answers = {theorem: kept[name(theorem)] if name(theorem) in kept else fresh[theorem] for theorem in theorems}
    return answers, len(theorems) - len(missing)
