"""What a `claims run` with nothing changed costs before its one Dagster run, at N files:
the ordinary way (the per-file records read, every file stat'ed against its record, the
store compared with the disk) against the stamp of the last clean run (every file stat'ed
into one digest, the store's two counts; claims/run_stamp.py).

Usage: python bench/bench_unchanged_run.py [N ...]   (default: 10000 100000)

For each N: writes N small notes (bench_ingest's generator) into a temporary folder, stores
them in a fresh SQLite store as a finished run leaves it (versions, per-file records, every
version counted as extracted in the built-in generation: no extraction is run, it does not
enter these figures), then times `pipeline.runner`'s planning the ordinary way (what a run
does when no stamp holds) and the stamp's check (what it does when one holds), each three
times, and prints the best of each and their ratio. The Dagster run that follows either
(the graph steps answer from the change feed) is the same for both and not timed here:
bench/bench_pipeline.py times whole runs.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
warnings.filterwarnings("ignore")

import dagster as dg  # noqa: E402
from bench_ingest import generate  # noqa: E402

from claims import run_stamp  # noqa: E402
from claims.ingest import ingest, scan_sources  # noqa: E402
from claims.run_stamp import RunStamp  # noqa: E402
from claims.store import GenerationRepository  # noqa: E402
from claims.store.changes import mark_extracted  # noqa: E402
from claims.store.migrate import upgrade  # noqa: E402
from claims.store.sources import record_file_stats  # noqa: E402
from pipeline.resources import ClaimStore, ExtractorResource, SourcesResource  # noqa: E402
from pipeline.runner import _planned, _Stamping  # noqa: E402

BATCH = 5000  # files stored per transaction while the store is filled


def fill(store: ClaimStore, corpus: Path, generation: str) -> int:
    """Store every file of ``corpus`` as a finished run leaves it; returns the files."""
    scan = scan_sources([corpus])
    with store.transaction() as session:
        GenerationRepository(session).ensure(generation, "bench")
    for start in range(0, len(scan.files), BATCH):
        files = scan.files[start : start + BATCH]
        with store.transaction() as session:
            report = ingest(session, files)
            record_file_stats(session, [f.stat for f in files if f.stat is not None])
            mark_extracted(session, dict.fromkeys(report.new_version_ids, 1), generation)
    return len(scan.files)


def best_of(count: int, work) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(count):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def bench(count: int) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-unchanged-") as tmp:
        root = Path(tmp)
        corpus = root / "corpus"
        generate(corpus, count)
        url = f"sqlite:///{root / 'claims.db'}"
        upgrade(url)
        store = ClaimStore(database_url=url)
        sources = SourcesResource(sources_dir=str(corpus), register_file="")
        extractor = ExtractorResource()
        generation, _ = extractor.generation()
        files = fill(store, corpus, generation)
        time.sleep(2.5)  # beyond the racy window of the files just written
        instance = dg.DagsterInstance.ephemeral()
        dagster_run = dg.materialize([_nothing], instance=instance).run_id
        stamping = _Stamping.of(sources, extractor)

        def ordinary() -> None:
            _, outcome = _planned(instance, store, sources, extractor, 1000, False, stamping.scope)
            assert outcome.plan.versions == 0, outcome.plan.batches  # at most "reflect" runs

        planned = best_of(3, ordinary)
        with store.transaction() as session:
            now = stamping.now(session)
            assert now is not None
            run_stamp.keep(
                session,
                stamping.scope,
                RunStamp(now.digest, now.environment, now.counts, {}, dagster_run),
            )

        def stamped() -> None:
            found = _Stamping.of(sources, extractor).unchanged(instance, store)
            assert found is not None and found.sources_unchanged

        checked = best_of(3, stamped)
        print(f"== {files:,} files; load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
        print(f"  planned the ordinary way (records, stat each, compare): {planned:7.3f} s")
        print(f"  the stamp's check (stat each into one digest, 2 counts): {checked:7.3f} s")
        print(f"  ratio: {planned / checked:.1f}x", flush=True)


@dg.asset
def _nothing() -> None:
    """A Dagster run for the stamp to name (a lost history plans the ordinary way)."""


if __name__ == "__main__":
    for n in [int(a) for a in sys.argv[1:]] or [10000, 100000]:
        bench(n)
