"""Value-group slots: disagreement among exact values of one slot decided from one row per
value group, not one relation per pair of groups (issue 14.1, distinct values in one slot).

Existing stores get the table empty; the next full recompute (``claims run --full``) fills it
and retires the relations between groups of one slot.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "value_group_slots",
        sa.Column("value_group_id", sa.String(length=64), nullable=False),
        sa.Column("slot_id", sa.String(length=64), nullable=False),
        sa.Column("claim_key", sa.String(length=512), nullable=False),
        sa.Column("value", sa.Float(), nullable=False),
        sa.Column("tier_rank", sa.Integer(), nullable=True),
        sa.Column("high_risk", sa.Boolean(), nullable=False),
        sa.Column("threshold", sa.Float(), nullable=False),
        sa.Column("tier_gap", sa.Integer(), nullable=False),
        sa.Column("generation", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["generation"], ["extractor_generations.id"]),
        sa.PrimaryKeyConstraint("value_group_id"),
    )
    op.create_index(
        "ix_value_group_slots_generation_key", "value_group_slots", ["generation", "claim_key"]
    )


def downgrade() -> None:
    op.drop_index("ix_value_group_slots_generation_key", table_name="value_group_slots")
    op.drop_table("value_group_slots")
