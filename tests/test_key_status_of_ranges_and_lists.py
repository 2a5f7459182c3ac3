"""The status of a key of ranges and listed values, read from its value groups (issue 31.1).

A key holding ranges ("between 4 and 6 minutes"), lists with a unit on every value, lists
with the unit on the last value only (two slots of one family) and bare values is answered
by ``retrieval.key_aggregate`` without reading every claim of the key. Its report must be
the one the claim-by-claim reading gives (verdicts, reasons, sides, citations and counts),
for readers who see different sources and for every page, and with the provenance it reads
with its citations; and the aggregate reading must actually answer it (not decline to the
claim-by-claim reading, which would make the comparison empty).
"""

from __future__ import annotations

import json

import pytest
from note_store import store_notes
from sqlalchemy import Engine

from claims.models import Requester
from retrieval.evidence import NOW
from retrieval.key_aggregate import aggregate_status_of_key
from retrieval.key_summary import KeySummaries
from retrieval.signals import status_with_provenance
from retrieval.status import CLAIM_SIDE_LIMIT, status_of_key

PUBLIC = Requester(principal="pat")
DESK = Requester(principal="dee", groups=["desk"])
PAGES = [(0, 100), (0, 1), (2, 5), (17, 9), (400, 3)]


def _lines(shape: str, count: int, start: int) -> list[str]:
    """``count`` sentences about the reconnect delay, in one shape, from value ``start``."""
    said = {
        "ranges": "The reconnect delay is between {a} and {b} minutes.",
        "units on each": "The reconnect delay is {a} minutes, {b} minutes or {c} minutes.",
        "unit last": "The reconnect delay is {a}, {b} or {c} minutes.",
        "bare": "The reconnect delay is {a} minutes.",
    }[shape]
    return [said.format(a=n, b=n + 1, c=n + 2) for n in range(start, start + 3 * count, 3)]


def _store(engine: Engine, shape: str) -> str:
    """Three handbooks in one shape: two public (one repeating a line of the other), one
    for the desk group only; the key they state."""
    first = _lines(shape, 12, 3)
    notes = [
        ("ops/handbook", "Handbook\n\n" + "\n".join(first) + "\n", []),
        ("ops/desk", "Desk notes\n\n" + "\n".join(_lines(shape, 8, 60)) + "\n", ["desk"]),
        ("ops/wiki", "Wiki\n\n" + "\n".join(_lines(shape, 5, 90) + first[:1]) + "\n", []),
    ]
    store_notes(engine, notes)
    with engine.connect() as conn:
        (key,) = {row[0] for row in conn.exec_driver_sql("SELECT claim_key FROM claims")}
    return str(key)


def _json(engine: Engine, key: str, reader: Requester, page: tuple[int, int], **how: object) -> str:
    offset, limit = page
    report = status_of_key(engine, key, reader, offset=offset, limit=limit, **how)  # type: ignore[arg-type]
    return json.dumps(report.model_dump(mode="json"), sort_keys=True)


@pytest.mark.parametrize("shape", ["ranges", "units on each", "unit last", "bare"])
def test_the_status_of_a_key_of_ranges_and_lists_equals_the_claim_by_claim_reading(
    engine: Engine, shape: str
) -> None:
    key = _store(engine, shape)
    kept = KeySummaries()
    for reader in (PUBLIC, DESK):
        with engine.connect() as conn:
            answered = aggregate_status_of_key(conn, key, reader, NOW, 0, 100, CLAIM_SIDE_LIMIT)
        assert answered is not None, (shape, reader)  # the groups say everything here
        for page in PAGES:
            fast = _json(engine, key, reader, page)
            assert fast == _json(engine, key, reader, page, aggregate=False), (reader, page)
            assert fast == _json(engine, key, reader, page, summaries=kept), (reader, page)
        with engine.connect() as conn:  # read with its provenance: as enriched after
            after = status_with_provenance(conn, status_of_key(engine, key, reader))
        read_with = status_of_key(engine, key, reader, summaries=kept, provenance=True)
        assert read_with.model_dump_json() == after.model_dump_json()
    public, desk = (status_of_key(engine, key, r, limit=100) for r in (PUBLIC, DESK))
    assert public.status.value == desk.status.value == "contested"
    assert desk.page is not None and public.page is not None
    assert desk.page.total > public.page.total  # the desk's handbook is counted for it only
    assert all(c.reasons for c in desk.claims if c.status.value == "contested")
