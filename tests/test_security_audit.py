"""The audit log cannot be overwritten, and tampering is evident (issue 14 point 15).

On SQLite and PostgreSQL: ``INSERT OR REPLACE`` / ``REPLACE INTO`` / upserts over an
existing row are refused; every row carries a hash chained to the row before; and
``claims audit verify`` (the real command, in a subprocess) exits non-zero on an edited
row, a deleted row and a dropped trigger, each named."""

from __future__ import annotations

import json
import os
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from review_ledger import LIMIT, item_for_key, reviewers, routed_ledger
from sqlalchemy import Engine, func, select, text
from sqlalchemy.exc import DBAPIError

from claims.audit_chain import GENESIS
from claims.store import make_engine, transaction
from claims.store.migrate import upgrade
from claims.tables import AuditEventRow
from review import queue

REPO = Path(__file__).resolve().parent.parent
CLAIMS = REPO / ".venv" / "bin" / "claims"
CHAIN_REVISION = "0006"  # migrations/versions/0006_reviewer_security.py


@pytest.fixture
def store(migrated_url: str) -> Iterator[Engine]:
    engine = make_engine(migrated_url)
    routed_ledger(engine)  # routing opens items and auto-resolves one: real audit rows
    alice = reviewers().get("alice")
    item = item_for_key(engine, LIMIT)
    with transaction(engine) as session:
        queue.claim(session, item.id, alice)
        queue.release(session, item.id, alice)
    yield engine
    engine.dispose()


