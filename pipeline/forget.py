"""Erasure in Dagster's storage: the runs, events and ticks that name an erased source go.

``claims sources erase`` removes the source from the claim store; Dagster's history can
still hold its text: the ``claims`` materialization's preview quotes claims, ``claim_edges``
lists the claim keys it touched, ``source_versions`` names version keys (source id and
checksum), checks name files. ``forget_erased`` looks for the erasure's traces (quotes and
their preview form, claim and version ids, checksums, file paths, keys only the source
stated, the source id as a value) in every text column of every table of the run, event
log and schedule storages (and in the runs' captured stdout/stderr files), deletes each run
that a matching row or log belongs to (its events and logs with it,
``DagsterInstance.delete_run``), clears a matching latest-materialization
cache on ``asset_keys`` (Dagster reads the event log instead), deletes any other matching
row (sensor ticks, check executions), and compacts Dagster's SQLite files so no deleted
page keeps the bytes. Run history is not the record of progress (the store is): a deleted
run costs nothing but its lines in the UI.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import dagster as dg
from sqlalchemy import Connection, String, Text, inspect
from sqlalchemy import MetaData as SqlMetaData
from sqlalchemy import Table as SqlTable

from claims.retention import Erasure
from pipeline.partitions import version_key

PREVIEW_QUOTE_CHARS = 60  # claims_preview shows 77 characters of a quote
KEEP_ROW_CLEAR_COLUMNS = {"asset_keys"}  # the asset stays; its cached latest event goes


@dataclass
class Forgotten:
    """What ``forget_erased`` removed from Dagster's storage."""

    runs: list[str] = field(default_factory=list)
    rows: dict[str, int] = field(default_factory=dict)  # table -> rows deleted or cleared
    compacted: list[str] = field(default_factory=list)  # SQLite files rewritten
    warnings: list[str] = field(default_factory=list)

    def summary(self) -> str:
        other = ", ".join(f"{n} in {t}" for t, n in sorted(self.rows.items())) or "none"
        return f"{len(self.runs)} runs deleted with their events; other rows: {other}"


def traces_of(erasure: Erasure) -> list[str]:
    """The strings that name or quote the erased source, as Dagster's storage writes them."""
    sid = erasure.source_id
    found = {f"| {sid} |", json.dumps(sid)}
    for version in erasure.versions:
        found.add(version_key(sid, str(version["sha256"])))
    for trace in erasure.traces:
        found.add(trace)
        preview = trace.replace("|", "/").replace("\n", " ")[:PREVIEW_QUOTE_CHARS]
        if len(preview) >= 12:
            found.add(preview)
    for key in erasure.gone_keys:
        found |= {f"| {key} |", json.dumps(key)}
    escaped = set()
    for text in found:  # as JSON (Dagster's serialization) writes them, both ways
        escaped.add(json.dumps(text)[1:-1])
        escaped.add(json.dumps(text, ensure_ascii=False)[1:-1])
    return sorted((found | escaped) - {""}, key=len, reverse=True)


REGEX_TRACES = 1500  # above this, compiling one alternation costs seconds
GRAM = 16  # long traces are found by their first GRAM characters, then confirmed
_WORD_START = re.compile(r"(?<!\w)\w|(?<=\\[ntr])\w")  # a word, also after a JSON \n


def _matcher(traces: Iterable[str]) -> Callable[[str], bool]:
    """Whether a text holds any of ``traces``: one regular expression for a few hundred; for
    a source of thousands of claims, short traces by expression and long ones by a set of
    their first characters slid over the text (linear, no compile cost)."""
    every = list(traces)
    if len(every) <= REGEX_TRACES:
        pattern = re.compile("|".join(re.escape(t) for t in every))
        return lambda text: pattern.search(text) is not None
    slid = [t for t in every if len(t) >= GRAM and _WORD_START.match(t)]
    short = sorted(set(every) - set(slid))
    by_gram: dict[str, list[str]] = {}
    for trace in slid:
        by_gram.setdefault(trace[:GRAM], []).append(trace)
    few = re.compile("|".join(re.escape(t) for t in short)) if short else None

    def matches(text: str) -> bool:
        if few is not None and few.search(text) is not None:
            return True
        for start in _WORD_START.finditer(text):  # a long trace begins a word
            at = start.start()
            found = by_gram.get(text[at : at + GRAM])
            if found and any(text.startswith(trace, at) for trace in found):
                return True
        return False

    return matches


