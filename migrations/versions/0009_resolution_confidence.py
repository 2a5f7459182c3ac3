"""Resolution confidence: how sure the decider is, stored on the resolution (issue 16,
seed 001: extraction confidence, source authority and resolution confidence kept apart).

Existing resolutions get NULL (not stated).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain ADD COLUMN: both SQLite and PostgreSQL do it in place, no table rebuild.
    op.add_column("resolutions", sa.Column("confidence", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("resolutions") as batch:
        batch.drop_column("confidence")
