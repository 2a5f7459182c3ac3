"""Status of one claim key that holds many claims (issue 14.1): time and response size.

    .venv/bin/python bench/bench_status_key.py                  # 10,000 claims, 4 values
    .venv/bin/python bench/bench_status_key.py --claims 2000 --samples 20
    .venv/bin/python bench/bench_status_key.py --data /tmp/skey   # keep the store, reuse it

The store is built the way the pipeline builds it: one source per note, real extraction of
four template sentences (the notes differ only in the value they state), the claims copied
per source, then ``recompute_edges`` (value groups, relations, a star of edges). A third of
the sources are restricted to group ``legal``. Timed: ``status_of_key`` in-process and
``GET /api/status?key=...`` through the real router (FastAPI TestClient, JSON serialised),
for a requester who sees everything and for one who sees only the public notes; and the
claim-by-claim reading (``aggregate=False``) of the same key, checked to give the same
report. Over HTTP both the default page (25 claims) and a page of 100 (the in-process
default) are timed. CPU time (this process: client and server) is printed beside wall time,
and the load average before and after: the machine may be shared. In-process calls read the
key's cells each time; over HTTP the service keeps them between requests
(``retrieval.key_summary``), as ``claims serve`` does.

Last, unless ``--no-server``: a real ``claims serve`` process on the same store, requests
over TCP (httpx, one connection), wall time at the client and the server's CPU from /proc.
Its p50 for the default page is the figure issue 14.1 asks for (under 100 ms).
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import text  # noqa: E402

from claims.edge_refresh import recompute_edges  # noqa: E402
from claims.extraction import current_generation, extract  # noqa: E402
from claims.models import Requester, Source  # noqa: E402
from claims.store import (  # noqa: E402
    ClaimRepository,
    GenerationRepository,
    SourceRepository,
    make_engine,
    transaction,
)
from claims.store.migrate import upgrade  # noqa: E402
from retrieval.status import status_of_key  # noqa: E402

VALUES = ["5 EUR", "7 EUR", "9 EUR", "about 9 EUR"]
SENTENCE = "Branch note {n}.\n\nThe visitor parking fee is {value} per day.\n"
# the baseline key of the same store: the same shape, BASELINE_CLAIMS claims
BASELINE_SENTENCE = "Depot note {n}.\n\nThe locker deposit is {value}.\n"
BASELINE_CLAIMS = 100


def build(
    url: str, n_claims: int, sentence: str = SENTENCE, prefix: str = "notes"
) -> tuple[str, float]:
    upgrade(url)
    engine = make_engine(url)
    started = time.perf_counter()
    generation, label = current_generation()
    with transaction(engine) as session:
        GenerationRepository(session).ensure(generation, label)
        sources = SourceRepository(session)
        claims = ClaimRepository(session)
        templates = {}
        batch = []
        for n in range(n_claims):
            value = VALUES[n % len(VALUES)]
            source_id = f"{prefix}/{n:05d}"
            body = sentence.format(n=n, value=value)
            version, _ = sources.add_version(source_id, body)
            if value not in templates:
                (templates[value],) = [
                    c
                    for c in extract(body, source_id=source_id, source_version_id=version.id)
                    if c.value is not None and c.unit and not c.claim_key.startswith("branch")
                ]
                batch.append(templates[value])
            else:
                template = templates[value]
                offset = body.index("The ")
                batch.append(
                    template.model_copy(
                        update={
                            "id": f"cl_bench_{prefix}{n:08d}",
                            "source_id": source_id,
                            "source_version_id": version.id,
                            "span_start": offset,
                            "span_end": offset + len(template.quote),
                        }
                    )
                )
            sources.apply_register_entry(
                Source(id=source_id, access_groups=["legal"] if n % 3 == 0 else [])
            )
        claims.add_all(batch)
        recompute_edges(session, generation, {c.claim_key for c in batch})
    key = next(iter(templates.values())).claim_key
    engine.dispose()
    return key, time.perf_counter() - started


def _pick(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def timed(
    call: Callable[[], Any], samples: int, cpu_clock: Callable[[], float] = time.process_time
) -> tuple[float, float, float]:
    """p50 and p99 wall time and p50 CPU time (of this process unless ``cpu_clock`` says
    whose), in ms (the machine may be shared: CPU time is what the call itself cost)."""
    p50, _, p99, cpu = timed4(call, samples, cpu_clock)
    return p50, p99, cpu


def timed4(
    call: Callable[[], Any], samples: int, cpu_clock: Callable[[], float] = time.process_time
) -> tuple[float, float, float, float]:
    """p50, p95 and p99 wall time and p50 CPU time, in ms."""
    call()  # warm caches
    times, cpu = [], []
    for _ in range(samples):
        start, start_cpu = time.perf_counter(), cpu_clock()
        call()
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((cpu_clock() - start_cpu) * 1000)
    times.sort()
    return statistics.median(times), _pick(times, 0.95), _pick(times, 0.99), statistics.median(cpu)


def process_cpu(pid: int) -> Callable[[], float]:
    """CPU seconds (user + system) of process ``pid`` so far, read from /proc (Linux)."""
    ticks = os.sysconf("SC_CLK_TCK")

    def clock() -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / ticks

    return clock


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def served(data: Path, key: str, samples: int) -> list[str]:
    """``GET /api/status?key=`` against a real ``claims serve`` process on this store: the
    figure issue 14 asks for (p50 wall over HTTP, default page). Server CPU is read from
    /proc; the first request after start-up (the first reader's) makes the key's summary
    (``retrieval.key_summary``), later ones reuse it."""
    import httpx

    port = free_port()
    env = {**os.environ, "CLAIMS_DATA_DIR": str(data)}
    env.pop("CLAIMS_DATABASE_URL", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "claimledger", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    lines = []
    try:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=60) as client:
            deadline = time.monotonic() + 120
            while True:
                try:
                    client.get("/api/status")
                    break
                except httpx.TransportError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("claims serve did not start") from None
                    time.sleep(0.2)
            clock = process_cpu(server.pid)
            for who in ("boss", "pub"):
                headers = {"Authorization": f"Bearer {TOKENS[who]}"}

                def get(h: dict[str, str] = headers) -> Any:
                    response = client.get("/api/status", params={"key": key}, headers=h)
                    assert response.status_code == 200, response.text
                    return response

                start, start_cpu = time.perf_counter(), clock()
                body = get().content
                first, first_cpu = (
                    (time.perf_counter() - start) * 1000,
                    (clock() - start_cpu) * 1000,
                )
                # /proc counts CPU in ticks (10 ms): the mean over the samples, not a median
                before_cpu = clock()
                p50, p95, p99, _ = timed4(get, samples, clock)
                cpu = (clock() - before_cpu) * 1000 / (samples + 1)
                lines.append(
                    f"claims serve, GET /api/status?key= as {who:4} (25 listed, "
                    f"{len(body) / 1024:.0f} KiB): p50 {p50:6.1f} ms  p95 {p95:6.1f} ms  "
                    f"p99 {p99:6.1f} ms  server CPU mean {cpu:5.1f} ms; its first request "
                    f"{first:6.1f} ms ({first_cpu:.0f} ms server CPU)"
                )
    finally:
        server.terminate()
        server.wait(timeout=30)
    return lines


TOKENS = {"boss": "bench-boss-token-7d1e9c3a5b", "pub": "bench-public-token-2f8a6c4e0d"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claims", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument(
        "--data",
        type=Path,
        help="keep the store in this directory and reuse it when it was built with the same "
        "--claims (building 10,000 notes takes minutes)",
    )
    parser.add_argument(
        "--no-server",
        action="store_true",
        help="skip timing a real `claims serve` process (over TCP, server CPU from /proc)",
    )
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} at the start")
    with tempfile.TemporaryDirectory() as tmp:
        data = args.data or Path(tmp)
        data.mkdir(parents=True, exist_ok=True)
        os.environ["CLAIMS_DATA_DIR"] = str(data)
        os.environ.pop("CLAIMS_DATABASE_URL", None)
        from claims.settings import get_settings
        from retrieval.access import token_digest

        get_settings.cache_clear()
        (data / "access.yaml").write_text(
            "principals:\n"
            f"  boss: {{groups: [legal], tokens_sha256: [{token_digest(TOKENS['boss'])}]}}\n"
            f"  pub: {{groups: [], tokens_sha256: [{token_digest(TOKENS['pub'])}]}}\n"
        )
        url = get_settings().resolved_database_url
        built = data / f"built-{args.claims}.txt"
        if built.exists():
            key, small_key = built.read_text(encoding="utf-8").splitlines()
            upgrade(url)  # a store kept from an older revision
            print(f"store: reused from {data}")
        else:
            key, seconds = build(url, args.claims)
            small_key, _ = build(url, BASELINE_CLAIMS, BASELINE_SENTENCE, "depots")
            built.write_text(f"{key}\n{small_key}\n", encoding="utf-8")
            print(f"store: {args.claims} claims at key {key!r} built in {seconds:.1f} s")
        engine = make_engine(url)
        with engine.connect() as conn:
            counts = {
                table: conn.execute(text(f"SELECT count(*) FROM {table}")).scalar() or 0
                for table in ("claims", "edges", "value_group_claims", "value_group_relations")
            }
        print(f"store rows {counts}")
        print(f"edge rows per claim: {counts['edges'] / max(1, counts['claims']):.2f}")
        from fastapi.testclient import TestClient

        from claimledger.web import create_app

        # as a context manager: the app's start-up and shutdown run (``claims serve`` runs
        # them too: gc.freeze after start-up)
        client = TestClient(create_app(get_settings())).__enter__()
        for who in (Requester(principal="boss", groups=["legal"]), Requester(principal="pub")):
            report = status_of_key(engine, key, who)
            size = len(report.model_dump_json())
            p50, p99, cpu = timed(lambda w=who: status_of_key(engine, key, w), args.samples)
            base50, _, base_cpu = timed(
                lambda w=who: status_of_key(engine, small_key, w), args.samples
            )
            print(
                f"in-process status_of_key as {who.principal:4}: p50 {p50:7.1f} ms  "
                f"p99 {p99:7.1f} ms  CPU p50 {cpu:6.1f} ms  status {report.status.value}  "
                f"claims listed {len(report.claims)}  body {size / 1024:.0f} KiB"
            )
            print(
                f"  baseline: a key of {BASELINE_CLAIMS} claims in the same store p50 "
                f"{base50:6.1f} ms (CPU {base_cpu:.1f} ms); {args.claims} claims / "
                f"{BASELINE_CLAIMS} = {p50 / max(base50, 1e-9):.1f}x the time "
                f"({cpu / max(base_cpu, 1e-9):.1f}x the CPU) for "
                f"{args.claims / BASELINE_CLAIMS:.0f}x the claims"
            )
            slow = status_of_key(engine, key, who, aggregate=False)
            assert slow == report, "the aggregate reading differs from the claim-by-claim one"
            s50, s99, s_cpu = timed(
                lambda w=who: status_of_key(engine, key, w, aggregate=False),
                max(2, args.samples // 5),
            )
            print(
                f"  the claim-by-claim reading (aggregate=False), same report: p50 {s50:7.1f} ms"
                f"  p99 {s99:7.1f} ms  CPU p50 {s_cpu:6.1f} ms"
            )
            headers = {"Authorization": f"Bearer {TOKENS[who.principal]}"}
            for limit in (None, 100):
                params = {"key": key} if limit is None else {"key": key, "limit": str(limit)}

                def get(h: dict[str, str] = headers, p: dict[str, str] = params) -> Any:
                    return client.get("/api/status", params=p, headers=h)

                response = get()
                assert response.status_code == 200, response.text
                p50, p95, p99, cpu = timed4(get, args.samples)
                page = response.json()["page"]["limit"]
                print(
                    f"GET /api/status?key= as {who.principal:4} ({page:3} claims listed): "
                    f"p50 {p50:7.1f} ms  p95 {p95:7.1f} ms  p99 {p99:7.1f} ms  CPU p50 "
                    f"{cpu:6.1f} ms (client and server)  "
                    f"body {len(response.content) / 1024:.0f} KiB"
                )
                small = {**params, "key": small_key}
                base50, _, base_cpu = timed(
                    lambda h=headers, p=small: client.get("/api/status", params=p, headers=h),
                    args.samples,
                )
                print(
                    f"  baseline over HTTP, the {BASELINE_CLAIMS}-claim key: p50 {base50:6.1f} ms "
                    f"(CPU {base_cpu:.1f} ms); {p50 / max(base50, 1e-9):.1f}x the time "
                    f"({cpu / max(base_cpu, 1e-9):.1f}x the CPU)"
                )
        client.__exit__(None, None, None)
        engine.dispose()
        if not args.no_server:
            print(f"load average {os.getloadavg()[0]:.1f} before claims serve")
            for line in served(data, key, args.samples):
                print(line)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    print("target (issue 14.1): p50 under 100 ms for GET /api/status of the 10,000-claim key")


if __name__ == "__main__":
    main()
