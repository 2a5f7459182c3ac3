"""Claims carry their entity and attribute (claim identity), indexed per generation.

Rows written before this revision get their claim key as the attribute and no entity,
which is what the extractor of their generation meant by the key.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # plain ALTER TABLE ADD COLUMN (no batch copy): SQLite keeps the table and the
    # triggers other revisions put on it
    op.add_column("claims", sa.Column("entity", sa.String(length=512), nullable=True))
    op.add_column("claims", sa.Column("attribute", sa.String(length=512), nullable=True))
    op.create_index("ix_claims_generation_entity", "claims", ["generation", "entity"])
    op.create_index("ix_claims_generation_attribute", "claims", ["generation", "attribute"])
    op.execute("UPDATE claims SET attribute = claim_key WHERE attribute IS NULL")


def downgrade() -> None:
    with op.batch_alter_table("claims", schema=None) as batch_op:
        batch_op.drop_index("ix_claims_generation_attribute")
        batch_op.drop_index("ix_claims_generation_entity")
        batch_op.drop_column("attribute")
        batch_op.drop_column("entity")
