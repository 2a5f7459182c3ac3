"""Indexes for the aggregate status of a large claim key (issue 14.1).

A status by key of 10,000 claims is composed from value-group aggregates
(``retrieval/key_aggregate.py``); besides one grouped pass over the key, it reads a page of
claims in claim id order and each value group's first claims in source order, and checks
that the key's block holds no edge the groups do not say. Each of these stops after a few
rows when an index walks the key in that order:

- ``claims (generation, claim_key, id)``: the page, by claim id;
- ``claims (generation, claim_key, source_id)``: first claims and sources by citation order;
- ``edges (generation, claim_key, kind)``: an edge of another kind in the key's block
  (the block holds about two group edges per claim).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEXES = (
    ("ix_claims_generation_key_id", "claims", ["generation", "claim_key", "id"]),
    ("ix_claims_generation_key_source", "claims", ["generation", "claim_key", "source_id"]),
    ("ix_edges_generation_key_kind", "edges", ["generation", "claim_key", "kind"]),
)


def upgrade() -> None:
    for name, table, columns in INDEXES:
        op.create_index(name, table, columns)


def downgrade() -> None:
    for name, table, _columns in reversed(INDEXES):
        op.drop_index(name, table_name=table)
