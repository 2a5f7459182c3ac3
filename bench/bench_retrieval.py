"""Retrieval benchmark: status and answer latency (p50, p99) and throughput on a generated
store of 1M claims, in-process and over HTTP on loopback, in the same run.

    .venv/bin/python bench/bench_retrieval.py            # 1M claims (store cached in /tmp)
    .venv/bin/python bench/bench_retrieval.py --claims 100000 --samples 500

Baselines measured in the same run: a primary-key read of one claim row (in-process floor)
and a 401 round trip that touches no database (HTTP floor). Questions worded otherwise
than the claims ("token limit" against claims keyed "limit") go through the candidate-key
path (entity, attribute, full-text index); the index's size and rebuild time are printed.
A question asking for a kind of value none of the thing's claims has ("How heavy is the
<name>?" of token limits) runs every stage, the office reading by kind and evidence last.
Targets: status p99 < 2 ms in-process and < 10 ms over HTTP; answer p99 < 20 ms over HTTP.
Beside the wall-clock figures: each call's CPU time (p99) and, over HTTP, the server
process's mean CPU time per request, which a shared machine's load does not inflate; the
load average is printed at the start and the end. A cached store is migrated to head first.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import select  # noqa: E402

from claims.errors import NotFoundError  # noqa: E402
from claims.models import Requester  # noqa: E402
from claims.store import make_engine  # noqa: E402
from claims.store.migrate import upgrade  # noqa: E402
from claims.tables import (  # noqa: E402
    AuthorityPolicyRow,
    ClaimRow,
    EdgeRow,
    ExtractorGenerationRow,
    ResolutionRow,
    ReviewItemRow,
    VersionSupersessionRow,
)
from retrieval.access import token_digest  # noqa: E402
from retrieval.answer import answer, answer_frame  # noqa: E402
from retrieval.status import status_of_claim  # noqa: E402

CLAIMS_PER_KEY = 4
CLAIMS_PER_SOURCE = 5
TS = "2026-01-01 00:00:00.000000"
GENERATION = "gen_bench"
POLICY = "1+benchbenchbe"
TOKEN = "bench-token-4f7c1d9e2b6a8c0e3f5a7b9d1c3e5f7a"
REQUESTER = Requester(principal="bench", groups=["g0"])


def word(index: int) -> str:
    """A made-up word per claim key, which parse_question keeps as the key's subject."""
    letters = ""
    for _ in range(5):
        letters += "bcdfghjklmnpqrstvwxz"[index % 20]
        index //= 20
    return "zo" + letters


def key_of(index: int) -> str:
    return f"{word(index)} limit"


def insert_sql(row_class: Any, leave_out: tuple[str, ...] = ()) -> str:
    """A positional INSERT naming the columns in model order (what the tuples follow), but
    those left out (NULL, or what a trigger sets: a claim's ``quote_id``)."""
    names = [c.name for c in row_class.__table__.columns if c.name not in leave_out]
    return (
        f"INSERT INTO {row_class.__tablename__} ({', '.join(names)}) "
        f"VALUES ({', '.join('?' * len(names))})"
    )


def row_values(
    row_class: Any, values: dict[str, Any], leave_out: tuple[str, ...] = ()
) -> tuple[Any, ...]:
    """``values`` in the column order of ``insert_sql`` (nullable columns not named are
    NULL), so a column added to the model later does not shift the others."""
    columns = [c for c in row_class.__table__.columns if c.name not in leave_out]
    unknown = set(values) - {c.name for c in columns}
    missing = [c.name for c in columns if c.name not in values and not c.nullable]
    if unknown or missing:
        raise ValueError(
            f"{row_class.__tablename__}: unknown columns {sorted(unknown)}, "
            f"required columns not given {missing}"
        )
    return tuple(values.get(c.name) for c in columns)


