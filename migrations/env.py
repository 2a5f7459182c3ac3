"""Alembic environment: one metadata (claims.tables), URL from claimledger settings."""

from __future__ import annotations

from alembic import context

from claims.settings import get_settings
from claims.store.engine import make_migration_engine
from claims.store.search import include_in_autogenerate
from claims.tables import Base

config = context.config
target_metadata = Base.metadata


def _database_url() -> str:
    return config.attributes.get("database_url") or get_settings().resolved_database_url


def run_migrations_offline() -> None:
    url = _database_url()
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=url.startswith("sqlite"),
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_migration_engine(_database_url())
    try:
        with engine.connect() as conn:
            _run(conn)
    finally:
        engine.dispose()


def _run(connection) -> None:  # type: ignore[no-untyped-def]
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        include_object=include_in_autogenerate,
        # Alembic assumes SQLite cannot roll back DDL and commits piecemeal; it can (see
        # make_migration_engine), so every pending migration and its version row are one
        # transaction: a store is created (or upgraded) whole, or not at all.
        transactional_ddl=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
