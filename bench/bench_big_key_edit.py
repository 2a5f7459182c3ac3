"""One edit in a store whose boilerplate keys hold N claims each (issue 33: an incremental run
costs what it changes, at 100,000 files as at 10,000).

Usage: python bench/bench_big_key_edit.py [--profile] [--store PATH] [N]   (default N 75000)

At 100,000 files the bench's boilerplate sentences make keys of about 75,000 claims each;
extracting 100,000 notes to get them takes most of an hour. Here a SQLite store gets them
cheaply: 300 notes about a few subjects (facts restated, some contradicted: keys with value
groups in conflict, review items) are extracted for real, then N *clone* notes each restate
the same three boilerplate sentences. One template note is extracted; each clone's claims are
its claims with the clone's source, version and claim ids, written through the store's
batch writers (``SourceRepository.add_versions``, ``ClaimRepository.add_all``): three keys
of N claims, one value group each (N = 75,000: the bench's three boilerplate keys at 100,000
files). The store is refreshed in full (the edge step's batched
recompute, a full routing pass, the full status build) and kept (``--store PATH`` reuses
it: built once, then copied for each measure).

Then the edit, on two copies of that store: a clone note gets a new version (a sentence
appended, so its boilerplate claims are new claims of the two big keys) and a fact note is
rewritten. Each copy runs the incremental graph steps as the pipeline's assets do, from the
store's change feed: ``claim_edges`` (edges of the changed keys, recorded in the feed),
``review_queue`` (routing of the keys whose edges changed), ``conflict_status`` (statuses
of the keys the feed names). The ``part`` copy passes the feed's versions to the status
build (``retrieval.status_delta``), the ``whole`` copy evaluates each key whole, as before.
Prints each step's seconds in both and their ratio, and whether the stored status rows and
review items are equal (a digest of each). ``--profile`` prints each step's cProfile (top
functions by cumulative time).
"""

from __future__ import annotations

import cProfile
import hashlib
import io
import os
import pstats
import random
import shutil
import sqlite3
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
warnings.filterwarnings("ignore")

from sqlalchemy import Engine, text  # noqa: E402

from claims.edge_batches import recompute_in_batches  # noqa: E402
from claims.edge_refresh import recompute_edges  # noqa: E402
from claims.extraction import current_generation, extract  # noqa: E402
from claims.ids import stable_id  # noqa: E402
from claims.store import (  # noqa: E402
    ClaimRepository,
    GenerationRepository,
    SourceRepository,
    changes,
    make_engine,
    transaction,
)
from claims.store.migrate import upgrade  # noqa: E402
from claims.store.sources import NewVersion  # noqa: E402
from retrieval.read_model import build_claim_status  # noqa: E402
from review.policy import policy_for_routing  # noqa: E402
from review.routing import route  # noqa: E402

BOILERPLATE = (  # each makes one claim, of its own key
    "Drafts of this note are kept by the office of the registrar.",
    "This note was reviewed by the records office.",
    "Old copies of this note are destroyed.",
)
FACTS = (
    ("The {s} ticket queue is emptied every {n} days.", (2, 3, 5)),
    ("The {s} visitor passes expire after {n} hours.", (8, 12)),
    ("The {s} spare keys are counted every {n} weeks.", (4, 6)),
)
SUBJECTS = ("Ambrel", "Corvath", "Dunmere", "Elsworth", "Fennick")
APPENDED = "The {s} ticket queue is emptied every 3 days."
EDGES_CONSUMER, STATUS_CONSUMER = "bench-edges", "bench-status"
STATUS_KINDS = {changes.EDGES, changes.REGISTER, changes.POLICY, changes.REVIEW}
BATCH = 5000


