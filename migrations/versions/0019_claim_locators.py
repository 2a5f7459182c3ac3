"""Claim locators (where each claim stands in the original file), and a flag on a claim's
time whose year the text did not give.

A JSON object with the set fields of ``claims.documents.Locator`` (page, heading path,
paragraph, list item, table, row, column and their headers); NULL for claims extracted
before documents were read by their structure.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # plain ADD COLUMN (SQLite and PostgreSQL both have it): a batch copy of the claims
    # table would drop its quote triggers (migrations 0010 and 0013)
    op.add_column("claims", sa.Column("locator", sa.JSON(), nullable=True))
    op.add_column(
        "claims",
        sa.Column("time_year_inferred", sa.Boolean(), server_default=sa.false(), nullable=False),
    )


def downgrade() -> None:
    op.drop_column("claims", "time_year_inferred")
    op.drop_column("claims", "locator")