def forget_erased(instance: dg.DagsterInstance, erasure: Erasure) -> Forgotten:
    """Remove every record of ``instance`` that names or quotes ``erasure``'s source."""
    matches = _matcher(traces_of(erasure))
    done = Forgotten()
    storages = _connections(instance)
    runs: set[str] = set()
    for connect in storages:
        with connect() as conn:
            for table, row in _matching_rows(conn, matches):
                if "run_id" in table.c and row._mapping["run_id"]:
                    runs.add(str(row._mapping["run_id"]))
    runs |= _runs_in_compute_logs(instance, matches)
    for run_id in sorted(runs):
        instance.delete_run(run_id)
        _delete_compute_logs(instance, run_id, done)
    done.runs = sorted(runs)
    for connect in storages:  # what no deleted run took with it
        with connect() as conn:
            for table, row in list(_matching_rows(conn, matches)):
                _remove(conn, table, row, matches)
                done.rows[table.name] = done.rows.get(table.name, 0) + 1
    return done


def forget_in_home(home: Path, erasure: Erasure) -> Forgotten:
    """``forget_erased`` on the Dagster instance of ``home`` (its ``dagster.yaml``), then
    ``compact_sqlite_files``."""
    from pipeline.instance import read_dagster_migrations_once

    read_dagster_migrations_once()
    with dg.DagsterInstance.from_config(str(home.resolve())) as instance:
        done = forget_erased(instance, erasure)
    compact_sqlite_files(home, done)
    return done


def compact_sqlite_files(home: Path, done: Forgotten) -> None:
    """VACUUM Dagster's SQLite files under ``home`` (deleted rows leave their bytes in free
    pages and in the write-ahead log until then)."""
    for path in sorted(home.rglob("*.db")):
        try:
            connection = sqlite3.connect(path, timeout=30)
            try:
                connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                connection.execute("VACUUM")
                connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                connection.close()
            done.compacted.append(str(path))
        except sqlite3.Error as error:
            done.warnings.append(
                f"{path}: could not be compacted ({error}); deleted rows may keep their bytes "
                "in free pages until it is: stop `claims ui` and run `sqlite3 FILE VACUUM`"
            )


def _connections(instance: dg.DagsterInstance) -> list[Callable[[], AbstractContextManager[Any]]]:
    found: list[Callable[[], AbstractContextManager[Any]]] = []
    run_storage: Any = instance.run_storage
    event_storage: Any = instance.event_log_storage
    schedule_storage: Any = instance._schedule_storage  # noqa: SLF001 (no public accessor)
    for storage, method in (
        (run_storage, "connect"),
        (event_storage, "index_connection"),
        (schedule_storage, "connect"),
    ):
        connect = getattr(storage, method, None) or getattr(
            getattr(storage, "_storage", None), method, None
        )
        if connect is not None:
            found.append(connect)
    return found


def _matching_rows(conn: Connection, matches: Callable[[str], bool]) -> Iterator[tuple[Any, Any]]:
    """(table, row) of every row with a text column that ``matches``."""
    names = inspect(conn).get_table_names()
    metadata = SqlMetaData()
    for name in names:
        if name == "alembic_version":
            continue
        table = SqlTable(name, metadata, autoload_with=conn)
        texts = [c for c in table.c if isinstance(c.type, String | Text)]
        if not texts:
            continue
        for row in conn.execute(table.select()):
            mapping = row._mapping
            if any(isinstance(mapping[c.name], str) and matches(mapping[c.name]) for c in texts):
                yield table, row


def _remove(conn: Connection, table: Any, row: Any, matches: Callable[[str], bool]) -> None:
    mapping = row._mapping
    keys = list(table.primary_key.columns) or list(table.c)
    where = [c == mapping[c.name] for c in keys]
    if table.name in KEEP_ROW_CLEAR_COLUMNS:
        cleared = {
            c.name: None
            for c in table.c
            if isinstance(mapping[c.name], str) and matches(mapping[c.name]) and c.nullable
        }
        if cleared:
            conn.execute(table.update().where(*where).values(**cleared))
            return
    conn.execute(table.delete().where(*where))


def _runs_in_compute_logs(instance: dg.DagsterInstance, matches: Callable[[str], bool]) -> set[str]:
    """Runs whose captured stdout/stderr files (the local compute log manager's folder, one
    folder per run) name the source."""
    base = getattr(instance.compute_log_manager, "_base_dir", None)
    if not base or not Path(base).is_dir():
        return set()
    found = set()
    for path in Path(base).rglob("*"):
        if path.is_file() and matches(path.read_text("utf-8", errors="replace")):
            found.add(path.relative_to(base).parts[0])
    return found


def _delete_compute_logs(instance: dg.DagsterInstance, run_id: str, done: Forgotten) -> None:
    try:
        instance.compute_log_manager.delete_logs(prefix=[run_id])
    except Exception as error:  # a log manager without deletion: say so, go on
        done.warnings.append(f"compute logs of run {run_id} not deleted: {error}")
