"""Full-text index over each distinct quote of a version, not over every claim (issue 14.1).

A number table's "sentence" is the quote of each of its numbers: 20,000 numbers in a 118 KB
file sent 8.5 MB of quotes through the index, most of the cost of storing them. The quotes
move to ``claim_quotes`` (one row per source version and quote text); each claim points at
its row (``claims.quote_id``). Triggers on ``claims`` keep both: an insert links the claim to
its quote row, making it for the version's first claim with that quote; an update of the
quote re-links; a delete, or an update, drops the quote row no claim points at any more.

SQLite: the FTS5 table ``claim_quotes_fts`` now has ``claim_quotes`` as its content (its
rowid is the quote row's id, which VACUUM keeps), with triggers on ``claim_quotes``.
PostgreSQL: the GIN index over ``to_tsvector('english', quote)`` moves from ``claims`` to
``claim_quotes``; the unique key is (version, md5(quote)), since a btree entry cannot hold a
long quote, and the triggers compare the quote text itself as well.

Existing stores: the quote rows are made from the claims there, every claim linked, the
index rebuilt. The downgrade restores revision 0003's per-claim index, filled again.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FTS = "claim_quotes_fts"
KEY = "uq_claim_quotes_version_quote"
TOKENIZE = "tokenize='porter unicode61 remove_diacritics 2'"

# SQLite: link ``new`` to its quote row (made when missing); release ``old``'s when unused
SQLITE_LINK = (
    "INSERT OR IGNORE INTO claim_quotes (source_version_id, quote) "
    "VALUES (new.source_version_id, new.quote); "
    "UPDATE claims SET quote_id = (SELECT id FROM claim_quotes "
    "WHERE source_version_id = new.source_version_id AND quote = new.quote) "
    "WHERE rowid = new.rowid;"
)
SQLITE_RELEASE = (
    "DELETE FROM claim_quotes WHERE id = old.quote_id "
    "AND NOT EXISTS (SELECT 1 FROM claims WHERE quote_id = old.quote_id);"
)

PG_LINK_FUNCTION = """
CREATE FUNCTION claims_quote_link() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' AND NEW.quote_id IS NOT NULL THEN
        RETURN NEW;
    END IF;
    INSERT INTO claim_quotes (source_version_id, quote)
    VALUES (NEW.source_version_id, NEW.quote)
    ON CONFLICT (source_version_id, md5(quote)) DO NOTHING;
    NEW.quote_id := (SELECT id FROM claim_quotes
                     WHERE source_version_id = NEW.source_version_id
                       AND md5(quote) = md5(NEW.quote) AND quote = NEW.quote);
    RETURN NEW;
END
$$
"""
PG_RELEASE_FUNCTION = """
CREATE FUNCTION claims_quote_release() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.quote_id IS NOT NULL
       AND (TG_OP = 'DELETE' OR NEW.quote_id IS DISTINCT FROM OLD.quote_id) THEN
        DELETE FROM claim_quotes cq WHERE cq.id = OLD.quote_id
          AND NOT EXISTS (SELECT 1 FROM claims c WHERE c.quote_id = OLD.quote_id);
    END IF;
    RETURN NULL;
