"""Benchmark: edge generation for 10k, 100k and 1M synthetic claims, and an incremental update.

One command: ``.venv/bin/python bench/bench_edges.py`` (``--sizes 10000,100000`` for a
quicker run). Prints, for each size, the time of ``build_edges`` per claim, the growth of
that figure against the smallest size (the baseline, measured in the same run), and the
time of an incremental update for one new source version against a full recompute of the
same claims.

Synthetic corpus with a realistic key distribution: a quarter as many claim keys as claims,
block sizes heavy-tailed (a few keys appear in thousands of documents, most in one to
four), about 70% agreeing values (15% of them mirrored sentences), 10% other scopes, 6%
conflicting values, 5% disjoint years, 4% unit conversions, 5% bounds; one key in twenty is
a near miss of its neighbour (its words plus a qualifier, same coarse key), and 10% of the
sources have a second version (lineage).
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import tempfile
import time
from collections import defaultdict
from datetime import UTC, date, datetime
from pathlib import Path

from sqlalchemy import insert
from sqlalchemy.orm import Session

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from claims.edge_refresh import (  # noqa: E402
    EdgeReport,
    keys_touched_by_version,
    recompute_edges,
)
from claims.edges import ClaimFacts, SupersessionIndex, build_edges  # noqa: E402
from claims.edges.facts import INF, quantity_interval  # noqa: E402
from claims.edges.supersession import VersionRef, derive_version_supersessions  # noqa: E402
from claims.store import GenerationRepository, make_engine, transaction  # noqa: E402
from claims.store.migrate import upgrade  # noqa: E402
from claims.tables import ClaimRow, SourceRow, SourceVersionRow  # noqa: E402

CLAIMS_PER_VERSION = 20


def _facts(
    rng: random.Random,
    n: int,
    key: int,
    source: int,
    version: int,
    *,
    prefix: str = "c",
) -> ClaimFacts:
    """One synthetic claim on key ``key`` (value mix as in the module docstring)."""
    truth = 10.0 + key % 97
    roll = rng.random()
    value, unit, scale, bound = truth, "day", 86400.0, "exact"
    scope: tuple[tuple[str, str], ...] = ()
    t_start, t_end, time_known, time_text = -INF, INF, False, ""
    quote = f"The value of key {key} is {truth:g} days."
    if roll < 0.70:
        if rng.random() >= 0.15:
            quote = f"Source {source} states key {key} at {truth:g} days ({n})."
    elif roll < 0.80:
        quarter = 1 + rng.randrange(4)
        scope = (("period", f"q{quarter}"),)
        value = truth + quarter
        quote = f"In Q{quarter}, key {key} is {value:g} days ({n})."
    elif roll < 0.86:
        value = truth * 2
        quote = f"Key {key} is {value:g} days ({n})."
    elif roll < 0.91:
        year = 2015 + rng.randrange(8)
        t_start, t_end, time_known, time_text = (
            735000.0 + 365 * (year - 2015),
            735364.0 + 365 * (year - 2015),
            True,
            str(year),
        )
        value = truth + year % 3
        quote = f"In {year}, key {key} was {value:g} days ({n})."
    elif roll < 0.95:
        value, unit, scale = truth * 24, "hour", 3600.0
        quote = f"Key {key} is {value:g} hours ({n})."
    else:
        bound = "at_most"
        value = truth + 5
        quote = f"Key {key} is at most {value:g} days ({n})."
    lo, hi, lo_open, hi_open = quantity_interval(bound, value * scale, None, None, 0.0)
    return ClaimFacts(
        id=f"{prefix}{n:09d}",
        source_id=f"s{source:08d}",
        version_id=f"s{source:08d}v{version}",
        # one key in twenty is a near miss of its neighbour: its words plus one qualifier
        # ("output limit" next to "limit"), under the same coarse key
        claim_key=(
            f"subject {key - 1}|predicate detail" if key % 20 == 1 else f"subject {key}|predicate"
        ),
        coarse_key=f"family {key // 2}" if key % 20 < 2 else f"family k{key}",
        predicate="predicate",
        kind="quantity",
        bound=bound,
        lo=lo,
        hi=hi,
        lo_open=lo_open,
        hi_open=hi_open,
        tol=0.0,
        dimension="[time]",
        unit=unit,
        shown=f"{'at most ' if bound == 'at_most' else ''}{value:g} {unit}",
        label="",
        stance="",
        scope=scope,
        residual=frozenset(),
        t_start=t_start,
        t_end=t_end,
        time_known=time_known,
        time_text=time_text,
        reported=False,
        quote_norm=quote.casefold(),
    )


def _key(rng: random.Random, keys: int) -> int:
    # heavy-tailed block sizes: rank = keys * u^2.5 puts thousands of claims on the top keys
    return int(keys * rng.random() ** 2.5)


def corpus(size: int, seed: int = 7) -> tuple[list[ClaimFacts], list[VersionRef]]:
    rng = random.Random(seed)
    keys = max(1, size // 4)
    sources = max(1, size // CLAIMS_PER_VERSION)
    facts: list[ClaimFacts] = []
    versions: list[VersionRef] = []
    n = 0
    for source in range(sources):
        count = 2 if rng.random() < 0.10 else 1
        for version in range(1, count + 1):
            versions.append(VersionRef(f"s{source:08d}v{version}", f"s{source:08d}", version))
            for _ in range(CLAIMS_PER_VERSION // count):
                facts.append(_facts(rng, n, _key(rng, keys), source, version))
                n += 1
    return facts, versions


def _timed(fn, *args, **kwargs):  # type: ignore[no-untyped-def]
    """(result, CPU seconds, wall seconds) of one call."""
    gc.collect()
    gc.disable()
    try:
        # CPU time of this process: the machine is shared, so wall time measures the
        # neighbours; both are printed, CPU time is the figure compared with the target
        started, cpu = time.perf_counter(), time.process_time()
        result = fn(*args, **kwargs)
        return result, time.process_time() - cpu, time.perf_counter() - started
    finally:
        gc.enable()


def run(size: int) -> dict[str, float]:
    facts, versions = corpus(size)
    index = SupersessionIndex(derive_version_supersessions(versions, []))
    full, seconds, wall = _timed(build_edges, facts, generation="bench", supersessions=index)

    # one new source version on existing keys: only its blocks are re-evaluated; the claims
    # of those blocks come from an index (the store's claim_key / coarse_key indexes)
    rng = random.Random(size)
    keys = max(1, size // 4)
    new = [
        _facts(rng, i, _key(rng, keys), 99_999_999, 1, prefix="new")
        for i in range(CLAIMS_PER_VERSION)
    ]
    by_key: dict[str, list[ClaimFacts]] = defaultdict(list)
    by_coarse: dict[str, list[ClaimFacts]] = defaultdict(list)
    for f in facts:
        by_key[f.claim_key].append(f)
        by_coarse[f.coarse_key].append(f)
    touched = {f.claim_key for f in new}
    coarse = {f.coarse_key for f in new}

    def incremental() -> int:
        selected: dict[str, ClaimFacts] = {f.id: f for f in new}
        for key in touched:
            selected.update((f.id, f) for f in by_key.get(key, ()))
        for key in coarse:
            selected.update((f.id, f) for f in by_coarse.get(key, ()))
        build = build_edges(
            list(selected.values()),
            generation="bench",
            supersessions=index,
            keys=touched,
            coarse_keys=coarse,
        )
        return len(build.edges)

    _, incremental_seconds, _ = _timed(incremental)
    _, full_again_seconds, _ = _timed(
        build_edges, facts + new, generation="bench", supersessions=index
    )
    blocks = defaultdict(int)
    for f in facts:
        blocks[f.claim_key] += 1
    return {
        "claims": len(facts),
        "seconds": seconds,
        "wall": wall,
        "us_per_claim": seconds / len(facts) * 1e6,
        "edges": len(full.edges),
        "comparisons": full.comparisons,
        "largest_block": max(blocks.values()),
        "incremental_seconds": incremental_seconds,
        "full_recompute_seconds": full_again_seconds,
    }


_SCALE = {"day": 86400.0, "hour": 3600.0}


def _row(f: ClaimFacts, generation: str, now: datetime) -> dict[str, object]:
    """A ``claims`` table row for a synthetic claim (the inverse of the store's loader)."""
    value = f.hi / _SCALE[f.unit]
    return {
        "id": f.id,
        "source_version_id": f.version_id,
        "source_id": f.source_id,
        "generation": generation,
        "subject": f.claim_key.split("|")[0],
        "predicate": f.predicate,
        "claim_key": f.claim_key,
        "coarse_key": f.coarse_key,
        "kind": "quantity",
        "value_number": value,
        "bound": f.bound,
        "approximate": False,
        "unit": f.unit,
        "canonical_value": f.hi,
        "canonical_unit": "second",
        "dimension": f.dimension,
        "scope": dict(f.scope),
        "scope_residual": [],
        "time_start": date.fromordinal(int(f.t_start)) if f.time_known else None,
        "time_end": date.fromordinal(int(f.t_end)) if f.time_known else None,
        "time_text": f.time_text or None,
        "reported_speech": False,
        "span_start": 0,
        "span_end": len(f.quote_norm),
        "quote": f.quote_norm,
        "confidence": 0.9,
        "created_at": now,
    }


def _store_rows(
    session: Session, facts: list[ClaimFacts], versions: list[VersionRef], generation: str
) -> None:
    now = datetime.now(UTC)
    sources = sorted({v.source_id for v in versions})
    session.execute(
        insert(SourceRow),
        [{"id": s, "withdrawn": False, "created_at": now, "updated_at": now} for s in sources],
    )
    session.execute(
        insert(SourceVersionRow),
        [
            {
                "id": v.id,
                "source_id": v.source_id,
                "number": v.number,
                "sha256": v.id,
                "size_bytes": 0,
                "media_type": "text/plain",
                "text": "",
                "ingested_at": now,
            }
            for v in versions
        ],
    )
    for start in range(0, len(facts), 5000):
        session.execute(
            insert(ClaimRow), [_row(f, generation, now) for f in facts[start : start + 5000]]
        )


def run_store(size: int) -> dict[str, float]:
    """recompute_edges on a real SQLite store: full, identical re-run, one new version."""
    facts, versions = corpus(size)
    rng = random.Random(size)
    keys = max(1, size // 4)
    new_version = VersionRef("s99999999v1", "s99999999", 1)
    new = [
        _facts(rng, i, _key(rng, keys), 99_999_999, 1, prefix="new")
        for i in range(CLAIMS_PER_VERSION)
    ]
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/bench.db"
        upgrade(url)
        engine = make_engine(url)
        try:
            with transaction(engine) as session:
                GenerationRepository(session).ensure("bench", "bench")
                _store_rows(session, facts, versions, "bench")
            with transaction(engine) as session:
                first, first_s, _ = _timed(recompute_edges, session, "bench")
            with transaction(engine) as session:
                again, again_s, _ = _timed(recompute_edges, session, "bench")
            with transaction(engine) as session:
                _store_rows(session, new, [new_version], "bench")
            with transaction(engine) as session:

                def incremental() -> EdgeReport:
                    touched = keys_touched_by_version(session, new_version.id, "bench")
                    return recompute_edges(session, "bench", touched)

                incr, incr_s, _ = _timed(incremental)
            with transaction(engine) as session:
                full, full_s, _ = _timed(recompute_edges, session, "bench")
        finally:
            engine.dispose()
    assert again.inserted == again.updated == again.retired == 0
    assert full.inserted == full.updated == full.retired == 0  # incremental left nothing out
    return {
        "claims": len(facts),
        "first_s": first_s,
        "edges": first.edges,
        "again_s": again_s,
        "incr_s": incr_s,
        "incr_claims": incr.claims,
        "full_s": full_s,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument(
        "--store-size", type=int, default=20000, help="claims for the SQLite recompute (0: skip)"
    )
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(
        f"python {sys.version.split()[0]}, one process, gc disabled while timing; "
        "us/claim, incr and full are CPU time"
    )
    header = (
        f"{'claims':>9} {'cpu s':>7} {'wall s':>7} {'us/claim':>9} {'vs base':>8} {'edges':>9} "
        f"{'compares':>9} {'max block':>9} {'incr ms':>8} {'full s':>7} {'full/incr':>9}"
    )
    print(header)
    baseline: float | None = None
    for size in sizes:
        r = run(size)
        baseline = baseline or r["us_per_claim"]
        print(
            f"{int(r['claims']):>9} {r['seconds']:>7.2f} {r['wall']:>7.2f} "
            f"{r['us_per_claim']:>9.2f} "
            f"{r['us_per_claim'] / baseline:>7.2f}x {int(r['edges']):>9} "
            f"{int(r['comparisons']):>9} {int(r['largest_block']):>9} "
            f"{r['incremental_seconds'] * 1000:>8.1f} {r['full_recompute_seconds']:>7.2f} "
            f"{r['full_recompute_seconds'] / r['incremental_seconds']:>8.0f}x",
            flush=True,
        )
    if args.store_size:
        r = run_store(args.store_size)
        print(
            f"\nSQLite store, {int(r['claims'])} claims, recompute_edges CPU time: "
            f"first full {r['first_s']:.2f} s ({int(r['edges'])} edges inserted), "
            f"identical re-run {r['again_s']:.2f} s (no row changed), "
            f"one new version {r['incr_s'] * 1000:.0f} ms ({int(r['incr_claims'])} claims loaded) "
            f"vs full {r['full_s']:.2f} s = {r['full_s'] / r['incr_s']:.0f}x"
        )


if __name__ == "__main__":
    main()