def audit_verify(url: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMS_")}
    env["CLAIMS_DATABASE_URL"] = url
    return subprocess.run(
        [str(CLAIMS), "audit", "verify", "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def report(url: str) -> tuple[int, dict[str, object]]:
    done = audit_verify(url)
    return done.returncode, json.loads(done.stdout)


def rows(engine: Engine) -> list[tuple[int, str, str]]:
    with engine.connect() as conn:
        table = AuditEventRow.__table__
        result = conn.execute(
            select(table.c.id, table.c.prev_hash, table.c.row_hash).order_by(table.c.id)
        )
        return [(r.id, r.prev_hash, r.row_hash) for r in result]


def postgres(engine: Engine) -> bool:
    return engine.dialect.name == "postgresql"


def run_ddl(engine: Engine, *statements: str) -> None:
    """What someone with DDL rights on the store could do behind the application's back."""
    with engine.begin() as conn:
        for statement in statements:
            conn.execute(text(statement))


def test_every_row_is_chained_to_the_one_before_and_verify_passes(store: Engine) -> None:
    chain = rows(store)
    assert len(chain) >= 4
    assert chain[0][1] == GENESIS
    for (_, _, before), (_, prev, _) in zip(chain, chain[1:], strict=False):
        assert prev == before
    assert len({h for _, _, h in chain}) == len(chain)
    code, found = report(str(store.url.render_as_string(hide_password=False)))
    assert code == 0, found
    assert found == {
        "ok": True,
        "rows": len(chain),
        "head_hash": chain[-1][2],
        "checkpoints_checked": 0,
        "problems": [],
        "more_problems": 0,
    }


def test_replacing_or_upserting_an_audit_row_is_refused(store: Engine) -> None:
    before = rows(store)
    first = before[0][0]
    columns = "id, at, actor, action, entity_type, entity_id, prev_hash, row_hash"
    values = f"{first}, CURRENT_TIMESTAMP, 'mallory', 'item.open', 'review_item', 'x', 'a', 'b'"
    if postgres(store):
        attempts = [
            f"INSERT INTO audit_events ({columns}) VALUES ({values}) "
            "ON CONFLICT (id) DO UPDATE SET actor = 'mallory'",
            f"UPDATE audit_events SET actor = 'mallory' WHERE id = {first}",
            f"DELETE FROM audit_events WHERE id = {first}",
            "TRUNCATE audit_events",
        ]
    else:
        attempts = [
            f"INSERT OR REPLACE INTO audit_events ({columns}) VALUES ({values})",
            f"REPLACE INTO audit_events ({columns}) VALUES ({values})",
            f"INSERT INTO audit_events ({columns}) VALUES ({values}) "
            "ON CONFLICT (id) DO UPDATE SET actor = 'mallory'",
            f"UPDATE audit_events SET actor = 'mallory' WHERE id = {first}",
            f"DELETE FROM audit_events WHERE id = {first}",
        ]
    for statement in attempts:
        with pytest.raises(DBAPIError, match="append-only"):
            run_ddl(store, statement)
    assert rows(store) == before
    with store.connect() as conn:
        assert conn.scalar(select(func.count()).where(AuditEventRow.actor == "mallory")) == 0


def _drop_triggers(engine: Engine) -> list[str]:
    if postgres(engine):
        return ["ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_change"]
    return ["DROP TRIGGER audit_events_no_update", "DROP TRIGGER audit_events_no_delete"]


def _restore_triggers(engine: Engine) -> list[str]:
    if postgres(engine):
        return ["ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_change"]
    return [
        "CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events "
        "BEGIN SELECT RAISE(ABORT, 'audit_events is append-only'); END",
        "CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events "
        "BEGIN SELECT RAISE(ABORT, 'audit_events is append-only'); END",
    ]


def test_verify_names_an_edited_row_even_with_the_triggers_put_back(store: Engine) -> None:
    target = rows(store)[2][0]
    run_ddl(
        store,
        *_drop_triggers(store),
        f"UPDATE audit_events SET actor = 'mallory' WHERE id = {target}",
        *_restore_triggers(store),
    )
    code, found = report(store.url.render_as_string(hide_password=False))
    assert code != 0
    assert found["problems"] == [f"row {target}: its content was changed after it was written"]


def test_verify_names_the_gap_left_by_a_deleted_row(store: Engine) -> None:
    chain = rows(store)
    before, target, after = chain[1][0], chain[2][0], chain[3][0]
    run_ddl(
        store,
        *_drop_triggers(store),
        f"DELETE FROM audit_events WHERE id = {target}",
        *_restore_triggers(store),
    )
    code, found = report(store.url.render_as_string(hide_password=False))
    assert code != 0
    assert found["problems"] == [
        f"row {after}: does not follow row {before} (a row was deleted, inserted or replaced "
        "between them)"
    ]


def test_verify_fails_when_a_trigger_is_dropped_or_disabled(store: Engine) -> None:
    if postgres(store):
        statement, name = "DROP TRIGGER audit_events_no_truncate ON audit_events", "no_truncate"
    else:
        statement, name = "DROP TRIGGER audit_events_no_replace", "no_replace"
    run_ddl(store, statement)
    done = audit_verify(store.url.render_as_string(hide_password=False))
    assert done.returncode != 0
    assert f"trigger audit_events_{name} is missing or disabled" in done.stdout
    run_ddl(store, *_drop_triggers(store)[:1])
    code, found = report(store.url.render_as_string(hide_password=False))
    assert code != 0 and len(found["problems"]) == 2  # type: ignore[arg-type]


def test_the_migration_chains_rows_written_before_it(database_url: str) -> None:
    from claims.store.migrate import alembic_config

    config = alembic_config(database_url)
    chained_by = ScriptDirectory.from_config(config).get_revision(CHAIN_REVISION)
    command.upgrade(config, str(chained_by.down_revision))  # just before the chain exists
    engine = make_engine(database_url)
    try:
        with engine.begin() as conn:
            for n, actor in enumerate(("router", "alice", "bob"), start=1):
                conn.execute(
                    text(
                        "INSERT INTO audit_events (id, at, actor, action, entity_type, "
                        "entity_id, before, after, policy_version) VALUES (:id, :at, :actor, "
                        "'item.claim', 'review_item', 'ri_1', NULL, :after, '1+abc')"
                    ),
                    {"id": n, "at": f"2026-11-0{n} 10:00:00", "actor": actor, "after": "{}"},
                )
        upgrade(database_url)
        chain = rows(engine)
        assert [r[0] for r in chain] == [1, 2, 3] and chain[0][1] == GENESIS
        code, found = report(database_url)
        assert code == 0, found
        # New rows continue the chain.
        alice = reviewers().get("alice")
        routed_ledger(engine)
        with transaction(engine) as session:
            queue.claim(session, item_for_key(engine, LIMIT).id, alice)
        assert rows(engine)[3][1] == chain[2][2]
        assert report(database_url)[0] == 0
    finally:
        engine.dispose()


def test_concurrent_writers_keep_one_unbroken_chain(store: Engine) -> None:
    """Two reviewers acting at once on different items: their audit rows interleave, and the
    chain never forks (each append sees the row before it)."""
    from review_ledger import DIVIDEND

    work = [("alice", item_for_key(store, DIVIDEND).id), ("bob", item_for_key(store, LIMIT).id)]
    errors: list[BaseException] = []
    start = threading.Barrier(len(work))

    def act(name: str, item_id: str) -> None:
        reviewer = reviewers().get(name)
        try:
            start.wait()
            for _ in range(8):
                with transaction(store) as session:
                    queue.claim(session, item_id, reviewer)
                with transaction(store) as session:
                    queue.release(session, item_id, reviewer)
        except BaseException as error:  # reported below, with the thread's own traceback lost
            errors.append(error)

    threads = [threading.Thread(target=act, args=pair) for pair in work]
    before = len(rows(store))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    chain = rows(store)
    assert len(chain) == before + 2 * 8 * 2
    for (_, _, previous), (_, link, _) in zip(chain, chain[1:], strict=False):
        assert link == previous
    assert report(store.url.render_as_string(hide_password=False))[0] == 0
