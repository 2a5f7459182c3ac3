"""Full-text index over claim quotes (candidate claims for questions worded differently).

SQLite: an FTS5 table with external content (``claims``), English Porter stemming, kept in
step by triggers on insert, delete and quote update, filled from the rows already there.
PostgreSQL: a GIN index over ``to_tsvector('english', quote)``.
Queries live in ``claims.store.search``.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FTS = "claim_quotes_fts"


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE INDEX ix_claims_quote_fts ON claims "
            "USING gin (to_tsvector('english', quote))"
        )
        return
    op.execute(
        f"CREATE VIRTUAL TABLE {FTS} USING fts5(quote, content='claims', "
        "content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2')"
    )
    op.execute(
        f"CREATE TRIGGER claims_fts_insert AFTER INSERT ON claims BEGIN "
        f"INSERT INTO {FTS}(rowid, quote) VALUES (new.rowid, new.quote); END"
    )
    op.execute(
        f"CREATE TRIGGER claims_fts_delete AFTER DELETE ON claims BEGIN "
        f"INSERT INTO {FTS}({FTS}, rowid, quote) VALUES ('delete', old.rowid, old.quote); END"
    )
    op.execute(
        f"CREATE TRIGGER claims_fts_update AFTER UPDATE OF quote ON claims BEGIN "
        f"INSERT INTO {FTS}({FTS}, rowid, quote) VALUES ('delete', old.rowid, old.quote); "
        f"INSERT INTO {FTS}(rowid, quote) VALUES (new.rowid, new.quote); END"
    )
    op.execute(f"INSERT INTO {FTS}({FTS}) VALUES ('rebuild')")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP INDEX IF EXISTS ix_claims_quote_fts")
        return
    for trigger in ("claims_fts_insert", "claims_fts_delete", "claims_fts_update"):
        op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    op.execute(f"DROP TABLE IF EXISTS {FTS}")