def _fact_notes(count: int) -> dict[str, str]:
    rng = random.Random(7)
    truth = {(s, i): rng.choice(v) for s in SUBJECTS for i, (_, v) in enumerate(FACTS)}
    notes = {}
    for index in range(count):
        sentences = []
        for _ in range(3):
            subject, fact = rng.choice(SUBJECTS), rng.randrange(len(FACTS))
            template, values = FACTS[fact]
            value = truth[(subject, fact)]
            if rng.random() < 0.15:
                value = rng.choice([v for v in values if v != value])
            sentences.append(template.format(s=subject, n=value))
        notes[f"office/fact-{index:04d}"] = f"Office note {index}\n\n" + " ".join(sentences) + "\n"
    return notes


def _clone_text() -> str:
    return "Clone note\n\n" + " ".join(BOILERPLATE) + "\n"


def build(path: Path, clones: int) -> None:
    """The store: fact notes extracted, ``clones`` clone notes copied, refreshed in full."""
    url = f"sqlite:///{path}"
    upgrade(url)
    engine = make_engine(url)
    generation, label = current_generation()
    started = time.perf_counter()
    with transaction(engine) as session:
        GenerationRepository(session).ensure(generation, label)
        GenerationRepository(session).promote(generation, {})
        for source_id, body in sorted(_fact_notes(300).items()):
            version, _ = SourceRepository(session).add_version(source_id, body)
            found = extract(body, source_id=source_id, source_version_id=version.id)
            ClaimRepository(session).add_all(found)
    body = _clone_text()
    template = extract(body, source_id="clone/template", source_version_id="template")
    for start in range(0, clones, BATCH):
        with transaction(engine) as session:
            offered = [
                NewVersion(f"clone/{i:06d}", body, body.encode())
                for i in range(start, min(clones, start + BATCH))
            ]
            outcomes = SourceRepository(session).add_versions(offered)
            copies = [
                claim.model_copy(
                    update={
                        "id": stable_id("cl", outcome.version_id, claim.id),
                        "source_id": outcome.source_id,
                        "source_version_id": outcome.version_id,
                    }
                )
                for outcome in outcomes
                for claim in template
            ]
            ClaimRepository(session).add_all(copies)
    print(f"  stored {clones} clones in {time.perf_counter() - started:.1f} s", flush=True)
    started = time.perf_counter()
    with transaction(engine) as session:
        recompute_in_batches(session, generation)
        route(session, policy_for_routing(session, None, actor="pipeline"), claim_keys=None)
    with engine.begin() as conn:
        build_claim_status(conn, None)
    with transaction(engine) as session:
        newest = changes.newest_change_id(session)
        for consumer in (EDGES_CONSUMER, STATUS_CONSUMER):
            changes.acknowledge(session, consumer, newest)
    print(f"  full refresh in {time.perf_counter() - started:.1f} s", flush=True)
    engine.dispose()


def _copy(source: Path, target: Path) -> None:
    src, dst = sqlite3.connect(source), sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()


def _edit(engine: Engine, generation: str) -> None:
    notes = {
        "clone/000007": _clone_text() + APPENDED.format(s="Ambrel") + "\n",
        "office/fact-0042": "Office note 42\n\n" + FACTS[1][0].format(s="Corvath", n=8) + "\n",
    }
    with transaction(engine) as session:
        versions = []
        for source_id, body in sorted(notes.items()):
            version, _ = SourceRepository(session).add_version(source_id, body)
            found = extract(body, source_id=source_id, source_version_id=version.id)
            ClaimRepository(session).add_all(found)
            versions.append(version.id)
        changes.record_version_changes(session, versions, generation)


def _timed(name: str, profile: bool, work: Callable[[], Any]) -> tuple[float, Any]:
    profiler = cProfile.Profile() if profile else None
    started = time.perf_counter()
    if profiler is not None:
        profiler.enable()
    result = work()
    if profiler is not None:
        profiler.disable()
    seconds = time.perf_counter() - started
    if profiler is not None:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(18)
        print(f"--- profile of {name}\n" + out.getvalue(), flush=True)
    return seconds, result


