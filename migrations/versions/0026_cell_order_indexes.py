"""Indexes that let the edge step find a large key's cell firsts and coarse keys by seeks
instead of reading every claim of the key (docs/PIPELINE.md, "Session 19").

- ``claims (generation, claim_key, coarse_key)``: a key's distinct coarse keys, one seek each;
- ``value_group_claims (generation, claim_key, value_group_id)``: a key's value groups, one
  seek each (replaces ``(generation, claim_key)``, its prefix);
- SQLite only, made by hand (a long quote could pass PostgreSQL's b-tree row limit):
  ``claims (generation, claim_key, quote, source_id, source_version_id, id)``, a cell's claims
  in the builder's order.

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-08
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# frozen copy of claims.store.search.CELL_ORDER_INDEX's DDL
_CELL_ORDER = (
    "CREATE INDEX ix_claims_key_cell_order ON claims "
    "(generation, claim_key, quote, source_id, source_version_id, id)"
)


def upgrade() -> None:
    op.create_index(
        "ix_claims_generation_key_coarse", "claims", ["generation", "claim_key", "coarse_key"]
    )
    op.create_index(
        "ix_value_group_claims_generation_key_group",
        "value_group_claims",
        ["generation", "claim_key", "value_group_id"],
    )
    op.drop_index("ix_value_group_claims_generation_key", table_name="value_group_claims")
    if op.get_bind().dialect.name == "sqlite":
        op.execute(_CELL_ORDER)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP INDEX ix_claims_key_cell_order")
    op.create_index(
        "ix_value_group_claims_generation_key", "value_group_claims", ["generation", "claim_key"]
    )
    op.drop_index("ix_value_group_claims_generation_key_group", table_name="value_group_claims")
    op.drop_index("ix_claims_generation_key_coarse", table_name="claims")
