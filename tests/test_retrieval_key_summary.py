"""A key's kept summary (retrieval.key_summary) follows the store (issue 14.1, session 8).

The HTTP service keeps each key's cells per grant set between requests. Whatever changes in
the store, a status read from the kept summary must equal the claim-by-claim reading, for
every reader; the summary is reused while nothing about the key changed and made again
when the change feed names the key, when claims were written without it, or when the feed
was pruned. Stores are built like a pipeline run (real extraction, the register,
``recompute_edges``); changes go through the same writers the pipeline and the register use.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, text
from test_retrieval_status_aggregate import KEY, READERS, _branch_notes, _notes, _outcome
from test_value_groups_visibility import WORDINGS

from claims.edge_refresh import recompute_edges
from claims.extraction import current_generation, extract
from claims.models import Requester, Source
from claims.register import Register, RegisterEntry, apply_register
from claims.store import ClaimRepository, SourceRepository, transaction
from claims.store.changes import CLAIMS, record_changes, record_version_changes
from retrieval.key_summary import KeySummaries
from retrieval.status import status_of_key

PAGES = [(0, 100), (3, 4), (0, 1)]


def _same_as_claim_by_claim(engine: Engine, kept: KeySummaries) -> None:
    for reader in READERS:
        for offset, limit in PAGES:
            from_summary = _outcome(
                lambda r=reader, o=offset, n=limit: status_of_key(
                    engine, KEY, r, offset=o, limit=n, summaries=kept
                )
            )
            slow = _outcome(
                lambda r=reader, o=offset, n=limit: status_of_key(
                    engine, KEY, r, offset=o, limit=n, aggregate=False
                )
            )
            assert from_summary == slow, (reader, offset, limit)


def _register(engine: Engine, *sources: Source) -> None:
    """Apply register entries the way ``claims register apply`` does (change feed, audit)."""
    register = Register(
        path=Path("register.yaml"),
        tiers=("official", "reference"),
        entries={s.id: RegisterEntry(source=s, line=n + 1) for n, s in enumerate(sources)},
    )
    with transaction(engine) as session:
        assert apply_register(session, register) == [s.id for s in sources]


def _add_note(engine: Engine, source_id: str, body: str, *, record: bool) -> None:
    """A new note, written like ``claims run`` writes one (``record``: with its change feed
    rows, as the pipeline's claims asset does)."""
    generation, _ = current_generation()
    with transaction(engine) as session:
        version, _ = SourceRepository(session).add_version(source_id, body)
        ClaimRepository(session).add_all(
            extract(body, source_id=source_id, source_version_id=version.id)
        )
        if record:
            record_version_changes(session, [version.id], generation)
        recompute_edges(session, generation)


def _status_sum(engine: Engine, kept: KeySummaries) -> Any:
    report = status_of_key(engine, KEY, READERS[0], summaries=kept)
    return report.page.total if report.page else None


def test_a_kept_summary_is_reused_until_the_store_changes_the_key(migrated_url: str) -> None:
    engine = _notes(migrated_url, _branch_notes(30), [])
    kept = KeySummaries()
    try:
        _same_as_claim_by_claim(engine, kept)
        assert kept.made == 1  # one summary answered four readers and three pages
        public = _status_sum(engine, kept)

        # a change of another key leaves it
        with transaction(engine) as session:
            record_changes(session, ["branch:opening hours"], CLAIMS)
        _same_as_claim_by_claim(engine, kept)
        assert kept.made == 1

        # a public note made legal-only through the register (grants are per source, so
        # the public reader loses it and the summary is made again)
        _register(
            engine, Source(id="branch/b-001", authority_tier="official", access_groups=["legal"])
        )
        _same_as_claim_by_claim(engine, kept)
        assert kept.made == 2
        assert _status_sum(engine, kept) == public - 1

        # a note withdrawn
        _register(engine, Source(id="branch/a-002", authority_tier="official", withdrawn=True))
        _same_as_claim_by_claim(engine, kept)
        assert kept.made == 3

        # a new note, written with its change feed rows
        _add_note(engine, "branch/new", WORDINGS[1].format(v=11), record=True)
        _same_as_claim_by_claim(engine, kept)
        assert kept.made == 4
    finally:
        engine.dispose()


def test_claims_written_without_the_feed_or_a_pruned_feed_make_it_again(
    migrated_url: str,
) -> None:
    engine = _notes(migrated_url, _branch_notes(20), [])
    kept = KeySummaries()
    try:
        _same_as_claim_by_claim(engine, kept)
        before = _status_sum(engine, kept)
        # claims of the key written by a writer that records no change: the count of the
        # key's claims differs from the summary's
        _add_note(engine, "branch/quiet", WORDINGS[0].format(v=12), record=False)
        _same_as_claim_by_claim(engine, kept)
        assert kept.made == 2
        assert _status_sum(engine, kept) == before + 1

        # the feed pruned past the summary (rows naming the key may be gone): every kept
        # summary is dropped, even though this key's claims did not change
        with transaction(engine) as session:
            record_changes(session, ["branch:opening hours", "branch:phone"], CLAIMS)
        _same_as_claim_by_claim(engine, kept)
        assert kept.made == 2
        with engine.begin() as conn:
            conn.execute(
                text(
                    "DELETE FROM claim_key_changes WHERE id < "
                    "(SELECT max(id) FROM claim_key_changes)"
                )
            )
        _same_as_claim_by_claim(engine, kept)
        assert kept.made == 3
    finally:
        engine.dispose()


def test_group_names_with_any_characters_are_read_back_as_written(migrated_url: str) -> None:
    # the grouped read writes a grant set as length-prefixed names; a name holding a colon,
    # digits or letters outside ASCII must come back whole, or a reader would see too much
    engine = _notes(migrated_url, _branch_notes(12), [])
    kept = KeySummaries()
    odd = ["ops:2", "3:x", "équipe β"]
    try:
        _register(
            engine,
            Source(id="branch/b-001", authority_tier="official", access_groups=odd[:2]),
            Source(id="branch/a-002", authority_tier="official", access_groups=odd[2:]),
        )
        readers = [Requester(principal=f"r{n}", groups=[name]) for n, name in enumerate(odd)]
        readers += [
            Requester(principal="x", groups=["x"]),
            Requester(principal="ops", groups=["ops"]),
        ]
        for reader in readers:
            from_summary = status_of_key(engine, KEY, reader, summaries=kept)
            assert from_summary == status_of_key(engine, KEY, reader, aggregate=False), reader
        assert kept.made == 1
        totals = [status_of_key(engine, KEY, r, summaries=kept).page for r in readers]
        # each odd group sees its one note more than a reader of a group nobody granted
        assert [p.total for p in totals if p] == [totals[-1].total + 1] * 3 + [totals[-1].total] * 2
    finally:
        engine.dispose()
