"""Migrations: up, down, up again on both backends, and models == migrations."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from claims.store.engine import make_engine
from claims.store.migrate import current_revision, downgrade, upgrade
from claims.store.search import include_in_autogenerate, is_search_table
from claims.tables import Base


def _tables(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        names = set(inspect(engine).get_table_names()) - {"alembic_version"}
        return {name for name in names if not is_search_table(name)}
    finally:
        engine.dispose()


def test_upgrade_downgrade_upgrade_round_trips(database_url: str) -> None:
    upgrade(database_url)
    assert _tables(database_url) == set(Base.metadata.tables)
    assert current_revision(database_url) is not None

    downgrade(database_url)
    assert _tables(database_url) == set()
    assert current_revision(database_url) is None

    upgrade(database_url)
    assert _tables(database_url) == set(Base.metadata.tables)


def test_models_and_migrations_are_in_sync(migrated_url: str) -> None:
    engine = make_engine(migrated_url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(
                conn, opts={"compare_type": True, "include_object": include_in_autogenerate}
            )
            diff = compare_metadata(context, Base.metadata)
    finally:
        engine.dispose()
    assert diff == [], f"models and migrations differ; regenerate the migration: {diff}"


def _search_hits(url: str, word: str) -> list[str]:
    """Claim ids the store's full-text index finds for ``word``, read the way the revision at
    hand lays the index out (per claim up to 0009, per distinct quote from 0010)."""
    from sqlalchemy import text

    per_quote = current_revision(url) >= "0010"
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            if engine.dialect.name == "postgresql":
                table = (
                    "claim_quotes q JOIN claims c ON c.quote_id = q.id" if per_quote else "claims q"
                )
                sql = (
                    f"SELECT {'c' if per_quote else 'q'}.id FROM {table} "
                    "WHERE to_tsvector('english', q.quote) @@ plainto_tsquery('english', :w)"
                )
            else:
                join = "c.quote_id" if per_quote else "c.rowid"
                sql = (
                    f"SELECT c.id FROM claim_quotes_fts f JOIN claims c ON {join} = f.rowid "
                    "WHERE claim_quotes_fts MATCH :w"
                )
            return sorted(conn.execute(text(sql), {"w": word}).scalars())
    finally:
        engine.dispose()


def test_quotes_move_to_one_row_per_version_and_back(database_url: str) -> None:
    """0010 on a store with claims: quotes shared by several claims become one row, every
    claim is linked and found; the downgrade gives back 0003's per-claim index, filled."""
    from sqlalchemy import func, select

    from claims.tables import ClaimQuoteRow
    from tests.retrieval_corpus import Corpus

    upgrade(database_url, "0009")
    corpus = Corpus()
    corpus.source("ferry-timetable", ())
    sentence = "Crossings to the island take 35 minutes on weekdays and 50 minutes on Sundays."
    version = corpus.version("ferry-timetable", sentence)
    weekday = corpus.claim(version, "crossing time", 35, "minute", quote=sentence)
    sunday = corpus.claim(version, "sunday crossing time", 50, "minute", quote=sentence)
    fare = corpus.claim(version, "ferry fare", 4, "EUR", quote="A single ticket costs 4 euros.")
    engine = make_engine(database_url)
    try:
        corpus.write(engine)
    finally:
        engine.dispose()
    assert _search_hits(database_url, "sundays") == sorted([weekday, sunday])

    upgrade(database_url, "0010")
    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            assert conn.scalar(select(func.count()).select_from(ClaimQuoteRow)) == 2
    finally:
        engine.dispose()
    assert _search_hits(database_url, "sundays") == sorted([weekday, sunday])
    assert _search_hits(database_url, "tickets") == [fare]

    downgrade(database_url, "0009")
    assert "claim_quotes" not in _tables(database_url)
    assert _search_hits(database_url, "sundays") == sorted([weekday, sunday])
    assert _search_hits(database_url, "tickets") == [fare]

    upgrade(database_url)
    assert _search_hits(database_url, "island") == sorted([weekday, sunday])


def test_heads_read_from_the_scripts_are_alembics() -> None:
    from alembic.script import ScriptDirectory

    from claims.store.migrate import alembic_config, head_revisions

    scripts = ScriptDirectory.from_config(alembic_config("sqlite://"))
    assert head_revisions() == set(scripts.get_heads())


def test_a_store_at_head_is_opened_without_loading_alembic(sqlite_url: str) -> None:
    """Every command checks the store's revision first; at head that must not cost Alembic's
    import and a read of every script (issue 14.1: start-up)."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    upgrade(sqlite_url)
    probe = (
        "import json, sys\n"
        "from claims.store.migrate import upgrade\n"
        f"note = upgrade({sqlite_url!r})\n"
        "print(json.dumps({'note': note, 'alembic': 'alembic' in sys.modules}))\n"
    )
    repo = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(repo)}
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"note": None, "alembic": False}
    assert current_revision(sqlite_url) is not None
