"""Ingest speed: files/s for a first ingest, a no-op re-ingest and a one-file edit.

Usage: python bench/bench_ingest.py [N ...]   (default: 1000 10000)

Generates N small policy/filing/SLA documents in a temporary folder and ingests them into a
fresh SQLite store. The baseline, measured in the same run, is reading the same files'
bytes with os.walk + read_bytes (what any ingest must at least do).
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from claims.ingest import ingest, scan_sources  # noqa: E402
from claims.store import make_engine, transaction  # noqa: E402
from claims.store.migrate import upgrade  # noqa: E402

SENTENCES = [
    "The notice period is {n} days.",
    "The dividend for the period was {n} cents per share.",
    "The checkout service p99 latency is {n} ms.",
    "Flights must be booked at least {n} days before departure.",
    "The interactive assistant has a {n}-token output limit.",
    "Taxi fares up to {n} EUR are reimbursed without a receipt.",
    "The storage quota per workspace is {n} GB.",
]


def generate(root: Path, count: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    for i in range(count):
        folder = root / f"team-{i % 50:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        lines = [f"Document {i}", ""]
        lines += [rng.choice(SENTENCES).format(n=rng.randint(1, 900)) for _ in range(12)]
        suffix = ".md" if i % 3 == 0 else ".txt"
        (folder / f"doc-{i:05d}{suffix}").write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_all(root: Path) -> int:
    total = 0
    for directory, _, names in os.walk(root):
        for name in names:
            total += len((Path(directory) / name).read_bytes())
    return total


def timed(fn):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def run(count: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "corpus"
        generate(root, count)
        url = f"sqlite:///{Path(tmp) / 'claims.db'}"
        upgrade(url)
        engine = make_engine(url)

        def ingest_all():  # type: ignore[no-untyped-def]
            scan = scan_sources([root])
            with transaction(engine) as session:
                return ingest(session, scan.files)

        read_s, total_bytes = timed(lambda: read_all(root))
        scan_s, _ = timed(lambda: scan_sources([root]))
        first_s, first = timed(ingest_all)
        again_s, again = timed(ingest_all)
        edited = next(root.rglob("doc-00001.txt"))
        edited.write_text(edited.read_text() + "The notice period is 45 days.\n")
        edit_s, edit = timed(ingest_all)
        engine.dispose()
    assert first.new_versions == count and again.new_versions == 0 and edit.new_versions == 1
    print(f"== {count} files, {total_bytes / 1e6:.1f} MB")
    print(f"read bytes only (baseline) {read_s:7.3f} s  {count / read_s:9.0f} files/s")
    print(
        f"scan (read + validate)     {scan_s:7.3f} s  {count / scan_s:9.0f} files/s"
        f"  x{scan_s / read_s:.1f} baseline"
    )
    print(
        f"first ingest (new)         {first_s:7.3f} s  {count / first_s:9.0f} files/s"
        f"  x{first_s / read_s:.1f} baseline"
    )
    print(
        f"re-ingest (no-op)          {again_s:7.3f} s  {count / again_s:9.0f} files/s"
        f"  x{again_s / read_s:.1f} baseline"
    )
    print(f"one file edited            {edit_s:7.3f} s  ({edit_s / first_s:.0%} of first ingest)")


if __name__ == "__main__":
    for n in [int(a) for a in sys.argv[1:]] or [1000, 10000]:
        run(n)
