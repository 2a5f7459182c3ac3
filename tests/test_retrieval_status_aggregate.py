"""The aggregate reading of a status by key equals the claim-by-claim reading (issue 14.1).

``retrieval.key_aggregate`` answers a status by key from value-group aggregates (one
bounded SQL read) instead of loading every claim of the key. It must give exactly the
report the claim-by-claim reading gives, for every requester and page, and decline
(None) wherever the groups do not say everything. Stores are built like a pipeline run:
real extraction, the register, ``recompute_edges`` (and routing for review items).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from retrieval_cases import CASE_IDS, CASES, load_case
from sqlalchemy import Engine
from test_value_groups_visibility import QUESTION, VALUES, WORDINGS, _store

from claims.edge_refresh import recompute_edges
from claims.errors import ClaimLedgerError
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
from retrieval.evidence import NOW, AsOf
from retrieval.key_aggregate import aggregate_status_of_key
from retrieval.key_summary import KeySummaries
from retrieval.status import CLAIM_SIDE_LIMIT, status_of_key
from tests.store_template import upgrade  # a copy of a store migrated once

GROUPS = ["finance", "legal"]
READERS = [
    Requester(principal="anyone"),
    Requester(principal="fin", groups=["finance"]),
    Requester(principal="lee", groups=["legal"]),
    Requester(principal="all", groups=["finance", "legal"]),
]
PAGES = [(0, 100), (0, 1), (0, 5), (3, 4), (11, 7), (40, 10), (200, 3)]
KEY = parse_question(QUESTION).claim_key or ""


def _outcome(call: Callable[[], Any]) -> str:
    try:
        return json.dumps(call().model_dump(mode="json"), sort_keys=True)
    except ClaimLedgerError as error:
        return f"{type(error).__name__}: {error}"


# One kept summary per store, shared by every reader and page of a test, as the HTTP service
# shares one (retrieval.key_summary): the reading from it must equal the other two.
_KEPT: WeakKeyDictionary[Engine, KeySummaries] = WeakKeyDictionary()


def _both(engine: Engine, key: str, reader: Requester, offset: int, limit: int) -> list[str]:
    """The aggregate and the claim-by-claim readings (the aggregate one checked equal to the
    one from a kept summary of the key's cells)."""
    fast, slow = (
        _outcome(
            lambda a=aggregate: status_of_key(
                engine, key, reader, offset=offset, limit=limit, aggregate=a
            )
        )
        for aggregate in (True, False)
    )
    kept = _KEPT.setdefault(engine, KeySummaries())
    from_summary = _outcome(
        lambda: status_of_key(engine, key, reader, offset=offset, limit=limit, summaries=kept)
    )
    assert from_summary == fast, (reader, offset, limit)
    return [fast, slow]


def _answers(engine: Engine, key: str, reader: Requester, as_of: AsOf = NOW) -> bool:
    """Whether the aggregate reading answers (rather than declines) for ``reader``."""
    with engine.connect() as conn:
        try:
            found = aggregate_status_of_key(conn, key, reader, as_of, 0, 100, CLAIM_SIDE_LIMIT)
        except ClaimLedgerError:
            return True  # answered: nothing visible
    return found is not None


def _notes(url: str, notes: list[dict[str, Any]], supersedes: list[tuple[str, str]]) -> Engine:
    """A store of branch notes: id, text, access groups and tier per note."""
    upgrade(url)  # a migrated store (a no-op for a migrated one)
    engine = make_engine(url)
    generation, label = current_generation()
    with transaction(engine) as session:
        GenerationRepository(session).ensure(generation, label)
        sources = SourceRepository(session)
        for note in notes:
            version, _ = sources.add_version(note["id"], note["text"])
            ClaimRepository(session).add_all(
                extract(note["text"], source_id=note["id"], source_version_id=version.id)
            )
        for note in notes:
            sources.apply_register_entry(
                Source(
                    id=note["id"],
                    authority_tier=note["tier"],
                    access_groups=note["groups"],
                    supersedes=[
                        SupersedesRef(source_id=o) for n, o in supersedes if n == note["id"]
                    ],
                )
            )
        recompute_edges(session, generation)
    return engine


def _branch_notes(count: int) -> list[dict[str, Any]]:
    """Branch notes stating the visitor parking fee: five exact values and a rough one, a
    third legal-only, every seventh finance-only, a few from the reference tier, some
    notes stating the fee twice (a second sentence in other words)."""
    notes = []
    for n in range(count):
        value = [5, 7, 9, 12, 5.1, "about 8"][n % 6]
        text = WORDINGS[n % 3].format(v=value)
        if n % 5 == 4:
            text += " " + WORDINGS[1].format(v=9)
        notes.append(
            {
                "id": f"branch/{'b' if n % 2 else 'a'}-{n:03d}",
                "text": f"Notice to visitors {n}.\n\n{text}\n",
                "groups": ["legal"] if n % 3 == 0 else ["finance"] if n % 7 == 0 else [],
                "tier": "reference" if n % 8 == 5 else "official",
            }
        )
    return notes


def test_the_aggregate_reading_equals_the_claim_by_claim_one_for_every_reader(
    migrated_url: str,
) -> None:
    engine = _notes(migrated_url, _branch_notes(60), [])
    try:
        for reader in READERS:
            assert _answers(engine, KEY, reader), reader
            for offset, limit in PAGES:
                fast, slow = _both(engine, KEY, reader, offset, limit)
                assert fast == slow, (reader, offset, limit)
        report = status_of_key(engine, KEY, READERS[3])
        assert report.status.value == "contested"
        assert report.page is not None and report.page.total > 60
    finally:
        engine.dispose()


def test_the_aggregate_reading_declines_where_the_groups_do_not_say_everything(
    migrated_url: str,
) -> None:
    notes = _branch_notes(24)
    # a newer public note replaces branch/a-002; a finance-only note replaces branch/b-001
    notes += [
        {"id": "branch/new", "text": WORDINGS[0].format(v=11), "groups": [], "tier": "official"},
        {
            "id": "branch/fin",
            "text": WORDINGS[1].format(v=13),
            "groups": ["finance"],
            "tier": "official",
        },
    ]
    engine = _notes(
        migrated_url, notes, [("branch/new", "branch/a-002"), ("branch/fin", "branch/b-001")]
    )
    try:
        # the public supersession is visible to every reader: read claim by claim
        assert not any(_answers(engine, KEY, reader) for reader in READERS)
        for reader in READERS:
            for offset, limit in PAGES[:4]:
                fast, slow = _both(engine, KEY, reader, offset, limit)
                assert fast == slow
        # a past reading is always read claim by claim
        assert not _answers(engine, KEY, READERS[0], AsOf(effective=date(2020, 1, 1)))
    finally:
        engine.dispose()


def test_a_supersession_the_reader_cannot_see_leaves_the_aggregate_reading_exact(
    tmp_path: Path,
) -> None:
    notes = _branch_notes(18) + [
        {
            "id": "branch/fin",
            "text": WORDINGS[1].format(v=13),
            "groups": ["finance"],
            "tier": "official",
        }
    ]
    engine = _notes(f"sqlite:///{tmp_path / 'claims.db'}", notes, [("branch/fin", "branch/b-001")])
    try:
        anyone, fin = READERS[0], READERS[1]
        assert _answers(engine, KEY, anyone)  # the replacing note is hidden from anyone
        assert not _answers(engine, KEY, fin)  # fin sees it replace branch/b-001
        for reader in (anyone, fin):
            fast, slow = _both(engine, KEY, reader, 0, 100)
            assert fast == slow
    finally:
        engine.dispose()


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_a_review_item_at_the_key_is_read_claim_by_claim(
    case: dict[str, Any], tmp_path: Path
) -> None:
    # seed 004's cases (a conflict routed to review, a restatement, a superseded note),
    # the first document legal-only: where an item exists the aggregate reading declines;
    # every key reads the same either way
    upgrade(f"sqlite:///{tmp_path / 'claims.db'}")
    engine = make_engine(f"sqlite:///{tmp_path / 'claims.db'}")
    load_case(engine, case, {case["documents"][0]["id"]: ["legal"]})
    with engine.connect() as conn:
        keys = sorted({r[0] for r in conn.exec_driver_sql("SELECT claim_key FROM claims")})
        reviewed = {r[0] for r in conn.exec_driver_sql("SELECT claim_key FROM review_items")}
    try:
        for key in keys:
            for reader in READERS:
                if key in reviewed:
                    assert not _answers(engine, key, reader)
                fast, slow = _both(engine, key, reader, 0, 100)
                assert fast == slow, key
    finally:
        engine.dispose()


@st.composite
def corpora(draw: st.DrawFn) -> dict[str, Any]:
    """Up to 9 sources of one or two versions, each version one or two sentences."""
    sources = []
    for n in range(draw(st.integers(1, 9))):
        texts = []
        for _ in range(draw(st.integers(1, 2))):
            sentences = [
                draw(st.sampled_from(WORDINGS)).format(v=draw(st.sampled_from(VALUES)))
                for _ in range(draw(st.integers(1, 2)))
            ]
            texts.append(" ".join(sentences))
        sources.append(
            {
                "id": f"p/{draw(st.sampled_from(['a', 'B', 'c']))}{n}",
                "texts": texts,
                "groups": draw(st.lists(st.sampled_from(GROUPS), max_size=2, unique=True)),
                "tier": draw(st.sampled_from(["official", "official", "reference", "blog"])),
            }
        )
    supersedes: list[tuple[str, str]] = []
    if len(sources) > 1 and draw(st.integers(0, 3)) == 0:
        newer, older = draw(st.permutations([s["id"] for s in sources]))[:2]
        supersedes.append((newer, older))
    return {"sources": sources, "supersedes": supersedes}


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    corpus=corpora(),
    groups=st.lists(st.sampled_from(GROUPS), max_size=2, unique=True),
    page=st.tuples(st.integers(0, 12), st.integers(1, 12)),
)
def test_random_stores_read_the_same_both_ways_and_over_the_visible_sources(
    corpus: dict[str, Any],
    groups: list[str],
    page: tuple[int, int],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    requester = Requester(principal="p", groups=sorted(groups))
    hidden = {
        s["id"] for s in corpus["sources"] if not source_visible(s["groups"], False, requester)
    }
    whole = _store(corpus, set(), tmp_path_factory.mktemp("whole"))
    visible_only = _store(corpus, hidden, tmp_path_factory.mktemp("visible"))
    try:
        for reader in READERS:
            for offset, limit in (page, (0, 100)):
                fast, slow = _both(whole, KEY, reader, offset, limit)
                assert fast == slow, (reader, offset, limit)
        event("aggregate reading" if _answers(whole, KEY, requester) else "claim by claim")
        # view equivalence: the response over the whole store is the one over the visible one
        assert _both(whole, KEY, requester, *page) == _both(visible_only, KEY, requester, *page)
    finally:
        whole.dispose()
        visible_only.dispose()
