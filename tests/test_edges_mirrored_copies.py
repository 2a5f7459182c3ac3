"""A document and its near-copy: edges between them only where they say different things.

A report restated with one figure changed, or two editions of a policy, share most of their
sentences word for word. A disagreement that each copy already holds inside itself (two
figures of one sentence, a quarter and a total of one table row, two paragraphs that share a
key) is not a disagreement between the copies (``claims/edges/mirrors.py``, rule
``mirrored``); the changed figure still is.
"""

from __future__ import annotations

from claims.check import check_texts, text_version_id
from claims.edges import build_edges, facts_from_claim
from claims.extraction import extract
from claims.models import EdgeKind, Relation

REPORT = """# Quarterly review

Service revenue increased $2.4 million or 6% in the year. Licence revenue increased $0.8 million
or 3% after the price change.

Figures in thousands of dollars.

| | First Quarter | Second Quarter | Third Quarter | Fourth Quarter | Total |
|---|---|---|---|---|---|
| Net sales | $ 41,200 | $ 43,900 | $ 40,150 | $ 45,300 | $ 170,550 |
| Operating income | 5,120 | 6,010 | 4,870 | 6,640 | 22,640 |

The booking fee is 10 EUR for members. The booking fee is 14 EUR.
"""

DISAGREE = (Relation.CONFLICT, Relation.AMBIGUOUS)


def _disagreements(left: str, right: str) -> list[tuple[object, object]]:
    return [
        (p.left.value, p.right.value)
        for p in check_texts(left, right).pairs
        if p.relation in DISAGREE
    ]


def test_a_copy_with_one_table_cell_changed_disagrees_only_on_that_cell() -> None:
    restated = REPORT.replace("6,010", "6,491")
    assert _disagreements(REPORT, restated) == [(6010000.0, 6491000.0)]


def test_a_copy_with_one_figure_of_a_sentence_changed_disagrees_only_on_that_figure() -> None:
    restated = REPORT.replace("$0.8 million", "$0.9 million")
    assert _disagreements(REPORT, restated) == [(800000.0, 900000.0)]


def test_figures_that_disagree_inside_each_copy_are_mirrored_between_the_copies() -> None:
    restated = REPORT.replace("$0.8 million", "$0.9 million")
    pairs = check_texts(REPORT, restated).pairs
    mirrored = [p for p in pairs if p.rule == "mirrored"]
    # the amount and the percent of each "increased ... or ..." sentence, the two fee
    # sentences: each copy holds both sides, so between the copies they are compatible
    assert mirrored and all(p.relation is Relation.COMPATIBLE for p in mirrored)
    assert any({p.left.value, p.right.value} == {10.0, 14.0} for p in mirrored)


def test_a_disagreement_inside_one_document_keeps_its_own_edge() -> None:
    restated = REPORT.replace("6,010", "6,491")
    claims = [
        *extract(REPORT, source_id="report", source_version_id=text_version_id("report", REPORT)),
        *extract(
            restated,
            source_id="restated",
            source_version_id=text_version_id("restated", restated),
        ),
    ]
    build = build_edges([facts_from_claim(c) for c in claims], generation="g")
    by_id = {c.id: c for c in claims}
    fees = {c.id for c in claims if c.value in (10.0, 14.0) and c.unit == "EUR"}
    fee_edges = [e for e in build.edges if {e.left_claim_id, e.right_claim_id} <= fees]
    sources = [
        (by_id[e.left_claim_id].source_id, by_id[e.right_claim_id].source_id, e.kind, e.rule)
        for e in fee_edges
        if by_id[e.left_claim_id].value != by_id[e.right_claim_id].value
    ]
    # the two fee sentences disagree inside a copy (one star edge for review routing) ...
    assert [kind for a, b, kind, _ in sources if a == b] == [EdgeKind.AMBIGUOUS.value]
    # ... and between the copies only as mirrors of that
    assert {rule for a, b, _, rule in sources if a != b} == {"mirrored"}
    # readers still see the 10 EUR and the 14 EUR of both copies in dispute (value groups)
    members = {m.claim_id: m.value_group_id for m in build.members if m.claim_id in fees}
    disputed = {(r.left_group_id, r.right_group_id) for r in build.relations}
    tens = {members[i] for i in fees if by_id[i].value == 10.0}
    fourteens = {members[i] for i in fees if by_id[i].value == 14.0}
    assert any((a, b) in disputed or (b, a) in disputed for a in tens for b in fourteens)


def test_a_document_that_does_not_state_the_other_claim_still_disagrees() -> None:
    left = "# Fees\n\nThe booking fee is 10 EUR.\n"
    right = "# Fees\n\nThe booking fee is 14 EUR.\n"
    assert _disagreements(left, right) == [(10.0, 14.0)]


def test_a_copy_that_adds_a_contradicting_sentence_disagrees_with_the_original() -> None:
    # the second copy states the first copy's 10 EUR too, but the first never states 14 EUR:
    # the second copy's own contradiction is inside it, and its 14 EUR meets the 10 EUR of
    # the first copy only as a mirror of that
    left = "# Fees\n\nThe booking fee is 10 EUR.\n"
    right = "# Fees\n\nThe booking fee is 10 EUR.\n\nThe booking fee is 14 EUR.\n"
    pairs = check_texts(left, right).pairs
    assert [p.rule for p in pairs if p.relation in DISAGREE] == []
    assert any(p.rule == "mirrored" for p in pairs)
