"""An index on sources.profile: the profiles a store's sources use are read with a few
index seeks (claims.store.sources.profiles_in_use), where a DISTINCT scanned every source
on each question (22 ms at 200,000 sources; bench/bench_retrieval.py).

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-07
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("sources") as batch:
        batch.create_index("ix_sources_profile", ["profile"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("sources") as batch:
        batch.drop_index("ix_sources_profile")