END
$$
"""


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    if postgres:
        op.execute("DROP INDEX IF EXISTS ix_claims_quote_fts")
    else:
        for trigger in ("claims_fts_insert", "claims_fts_delete", "claims_fts_update"):
            op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        op.execute(f"DROP TABLE IF EXISTS {FTS}")
    op.create_table(
        "claim_quotes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("source_version_id", sa.String(length=64), nullable=False),
        sa.Column("quote", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_claim_quotes")),
    )
    op.add_column("claims", sa.Column("quote_id", sa.Integer(), nullable=True))
    op.create_index(op.f("ix_claims_quote_id"), "claims", ["quote_id"], unique=False)
    if postgres:
        op.execute(f"CREATE UNIQUE INDEX {KEY} ON claim_quotes (source_version_id, md5(quote))")
    else:
        op.execute(f"CREATE UNIQUE INDEX {KEY} ON claim_quotes (source_version_id, quote)")

    # the claims already stored: one quote row per version and quote, every claim linked
    op.execute(
        "INSERT INTO claim_quotes (source_version_id, quote) "
        "SELECT DISTINCT source_version_id, quote FROM claims"
    )
    same = "cq.source_version_id = claims.source_version_id AND cq.quote = claims.quote"
    if postgres:
        same += " AND md5(cq.quote) = md5(claims.quote)"
    op.execute(f"UPDATE claims SET quote_id = (SELECT cq.id FROM claim_quotes cq WHERE {same})")

    if postgres:
        op.execute(
            "CREATE INDEX ix_claim_quotes_fts ON claim_quotes "
            "USING gin (to_tsvector('english', quote))"
        )
        op.execute(PG_LINK_FUNCTION)
        op.execute(PG_RELEASE_FUNCTION)
        op.execute(
            "CREATE TRIGGER claims_quote_link BEFORE INSERT OR UPDATE OF quote, "
            "source_version_id ON claims FOR EACH ROW EXECUTE FUNCTION claims_quote_link()"
        )
        op.execute(
            "CREATE TRIGGER claims_quote_release AFTER DELETE OR UPDATE OF quote, "
            "source_version_id ON claims FOR EACH ROW EXECUTE FUNCTION claims_quote_release()"
        )
        return
    op.execute(
        f"CREATE VIRTUAL TABLE {FTS} USING fts5(quote, content='claim_quotes', "
        f"content_rowid='id', {TOKENIZE})"
    )
    op.execute(
        "CREATE TRIGGER claim_quotes_fts_insert AFTER INSERT ON claim_quotes BEGIN "
        f"INSERT INTO {FTS}(rowid, quote) VALUES (new.id, new.quote); END"
    )
    op.execute(
        "CREATE TRIGGER claim_quotes_fts_delete AFTER DELETE ON claim_quotes BEGIN "
        f"INSERT INTO {FTS}({FTS}, rowid, quote) VALUES ('delete', old.id, old.quote); END"
    )
    op.execute(
        "CREATE TRIGGER claims_quote_insert AFTER INSERT ON claims "
        f"WHEN new.quote_id IS NULL BEGIN {SQLITE_LINK} END"
    )
    op.execute(
        "CREATE TRIGGER claims_quote_update AFTER UPDATE OF quote, source_version_id ON claims "
        f"BEGIN {SQLITE_LINK} {SQLITE_RELEASE} END"
    )
    op.execute(
        f"CREATE TRIGGER claims_quote_delete AFTER DELETE ON claims BEGIN {SQLITE_RELEASE} END"
    )
    op.execute(f"INSERT INTO {FTS}({FTS}) VALUES ('rebuild')")


def downgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    if postgres:
        op.execute("DROP TRIGGER IF EXISTS claims_quote_link ON claims")
        op.execute("DROP TRIGGER IF EXISTS claims_quote_release ON claims")
        op.execute("DROP FUNCTION IF EXISTS claims_quote_link()")
        op.execute("DROP FUNCTION IF EXISTS claims_quote_release()")
        op.execute("DROP INDEX IF EXISTS ix_claim_quotes_fts")
    else:
        for trigger in (
            "claims_quote_insert",
            "claims_quote_update",
            "claims_quote_delete",
            "claim_quotes_fts_insert",
            "claim_quotes_fts_delete",
        ):
            op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        op.execute(f"DROP TABLE IF EXISTS {FTS}")
    op.drop_index(op.f("ix_claims_quote_id"), table_name="claims")
    op.drop_column("claims", "quote_id")  # in place on both (SQLite 3.35+): no table rebuild
    op.execute(f"DROP INDEX IF EXISTS {KEY}")
    op.drop_table("claim_quotes")

    # revision 0003's index: one entry per claim, filled from the claims there
    if postgres:
        op.execute(
            "CREATE INDEX ix_claims_quote_fts ON claims USING gin (to_tsvector('english', quote))"
        )
        return
    op.execute(
        f"CREATE VIRTUAL TABLE {FTS} USING fts5(quote, content='claims', "
        f"content_rowid='rowid', {TOKENIZE})"
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
