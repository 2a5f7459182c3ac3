"""Near misses (two claim keys that may name one thing) are looked for between documents.

Inside one document, an author who names two things differently ("short-term" and
"long-term deferred commissions", "interest expense" and "other expense") means two things:
their claims are not set against each other as a near miss. Between two documents the
near miss is still drawn, since two authors may word one thing two ways.
"""

from __future__ import annotations

from claims.check import text_version_id
from claims.edges import build_edges, facts_from_claim
from claims.extraction import extract
from claims.models import Claim

NOTES = """# Balance sheet notes

The balance includes short-term deferred commissions of $81 million.

The balance includes long-term deferred commissions of $44 million.
"""
OTHER = """# Other notes

The balance includes long-term deferred commissions of $52 million.
"""


def _claims(source: str, text: str) -> list[Claim]:
    return extract(text, source_id=source, source_version_id=text_version_id(source, text))


def _near_misses(claims: list[Claim]) -> list[tuple[str, str]]:
    by_id = {c.id: c for c in claims}
    build = build_edges([facts_from_claim(c) for c in claims], generation="g")
    return [
        (by_id[e.left_claim_id].source_id or "", by_id[e.right_claim_id].source_id or "")
        for e in build.edges
        if e.claim_key.startswith("~")
    ]


def test_two_differently_named_figures_of_one_document_are_no_near_miss() -> None:
    claims = _claims("notes", NOTES)
    assert {c.claim_key for c in claims} == {
        "short term defer commission",
        "long term defer commission",
    }
    assert _near_misses(claims) == []


def test_the_near_miss_is_still_drawn_between_two_documents() -> None:
    claims = [*_claims("notes", NOTES), *_claims("other", OTHER)]
    assert _near_misses(claims) == [("notes", "other")]
