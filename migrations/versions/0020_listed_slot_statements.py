"""Listed values in slots: a slot row may name the sentence that lists it (issue 31.1).

"The timeout is 3, 5 or 8 ms." with hundreds of different lists was compared value group by
value group and stored a relation (and an edge) per disagreeing pair: 400 such lines gave
719,400 edges. Such values now join the slot of their key (``claims/edges/value_groups.py``),
the row of each value group naming its listing sentence (``statement``), and readers decide
disagreement from the values with each list read as a set. NULL for a value stated alone
(every row written before). Slots of one key that differ only in their dimension ("3, 4 or
5 ms": two values carry no unit) share a ``family`` and keep their ``dimension``: readers
decide the ambiguity between them from the values too (NULL / '' before).

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("value_group_slots", sa.Column("statement", sa.String(64), nullable=True))
    op.add_column("value_group_slots", sa.Column("family", sa.String(64), nullable=True))
    op.add_column(
        "value_group_slots",
        sa.Column("dimension", sa.String(64), nullable=False, server_default=""),
    )


def downgrade() -> None:
    # a listed value's row without its sentence would read as a value stated alone: drop
    # them (derived rows; the next edge recompute of the key writes them again)
    op.execute("DELETE FROM value_group_slots WHERE statement IS NOT NULL OR family IS NOT NULL")
    with op.batch_alter_table("value_group_slots") as batch:
        batch.drop_column("dimension")
        batch.drop_column("family")
        batch.drop_column("statement")
