"""Erasing a source whose one line holds many claims (issue 31, point 11): proportional work.

    .venv/bin/python bench/bench_erase.py                 # 1,000 and 10,000 records
    .venv/bin/python bench/bench_erase.py --records 500,5000

For each size: a store holding one pasted export on a single line (N records of three facts
each: a per-job timeout, a shared fee, a range), stored straight through the claim
repository (the pipeline would keep 1,000 of its claims: claims/document_bounds.py; here
the store holds them all, to measure the erase itself) plus three short notes, edges
recomputed, then ``claims.retention.erase`` of the export in one transaction. Printed: the
rows removed and the erase's wall time; the ratio of time per claim against the smallest
size (the baseline, measured in the same run) is the figure: 1.0 means proportional.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from claims.edge_refresh import recompute_edges  # noqa: E402
from claims.extraction import current_generation, extract  # noqa: E402
from claims.retention import erase  # noqa: E402
from claims.store import (  # noqa: E402
    ClaimRepository,
    GenerationRepository,
    SourceRepository,
    make_engine,
    transaction,
)
from claims.store.migrate import upgrade  # noqa: E402


def export_line(records: int) -> str:
    return "# Export " + "; ".join(
        f"the timeout of job{i} is {i % 97 + 1} ms, the fee is {i % 13 + 2} EUR and the "
        f"limit is between {i % 31} and {i % 31 + 2} requests"
        for i in range(records)
    )


def one_size(records: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/claims.db"
        upgrade(url)
        engine = make_engine(url)
        generation, label = current_generation()
        with transaction(engine) as session:
            GenerationRepository(session).ensure(generation, label)
            sources = SourceRepository(session)
            line = export_line(records)
            version, _ = sources.add_version("dump/export", line)
            ClaimRepository(session).add_all(
                extract(line, source_id="dump/export", source_version_id=version.id)
            )
            for k in range(3):
                body = f"Note {k}\n\nThe fee is {k + 40} EUR.\n"
                version, _ = sources.add_version(f"note/{k}", body)
                ClaimRepository(session).add_all(
                    extract(body, source_id=f"note/{k}", source_version_id=version.id)
                )
        with transaction(engine) as session:
            recompute_edges(session, generation)
        start = time.perf_counter()
        with transaction(engine) as session:
            erased = erase(session, "dump/export", reason="bench", actor="bench")
        seconds = time.perf_counter() - start
        engine.dispose()
        return {"claims": erased.claims, "edges": erased.edges_deleted, "seconds": seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", default="1000,10000")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} at the start")
    results = [(n, one_size(n)) for n in (int(x) for x in args.records.split(","))]
    base = results[0][1]
    per_claim = base["seconds"] / max(1, base["claims"])
    for records, r in results:
        ratio = (r["seconds"] / max(1, r["claims"])) / per_claim
        print(
            f"{records:6} records: erased {r['claims']:6.0f} claims, {r['edges']:6.0f} edges in "
            f"{r['seconds']:.2f} s (time per claim x{ratio:.2f} the smallest size)"
        )
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