def generate(path: Path, n_claims: int) -> float:
    """Write the store with bulk inserts; returns seconds. Layout (per claim key of 4):
    10% of keys hold a material conflict (half of those routed to review, a quarter
    resolved), 10% a register supersession; 30% of sources are restricted to a group."""
    started = time.perf_counter()
    path.unlink(missing_ok=True)
    upgrade(f"sqlite:///{path}")
    db = sqlite3.connect(path)
    db.execute("PRAGMA synchronous=OFF")
    db.execute("PRAGMA foreign_keys=OFF")
    n_keys = n_claims // CLAIMS_PER_KEY
    n_sources = n_claims // CLAIMS_PER_SOURCE
    db.execute(
        insert_sql(ExtractorGenerationRow),
        (GENERATION, "bench", "active", "{}", TS, TS),
    )
    db.execute(
        insert_sql(AuthorityPolicyRow),
        (POLICY, "bench", "1", "0" * 64, "{}", TS, "bench"),
    )
    db.executemany(
        "INSERT INTO sources (id, title, withdrawn, created_at, updated_at) VALUES (?,?,0,?,?)",
        ((f"s{s}", None, TS, TS) for s in range(n_sources)),
    )
    db.executemany(
        "INSERT INTO source_grants VALUES (?,?)",
        ((f"s{s}", f"g{s % 3}") for s in range(n_sources) if s % 10 < 3),
    )
    db.executemany(
        "INSERT INTO source_versions (id, source_id, number, sha256, size_bytes, media_type, "
        "text, ingested_at) VALUES (?,?,1,?,0,'text/plain','',?)",
        ((f"sv{s}", f"s{s}", f"{s:064d}", TS) for s in range(n_sources)),
    )

    def claims():
        for i in range(n_claims):
            k, j = divmod(i, CLAIMS_PER_KEY)
            value = 100.0 * (1 + (j % 2)) if k % 10 == 0 else 100.0
            source = i % n_sources
            quote = f"The {word(k)} limit is {value:g} tokens."
            yield row_values(
                ClaimRow,
                {
                    "id": f"c{i}", "source_version_id": f"sv{source}",
                    "source_id": f"s{source}", "generation": GENERATION,
                    "subject": word(k), "predicate": "limit", "claim_key": key_of(k),
                    "coarse_key": "limit", "entity": word(k), "attribute": "limit",
                    "kind": "quantity", "value_number": value, "bound": "exact",
                    "approximate": 0, "unit": "tokens", "canonical_value": value,
                    "canonical_unit": "token", "dimension": "[token]", "scope": "{}",
                    "scope_residual": "[]", "time_year_inferred": 0, "reported_speech": 0,
                    "span_start": 0, "span_end": len(quote), "entity_name": word(k),
                    "quote": quote, "confidence": 0.9, "created_at": TS,
                },
                leave_out=("quote_id",),
            )  # fmt: skip

    db.executemany(insert_sql(ClaimRow, leave_out=("quote_id",)), claims())
    # each distinct quote of a version once, every claim linked to it, and the full-text
    # index over the quote rows: what the pipeline's writes make (claims/store/quotes.py)
    db.execute(
        "INSERT INTO claim_quotes (source_version_id, quote) "
        "SELECT DISTINCT source_version_id, quote FROM claims"
    )
    db.execute(
        "UPDATE claims SET quote_id = (SELECT cq.id FROM claim_quotes cq WHERE "
        "cq.source_version_id = claims.source_version_id AND cq.quote = claims.quote)"
    )
    db.execute("INSERT INTO claim_quotes_fts(claim_quotes_fts) VALUES ('rebuild')")

    def edges():
        for k in range(0, n_keys, 10):
            ids = [f"c{k * CLAIMS_PER_KEY + j}" for j in range(CLAIMS_PER_KEY)]
            for a in range(CLAIMS_PER_KEY):
                for b in range(a + 1, CLAIMS_PER_KEY):
                    kind = "conflicts" if (a % 2) != (b % 2) else "corroborates"
                    material = 1 if kind == "conflicts" else None
                    yield (
                        f"e{k}_{a}_{b}", kind, ids[a], ids[b], key_of(k), "value",
                        f"value: {ids[a]} vs {ids[b]}", material, 1.0, GENERATION, TS, None,
                    )  # fmt: skip

    db.executemany(insert_sql(EdgeRow), edges())
    routed = range(0, n_keys, 20)
    db.executemany(
        insert_sql(ReviewItemRow),
        ((f"r{k}", key_of(k), "open", 0.5, 0, None, None, None, 1, None, TS, TS) for k in routed),
    )
    db.executemany(
        "INSERT INTO review_item_claims VALUES (?,?)",
        ((f"r{k}", f"c{k * CLAIMS_PER_KEY + j}") for k in routed for j in range(CLAIMS_PER_KEY)),
    )
    resolved = range(0, n_keys, 40)
    db.executemany(
        insert_sql(ResolutionRow, leave_out=("confidence",)),  # not stated
        (
            (
                f"x{k}",
                f"r{k}",
                "reviewer",
                "resolved",
                None,
                "bench",
                "[]",
                "rita",
                POLICY,
                TS,
                None,
            )
            for k in resolved
        ),
    )
    db.executemany(
        "INSERT INTO resolution_winners VALUES (?,?)",
        ((f"x{k}", f"c{k * CLAIMS_PER_KEY + 1}") for k in resolved),
    )
    pairs = {
        (f"sv{(k * 4 + 1) % n_sources}", f"sv{(k * 4) % n_sources}"): k
        for k in range(5, n_keys, 10)
    }
    db.executemany(
        insert_sql(VersionSupersessionRow),
        ((f"vs{k}", newer, older, "register", None, TS) for (newer, older), k in pairs.items()),
    )
    db.commit()
    db.execute("ANALYZE")
    db.close()
    return time.perf_counter() - started


