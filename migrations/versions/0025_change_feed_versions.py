"""The change feed names the source version a claims change came from, so the edge step can
re-evaluate a large claim key from the claims that changed and the first claims of its
groups instead of every claim of the key (docs/PIPELINE.md, "Session 18: incremental").

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("claim_key_changes", schema=None) as batch_op:
        batch_op.add_column(sa.Column("source_version_id", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("claim_key_changes", schema=None) as batch_op:
        batch_op.drop_column("source_version_id")
