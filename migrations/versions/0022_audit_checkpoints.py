"""Audit checkpoints: the chain's (row count, head hash) at moments, to export and compare.

``claims audit checkpoint`` and every pipeline run write one; ``claims audit checkpoints
--json`` exports them; ``claims audit verify`` checks each against the chain, and
``verify --expect HASH`` checks a head kept elsewhere (docs/REVIEW.md, "Anchoring the chain").

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "audit_checkpoints",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rows", sa.Integer(), nullable=False),
        sa.Column("head_hash", sa.String(length=64), nullable=False),
        sa.Column("written_by", sa.String(length=256), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_checkpoints")),
    )


def downgrade() -> None:
    op.drop_table("audit_checkpoints")
