"""Reading Coq's text: the source files (which theorems a file declares, the words that leave a proof unfinished,
outside comments) and what Coq prints (the axioms ``Print Assumptions`` names, values Coq evaluated read back into
Python). The toolchain that compiles the sources and asks Coq is :mod:`reference_verification.coq`.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

#: What Coq prints for a theorem that depends on no axiom.
CLOSED = "Closed under the global context"
#: Words that end a proof without proving it, or postulate a fact; none may appear in a source file. (Section
#: ``Variables``/``Hypotheses`` are allowed: they become premises when the section closes; a top-level one would be
#: an axiom, which ``Print Assumptions`` names.)
UNPROVED = re.compile(r"\b(Admitted|admit|Axiom|Axioms|Parameter|Parameters|Conjecture)\b")


def axiom_names(answer: str) -> list[str]:
    """The axioms named in a ``Print Assumptions`` answer (``Axioms:`` then one ``name : type`` per axiom, the type
    possibly on indented continuation lines); empty for a closed theorem."""
    if answer.strip() == CLOSED:
        return []
    names = []
    for line in answer.splitlines():
        if line and not line[0].isspace() and line.strip() != "Axioms:":
            names.append(line.split(" :", 1)[0].strip())
    return sorted(set(names))


def declares(source: Path, name: str) -> bool:
    """Whether ``source`` declares a theorem (Theorem, Lemma, Corollary, Proposition) called ``name``."""
    pattern = rf"^\s*(Theorem|Lemma|Corollary|Proposition)\s+{re.escape(name)}\b"
    return re.search(pattern, source.read_text(encoding="utf-8"), flags=re.MULTILINE) is not None


def strip_comments(text: str) -> str:
    """Coq source without its (possibly nested) comments.

    Args:
        text: the Coq source.
    """
    out, depth, index = [], 0, 0
    while index < len(text):
        if text.startswith("(*", index):
            depth, index = depth + 1, index + 2
        elif text.startswith("*)", index) and depth:
            depth, index = depth - 1, index + 2
        else:
            if not depth:
                out.append(text[index])
            index += 1
    return "".join(out)


def unproved_words(source: Path) -> list[str]:
    """The words of :data:`UNPROVED` that occur in ``source`` outside comments (none in a finished file)."""
    return sorted(set(UNPROVED.findall(strip_comments(source.read_text(encoding="utf-8")))))


_INT = re.compile(r"\((-?\d+)\)%[ZN]|(-?\d+)%[ZN]")


def parse_coq_value(text: str) -> object:
    """Read a value Coq printed (``= value : type``): lists ``[:: a; b]``, pairs, integers (``3``, ``(-3)%Z``,
    ``3%N``), booleans, options (``Some v`` as v, ``None``). Returns nested Python lists, tuples, ints, bools."""
    lines = text.strip().splitlines()
    typed = [index for index, line in enumerate(lines) if line.lstrip().startswith(": ")]
    body = "\n".join(lines[: typed[-1]] if typed else lines).strip()
    body = body[1:] if body.startswith("=") else body
    body = _INT.sub(lambda m: m.group(1) or m.group(2), body)
    body = re.sub(r"\bSome\b", "", body)  # an option's value as the value itself; None stays None
    body = body.replace("[::", "[").replace(";", ",").replace("true", "True").replace("false", "False")
    return ast.literal_eval(" ".join(body.split()))
