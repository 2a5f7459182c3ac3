"""The triggers that keep ``audit_events`` append-only, exactly as the migrations made them.

``verify`` must not accept a trigger that has the right name and does nothing (recreated
``WHEN 0``, or with a body that no longer raises, or disabled). So each trigger is compared
with the definition its migration created: on SQLite the ``CREATE TRIGGER`` text SQLite keeps
in ``sqlite_master``; on PostgreSQL the definition ``pg_get_triggerdef`` prints (schema
names dropped), whether it is enabled, and the body of the function it runs. A trigger on
the table that no migration created is named too.
"""

from __future__ import annotations

import re

from sqlalchemy import Connection, text

MESSAGE = "audit_events is append-only"
# migrations/versions/0002_audit_append_only.py and 0006_reviewer_security.py
SQLITE = {
    "audit_events_no_update": "CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON "
    f"audit_events BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END",
    "audit_events_no_delete": "CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON "
    f"audit_events BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END",
    "audit_events_no_replace": "CREATE TRIGGER audit_events_no_replace BEFORE INSERT ON "
    "audit_events WHEN EXISTS (SELECT 1 FROM audit_events WHERE id = NEW.id) "
    f"BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END",
}
POSTGRES_FUNCTION = "audit_events_append_only"
POSTGRES_BODY = f"BEGIN RAISE EXCEPTION '{MESSAGE}'; END"
POSTGRES = {
    "audit_events_no_change": "CREATE TRIGGER audit_events_no_change BEFORE DELETE OR UPDATE "
    f"ON audit_events FOR EACH ROW EXECUTE FUNCTION {POSTGRES_FUNCTION}()",
    "audit_events_no_truncate": "CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON "
    f"audit_events FOR EACH STATEMENT EXECUTE FUNCTION {POSTGRES_FUNCTION}()",
}
MIGRATIONS = "migrations/versions/0002_audit_append_only.py and 0006_reviewer_security.py"


def _plain(sql: str) -> str:
    """SQL compared by its words: whitespace runs become one space, case kept."""
    return " ".join(sql.split())


def trigger_problems(conn: Connection) -> list[str]:
    """Each way the table's triggers differ from the migrations' (empty: exactly theirs)."""
    if conn.dialect.name == "postgresql":
        found = _postgres_triggers(conn)
        expected = POSTGRES
    else:
        rows = conn.execute(
            text(
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
                "AND tbl_name = 'audit_events'"
            )
        ).all()
        found = {str(name): _plain(str(sql)) for name, sql in rows}
        expected = SQLITE
    problems = []
    for name, definition in expected.items():
        actual = found.get(name)
        if actual is None:
            problems.append(
                f"trigger {name} is missing or disabled: the table is no longer append-only"
            )
        elif actual != _plain(definition):
            problems.append(
                f"trigger {name} is not the one the migrations created (found: {actual}); "
                f"a changed trigger may refuse nothing. Recreate it as {MIGRATIONS} do"
            )
    for name in sorted(set(found) - set(expected)):
        problems.append(f"trigger {name} on audit_events was not created by the migrations")
    return problems


_SCHEMA = re.compile(r"\bON \w+\.audit_events\b")


def _postgres_triggers(conn: Connection) -> dict[str, str]:
    """Enabled triggers on audit_events: name -> definition, with the function's body
    appended when it is not the migrations' (so a changed body reads as a changed trigger)."""
    rows = conn.execute(
        text(
            "SELECT t.tgname, t.tgenabled, pg_get_triggerdef(t.oid), p.proname, p.prosrc "
            "FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid "
            "WHERE t.tgrelid = 'audit_events'::regclass AND NOT t.tgisinternal"
        )
    ).all()
    found = {}
    for name, enabled, definition, function, body in rows:
        if enabled == "D":
            continue  # disabled: reads as missing
        shown = _SCHEMA.sub("ON audit_events", _plain(definition))
        if function != POSTGRES_FUNCTION or _plain(body) != POSTGRES_BODY:
            shown += f" -- function {function}: {_plain(body)}"
        if enabled != "O":  # fires only in replica sessions, or always: not as created
            shown += f" -- enabled mode {enabled}"
        found[str(name)] = shown
    return found
