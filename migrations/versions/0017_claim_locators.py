"""Claim locators (where each claim stands in the original file), and a flag on a claim's
time whose year the text did not give.

A JSON object with the set fields of ``claims.documents.Locator`` (page, heading path,
paragraph, list item, table, row, column and their headers); NULL for claims extracted
before documents were read by their structure.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("claims") as batch:
        batch.add_column(sa.Column("locator", sa.JSON(), nullable=True))
        batch.add_column(
            sa.Column("time_year_inferred", sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("claims") as batch:
        batch.drop_column("time_year_inferred")
        batch.drop_column("locator")
