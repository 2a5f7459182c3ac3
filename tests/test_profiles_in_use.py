"""The profiles a store's sources are read with, as retrieval and the edge builder ask for
them on every question and run (one index seek per profile in use), on both backends."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine

from claims.store import make_engine, transaction
from claims.store.sources import SourceRepository, profiles_in_use, record_profiles


@pytest.fixture
def store(migrated_url: str) -> Iterator[Engine]:
    engine = make_engine(migrated_url)
    yield engine
    engine.dispose()


def _in_use(engine: Engine) -> set[str]:
    with engine.connect() as conn:
        return profiles_in_use(conn)


def test_an_empty_store_uses_no_profile(store: Engine) -> None:
    assert _in_use(store) == set()


def test_every_profile_some_source_uses_and_only_those(store: Engine) -> None:
    with transaction(store) as session:
        sources = SourceRepository(session)
        for source_id in ("handbook", "atlas-page", "catalogue", "almanac-page"):
            sources.add_version(source_id, f"The text of {source_id}.")
    assert _in_use(store) == {"office"}  # the default of every new source
    with transaction(store) as session:
        record_profiles(session, {"atlas-page": "reference", "almanac-page": "reference"})
    assert _in_use(store) == {"office", "reference"}
    with transaction(store) as session:
        record_profiles(session, {"handbook": "reference", "catalogue": "reference"})
    assert _in_use(store) == {"reference"}
    with transaction(store) as session:
        assert profiles_in_use(session) == {"reference"}  # a session reads the same
