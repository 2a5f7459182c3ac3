"""Source profiles: the readers each source's claims are read with (claims.profiles).

``office`` (the default, every existing source) reads with the core alone; ``reference``
adds the encyclopedia-page readers and lends the edge builder and retrieval its judges.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("sources") as batch:
        batch.add_column(
            sa.Column("profile", sa.String(length=32), server_default="office", nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("sources") as batch:
        batch.drop_column("profile")
