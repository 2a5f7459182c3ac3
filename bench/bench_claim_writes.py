"""The `claims` step's writes alone: the claims, quotes and full-text rows of a bench corpus.

Usage: python bench/bench_claim_writes.py [--repeat R] [--profile] [--cache DIR] [--ratio X]
                                          [--per-transaction V]
                                          [--dump FILE] [N]
       (default N 2000)

Generates bench_pipeline.py's corpus of N documents, stores its source versions, extracts
every version once in this process (cached in the temp folder for the repeats), then times
what the `claims` step does with the rows: the versions in the runs ``claims run`` plans
(shards grouped up to 1000 versions), each run's versions written through the step's own
writer (``pipeline.assets.claims.write_run``). Each repeat
starts from a copy of the store holding only the versions. ``--profile`` prints the top of
a cProfile of the last repeat. ``--cache DIR`` keeps the versions' store and the extracted
rows in DIR for the next invocation (made if missing; delete it after an extraction change).
``--ratio X`` sets ``claims.store.bulk_load.LOAD_RATIO`` (``inf``: never the bulk load),
``--per-transaction V`` the step's ``VERSIONS_PER_TRANSACTION``.
``--dump FILE`` writes what the last repeat stored (``dump``) to FILE, for comparing two
versions of the writer. Extraction is not timed: bench_pipeline.py times the step. Wall
and CPU time are printed: on a shared machine the CPU time of this process (SQLite runs in
it) is the steadier figure.
"""

from __future__ import annotations

import cProfile
import pickle
import pstats
import shutil
import sqlite3
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
warnings.filterwarnings("ignore")

from bench_pipeline import generate  # noqa: E402
from sqlalchemy import text  # noqa: E402

from claims.extract_pool import VersionText, in_process  # noqa: E402
from claims.extraction import current_generation, extract  # noqa: E402
from claims.store import GenerationRepository  # noqa: E402
from claims.store.migrate import upgrade  # noqa: E402
from pipeline import corpus  # noqa: E402
from pipeline.assets.claims import _Extracted, write_run  # noqa: E402
from pipeline.partitions import SHARDS, shard_of  # noqa: E402
from pipeline.resources import ClaimStore  # noqa: E402

RUN_VERSIONS = 1000  # bench_pipeline.py's batch_size


