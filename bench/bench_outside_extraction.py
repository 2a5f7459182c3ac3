"""CPU spent outside extraction by a full pipeline run, for before/after comparisons.

Usage: python bench/bench_outside_extraction.py [--tree PATH] [N]   (default N: 2000)

On the bench's generated corpus of N files (``bench_pipeline.generate``): extraction alone
over the texts, then ``run_pipeline`` on a fresh SQLite store and embedded Dagster instance,
each measured as CPU time of this process as well as wall time. On a machine shared with
other work, CPU time is the figure to compare; wall time follows the load.

``--tree`` runs another checkout of claimledger (for example the start of a session,
exported with ``git archive <rev> | tar -x -C /tmp/old``) with this venv, so two trees can
run side by side under the same load. Figures in docs/PIPELINE.md (session 7).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

args = sys.argv[1:]
tree = Path(__file__).resolve().parent.parent
if args[:1] == ["--tree"]:
    tree, args = Path(args[1]).resolve(), args[2:]
count = int(args[0]) if args else 2000
sys.path[:0] = [str(tree), str(tree / "bench")]
os.chdir(tree)
warnings.filterwarnings("ignore")

from bench_pipeline import dagster_instance, generate  # noqa: E402

from claims.extraction import extract  # noqa: E402
from claims.store.migrate import upgrade  # noqa: E402
from pipeline.resources import ClaimStore, ExtractorResource, SourcesResource  # noqa: E402
from pipeline.runner import run_pipeline  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-outside-") as tmp:
        root = Path(tmp)
        corpus = root / "corpus"
        generate(corpus, count, subjects=max(40, count // 25))
        texts = [p.read_text("utf-8") for p in sorted(corpus.rglob("*.txt"))]
        wall, cpu = time.perf_counter(), time.process_time()
        claims = sum(len(extract(t, source_id="bench", source_version_id=None)) for t in texts)
        extract_wall, extract_cpu = time.perf_counter() - wall, time.process_time() - cpu
        url = f"sqlite:///{root / 'claims.db'}"
        upgrade(url)
        home = root / "dagster"
        home.mkdir()
        wall, cpu = time.perf_counter(), time.process_time()
        outcome = run_pipeline(
            dagster_instance("sqlite", home),
            store=ClaimStore(database_url=url),
            sources=SourcesResource(sources_dir=str(corpus), register_file=""),
            extractor=ExtractorResource(),
            batch_size=1000,
            log_level="CRITICAL",
        )
        full_wall, full_cpu = time.perf_counter() - wall, time.process_time() - cpu
        if outcome.failures:
            raise SystemExit(f"pipeline failed: {outcome.failures}")
        steps = sorted(outcome.step_seconds.items(), key=lambda kv: -kv[1])[:6]
        print(f"== {tree}: {count} files, {claims:,} claims")
        print(f"  extraction alone: {extract_cpu:7.1f} s CPU {extract_wall:7.1f} s wall")
        print(f"  full run:         {full_cpu:7.1f} s CPU {full_wall:7.1f} s wall")
        print(
            f"  outside extraction: {full_cpu - extract_cpu:.1f} s CPU; full / extraction "
            f"{full_cpu / extract_cpu:.2f}x CPU, {full_wall / extract_wall:.2f}x wall"
        )
        print("  steps (wall): " + ", ".join(f"{k} {v:.1f}s" for k, v in steps))


if __name__ == "__main__":
    main()
