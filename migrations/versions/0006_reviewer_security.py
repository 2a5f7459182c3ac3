"""Reviewer security: server-side web sessions, login failures for throttling, and a hash
chain over audit_events (issue 14 points 13, 14, 15).

Existing audit rows get their hashes here, in id order (the UPDATE trigger is lifted for
that one statement per row and put back in the same transaction). SQLite also gets a
trigger refusing ``INSERT OR REPLACE`` / ``REPLACE INTO`` / upserts over an existing row,
which delete the old row without firing the DELETE trigger; on PostgreSQL the equivalent
(``INSERT ... ON CONFLICT DO UPDATE``) is already refused by the UPDATE trigger of 0002.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from claims.audit_chain import GENESIS, digest_of

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MESSAGE = "audit_events is append-only"
SQLITE_NO_UPDATE = (
    "CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events "
    f"BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END"
)
SQLITE_NO_REPLACE = (
    "CREATE TRIGGER audit_events_no_replace BEFORE INSERT ON audit_events "
    "WHEN EXISTS (SELECT 1 FROM audit_events WHERE id = NEW.id) "
    f"BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END"
)

_AUDIT = sa.table(
    "audit_events",
    sa.column("id", sa.Integer),
    sa.column("at", sa.DateTime(timezone=True)),
    sa.column("actor", sa.String),
    sa.column("action", sa.String),
    sa.column("entity_type", sa.String),
    sa.column("entity_id", sa.String),
    sa.column("before", sa.JSON),
    sa.column("after", sa.JSON),
    sa.column("policy_version", sa.String),
    sa.column("prev_hash", sa.String),
    sa.column("row_hash", sa.String),
)


def upgrade() -> None:
    op.create_table(
        "review_sessions",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("reviewer", sa.String(length=256), nullable=False),
        sa.Column("csrf", sa.String(length=64), nullable=False),
        sa.Column("credential", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_review_sessions")),
    )
    op.create_index(
        op.f("ix_review_sessions_expires_at"), "review_sessions", ["expires_at"], unique=False
    )
    op.create_index(
        op.f("ix_review_sessions_reviewer"), "review_sessions", ["reviewer"], unique=False
    )
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("account", sa.String(length=256), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_failures")),
    )
    op.create_index(op.f("ix_login_failures_account"), "login_failures", ["account"])
    op.create_index(op.f("ix_login_failures_address"), "login_failures", ["address"])
    op.create_index(op.f("ix_login_failures_at"), "login_failures", ["at"])

    # Plain ADD COLUMN (no batch copy, which would drop the table's triggers).
    for name in ("prev_hash", "row_hash"):
        op.add_column(
            "audit_events",
            sa.Column(name, sa.String(length=64), nullable=False, server_default=""),
        )
    postgres = op.get_bind().dialect.name == "postgresql"
    if postgres:
        op.execute("ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_change")
    else:
        op.execute("DROP TRIGGER audit_events_no_update")
    _hash_existing_rows()
    if postgres:
        op.execute("ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_change")
        for name in ("prev_hash", "row_hash"):
            op.alter_column("audit_events", name, server_default=None)
    else:
        op.execute(SQLITE_NO_UPDATE)
        op.execute(SQLITE_NO_REPLACE)


def _hash_existing_rows() -> None:
    bind = op.get_bind()
    previous = GENESIS
    last_id = 0
    while True:
        rows = bind.execute(
            sa.select(_AUDIT).where(_AUDIT.c.id > last_id).order_by(_AUDIT.c.id).limit(1000)
        ).all()
        if not rows:
            return
        for row in rows:
            digest = digest_of(row, previous)
            bind.execute(
                _AUDIT.update()
                .where(_AUDIT.c.id == row.id)
                .values(prev_hash=previous, row_hash=digest)
            )
            previous, last_id = digest, row.id


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        op.execute("DROP TRIGGER IF EXISTS audit_events_no_replace")
    op.drop_column("audit_events", "row_hash")
    op.drop_column("audit_events", "prev_hash")
    op.drop_index(op.f("ix_login_failures_at"), table_name="login_failures")
    op.drop_index(op.f("ix_login_failures_address"), table_name="login_failures")
    op.drop_index(op.f("ix_login_failures_account"), table_name="login_failures")
    op.drop_table("login_failures")
    op.drop_index(op.f("ix_review_sessions_reviewer"), table_name="review_sessions")
    op.drop_index(op.f("ix_review_sessions_expires_at"), table_name="review_sessions")
    op.drop_table("review_sessions")