def run_edit(path: Path, in_part: bool, profile: bool) -> dict[str, Any]:
    """The edit and the three incremental steps on the store at ``path``."""
    engine = make_engine(f"sqlite:///{path}")
    generation, _ = current_generation()
    _edit(engine, generation)

    def edges() -> set[str]:
        with transaction(engine) as session:
            todo = changes.pending(
                session, EDGES_CONSUMER, kinds={changes.CLAIMS}, generation=generation
            )
            report = recompute_edges(session, generation, todo.keys, changed_versions=todo.versions)
            touched = report.touched_keys or set()
            changes.record_edge_changes(session, touched, report.in_part, generation)
            changes.acknowledge(session, EDGES_CONSUMER, todo.upto)
            return touched

    def routing(touched: set[str]) -> None:
        with transaction(engine) as session:
            policy = policy_for_routing(session, None, actor="pipeline")
            route(session, policy, claim_keys=touched, max_items_per_source=100)

    def status() -> dict[str, int]:
        with engine.begin() as conn:
            todo = changes.pending(conn, STATUS_CONSUMER, kinds=STATUS_KINDS)
            versions = todo.versions if in_part else None
            counts = build_claim_status(conn, todo.keys, changed_versions=versions)
            changes.acknowledge(conn, STATUS_CONSUMER, todo.upto)
            return counts

    t_edges, touched = _timed("claim_edges", profile, edges)
    t_route, _ = _timed("review_queue", profile, lambda: routing(touched))
    t_status, counts = _timed("conflict_status", profile, status)
    with engine.connect() as conn:
        digests = {
            name: hashlib.sha256(
                repr(sorted(tuple(map(str, r)) for r in conn.execute(text(sql)))).encode()
            ).hexdigest()[:12]
            for name, sql in (
                (
                    "statuses",
                    "SELECT claim_id, status, review_item_id, resolution_id, "
                    "superseded_by_version_id, policy_version FROM claim_status",
                ),
                (
                    "review items",
                    "SELECT ri.id, ri.state, ric.claim_id FROM review_items ri "
                    "JOIN review_item_claims ric ON ric.review_item_id = ri.id",
                ),
                ("edges", "SELECT id, kind, retired_at IS NULL FROM edges"),
            )
        }
    engine.dispose()
    return {
        "claim_edges": t_edges,
        "review_queue": t_route,
        "conflict_status": t_status,
        "touched": len(touched),
        "evaluated": sum(counts.values()),
        "digests": digests,
    }


def main(argv: list[str]) -> None:
    profile = "--profile" in argv
    args = [a for a in argv if a != "--profile"]
    kept: Path | None = None
    if "--store" in args:
        at = args.index("--store")
        kept = Path(args[at + 1])
        del args[at : at + 2]
    clones = int(args[0]) if args else 75_000
    folder = Path(tempfile.mkdtemp(prefix="bench-big-key-"))
    try:
        base = kept or folder / "base.db"
        print(
            f"== {clones} clone notes (three keys of {clones} claims), "
            f"load {os.getloadavg()[0]:.1f}"
        )
        if not base.exists():
            build(base, clones)
        results = {}
        for mode in ("whole", "part"):
            copy = folder / f"{mode}.db"
            _copy(base, copy)
            results[mode] = run_edit(copy, mode == "part", profile)
        print(f"load average at the end: {os.getloadavg()[0]:.1f}")
        print("| step | whole keys | in part | ratio |\n|---|---|---|---|")
        for step in ("claim_edges", "review_queue", "conflict_status"):
            whole, part = results["whole"][step], results["part"][step]
            print(f"| {step} | {whole:.2f} s | {part:.2f} s | {whole / max(part, 1e-9):.1f}x |")
        total = {
            m: sum(results[m][s] for s in ("claim_edges", "review_queue", "conflict_status"))
            for m in results
        }
        print(
            f"| the three | {total['whole']:.2f} s | {total['part']:.2f} s | "
            f"{total['whole'] / max(total['part'], 1e-9):.1f}x |"
        )
        for mode in ("whole", "part"):
            r = results[mode]
            print(
                f"{mode}: {r['touched']} keys touched, {r['evaluated']} statuses evaluated, "
                f"digests {r['digests']}"
            )
        same = results["whole"]["digests"] == results["part"]["digests"]
        print("stored rows equal:", same)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])
