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
