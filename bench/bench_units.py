"""Unit normalisation speed: cached conversions per second for known units, against a naive
``pint.Quantity(text).to(...)`` on the same values measured in the same run.

    .venv/bin/python bench/bench_units.py [--n 1000000]

Target (issue 3): >= 1,000,000 conversions per second for known units.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from claims.units import application_registry, lookup, normalize  # noqa: E402

UNITS = [
    "ms",
    "days",
    "GB",
    "MiB",
    "tokens",
    "cents",
    "%",
    "mg",
    "requests per minute",
    "日",
    "USD",
    "kg",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--naive", type=int, default=3_000)
    args = parser.parse_args()

    pairs = [(float(i % 997) + 0.5, UNITS[i % len(UNITS)]) for i in range(args.n)]
    for unit in UNITS:
        normalize(1.0, unit)  # the first call per unit computes and caches the factor

    # CPU time of this process, best of 5: the machine is shared
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for value, unit in pairs:
            normalize(value, unit)
        best = min(best, time.process_time() - start)
    rate = args.n / best

    registry = application_registry()
    targets = {}
    for unit in UNITS:
        entry = lookup(unit)
        assert entry is not None
        targets[unit] = entry.pint_name.replace("(", "").replace(")", "")
    # pint parses "<value> <pint unit name>"; the lexicon surfaces themselves are not pint's
    naive_pairs = [(v, targets[u]) for v, u in pairs[: args.naive] if u not in ("日", "%")]
    canonical = {}
    for _, name in naive_pairs:
        canonical.setdefault(name, registry.Quantity(1, name).to_base_units().units)
    naive_best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for value, name in naive_pairs:
            registry.Quantity(f"{value} {name}").to(canonical[name])
        naive_best = min(naive_best, time.process_time() - start)
    naive_rate = len(naive_pairs) / naive_best

    print(
        f"cached normalize(): {rate:14,.0f} conversions/s over {args.n:,} calls "
        f"(target >= 1,000,000): {'PASS' if rate >= 1_000_000 else 'FAIL'}"
    )
    print(f"naive pint parse  : {naive_rate:14,.0f} conversions/s over {len(naive_pairs):,} calls")
    print(f"speed-up          : {rate / naive_rate:,.0f}x")


if __name__ == "__main__":
    main()
