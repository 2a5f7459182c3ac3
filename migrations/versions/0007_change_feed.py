"""The store records progress: a change feed of claim keys, one cursor per consumer, and
which source versions were extracted in which generation (issue 15, point 1).

Existing stores get a ``version_extractions`` row for every (version, generation) that has
claims, so the first run after the upgrade does not extract them again; consumers have no
cursor yet, so that run refreshes the graph in full once.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "claim_key_changes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("claim_key", sa.String(length=512), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("generation", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_claim_key_changes")),
    )
    op.create_table(
        "consumer_cursors",
        sa.Column("consumer", sa.String(length=64), nullable=False),
        sa.Column("change_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("consumer", name=op.f("pk_consumer_cursors")),
    )
    op.create_table(
        "version_extractions",
        sa.Column("source_version_id", sa.String(length=64), nullable=False),
        sa.Column("generation", sa.String(length=64), nullable=False),
        sa.Column("claims", sa.Integer(), nullable=False),
        sa.Column("extracted_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["generation"],
            ["extractor_generations.id"],
            name=op.f("fk_version_extractions_generation_extractor_generations"),
        ),
        sa.ForeignKeyConstraint(
            ["source_version_id"],
            ["source_versions.id"],
            name=op.f("fk_version_extractions_source_version_id_source_versions"),
        ),
        sa.PrimaryKeyConstraint(
            "source_version_id", "generation", name=op.f("pk_version_extractions")
        ),
    )
    op.execute(
        "INSERT INTO version_extractions (source_version_id, generation, claims, extracted_at) "
        "SELECT source_version_id, generation, COUNT(*), MIN(created_at) FROM claims "
        "GROUP BY source_version_id, generation"
    )


def downgrade() -> None:
    op.drop_table("version_extractions")
    op.drop_table("consumer_cursors")
    op.drop_table("claim_key_changes")
