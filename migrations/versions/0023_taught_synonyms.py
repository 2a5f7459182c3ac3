"""Taught synonyms: reviewers say two attributes are one thing (or two), and the claims a
teaching re-keyed keep their extracted key for a withdrawal to restore (docs/REVIEW.md,
"Taught synonyms").

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "taught_synonyms",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("relation", sa.String(length=16), nullable=False),
        sa.Column("left_phrase", sa.String(length=256), nullable=False),
        sa.Column("right_phrase", sa.String(length=256), nullable=False),
        sa.Column("from_attribute", sa.String(length=512), nullable=False),
        sa.Column("to_attribute", sa.String(length=512), nullable=False),
        sa.Column("split_words", sa.String(length=256), nullable=True),
        sa.Column("kept_words", sa.String(length=256), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("taught_by", sa.String(length=256), nullable=False),
        sa.Column("taught_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("withdrawn_by", sa.String(length=256), nullable=True),
        sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("withdraw_reason", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_taught_synonyms")),
    )
    with op.batch_alter_table("taught_synonyms", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_taught_synonyms_from_attribute"), ["from_attribute"], unique=False
        )
    op.create_table(
        "claim_taught_keys",
        sa.Column("claim_id", sa.String(length=64), nullable=False),
        sa.Column("extracted_claim_key", sa.String(length=512), nullable=False),
        sa.Column("extracted_coarse_key", sa.String(length=512), nullable=True),
        sa.Column("extracted_attribute", sa.String(length=512), nullable=True),
        sa.ForeignKeyConstraint(
            ["claim_id"],
            ["claims.id"],
            name=op.f("fk_claim_taught_keys_claim_id_claims"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("claim_id", name=op.f("pk_claim_taught_keys")),
    )
    with op.batch_alter_table("claim_taught_keys", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_claim_taught_keys_extracted_attribute"),
            ["extracted_attribute"],
            unique=False,
        )


def downgrade() -> None:
    with op.batch_alter_table("claim_taught_keys", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_claim_taught_keys_extracted_attribute"))
    op.drop_table("claim_taught_keys")
    with op.batch_alter_table("taught_synonyms", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_taught_synonyms_from_attribute"))
    op.drop_table("taught_synonyms")
