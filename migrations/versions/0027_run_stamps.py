"""Run stamps: a run with nothing changed reads no file record and plans nothing.

A clean ``claims run`` keeps, per set of paths it covered, the digest of every file's status
(path, size, times, inode), the files changed too recently to trust their status (with
their sha256), and the store's counts of versions and extractions. The next run over the
same paths stats every file, and when the digest and the counts are the same and the recent
files still hash as kept, it has nothing to read or plan (claims/run_stamp.py).

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-08
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "run_stamps",
        sa.Column("scope", sa.String(length=64), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("scope", name=op.f("pk_run_stamps")),
    )


def downgrade() -> None:
    op.drop_table("run_stamps")
