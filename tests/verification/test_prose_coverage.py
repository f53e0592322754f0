"""The papers' unnumbered quantitative sentences: the scan finds them, and each has an entry or a reason."""

from __future__ import annotations

from reference_verification.completeness import committed_index
from reference_verification.core.claims import Method
from reference_verification.prose import prose_sentences
from reference_verification.prose_claims import PROSE_CLAIMS
from reference_verification.report import build_registry


def _indexed() -> set[tuple[str, str]]:
    return {(paper, sentence["id"]) for paper, entry in committed_index()["papers"].items() for sentence in entry["prose"]}


def test_every_indexed_sentence_has_an_entry_or_a_reason_and_none_is_stale() -> None:
    indexed = _indexed()
    assert indexed == set(PROSE_CLAIMS)
    assert all(why.strip() for _, why in PROSE_CLAIMS.values())


def test_named_entries_exist_and_check_something() -> None:
    registry = {(claim.paper, claim.number): claim for claim in build_registry().claims}
    for (paper, sentence), (number, _) in PROSE_CLAIMS.items():
        if number is not None:
            assert (paper, number) in registry, (paper, sentence, number)
            assert registry[(paper, number)].method is not Method.NONE, (paper, sentence, number)


def test_the_scan_is_not_vacuous() -> None:
    # the sentences the registry checked before the scan existed are among those it finds
    indexed = _indexed()
    assert ("KARY", "line 289.1") in indexed  # "more than a factor 4"
    assert ("TDA", "line 20.5") in indexed  # "at most O(max|X_i|²) steps"
    assert sum(1 for paper, _ in indexed if paper == "KARY") >= 30


def test_scanner_keeps_quantities_and_skips_numbers_and_the_bibliography() -> None:
    text = (
        "We show this improves by a factor 4 over the baseline.\n"
        "Lemma 3.14 and Definition 3.10 are stated in Section 3.\n"
        "The constant is 0.1236 for the best arity k.\n"
        "References\n"
        "A. Author. A bound of at most two, 2020.\n"
        "Appendix A Proofs\n"
        "It runs in O(n) time per element, at most.\n"
    )
    found = {sentence["id"]: sentence["text"] for sentence in prose_sentences(text)}
    assert set(found) == {"line 1.1", "line 3.1", "line 7.1"}
