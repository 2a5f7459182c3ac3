"""View equivalence through the real edge builder (issue 14.1 and 14.9).

``tests/test_retrieval_invariant.py`` writes edge rows by hand. Here the store is built the
way the pipeline builds it — real extraction, the register, ``recompute_edges`` with its
value groups and supersessions — and, for a random requester, every status and answer over
the whole store must equal the one over a store built from the visible sources alone.
That is what breaks when a stored row was classified with evidence the requester cannot
see (a hidden superseding source, a hidden first claim of a star).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine

from claims.edge_refresh import recompute_edges
from claims.errors import ClaimLedgerError, InputError
from claims.extraction import current_generation, extract, parse_question
from claims.models import Requester, Source, SupersedesRef
from claims.store import (
    ClaimRepository,
    GenerationRepository,
    SourceRepository,
    make_engine,
    transaction,
)
from retrieval.access import source_visible
from retrieval.answer import answer_frame
from retrieval.status import status_of_claim, status_of_key
from tests.store_template import upgrade  # a copy of a store migrated once

GROUPS = ["finance", "legal"]
# How people state a fee; every wording keys as the same visitor parking fee.
WORDINGS = [
    "The visitor parking fee is {v} EUR per day.",
    "Visitors pay a parking fee of {v} EUR per day.",
    "The visitor parking fee is {v} EUR per day.",  # a mirrored sentence (a clone)
]
QUESTION = "What is the visitor parking fee?"
# Exact values share a slot (decided from the visible values: 5 vs 5.1 is rounding, 40 is
# far from all); "about 8" states a precision, so it is compared with each group instead.
VALUES = [5, 5.1, 7, 9, 40, "about 8"]


@st.composite
def corpora(draw: st.DrawFn) -> dict[str, Any]:
    sources = []
    for n in range(draw(st.integers(2, 5))):
        texts = [
            draw(st.sampled_from(WORDINGS)).format(v=draw(st.sampled_from(VALUES)))
            for _ in range(draw(st.integers(1, 2)))  # a second text is a second version
        ]
        sources.append(
            {
                "id": f"p/{n}",
                "texts": texts,
                "groups": draw(st.lists(st.sampled_from(GROUPS), max_size=1)),
                "tier": draw(st.sampled_from(["official", "official", "reference"])),
            }
        )
    supersedes: list[tuple[str, str]] = []
    if len(sources) > 1 and draw(st.booleans()):
        newer, older = draw(st.permutations([s["id"] for s in sources]))[:2]
        supersedes.append((newer, older))
    return {"sources": sources, "supersedes": supersedes}


def _store(corpus: dict[str, Any], hidden: set[str], directory: Path) -> Engine:
    # migrated like a real store (the answer's quote search needs the migration's FTS table)
    url = f"sqlite:///{directory}/claims.db"
    upgrade(url)
    engine = make_engine(url)
    generation, label = current_generation()
    with transaction(engine) as session:
        GenerationRepository(session).ensure(generation, label)
        repo = SourceRepository(session)
        for source in corpus["sources"]:
            if source["id"] in hidden:
                continue
            for text in source["texts"]:
                version, _ = repo.add_version(source["id"], text)
                ClaimRepository(session).add_all(
                    extract(text, source_id=source["id"], source_version_id=version.id)
                )
            replaces = [
                SupersedesRef(source_id=old)
                for new, old in corpus["supersedes"]
                if new == source["id"] and old not in hidden
            ]
            repo.apply_register_entry(
                Source(
                    id=source["id"],
                    authority_tier=source["tier"],
                    access_groups=source["groups"],
                    supersedes=replaces,
                )
            )
        recompute_edges(session, generation)
    return engine


def _outcome(call: Callable[[], Any]) -> str:
    try:
        return json.dumps(call().model_dump(mode="json"), sort_keys=True)
    except ClaimLedgerError as error:
        return f"{type(error).__name__}: {error}"


def _responses(engine: Engine, claim_ids: list[str], requester: Requester) -> dict[str, str]:
    frame = parse_question(QUESTION)
    out = {
        "key": _outcome(lambda: status_of_key(engine, frame.claim_key, requester)),
        "answer": _outcome(lambda: answer_frame(engine, frame, requester, question=QUESTION)),
    }
    for claim_id in claim_ids:
        out[claim_id] = _outcome(lambda c=claim_id: status_of_claim(engine, c, requester))
    return out


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(corpus=corpora(), groups=st.lists(st.sampled_from(GROUPS), max_size=2, unique=True))
# found by this test: a hidden source replacing p/3 turned p/3's agreement with p/2 into
# "no support" in the stored edge, which changed what a legal reader was shown
@example(
    corpus={
        "sources": [
            {"id": "p/0", "texts": [WORDINGS[0].format(v=5)], "groups": ["finance"],
             "tier": "official"},
            {"id": "p/2", "texts": [WORDINGS[0].format(v=5), WORDINGS[1].format(v=9)],
             "groups": [], "tier": "official"},
            {"id": "p/3", "texts": [WORDINGS[0].format(v=5), WORDINGS[0].format(v=9)],
             "groups": [], "tier": "official"},
        ],
        "supersedes": [("p/0", "p/3")],
    },
    groups=["legal"],
)  # fmt: skip
def test_status_and_answer_equal_those_over_the_visible_sources(
    corpus: dict[str, Any], groups: list[str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    requester = Requester(principal="p", groups=sorted(groups))
    hidden = {
        s["id"] for s in corpus["sources"] if not source_visible(s["groups"], False, requester)
    }
    whole = _store(corpus, set(), tmp_path_factory.mktemp("whole"))
    visible_only = _store(corpus, hidden, tmp_path_factory.mktemp("visible"))
    with whole.connect() as conn:
        claim_ids = sorted(r[0] for r in conn.exec_driver_sql("SELECT id FROM claims"))
    try:
        assert _responses(whole, claim_ids, requester) == _responses(
            visible_only, claim_ids, requester
        )
    finally:
        whole.dispose()
        visible_only.dispose()


def test_a_key_with_many_claims_stores_rows_linear_in_its_claims(tmp_path: Path) -> None:
    # 120 sources say 5 EUR, 80 say 9 EUR: two value groups of one slot (a row each, no
    # pair row) and a star of claim edges, where pairs would have been 9,600 conflict edges
    corpus = {
        "sources": [
            {
                "id": f"p/{n}",
                "texts": [WORDINGS[0].format(v=5 if n < 120 else 9)],
                "groups": [],
                "tier": "official",
            }
            for n in range(200)
        ],
        "supersedes": [],
    }
    engine = _store(corpus, set(), tmp_path)
    with engine.connect() as conn:
        kinds = dict(
            conn.exec_driver_sql(
                "SELECT kind, count(*) FROM edges WHERE retired_at IS NULL GROUP BY kind"
            ).all()
        )
        relations = conn.exec_driver_sql("SELECT kind FROM value_group_relations").all()
        members = conn.exec_driver_sql("SELECT count(*) FROM value_group_claims").scalar()
        slots = conn.exec_driver_sql("SELECT slot_id, value FROM value_group_slots").all()
    assert relations == []
    assert len(slots) == 2 and len({slot for slot, _ in slots}) == 1
    assert members == 200
    assert kinds["conflicts"] == 200 - 1
    assert sum(kinds.values()) < 2 * 200
    everyone = Requester(principal="p", groups=[])
    key = parse_question(QUESTION).claim_key or ""
    report = status_of_key(engine, key, everyone)
    assert report.status.value == "contested"
    assert sorted(s.claim_count for s in report.sides) == [80, 120]
    # the response is bounded: one page of claims, at most a page of citations per side
    assert report.page is not None and report.page.total == 200
    assert len(report.claims) == 100 and report.page.next_offset == 100
    assert all(len(s.citations) <= 100 for s in report.sides)
    assert all(len(s.citations) <= 10 for c in report.claims for s in c.sides)
    last = status_of_key(engine, key, everyone, offset=150, limit=60)
    assert len(last.claims) == 50 and last.page is not None and last.page.next_offset is None
    listed = [c.claim_id for c in report.claims] + [
        c.claim_id for c in status_of_key(engine, key, everyone, offset=100).claims
    ]
    assert len(set(listed)) == 200  # two pages list every claim once
    assert {c.status.value for c in last.claims} == {"contested"}
    with pytest.raises(InputError, match="limit between 1 and 1000"):
        status_of_key(engine, key, everyone, limit=5000)


def test_a_status_by_key_names_a_page_of_sources_and_counts_only_visible_ones(
    tmp_path: Path,
) -> None:
    # 30 branch notes state 5 EUR and 6 state 9 EUR; every third note is legal-only. A
    # public reader's sides name at most `limit` sources each and count only the public ones
    corpus = {
        "sources": [
            {
                "id": f"notes/{n:02d}",
                "texts": [WORDINGS[n % 2].format(v=5 if n < 30 else 9)],
                "groups": ["legal"] if n % 3 == 0 else [],
                "tier": "official",
            }
            for n in range(36)
        ],
        "supersedes": [],
    }
    engine = _store(corpus, set(), tmp_path)
    key = parse_question(QUESTION).claim_key or ""
    public, legal = Requester(principal="p"), Requester(principal="l", groups=["legal"])
    try:
        report = status_of_key(engine, key, public, limit=8)
        by_value = {s.value: s for s in report.sides}
        five_public = [f"notes/{n:02d}" for n in range(30) if n % 3]
        assert by_value[5].source_count == len(five_public) == 20
        assert by_value[5].source_ids == five_public[:8]
        assert by_value[9].source_count == 4 and len(by_value[9].source_ids) == 4
        assert all(len(s.source_ids) <= 8 for c in report.claims for s in c.sides)
        assert {s.value: s.source_count for s in status_of_key(engine, key, legal).sides} == {
            5: 30,
            9: 6,
        }
        # a claim's own report is not paged: its sides name every visible source
        mine = status_of_claim(engine, report.claims[0].claim_id, public)
        assert sum(s.source_count for s in mine.sides) == sum(len(s.source_ids) for s in mine.sides)
    finally:
        engine.dispose()
