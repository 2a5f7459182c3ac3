"""SQLite: the full-text index receives a version's new quote rows in one statement, not
through an AFTER INSERT trigger on ``claim_quotes``.

With the trigger, every quote row inserted was a statement that wrote the FTS5 table, and
FTS5 writes its pending terms out as a new segment at each statement savepoint: a segment
per quote, merged again and again (storing 36,000 quotes took 3.0 s; 0.8 s with the index
filled once per version). ``ClaimRepository.add_all`` (``claims/store/quotes.py``) now adds
the index rows of the quote rows it makes. The claims update trigger, which may make a
quote row, indexes it itself (a row of the FTS5 docsize table says a quote row is indexed);
``claims search --reindex`` rebuilds the whole index as before. The delete trigger stays.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FTS = "claim_quotes_fts"

# revision 0010's frozen statements
LINK = (
    "INSERT OR IGNORE INTO claim_quotes (source_version_id, quote) "
    "VALUES (new.source_version_id, new.quote); "
    "UPDATE claims SET quote_id = (SELECT id FROM claim_quotes "
    "WHERE source_version_id = new.source_version_id AND quote = new.quote) "
    "WHERE rowid = new.rowid;"
)
RELEASE = (
    "DELETE FROM claim_quotes WHERE id = old.quote_id "
    "AND NOT EXISTS (SELECT 1 FROM claims WHERE quote_id = old.quote_id);"
)
# the quote row of ``new``, indexed unless it already is
INDEX_NEW = (
    f"INSERT INTO {FTS}(rowid, quote) SELECT cq.id, cq.quote FROM claim_quotes cq "
    "WHERE cq.source_version_id = new.source_version_id AND cq.quote = new.quote "
    f"AND NOT EXISTS (SELECT 1 FROM {FTS}_docsize d WHERE d.id = cq.id);"
)


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute("DROP TRIGGER IF EXISTS claim_quotes_fts_insert")
    op.execute("DROP TRIGGER IF EXISTS claims_quote_update")
    op.execute(
        "CREATE TRIGGER claims_quote_update AFTER UPDATE OF quote, source_version_id ON claims "
        f"BEGIN {LINK} {INDEX_NEW} {RELEASE} END"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute("DROP TRIGGER IF EXISTS claims_quote_update")
    op.execute(
        "CREATE TRIGGER claims_quote_update AFTER UPDATE OF quote, source_version_id ON claims "
        f"BEGIN {LINK} {RELEASE} END"
    )
    op.execute(
        "CREATE TRIGGER claim_quotes_fts_insert AFTER INSERT ON claim_quotes BEGIN "
        f"INSERT INTO {FTS}(rowid, quote) VALUES (new.id, new.quote); END"
    )
