"""``GET /api/status?key=`` answers one bounded page and pages through the whole key
(issue 14.1: "a paged, bounded response").

Over HTTP a status by key lists 25 claims unless ``limit`` asks for more (at most 1000);
``page.next_offset`` leads to the next page. Every page is the in-process report of the
same page with its provenance, and the pages together list every visible claim once.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from test_retrieval_key_summary import _register
from test_retrieval_status_aggregate import KEY, _branch_notes, _notes

from claimledger.web import create_app
from claims.models import Requester, Source
from claims.settings import get_settings
from retrieval.access import token_digest
from retrieval.http import HTTP_PAGE_LIMIT
from retrieval.signals import status_with_provenance
from retrieval.status import status_of_key

TOKENS = {
    "lee": "lee-token-3b9e1c7a5d2f4e6a8c0b1d3f5a7c9e2b",
    "pat": "pat-token-8f2d6b0e4a9c1f3e5d7b9a1c3e5f7a9d",
}
READERS = {"lee": Requester(principal="lee", groups=["legal"]), "pat": Requester(principal="pat")}


@pytest.fixture
def served(cli_env: Path) -> Iterator[tuple[TestClient, Engine]]:
    """70 branch notes on one fee (a third legal-only), served to a legal reader and to a
    reader of public notes only."""
    cli_env.mkdir(parents=True, exist_ok=True)
    (cli_env / "access.yaml").write_text(
        "principals:\n"
        f"  lee: {{groups: [legal], tokens_sha256: [{token_digest(TOKENS['lee'])}]}}\n"
        f"  pat: {{groups: [], tokens_sha256: [{token_digest(TOKENS['pat'])}]}}\n",
        encoding="utf-8",
    )
    engine = _notes(get_settings().resolved_database_url, _branch_notes(70), [])
    try:
        with TestClient(create_app(get_settings())) as client:
            yield client, engine
    finally:
        engine.dispose()


def _get(client: TestClient, who: str, **params: Any) -> Any:
    response = client.get(
        "/api/status",
        params={"key": KEY, **params},
        headers={"Authorization": f"Bearer {TOKENS[who]}"},
    )
    return response


def test_a_status_by_key_lists_one_page_by_default_and_pages_through_the_key(
    served: tuple[TestClient, Engine],
) -> None:
    client, engine = served
    for who, reader in READERS.items():
        first = _get(client, who)
        assert first.status_code == 200, first.text
        page = first.json()["page"]
        assert page["offset"] == 0 and page["limit"] == HTTP_PAGE_LIMIT == 25
        assert len(first.json()["claims"]) == 25 and page["next_offset"] == 25
        total, listed, offset = page["total"], [], 0
        while offset is not None:
            body = _get(client, who, offset=offset).json()
            with engine.connect() as conn:
                expected = status_with_provenance(
                    conn, status_of_key(engine, KEY, reader, offset=offset, limit=25)
                )
            assert body == expected.model_dump(mode="json"), (who, offset)
            assert all(len(s["citations"]) <= 25 for s in body["sides"])
            listed += [c["claim_id"] for c in body["claims"]]
            offset = body["page"]["next_offset"]
        assert len(listed) == len(set(listed)) == total  # every visible claim, once
    # the legal reader sees the legal-only notes too
    assert _get(client, "lee").json()["page"]["total"] > _get(client, "pat").json()["page"]["total"]


def test_limit_asks_for_a_larger_page_up_to_the_bound(served: tuple[TestClient, Engine]) -> None:
    client, _ = served
    whole = _get(client, "lee", limit=100).json()
    assert whole["page"]["limit"] == 100
    assert len(whole["claims"]) == min(100, whole["page"]["total"])
    too_many = _get(client, "lee", limit=1001)
    assert too_many.status_code == 422
    assert too_many.json()["error"]["code"] == "invalid_request"
    assert "limit between 1 and 1000" in too_many.json()["error"]["message"]


def test_the_served_status_follows_a_register_change(served: tuple[TestClient, Engine]) -> None:
    # the service keeps the key's cells between requests (retrieval.key_summary); a note
    # made legal-only through the register must leave the public reader's next status
    client, engine = served
    before = _get(client, "pat").json()["page"]["total"]
    assert _get(client, "pat").json()["page"]["total"] == before  # kept, same answer
    _register(engine, Source(id="branch/b-001", authority_tier="official", access_groups=["legal"]))
    after = _get(client, "pat").json()
    assert after["page"]["total"] == before - 1
    with engine.connect() as conn:
        expected = status_with_provenance(
            conn, status_of_key(engine, KEY, READERS["pat"], limit=25)
        )
    assert after == expected.model_dump(mode="json")


def test_serving_freezes_what_start_up_made_and_gives_it_back(cli_env: Path) -> None:
    # claims serve keeps start-up's objects out of the cyclic collector's walks while it
    # serves (claimledger/web.py); stopping the app unfreezes them
    frozen_before = gc.get_freeze_count()
    with TestClient(create_app(get_settings())) as client:
        assert gc.get_freeze_count() > frozen_before
        assert client.get("/api/status", params={"key": KEY}).status_code == 401
    assert gc.get_freeze_count() == 0
