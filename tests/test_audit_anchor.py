"""The audit chain has an anchor (issue 31, point 4).

An attacker with DDL rights who drops the triggers, edits a row and hashes every later row
again (the recipe docs/REVIEW.md publishes) leaves a chain that is consistent in itself. It
fails `claims audit verify --expect HEAD` with a head kept elsewhere, and a stored
checkpoint he did not also rewrite. A trigger recreated under its own name with `WHEN 0`
(it refuses nothing) fails `verify`. On SQLite and PostgreSQL, through the real command.
"""

from __future__ import annotations

import json
import subprocess

from sqlalchemy import Engine, select, text
from sqlalchemy.orm import Session

from claims.audit_chain import GENESIS, digest_of
from claims.store import transaction
from claims.tables import AuditEventRow
from review.audit_checkpoints import all_checkpoints, write
from tests.test_security_audit import (
    CLAIMS,
    _drop_triggers,
    _restore_triggers,
    audit_verify,
    postgres,
    rows,
    run_ddl,
    store,  # noqa: F401  (the fixture: a routed ledger with real audit rows)
)


def _url(engine: Engine) -> str:
    return engine.url.render_as_string(hide_password=False)


def _claims(engine: Engine, *args: str) -> subprocess.CompletedProcess[str]:
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMS_")}
    env["CLAIMS_DATABASE_URL"] = _url(engine)
    return subprocess.run(
        [str(CLAIMS), *args], env=env, capture_output=True, text=True, timeout=120
    )


def _verify(engine: Engine, *args: str) -> tuple[int, dict[str, object]]:
    done = _claims(engine, "audit", "verify", "--json", *args)
    return done.returncode, json.loads(done.stdout)


def _rewrite_from(engine: Engine, target: int) -> None:
    """Edit row ``target`` and hash it and every later row again, the triggers lifted."""
    run_ddl(engine, *_drop_triggers(engine))
    with engine.begin() as conn:
        table = AuditEventRow.__table__
        conn.execute(text(f"UPDATE audit_events SET actor = 'mallory' WHERE id = {target}"))
        previous = GENESIS
        for row in conn.execute(select(table).order_by(table.c.id)).all():
            if row.id >= target:
                digest = digest_of(row, previous)
                conn.execute(
                    table.update()
                    .where(table.c.id == row.id)
                    .values(prev_hash=previous, row_hash=digest)
                )
                previous = digest
            else:
                previous = row.row_hash
    run_ddl(engine, *_restore_triggers(engine))


def test_verify_prints_the_row_count_and_the_head_hash(store: Engine) -> None:  # noqa: F811
    chain = rows(store)
    code, found = _verify(store)
    assert code == 0, found
    assert (found["rows"], found["head_hash"]) == (len(chain), chain[-1][2])
    plain = _claims(store, "audit", "verify")
    assert f"{len(chain)} rows checked, head {chain[-1][2]}" in plain.stdout


def test_a_rehashed_chain_passes_alone_but_fails_the_expected_head(
    store: Engine,  # noqa: F811
) -> None:
    chain = rows(store)
    kept_rows, kept_head = len(chain), chain[-1][2]  # what the operator kept elsewhere
    assert _verify(store, "--expect", kept_head)[0] == 0
    assert _verify(store, "--expect", kept_head, "--expect-rows", str(kept_rows))[0] == 0

    _rewrite_from(store, chain[1][0])

    code, found = _verify(store)
    assert code == 0, found  # consistent in itself: why the head must be kept elsewhere
    code, found = _verify(store, "--expect", kept_head)
    assert code == 1
    assert found["problems"] == [
        f"the expected head {kept_head} is not in the chain: the log was rewritten from some "
        "row on (or the hash is from another store)"
    ]
    code, found = _verify(store, "--expect", kept_head, "--expect-rows", str(kept_rows))
    assert code == 1 and "the log was rewritten" in str(found["problems"])


def test_a_stored_checkpoint_catches_a_rewrite_and_a_cut_end(store: Engine) -> None:  # noqa: F811
    with transaction(store) as session:
        point = write(session, by="test")
        assert write(session, by="test") == point  # the same head is not recorded twice
    exported = json.loads(_claims(store, "audit", "checkpoints", "--json").stdout)
    assert exported[-1]["rows"] == point.rows and exported[-1]["head_hash"] == point.head_hash

    _rewrite_from(store, rows(store)[0][0])
    code, found = _verify(store)
    assert code == 1 and found["checkpoints_checked"] == 1
    (problem,) = found["problems"]  # type: ignore[misc]
    assert f"says the chain's row {point.rows} ends in {point.head_hash}" in problem


def test_deleting_the_newest_rows_fails_against_a_checkpoint(store: Engine) -> None:  # noqa: F811
    with Session(store) as session, session.begin():
        point = write(session, by="test")
    last = rows(store)[-1][0]
    run_ddl(
        store,
        *_drop_triggers(store),
        f"DELETE FROM audit_events WHERE id = {last}",
        *_restore_triggers(store),
    )
    code, found = _verify(store)
    assert code == 1
    assert found["problems"] == [
        f"checkpoint of {all_checkpoints_at(store)} counts {point.rows} rows, the log holds "
        f"{point.rows - 1}: rows were deleted from its end"
    ]


def all_checkpoints_at(engine: Engine) -> str:
    from claims.audit_chain import canonical_moment

    with engine.connect() as conn:
        return canonical_moment(all_checkpoints(conn)[-1].at)


def test_a_trigger_recreated_to_refuse_nothing_fails_verify(store: Engine) -> None:  # noqa: F811
    if postgres(store):
        run_ddl(
            store,
            "DROP TRIGGER audit_events_no_change ON audit_events",
            "CREATE TRIGGER audit_events_no_change BEFORE UPDATE OR DELETE ON audit_events "
            "FOR EACH ROW WHEN (false) EXECUTE FUNCTION audit_events_append_only()",
        )
        name = "audit_events_no_change"
    else:
        run_ddl(
            store,
            "DROP TRIGGER audit_events_no_update",
            "CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events WHEN 0 "
            "BEGIN SELECT RAISE(ABORT, 'audit_events is append-only'); END",
        )
        name = "audit_events_no_update"
    run_ddl(store, "UPDATE audit_events SET actor = 'mallory' WHERE id = 1")  # now allowed
    done = audit_verify(_url(store))
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert any(
        problem.startswith(f"trigger {name} is not the one the migrations created")
        for problem in report["problems"]
    ), report


def test_a_trigger_the_migrations_did_not_create_is_named(store: Engine) -> None:  # noqa: F811
    if postgres(store):
        run_ddl(
            store,
            "CREATE TRIGGER audit_events_extra AFTER INSERT ON audit_events "
            "FOR EACH ROW EXECUTE FUNCTION audit_events_append_only()",
        )
    else:
        run_ddl(
            store,
            "CREATE TRIGGER audit_events_extra AFTER INSERT ON audit_events BEGIN SELECT 1; END",
        )
    code, found = _verify(store)
    assert code == 1
    assert found["problems"] == [
        "trigger audit_events_extra on audit_events was not created by the migrations"
    ]


def test_a_malformed_expected_head_is_an_input_error(store: Engine) -> None:  # noqa: F811
    done = _claims(store, "audit", "verify", "--expect", "not-a-hash")
    assert done.returncode == 2 and "64 hexadecimal characters" in done.stderr
