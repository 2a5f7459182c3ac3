"""No id in a retrieval response is derived from claims the requester may not see
(issue 14 point 10).

Three notes disagree about the dividend; the restated one is finance-only. The review
item holds all three claims, so its stored id hashes the hidden claim too. Someone
outside finance must be shown an item id (and resolution id) computed from the two
claims they can see: the same response they would get from a store that never held the
restated note. Finance sees every member, so it is shown the stored id a reviewer uses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from retrieval_corpus import Corpus
from sqlalchemy import Engine

from claims.ids import stable_id
from claims.models import Requester
from claims.store import make_engine
from retrieval.status import status_of_claim, status_of_key
from tests.store_template import upgrade  # a copy of a store migrated once

KEY = "acme dividend"
ANYONE = Requester(principal="anyone", groups=[])
FAY = Requester(principal="fay", groups=["finance"])


def corpus(*, resolved: bool) -> tuple[Corpus, str]:
    notes = Corpus()
    notes.source("board-minutes")
    notes.source("press-release")
    notes.source("restated-filing", ["finance"])
    minutes = notes.claim(notes.version("board-minutes"), KEY, 12, "cent", claim_id="c-minutes")
    press = notes.claim(notes.version("press-release"), KEY, 15, "cent", claim_id="c-press")
    restated = notes.claim(notes.version("restated-filing"), KEY, 30, "cent", claim_id="c-restated")
    notes.edge("conflicts", minutes, press)
    notes.edge("conflicts", minutes, restated)
    notes.edge("conflicts", press, restated)
    item = notes.review([minutes, press, restated])
    if resolved:
        notes.resolve(item, [press, restated])
    return notes, item


def store(tmp_path: Path, name: str, notes: Corpus) -> Engine:
    url = f"sqlite:///{tmp_path / name}"
    upgrade(url)
    engine = make_engine(url)
    notes.write(engine)
    return engine


def responses(engine: Engine, requester: Requester) -> str:
    key = status_of_key(engine, KEY, requester).model_dump_json()
    claim = status_of_claim(engine, "c-minutes", requester).model_dump_json()
    return key + "\n" + claim


@pytest.mark.parametrize("resolved", [False, True], ids=["open", "resolved"])
def test_ids_shown_outside_finance_come_from_the_visible_claims_only(
    tmp_path: Path, resolved: bool
) -> None:
    notes, stored_item = corpus(resolved=resolved)
    whole = store(tmp_path, "whole.db", notes)
    visible_only = store(tmp_path, "visible.db", notes.without_sources({"restated-filing"}))
    try:
        shown = responses(whole, ANYONE)
        assert stored_item not in shown
        for stored_resolution in notes.resolutions:
            assert stored_resolution not in shown
        report = json.loads(shown.split("\n")[0])
        visible_hash = stable_id("ri", KEY, "c-minutes", "c-press")
        assert {c["review_item_id"] for c in report["claims"]} == {visible_hash}
        # Exactly what a store without the hidden filing answers.
        assert shown == responses(visible_only, ANYONE)
    finally:
        whole.dispose()
        visible_only.dispose()


def test_a_requester_who_sees_every_member_is_shown_the_stored_item_id(tmp_path: Path) -> None:
    notes, stored_item = corpus(resolved=False)
    whole = store(tmp_path, "whole.db", notes)
    try:
        report = status_of_key(whole, KEY, FAY)
        assert {c.review_item_id for c in report.claims} == {stored_item}
    finally:
        whole.dispose()
