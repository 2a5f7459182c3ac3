"""Approximate slots: a slot row may hold an interval (issue 14.1, distinct approximate values).

"The deposit is about N EUR" with thousands of distinct N was compared value group by value
group and stored a relation per disagreeing pair. Such groups now form *approximate slots*
(``claims/edges/value_groups.py``): the row of each value group carries the interval its
approximate value admits (``low``, ``high``), and readers decide disagreement from the
extremes as for exact points. NULL in a point slot (every row written before).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("value_group_slots", sa.Column("low", sa.Float(), nullable=True))
    op.add_column("value_group_slots", sa.Column("high", sa.Float(), nullable=True))


def downgrade() -> None:
    # an interval row without its interval would read as a point: drop them (derived rows;
    # the next edge recompute of the key writes them again, as relations or point slots)
    op.execute("DELETE FROM value_group_slots WHERE low IS NOT NULL OR high IS NOT NULL")
    with op.batch_alter_table("value_group_slots") as batch:
        batch.drop_column("high")
        batch.drop_column("low")
