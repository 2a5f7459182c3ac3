"""Benchmark: routing conflict edges into review items, re-routing, and the review metrics.

One command: ``.venv/bin/python bench/bench_review.py`` (``--sizes 500,2000`` for a
quicker run). For each size (number of conflict sets) it builds a SQLite store with that many
claim keys, each holding one conflict set (two thirds 2-way, one third 3-way), 30% of them
non-material between sources of different tiers (decided by rule), 10% on high-risk keys;
then it times the first routing pass, an identical re-run (must change nothing) and
``review_metrics``. Printed: seconds, milliseconds per conflict set, and the growth of the
per-set figure against the smallest size (the baseline, measured in the same run): a flat
ratio means routing grows linearly with the number of conflict sets.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import func, insert, select

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from claims.ids import stable_id  # noqa: E402
from claims.store import make_engine, transaction  # noqa: E402
from claims.store.migrate import upgrade  # noqa: E402
from claims.tables import (  # noqa: E402
    AuditEventRow,
    ClaimRow,
    EdgeRow,
    ExtractorGenerationRow,
    SourceRow,
    SourceVersionRow,
)
from review.metrics import review_metrics  # noqa: E402
from review.policy import apply_policy, parse_policy  # noqa: E402
from review.routing import route  # noqa: E402

TIERS = ["official", "approved", "reference", "informal"]
POLICY = {
    "policy_id": "bench",
    "version": 1,
    "tiers": TIERS,
    "high_risk_predicates": ["risky*"],
    "auto_resolution": [{"id": "higher-tier", "kind": "higher_tier_wins"}],
}
GENERATION = "gen-bench"


def build_store(url: str, sets: int) -> None:
    upgrade(url)
    engine = make_engine(url)
    now = datetime.now(UTC)
    sources, versions, claims, edges = [], [], [], []
    for number in range(sets):
        key = f"{'risky' if number % 10 == 0 else 'metric'} {number}|value"
        width = 3 if number % 3 == 0 else 2
        material = number % 10 != 1 and number % 10 != 2 and number % 10 != 3  # 30% not
        members = []
        for side in range(width):
            source_id = f"doc-{number}-{side}"
            tier = TIERS[side] if not material else "approved"
            version_id = stable_id("sv", source_id)
            sources.append(
                {
                    "id": source_id,
                    "title": source_id,
                    "authority_tier": tier,
                    "withdrawn": False,
                    "created_at": now,
                    "updated_at": now,
                }
            )
            text = f"The value is {100 + side}."
            versions.append(
                {
                    "id": version_id,
                    "source_id": source_id,
                    "number": 1,
                    "sha256": version_id,
                    "size_bytes": len(text),
                    "media_type": "text/plain",
                    "text": text,
                    "ingested_at": now,
                }
            )
            claim_id = stable_id("c", number, side)
            claims.append(
                {
                    "id": claim_id,
                    "source_version_id": version_id,
                    "source_id": source_id,
                    "generation": GENERATION,
                    "claim_key": key,
                    "kind": "quantity",
                    "value_number": 100.0 + side,
                    "bound": "exact",
                    "approximate": False,
                    "scope": {},
                    "scope_residual": [],
                    "reported_speech": False,
                    "span_start": 0,
                    "span_end": len(text),
                    "quote": text,
                    "confidence": 0.9,
                    "created_at": now,
                }
            )
            members.append(claim_id)
        for left in range(width):
            for right in range(left + 1, width):
                edges.append(
                    {
                        "id": stable_id("e", members[left], members[right]),
                        "kind": "conflicts",
                        "left_claim_id": members[left],
                        "right_claim_id": members[right],
                        "claim_key": key,
                        "rule": "value",
                        "reason": "values differ",
                        "material": material,
                        "materiality": 0.8 if material else 0.1,
                        "generation": GENERATION,
                        "created_at": now,
                    }
                )
    with transaction(engine) as session:
        session.execute(
            insert(ExtractorGenerationRow),
            [
                {
                    "id": GENERATION,
                    "label": "bench",
                    "status": "active",
                    "regression_report": {},
                    "created_at": now,
                }
            ],
        )
        for table, rows in (
            (SourceRow, sources),
            (SourceVersionRow, versions),
            (ClaimRow, claims),
            (EdgeRow, edges),
        ):
            for start in range(0, len(rows), 5000):
                session.execute(insert(table), rows[start : start + 5000])
    engine.dispose()


def measure(sets: int, folder: Path) -> dict[str, float]:
    url = f"sqlite:///{folder / f'bench-{sets}.db'}"
    build_store(url, sets)
    engine = make_engine(url)
    policy = parse_policy(POLICY, location="bench policy")
    with transaction(engine) as session:
        apply_policy(session, policy, actor="bench")
    started = time.perf_counter()
    with transaction(engine) as session:
        first = route(session, policy)
    first_s = time.perf_counter() - started
    with transaction(engine) as session:
        audit_before = session.scalar(select(func.count()).select_from(AuditEventRow))
    started = time.perf_counter()
    with transaction(engine) as session:
        again = route(session, policy)
    again_s = time.perf_counter() - started
    with transaction(engine) as session:
        audit_after = session.scalar(select(func.count()).select_from(AuditEventRow))
        started = time.perf_counter()
        figures = review_metrics(session, policy)
        metrics_s = time.perf_counter() - started
    engine.dispose()
    assert first.conflict_sets == sets and len(first.opened) == sets
    assert not again.opened and not again.auto_resolved and audit_after == audit_before
    return {
        "sets": sets,
        "edges": first.conflict_edges,
        "auto": len(first.auto_resolved),
        "first_s": first_s,
        "again_s": again_s,
        "metrics_s": metrics_s,
        "share_auto": figures.share_auto_resolved or 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,4000", help="Comma-separated set counts.")
    sizes = [int(s) for s in parser.parse_args().sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        results = [measure(size, Path(tmp)) for size in sizes]
    base = results[0]["first_s"] / results[0]["sets"]
    print(
        f"{'sets':>7} {'edges':>7} {'auto':>6} {'route s':>8} {'ms/set':>7} "
        f"{'vs base':>7} {'re-route s':>10} {'re/first':>8} {'metrics s':>9}"
    )
    for r in results:
        per_set = r["first_s"] / r["sets"]
        print(
            f"{r['sets']:>7} {r['edges']:>7} {r['auto']:>6} {r['first_s']:>8.2f} "
            f"{per_set * 1000:>7.2f} {per_set / base:>7.2f} {r['again_s']:>10.2f} "
            f"{r['again_s'] / r['first_s']:>8.2f} {r['metrics_s']:>9.2f}"
        )


if __name__ == "__main__":
    main()
