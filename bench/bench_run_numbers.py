"""`claims run` on one file of 20,000 bare numbers (issue 14.1: under 10 s and 500 MB).

    .venv/bin/python bench/bench_run_numbers.py [--numbers 20000] [--repeat 3] [--keep DIR]

Writes the file (lines of ten numbers: integers, two-decimal figures and small counts,
seeded, about 110 KB for 20,000), then runs the installed `claims run` on a folder holding
only it, each time with a new CLAIMS_DATA_DIR (so the store and Dagster's history are
created as on a first run). Prints per run the wall time, the CPU time of the process and
its children (user + sys), the peak RSS, the claims stored and the load average when the
run started: on a shared machine the wall time mostly measures the neighbours, the CPU
time much less so.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CLAIMS = Path(sys.executable).with_name("claims")


def write_numbers(path: Path, count: int, seed: int = 20000) -> None:
    rng = random.Random(seed)
    draws = (
        lambda: str(rng.randint(0, 999_999)),
        lambda: f"{rng.uniform(0, 1000):.2f}".rstrip("0").rstrip("."),
        lambda: str(rng.randint(0, 99)),
    )
    numbers = [rng.choice(draws)() for _ in range(count)]
    lines = [" ".join(numbers[i : i + 10]) for i in range(0, count, 10)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def one_run(sources: Path, data_dir: Path) -> dict[str, float]:
    shutil.rmtree(data_dir, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMS_")}
    env["CLAIMS_DATA_DIR"] = str(data_dir)
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [str(CLAIMS), "run", str(sources), "--json"], env=env, capture_output=True, text=True
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"claims run failed ({done.returncode}):\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "wall": wall,
        "cpu": cpu,
        "rss_mb": after.ru_maxrss / 1024,  # the largest child so far (Linux: KB)
        "claims": json.loads(done.stdout)["claims"],
        "load": load,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--numbers", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="write the sources and stores here")
    args = parser.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="bench-numbers-"))
    sources = root / "sources"
    sources.mkdir(parents=True, exist_ok=True)
    path = sources / "numbers.txt"
    write_numbers(path, args.numbers)
    print(f"{path}: {args.numbers} numbers, {path.stat().st_size / 1024:.0f} KB")
    runs = [one_run(sources, root / f"data-{k}") for k in range(args.repeat)]
    for k, r in enumerate(runs, 1):
        print(
            f"run {k}: wall {r['wall']:6.2f} s  cpu {r['cpu']:6.2f} s  peak rss "
            f"{r['rss_mb']:5.0f} MB  claims {r['claims']}  load {r['load']:.2f}"
        )
    best = min(runs, key=lambda r: r["wall"])
    verdict = "PASS" if best["wall"] < 10 and best["rss_mb"] < 500 else "FAIL"
    print(f"best wall {best['wall']:.2f} s (target < 10 s, < 500 MB): {verdict}")
    if args.keep is None:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