def prepare(root: Path, count: int) -> tuple[Path, list[list[_Extracted]], str]:
    """A store holding the corpus' versions, and the extracted rows in the planned runs."""
    source_dir = root / "corpus"
    generate(source_dir, count, subjects=max(40, count // 25))
    database = root / "versions.db"
    url = f"sqlite:///{database}"
    upgrade(url)
    store = ClaimStore(database_url=url)
    generation, label = current_generation()
    scan = corpus.scan([source_dir], None)
    with store.transaction() as session:
        corpus.store_files(session, scan, [f.source for f in scan.read if f.source])
        GenerationRepository(session).ensure(generation, label)
        versions = corpus.versions_for_keys(session, list(scan.files))
    store.engine.dispose()
    by_shard: dict[str, list[str]] = {}
    for key in sorted(versions):
        by_shard.setdefault(shard_of(versions[key].source_id), []).append(key)
    runs: list[list[str]] = [[]]
    for shard in SHARDS:  # as pipeline.planning.plan_runs groups them
        keys = by_shard.get(shard, [])
        if runs[-1] and len(runs[-1]) + len(keys) > RUN_VERSIONS:
            runs.append([])
        runs[-1].extend(keys)
    started = time.perf_counter()
    extracted = []
    for keys in runs:
        todo = [
            VersionText(k, versions[k].text, versions[k].source_id, versions[k].id)
            for k in sorted(keys)
        ]
        extracted.append(
            [_Extracted(versions[r.key].id, r.rows, r.mentions) for r in in_process(todo, extract)]
        )
    print(
        f"{count} files, {sum(len(v.rows) for run in extracted for v in run):,} claims in "
        f"{len(runs)} runs; extracted in {time.perf_counter() - started:.1f} s"
    )
    return database, extracted, generation


def cached(cache: Path, count: int) -> tuple[Path, list[list[_Extracted]], str]:
    """``prepare``'s result, kept in ``cache`` between invocations."""
    rows = cache / f"rows-{count}.pickle"
    if not rows.exists():
        cache.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="bench-claim-writes-") as tmp:
            database, extracted, generation = prepare(Path(tmp), count)
            shutil.copyfile(database, cache / f"versions-{count}.db")
        rows.write_bytes(pickle.dumps((extracted, generation)))
    extracted, generation = pickle.loads(rows.read_bytes())
    return cache / f"versions-{count}.db", extracted, generation


def dump(database: Path, out: Path) -> None:
    """Every stored value the writer makes but its timestamps, in write order: claims (and
    their quote ids), quote rows, the full-text index's rows and a search over it, the
    versions' extraction records, the change feed, and the schema of the claims table."""
    queries = {
        "claims": "SELECT rowid, * FROM claims ORDER BY rowid",
        "quotes": "SELECT * FROM claim_quotes ORDER BY id",
        "fts": "SELECT rowid, quote FROM claim_quotes_fts ORDER BY rowid",
        "fts_match": "SELECT rowid FROM claim_quotes_fts WHERE claim_quotes_fts MATCH "
        "'notice OR dividend' ORDER BY rowid",
        "fts_docsize": "SELECT * FROM claim_quotes_fts_docsize ORDER BY id",
        "extractions": "SELECT source_version_id, generation, claims FROM version_extractions "
        "ORDER BY source_version_id",
        "changes": "SELECT id, claim_key, kind, generation FROM claim_key_changes ORDER BY id",
        "schema": "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE tbl_name IN "
        "('claims', 'claim_quotes') ORDER BY name",
    }
    connection = sqlite3.connect(database)
    with out.open("w", encoding="utf-8") as file:
        for name, query in queries.items():
            cursor = connection.execute(query)
            columns = [d[0] for d in cursor.description]
            for row in cursor:
                values = dict(zip(columns, row, strict=True))
                values.pop("created_at", None)
                file.write(f"{name} {values!r}\n")
        file.write(f"fts integrity {_fts_integrity(connection)}\n")
    connection.close()


def _fts_integrity(connection: sqlite3.Connection) -> str:
    try:
        connection.execute(
            "INSERT INTO claim_quotes_fts(claim_quotes_fts, rank) VALUES ('integrity-check', 1)"
        )
    except sqlite3.DatabaseError as error:
        return f"failed: {error}"
    return "ok"


def write_all(database: Path, extracted: list[list[_Extracted]], generation: str) -> float:
    store = ClaimStore(database_url=f"sqlite:///{database}")
    started, cpu = time.perf_counter(), time.process_time()
    for run in extracted:
        write_run(store, run, generation)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    with store.transaction() as session:
        claims = session.execute(text("SELECT count(*) FROM claims")).scalar()
        quotes = session.execute(text("SELECT count(*) FROM claim_quotes")).scalar()
    store.engine.dispose()
    print(f"  wrote {claims:,} claims, {quotes:,} quotes in {elapsed:.2f} s (CPU {cpu:.2f} s)")
    return elapsed


def main() -> None:
    args = sys.argv[1:]
    repeat, profile = 3, "--profile" in args
    if profile:
        args.remove("--profile")
    cache: Path | None = None
    out: Path | None = None
    while args[:1] in (["--repeat"], ["--cache"], ["--ratio"], ["--dump"], ["--per-transaction"]):
        if args[0] == "--repeat":
            repeat = int(args[1])
        elif args[0] == "--per-transaction":
            from pipeline.assets import claims as step

            step.VERSIONS_PER_TRANSACTION = int(args[1])
        elif args[0] == "--dump":
            out = Path(args[1])
        elif args[0] == "--ratio":
            from claims.store import bulk_load

            bulk_load.LOAD_RATIO = float(args[1])
        else:
            cache = Path(args[1])
        args = args[2:]
    count = int(args[0]) if args else 2000
    with tempfile.TemporaryDirectory(prefix="bench-claim-writes-") as tmp:
        root = Path(tmp)
        if cache is not None:
            database, extracted, generation = cached(cache, count)
        else:
            database, extracted, generation = prepare(root, count)
        timings = []
        for attempt in range(repeat):
            trial = root / f"trial-{attempt}.db"
            shutil.copyfile(database, trial)
            if profile and attempt == repeat - 1:
                profiler = cProfile.Profile()
                profiler.enable()
                timings.append(write_all(trial, extracted, generation))
                profiler.disable()
                pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
            else:
                timings.append(write_all(trial, extracted, generation))
            if out is not None and attempt == repeat - 1:
                dump(trial, out)
            trial.unlink()
        print(f"writes: best {min(timings):.2f} s, runs " + " / ".join(f"{t:.2f}" for t in timings))


if __name__ == "__main__":
    main()
