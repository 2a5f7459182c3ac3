"""Cheaper claim inserts: no per-claim quote trigger on SQLite, no duplicate key indexes.

Every writer stores claims through ``ClaimRepository.add_all``, which links each claim to its
quote row before the insert (``claims/store/quotes.py``), so on SQLite the AFTER INSERT
trigger of revision 0010 never did anything but its WHEN test. Its presence alone made each
claim insert about twice as slow: a table with an AFTER INSERT trigger makes SQLite keep a
statement journal for every row written, copying each index page an insert touches.
``claims search --reindex`` (``rebuild_search_index``) still links a claim written around
the repository. The update and delete triggers stay (they are not on the insert path).

``claims (generation, claim_key)`` and ``edges (generation, claim_key)`` are prefixes of the
``(generation, claim_key, id | source_id)`` and ``(generation, claim_key, kind)`` indexes of
revision 0011: every query they served is served by those, and each index is one more B-tree
written per claim and per edge.

PostgreSQL keeps its BEFORE INSERT link function (it returns at once for a linked claim).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# revision 0010's frozen link statements, for the downgrade
SQLITE_LINK = (
    "INSERT OR IGNORE INTO claim_quotes (source_version_id, quote) "
    "VALUES (new.source_version_id, new.quote); "
    "UPDATE claims SET quote_id = (SELECT id FROM claim_quotes "
    "WHERE source_version_id = new.source_version_id AND quote = new.quote) "
    "WHERE rowid = new.rowid;"
)

PREFIX_INDEXES = (
    ("ix_claims_generation_claim_key", "claims", ["generation", "claim_key"]),
    ("ix_edges_generation_claim_key", "edges", ["generation", "claim_key"]),
)


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS claims_quote_insert")
    for name, table, _columns in PREFIX_INDEXES:
        op.drop_index(name, table_name=table)


def downgrade() -> None:
    for name, table, columns in PREFIX_INDEXES:
        op.create_index(name, table, columns)
    if op.get_bind().dialect.name == "sqlite":
        op.execute(
            "CREATE TRIGGER claims_quote_insert AFTER INSERT ON claims "
            f"WHEN new.quote_id IS NULL BEGIN {SQLITE_LINK} END"
        )
