"""Ranges, bounds-free lists and values without their unit in one key (issue 31, point 1).

    .venv/bin/python bench/bench_ranges_lists.py            # 600 ranges, 400 lists
    .venv/bin/python bench/bench_ranges_lists.py --lines 200 --samples 10

For each shape, in a child process of its own (so peak memory is that shape's): one file of
N lines of one key ("The timeout is between N and N+1 ms.", "The timeout is A ms, B ms or
C ms.", "The timeout is A, B or C ms.", the baseline "The timeout is N ms." with as many
claims), real extraction, then ``recompute_edges`` over the store. Printed: claims, edge and
relation rows, the edge build's wall time, the child's peak RSS, and the p50 of ``GET
/api/status?key=timeout`` through the real app (FastAPI TestClient, an access file with one
reader), with its CPU time (this process: client and server; the machine may be shared);
the ratios are against the baseline measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SHAPES = {
    "points (baseline)": lambda n: f"The timeout is {n + 1} ms.",
    "ranges": lambda n: f"The timeout is between {n} and {n + 1} ms.",
    "lists with units": lambda n: f"The timeout is {3 * n} ms, {3 * n + 1} ms or {3 * n + 2} ms.",
    "lists, unit last": lambda n: f"The timeout is {3 * n}, {3 * n + 1} or {3 * n + 2} ms.",
}
TOKEN = "bench-ranges-lists-token"


def _lines(shape: str, ranges: int, lists: int) -> int:
    return ranges if shape == "ranges" else lists if shape.startswith("lists") else ranges


def measure(shape: str, lines: int, samples: int) -> dict[str, object]:
    """One shape in this process (called in a child)."""
    from sqlalchemy import text

    from claims.edge_refresh import recompute_edges
    from claims.extraction import current_generation, extract
    from claims.store import (
        ClaimRepository,
        GenerationRepository,
        SourceRepository,
        make_engine,
        transaction,
    )
    from claims.store.migrate import upgrade

    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        os.environ["CLAIMS_DATA_DIR"] = str(data)
        os.environ.pop("CLAIMS_DATABASE_URL", None)
        from claims.settings import get_settings
        from retrieval.access import token_digest

        get_settings.cache_clear()
        (data / "access.yaml").write_text(
            f"principals:\n  ana: {{groups: [], tokens_sha256: [{token_digest(TOKEN)}]}}\n"
        )
        url = get_settings().resolved_database_url
        upgrade(url)
        engine = make_engine(url)
        body = "Timeouts\n\n" + "\n".join(SHAPES[shape](n) for n in range(lines)) + "\n"
        generation, label = current_generation()
        with transaction(engine) as session:
            GenerationRepository(session).ensure(generation, label)
            GenerationRepository(session).promote(generation, {})
            version, _ = SourceRepository(session).add_version("ops/timeouts", body)
            ClaimRepository(session).add_all(
                extract(body, source_id="ops/timeouts", source_version_id=version.id)
            )
        start = time.perf_counter()
        with transaction(engine) as session:
            recompute_edges(session, generation)
        edges_s = time.perf_counter() - start
        with engine.connect() as conn:
            rows = {
                table: int(conn.execute(text(f"SELECT count(*) FROM {table}")).scalar() or 0)
                for table in ("claims", "edges", "value_group_relations", "value_group_slots")
            }
        from fastapi.testclient import TestClient

        from claimledger.web import create_app

        client = TestClient(create_app(get_settings())).__enter__()
        headers = {"Authorization": f"Bearer {TOKEN}"}
        response = client.get("/api/status", params={"key": "timeout"}, headers=headers)
        assert response.status_code == 200, response.text
        times, cpu = [], []
        for _ in range(samples):
            t, c = time.perf_counter(), time.process_time()
            client.get("/api/status", params={"key": "timeout"}, headers=headers)
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        return {
            **rows,
            "edges_s": edges_s,
            "status_p50_ms": 1000 * statistics.median(times),
            "status_cpu_ms": 1000 * statistics.median(cpu),
            "status": response.json().get("status"),
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ranges", type=int, default=600)
    parser.add_argument("--lists", type=int, default=400)
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--lines", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, args.lines, args.samples)))
        return
    print(f"load average {os.getloadavg()[0]:.1f} at the start")
    results = {}
    for shape in SHAPES:
        lines = _lines(shape, args.ranges, args.lists)
        if shape.startswith("points"):
            lines = 3 * args.lists  # as many claims as the lists
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--child",
                shape,
                "--lines",
                str(lines),
                "--samples",
                str(args.samples),
            ],
            check=True,
            capture_output=True,
            text=True,
        )
        results[shape] = json.loads(out.stdout.strip().splitlines()[-1])
    base = results["points (baseline)"]
    for shape, r in results.items():
        print(
            f"{shape:18} claims {r['claims']:5} edges {r['edges']:6} "
            f"({r['edges'] / max(1, r['claims']):.2f}/claim) "
            f"relations {r['value_group_relations']:6} "
            f"slot rows {r['value_group_slots']:5} | edge build {r['edges_s']:.2f} s "
            f"(x{r['edges_s'] / base['edges_s']:.1f}) | peak {r['peak_mb']:.0f} MB | "
            f"GET /api/status p50 {r['status_p50_ms']:.1f} ms "
            f"(x{r['status_p50_ms'] / base['status_p50_ms']:.1f}), CPU "
            f"{r['status_cpu_ms']:.1f} ms (x{r['status_cpu_ms'] / base['status_cpu_ms']:.1f}) "
            f"{r['status']}"
        )
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
