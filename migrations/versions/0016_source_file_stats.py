"""Source file stats: a scan reads only the files whose size or times changed.

Each row is what ``os.stat`` said about a source file when its bytes were read and hashed
(size, mtime and ctime in nanoseconds, inode, and when the stat was taken). The scan of the
sources directory stats every file and reads only those whose stat differs from their row,
or whose row is too recent to trust (claims/ingest.py). A store without rows reads every
file, as before.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "source_file_stats",
        sa.Column("path_key", sa.String(length=64), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("size_bytes", sa.BigInteger(), nullable=False),
        sa.Column("mtime_ns", sa.BigInteger(), nullable=False),
        sa.Column("ctime_ns", sa.BigInteger(), nullable=False),
        sa.Column("inode", sa.BigInteger(), nullable=False),
        sa.Column("recorded_ns", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("path_key", name=op.f("pk_source_file_stats")),
    )


def downgrade() -> None:
    op.drop_table("source_file_stats")
