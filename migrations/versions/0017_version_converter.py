"""Source versions name the converter that made their text.

A version's text is its file converted to Markdown-flavoured text (claims/documents/
converters): ``converter`` and ``converter_version`` say which converter and which version
of it made the stored text, so a newer converter re-derives the text from the file (never
a new version: the identity stays the sha256 of the bytes). Versions stored before this
revision are ``.txt``/``.md`` files decoded as UTF-8: their converter is ``utf-8-text`` 1.
``text_sha256`` is the checksum of a converted text (the file's bytes are not stored, so the
integrity check compares the text with it); NULL where ``sha256`` covers the text.

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
    # A plain ADD COLUMN: both SQLite and PostgreSQL do it in place, no table rebuild.
    op.add_column(
        "source_versions",
        sa.Column("converter", sa.String(length=64), nullable=False, server_default="utf-8-text"),
    )
    op.add_column(
        "source_versions",
        sa.Column("converter_version", sa.String(length=128), nullable=False, server_default="1"),
    )
    op.add_column("source_versions", sa.Column("text_sha256", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("source_versions") as batch:
        batch.drop_column("text_sha256")
        batch.drop_column("converter_version")
        batch.drop_column("converter")
