"""Value groups: claims of one key grouped by what they state, and disagreements between
groups (issue 14.1: disagreement stored linearly in the claims of a key).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "value_group_claims",
        sa.Column("claim_id", sa.String(length=64), nullable=False),
        sa.Column("value_group_id", sa.String(length=64), nullable=False),
        sa.Column("claim_key", sa.String(length=512), nullable=False),
        sa.Column("generation", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["claim_id"], ["claims.id"]),
        sa.ForeignKeyConstraint(["generation"], ["extractor_generations.id"]),
        sa.PrimaryKeyConstraint("claim_id"),
    )
    op.create_index(
        "ix_value_group_claims_generation_key",
        "value_group_claims",
        ["generation", "claim_key"],
    )
    op.create_index(
        op.f("ix_value_group_claims_value_group_id"), "value_group_claims", ["value_group_id"]
    )
    op.create_table(
        "value_group_relations",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("left_group_id", sa.String(length=64), nullable=False),
        sa.Column("right_group_id", sa.String(length=64), nullable=False),
        sa.Column("claim_key", sa.String(length=512), nullable=False),
        sa.Column("rule", sa.String(length=32), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("material", sa.Boolean(), nullable=True),
        sa.Column("materiality", sa.Float(), nullable=True),
        sa.Column("generation", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("retired_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["generation"], ["extractor_generations.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_value_group_relations_generation_key",
        "value_group_relations",
        ["generation", "claim_key"],
    )


def downgrade() -> None:
    op.drop_index("ix_value_group_relations_generation_key", table_name="value_group_relations")
    op.drop_table("value_group_relations")
    op.drop_index(op.f("ix_value_group_claims_value_group_id"), table_name="value_group_claims")
    op.drop_index("ix_value_group_claims_generation_key", table_name="value_group_claims")
    op.drop_table("value_group_claims")
