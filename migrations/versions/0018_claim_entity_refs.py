"""Claim entity references as data: name, qualifier and the source the entity is local to.

The readable ``entity`` ("devata (1941 film)", "frederick groves (in doc03)") stays as it
was; these columns hold its parts so that nothing parses the parentheses back. Rows written
before this revision keep nulls and read back with their entity as the name.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # plain ADD COLUMN on both SQLite and PostgreSQL: the claims table keeps its triggers
    op.add_column("claims", sa.Column("entity_name", sa.String(length=512), nullable=True))
    op.add_column("claims", sa.Column("entity_qualifier", sa.String(length=512), nullable=True))
    op.add_column("claims", sa.Column("entity_local_to", sa.String(length=512), nullable=True))


def downgrade() -> None:
    for column in ("entity_local_to", "entity_qualifier", "entity_name"):
        op.drop_column("claims", column)