def search_index_figures(path: Path) -> dict[str, float]:
    """Size of the full-text index's tables and the time to rebuild it from the claims."""
    db = sqlite3.connect(path)
    try:
        started = time.perf_counter()
        db.execute("INSERT INTO claim_quotes_fts(claim_quotes_fts) VALUES ('rebuild')")
        db.commit()
        rebuild = time.perf_counter() - started
        size = sum(
            db.execute(f"SELECT COALESCE(SUM(LENGTH({column})), 0) FROM {table}").fetchone()[0]
            for table, column in (
                ("claim_quotes_fts_data", "block"),
                ("claim_quotes_fts_idx", "term"),
                ("claim_quotes_fts_docsize", "sz"),
            )
        )
    finally:
        db.close()
    return {"bytes": size, "rebuild_s": round(rebuild, 2), "store_bytes": path.stat().st_size}


def _pick(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def percentiles(samples: list[float], cpu: list[float]) -> dict[str, float]:
    """Wall-clock p50/p99/mean/throughput, and the p99 of this thread's CPU time per call
    (unaffected by other processes on a shared machine; for HTTP only the client's)."""
    ordered, cpu_ordered = sorted(samples), sorted(cpu)
    return {
        "p50_ms": round(_pick(ordered, 0.50) * 1000, 3),
        "p99_ms": round(_pick(ordered, 0.99) * 1000, 3),
        "mean_ms": round(statistics.fmean(ordered) * 1000, 3),
        "per_s": round(len(ordered) / sum(ordered), 1),
        "cpu_p99_ms": round(_pick(cpu_ordered, 0.99) * 1000, 3),
    }


def process_cpu_s(pid: int) -> float | None:
    """CPU seconds (user + system) process ``pid`` has used, from /proc (None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(calls: list[Callable[[], object]], server: int | None = None) -> dict[str, float]:
    """Figures of ``calls`` after a warm-up; with the ``server`` process id, also the mean
    CPU time the server spent per call (what a request costs it, whatever the machine's
    load: the wall-clock p99 on a shared machine includes waiting for a core)."""
    for call in calls[: max(10, len(calls) // 20)]:
        call()  # warm caches and compiled statements
    samples, cpu = [], []
    server_started = process_cpu_s(server) if server else None
    for call in calls:
        started, cpu_started = time.perf_counter(), time.thread_time()
        call()
        samples.append(time.perf_counter() - started)
        cpu.append(time.thread_time() - cpu_started)
    figures = percentiles(samples, cpu)
    server_ended = process_cpu_s(server) if server else None
    if server_started is not None and server_ended is not None:
        per_call = (server_ended - server_started) / len(calls)
        figures["server_cpu_mean_ms"] = round(per_call * 1000, 3)
    return figures


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def concurrent_throughput(work: Callable[[int], None], threads: int, seconds: float) -> float:
    done = [0] * threads
    stop = time.perf_counter() + seconds

    def loop(slot: int) -> None:
        n = 0
        while time.perf_counter() < stop:
            work(slot * 1_000_003 + n)
            n += 1
        done[slot] = n

    pool = [threading.Thread(target=loop, args=(t,)) for t in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return round(sum(done) / seconds, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claims", type=int, default=1_000_000)
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--fresh", action="store_true", help="Regenerate the cached store.")
    args = parser.parse_args()
    load_at_start = os.getloadavg()
    n_keys = args.claims // CLAIMS_PER_KEY
    store = Path(tempfile.gettempdir()) / f"claimledger-bench-retrieval-{args.claims}.db"
    generated = None
    if args.fresh or not store.exists():
        generated = generate(store, args.claims)
    url = f"sqlite:///{store}"
    upgrade(url)  # a store cached by an older tree gains the indexes added since
    engine = make_engine(url)
    rng = random.Random(7)
    claim_ids = [f"c{rng.randrange(args.claims)}" for _ in range(args.samples)]
    conflict_ids = [
        f"c{rng.randrange(0, n_keys, 10) * CLAIMS_PER_KEY + rng.randrange(CLAIMS_PER_KEY)}"
        for _ in range(args.samples)
    ]
    keys = [rng.randrange(n_keys) for _ in range(args.samples)]
    questions = [f"What is the {word(k)} limit?" for k in keys]
    # worded otherwise than the claims ("token limit" vs "limit"): the candidate-key path
    worded = [f"What is the {word(k)} token limit?" for k in keys]
    # a name no claim carries: the candidate path's not_found, which must stay cheap too
    unknown = [f"What is the {word(k + n_keys)} token limit?" for k in keys]
    # asks for a kind of value (a mass) that none of the thing's claims has: every stage
    # runs, the office reading by kind and evidence last (issue 32), and finds nothing
    kind_asked = [f"How heavy is the {word(k)}?" for k in keys]
    index = search_index_figures(store)
    answer(engine, questions[0], REQUESTER)  # load the spaCy pipeline before timing

    class Frame:
        def __init__(self, key: str) -> None:
            self.claim_key, self.scope, self.time, self.scope_residual = key, {}, None, []

    table = ClaimRow.__table__
    results: dict[str, dict[str, float]] = {}
    with engine.connect() as conn:
        claim_count = conn.execute(select(table.c.id).limit(1)).first()

    def primary_key_read(claim_id: str) -> None:
        with engine.connect() as conn:
            conn.execute(select(table).where(table.c.id == claim_id)).all()

    results["in-process baseline: claim row by primary key"] = timed(
        [lambda c=c: primary_key_read(c) for c in claim_ids]
    )

    def status(claim_id: str) -> None:
        # Hidden from the requester: a not-found is the response, and is timed as such.
        with contextlib.suppress(NotFoundError):
            status_of_claim(engine, claim_id, REQUESTER)

    results["in-process status (random claims)"] = timed([lambda c=c: status(c) for c in claim_ids])
    results["in-process status (claims in conflict)"] = timed(
        [lambda c=c: status(c) for c in conflict_ids]
    )
    results["in-process answer (parsed frame)"] = timed(
        [lambda k=k: answer_frame(engine, Frame(key_of(k)), REQUESTER, question="q") for k in keys]
    )
    results["in-process answer (question text)"] = timed(
        [lambda q=q: answer(engine, q, REQUESTER) for q in questions]
    )
    results["in-process answer (worded otherwise: candidate keys)"] = timed(
        [lambda q=q: answer(engine, q, REQUESTER) for q in worded]
    )
    results["in-process answer (worded otherwise, a name no claim carries)"] = timed(
        [lambda q=q: answer(engine, q, REQUESTER) for q in unknown]
    )
    results["in-process answer (kind of value asked, none fits: every stage)"] = timed(
        [lambda q=q: answer(engine, q, REQUESTER) for q in kind_asked]
    )
    worded_statuses: dict[str, int] = {}
    for q in worded[:200]:
        got = answer(engine, q, REQUESTER).status.value
        worded_statuses[got] = worded_statuses.get(got, 0) + 1
    unknown_statuses: dict[str, int] = {}
    for q in unknown[:200]:
        got = answer(engine, q, REQUESTER).status.value
        unknown_statuses[got] = unknown_statuses.get(got, 0) + 1
    statuses: dict[str, int] = {}
    for q in questions[:200]:
        got = answer(engine, q, REQUESTER).status.value
        statuses[got] = statuses.get(got, 0) + 1
    kind_statuses: dict[str, int] = {}
    for q in kind_asked[:200]:
        got = answer(engine, q, REQUESTER).status.value
        kind_statuses[got] = kind_statuses.get(got, 0) + 1

    # ------------------------------------------------------------------ HTTP on loopback
    import httpx

    port = free_port()
    workdir = Path(tempfile.mkdtemp(prefix="bench-retrieval-"))
    (workdir / "access.yaml").write_text(
        f"principals:\n  bench:\n    groups: [g0]\n    tokens_sha256: [{token_digest(TOKEN)}]\n",
        encoding="utf-8",
    )
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "CLAIMS_DATABASE_URL": url,
        "CLAIMS_DATA_DIR": str(workdir),
        "CLAIMS_ACCESS_FILE": str(workdir / "access.yaml"),
    }
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--factory",
            "claimledger.web:create_app",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],  # fmt: skip
        env=env,
        start_new_session=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        headers = {"Authorization": f"Bearer {TOKEN}"}
        with httpx.Client(base_url=base, timeout=30) as client:
            for _ in range(300):
                try:
                    client.get("/api/status")
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            client.post("/api/answer", json={"question": questions[0]}, headers=headers)
            results["HTTP baseline: 401 round trip (no database)"] = timed(
                [lambda: client.get("/api/status") for _ in claim_ids], server=server.pid
            )
            results["HTTP status (random claims)"] = timed(
                [
                    lambda c=c: client.get("/api/status", params={"claim": c}, headers=headers)
                    for c in claim_ids
                ],
                server=server.pid,
            )
            results["HTTP status (claims in conflict)"] = timed(
                [
                    lambda c=c: client.get("/api/status", params={"claim": c}, headers=headers)
                    for c in conflict_ids
                ],
                server=server.pid,
            )
            results["HTTP answer (question text)"] = timed(
                [
                    lambda q=q: client.post("/api/answer", json={"question": q}, headers=headers)
                    for q in questions
                ],
                server=server.pid,
            )
            results["HTTP answer (worded otherwise: candidate keys)"] = timed(
                [
                    lambda q=q: client.post("/api/answer", json={"question": q}, headers=headers)
                    for q in worded
                ],
                server=server.pid,
            )
            results["HTTP answer (worded otherwise, a name no claim carries)"] = timed(
                [
                    lambda q=q: client.post("/api/answer", json={"question": q}, headers=headers)
                    for q in unknown
                ],
                server=server.pid,
            )
            results["HTTP answer (kind of value asked, none fits: every stage)"] = timed(
                [
                    lambda q=q: client.post("/api/answer", json={"question": q}, headers=headers)
                    for q in kind_asked
                ],
                server=server.pid,
            )
        clients = [httpx.Client(base_url=base, timeout=30) for _ in range(4)]
        concurrent = concurrent_throughput(
            lambda n: clients[n // 1_000_003].get(
                "/api/status", params={"claim": claim_ids[n % len(claim_ids)]}, headers=headers
            ),
            threads=4,
            seconds=3.0,
        )
        for c in clients:
            c.close()
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=10)

    print(
        f"store: {store} ({args.claims:,} claims, {n_keys:,} keys, "
        f"{args.claims // CLAIMS_PER_SOURCE:,} sources)"
    )
    if generated is not None:
        print(f"generated in {generated:.1f} s ({args.claims / generated:,.0f} claims/s)")
    print(
        f"sample claim row present: {claim_count is not None}; "
        f"answers over 200 questions: {statuses}; worded otherwise: {worded_statuses}; "
        f"a name no claim carries: {unknown_statuses}; kind of value asked: {kind_statuses}"
    )
    print(
        f"full-text index over quotes: {index['bytes'] / 1e6:.1f} MB in its tables "
        f"(store file {index['store_bytes'] / 1e6:.1f} MB); rebuilt from {args.claims:,} "
        f"claims in {index['rebuild_s']:.1f} s"
    )
    width = max(len(name) for name in results)
    print(
        f"load average (1, 5, 15 min) at the start: {load_at_start}, at the end: "
        f"{os.getloadavg()}, on {os.cpu_count()} cores"
    )
    print(
        "cpu p99: this thread's CPU time per call (in-process: the whole answer; HTTP: the "
        "client's); server cpu: the server process's mean CPU time per request"
    )
    print(
        f"{'measurement':<{width}}  {'p50 ms':>8} {'p99 ms':>8} {'mean ms':>8} {'per s':>9} "
        f"{'cpu p99':>8} {'server cpu':>10}"
    )
    for name, figures in results.items():
        print(
            f"{name:<{width}}  {figures['p50_ms']:>8} {figures['p99_ms']:>8} "
            f"{figures['mean_ms']:>8} {figures['per_s']:>9} {figures['cpu_p99_ms']:>8} "
            f"{figures.get('server_cpu_mean_ms', '-'):>10}"
        )
    floor = results["in-process baseline: claim row by primary key"]["p50_ms"]
    http_floor = results["HTTP baseline: 401 round trip (no database)"]["p50_ms"]
    status_in = results["in-process status (random claims)"]
    status_http = results["HTTP status (random claims)"]
    answer_http = results["HTTP answer (question text)"]
    worded_http = results["HTTP answer (worded otherwise: candidate keys)"]
    kind_http = results["HTTP answer (kind of value asked, none fits: every stage)"]
    print(f"status in-process p50 / primary-key read p50: {status_in['p50_ms'] / floor:.1f}x")
    print(f"status over HTTP p50 / 401 round trip p50: {status_http['p50_ms'] / http_floor:.1f}x")
    print(f"HTTP status throughput with 4 client threads: {concurrent} req/s")
    worst_status_in = max(
        status_in["p99_ms"], results["in-process status (claims in conflict)"]["p99_ms"]
    )
    worst_status_http = max(
        status_http["p99_ms"], results["HTTP status (claims in conflict)"]["p99_ms"]
    )
    worst_cpu = max(
        results["in-process status (random claims)"]["cpu_p99_ms"],
        results["in-process status (claims in conflict)"]["cpu_p99_ms"],
    )
    for name, value, target in (
        ("status p99 in-process", worst_status_in, 2.0),
        ("status p99 in-process, CPU time", worst_cpu, 2.0),
        ("status p99 over HTTP", worst_status_http, 10.0),
        ("answer p99 over HTTP", answer_http["p99_ms"], 20.0),
        ("answer p99 over HTTP, worded otherwise", worded_http["p99_ms"], 20.0),
        ("answer p99 over HTTP, kind of value asked", kind_http["p99_ms"], 20.0),
    ):
        print(f"target {name} < {target} ms: {value} ms -> {'met' if value < target else 'MISSED'}")
    print(json.dumps({"results": results, "concurrent_status_per_s": concurrent, "index": index}))


if __name__ == "__main__":
    main()
