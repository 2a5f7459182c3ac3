"""Benchmark: teaching and withdrawing a synonym, and the claim writer under teachings.

One command: ``.venv/bin/python bench/bench_synonyms.py`` (``--quick`` for smaller sizes).
Each row builds a SQLite store holding ``keys`` products, each with a "heft" claim and a
"weight" claim of different values, among ``background`` claims of other attributes, then
times ``review.synonyms.teach(heft = weight)`` (re-key, edge refresh of the merged keys,
routing, impact, audit: ``keys`` new conflicts and review items) and its ``withdraw``.
Printed: seconds, milliseconds per merged key, and the per-key figure against the first
row (the baseline, measured in the same run). A flat ratio when ``keys`` grows means the
work is proportional to the claims the teaching names; a flat one when only ``background``
grows means the rest of the store costs nothing. Last, the claim writer
(``ClaimRepository.add_all``) with no teaching and with an active one, per 1,000 claims.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from claims.extraction import current_generation, extract  # noqa: E402
from claims.models import Claim  # noqa: E402
from claims.store import (  # noqa: E402
    ClaimRepository,
    GenerationRepository,
    SourceRepository,
    make_engine,
    transaction,
)
from claims.store.migrate import upgrade  # noqa: E402
from review.synonyms import teach, withdraw  # noqa: E402

SHEETS = 20  # source versions the claims are spread over
TEMPLATE = (
    "The Z-70 blower weighs 11 kg. The Z-70 blower has a heft of 14 kg. "
    "It moves 30 litres per minute."
)


def _templates() -> tuple[Claim, Claim, Claim]:
    claims = {c.attribute: c for c in extract(TEMPLATE, source_id="t", source_version_id="t")}
    return (
        claims["weight"],
        claims["heft"],
        claims[next(a for a in claims if a not in ("weight", "heft"))],
    )


def _variant(
    template: Claim, n: int, version: str, source: str, value: float, generation: str
) -> Claim:
    entity = f"unit-{n}"
    return template.model_copy(
        update={
            "id": f"c-{template.attribute.replace(' ', '-')}-{n}",
            "source_version_id": version,
            "source_id": source,
            "generation": generation,
            "entity": entity,
            "claim_key": f"{entity} {template.attribute}",
            "value": value,
            "canonical_value": value,
            "entity_ref": None,
        }
    )


def build(url: str, keys: int, background: int) -> None:
    upgrade(url)
    engine = make_engine(url)
    weight, heft, other = _templates()
    generation, label = current_generation()
    with transaction(engine) as session:
        GenerationRepository(session).ensure(generation, label)
        GenerationRepository(session).promote(generation, {})
        sources = SourceRepository(session)
        versions = [sources.add_version(f"sheet-{i}", f"sheet {i}")[0] for i in range(SHEETS)]
        claims = []
        for n in range(keys):
            v = versions[n % SHEETS]
            claims.append(_variant(weight, n, v.id, v.source_id, 11.0, generation))
            v = versions[(n + 1) % SHEETS]
            claims.append(_variant(heft, n, v.id, v.source_id, 14.0, generation))
        for n in range(background):
            v = versions[n % SHEETS]
            claims.append(_variant(other, n, v.id, v.source_id, 30.0, generation))
        ClaimRepository(session).add_all(claims)
    engine.dispose()


def time_teaching(url: str) -> tuple[float, float, int]:
    engine = make_engine(url)
    try:
        with transaction(engine) as session:
            start = time.perf_counter()
            _, impact = teach(
                session, "heft", "weight", relation="same", reason="bench", actor="bench"
            )
            taught = time.perf_counter() - start
        opened = sum(1 for c in impact.items if c.kind == "opened")
        with transaction(engine) as session:
            start = time.perf_counter()
            withdraw(session, impact.synonym_id, reason="bench", actor="bench")
            withdrawn = time.perf_counter() - start
    finally:
        engine.dispose()
    return taught, withdrawn, opened


def time_writer(folder: Path, claims: int, rounds: int = 3) -> tuple[float, float]:
    """Milliseconds per claim written without and with an active teaching (the best of
    ``rounds`` alternating writes of fresh claims, so both see the same machine load)."""
    weight, heft, _ = _templates()
    generation, _ = current_generation()
    urls = {}
    for taught in (False, True):
        urls[taught] = f"sqlite:///{folder / f'writer-{taught}.db'}"
        build(urls[taught], 0, 0)
        if taught:
            engine = make_engine(urls[taught])
            with transaction(engine) as session:
                teach(session, "heft", "weight", relation="same", reason="bench", actor="bench")
            engine.dispose()
    best = {False: float("inf"), True: float("inf")}
    for round_number in range(rounds):
        for taught in (False, True):
            engine = make_engine(urls[taught])
            try:
                with transaction(engine) as session:
                    source = f"writer-{round_number}"
                    version = SourceRepository(session).add_version(source, source)[0]
                    rows = [
                        _variant(
                            heft if n % 2 else weight, n, version.id, source, 1.0 + n, generation
                        ).model_copy(update={"id": f"w-{round_number}-{n}"})
                        for n in range(claims)
                    ]
                    start = time.perf_counter()
                    ClaimRepository(session).add_all(rows)
                    spent = (time.perf_counter() - start) * 1000 / claims
                best[taught] = min(best[taught], spent)
            finally:
                engine.dispose()
    return best[False], best[True]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    args = parser.parse_args()
    rows = (
        [(100, 2_000), (400, 2_000), (100, 8_000)]
        if args.quick
        else [(250, 10_000), (1_000, 10_000), (250, 40_000)]
    )
    print(f"{'keys':>6} {'background':>10} {'opened':>6} {'teach s':>8} {'ms/key':>7} "
          f"{'vs base':>7} {'withdraw s':>10} {'ms/key':>7} {'vs base':>7}")  # fmt: skip
    base: tuple[float, float] | None = None
    with tempfile.TemporaryDirectory() as tmp:
        for keys, background in rows:
            url = f"sqlite:///{Path(tmp) / f'bench-{keys}-{background}.db'}"
            build(url, keys, background)
            taught, withdrawn, opened = time_teaching(url)
            per = (taught * 1000 / keys, withdrawn * 1000 / keys)
            base = base or per
            print(
                f"{keys:>6} {background:>10} {opened:>6} {taught:>8.2f} {per[0]:>7.2f} "
                f"{per[0] / base[0]:>7.2f} {withdrawn:>10.2f} {per[1]:>7.2f} "
                f"{per[1] / base[1]:>7.2f}"
            )
        plain, with_teaching = time_writer(Path(tmp), 2_000 if args.quick else 10_000)
    print(
        f"claim writer: {plain * 1000:.0f} ms per 1,000 claims without a teaching, "
        f"{with_teaching * 1000:.0f} ms with one naming half of them "
        f"({with_teaching / plain:.2f}x)"
    )


if __name__ == "__main__":
    main()
