"""Bounded cost (issue 14.1): no input makes edge work quadratic in the claims of a key.

Counts, not timings (speed figures live in bench/ and docs/EDGES.md): the rows a recompute
stores must grow linearly with the claims, whatever the claims say.
"""

from __future__ import annotations

from sqlalchemy import Engine, text

from claims.edge_refresh import recompute_edges
from claims.extraction import current_generation, extract
from claims.store import ClaimRepository, GenerationRepository, SourceRepository, transaction


def _ingest(engine: Engine, documents: dict[str, str]) -> str:
    generation, label = current_generation()
    with transaction(engine) as session:
        GenerationRepository(session).ensure(generation, label)
        sources = SourceRepository(session)
        for source_id, body in documents.items():
            version, _ = sources.add_version(source_id, body)
            ClaimRepository(session).add_all(
                extract(body, source_id=source_id, source_version_id=version.id)
            )
        recompute_edges(session, generation)
    return generation


def _count(engine: Engine, sql: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text(sql)).scalar() or 0)


def test_bare_numbers_never_form_conflict_sets(engine: Engine) -> None:
    # A page of meter readings with no subject: 1,500 distinct numbers, some repeated. They
    # used to be one key (unknown:number) compared pair by pair (600 numbers gave 156,800
    # conflict edges); now they are never compared.
    readings = [str(1000 + (n * 37) % 1500) for n in range(1800)]
    page = "Readings\n\n" + "\n".join(
        " ".join(readings[i : i + 12]) for i in range(0, len(readings), 12)
    )
    _ingest(engine, {"ops/readings": page})
    claims = _count(engine, "SELECT count(*) FROM claims WHERE claim_key LIKE 'unknown:%'")
    assert claims > 1000
    assert _count(engine, "SELECT count(*) FROM edges WHERE kind = 'conflicts'") == 0
    assert _count(engine, "SELECT count(*) FROM edges WHERE kind = 'ambiguous'") == 0
    assert _count(engine, "SELECT count(*) FROM value_group_relations") == 0
    assert _count(engine, "SELECT count(*) FROM edges") < claims


def test_a_disagreement_between_many_sources_stores_rows_linear_in_claims(
    engine: Engine,
) -> None:
    # 90 branch notes say the deposit is 50 EUR, 60 say 80 EUR, 30 say "about 80 EUR":
    # 150 x 30 + 90 x 60 + ... claim pairs, but rows grow with the claims
    notes = {}
    for n in range(180):
        amount = "50 EUR" if n < 90 else ("80 EUR" if n < 150 else "about 80 EUR")
        notes[f"branch/{n:03d}"] = f"Branch note {n}\n\nThe key deposit is {amount}.\n"
    _ingest(engine, notes)
    claims = _count(engine, "SELECT count(*) FROM claims WHERE claim_key = 'key deposit'")
    assert claims == 180
    edges = _count(engine, "SELECT count(*) FROM edges WHERE retired_at IS NULL")
    relations = _count(engine, "SELECT count(*) FROM value_group_relations")
    members = _count(engine, "SELECT count(*) FROM value_group_claims")
    assert members == claims
    assert 1 <= relations <= 3  # 50 vs 80, 50 vs about 80 (80 and about 80 agree)
    assert edges < 3 * claims
    assert _count(engine, "SELECT count(*) FROM edges WHERE kind = 'conflicts'") < 2 * claims


def test_bare_numbers_get_the_status_a_full_reading_gives(engine: Engine) -> None:
    # A meter log and its corrected second version: the numbers of the first are replaced
    # (superseded), those of the second stand. The read model takes claims with no subject
    # from a lean read (no quotes, never linked); the statuses must be the full reading's.
    from retrieval.evidence import EvidenceLoader
    from retrieval.read_model import build_claim_status, everyone
    from retrieval.verdicts import evaluate

    generation, label = current_generation()
    first = "Meter log\n\n4410 4415 4423 4431\n4436 4440 4452 4459\n"
    second = "Meter log (corrected)\n\n4410 4415 4425 4431\n4436 4441 4452 4460\n"
    with transaction(engine) as session:
        GenerationRepository(session).ensure(generation, label)
        sources = SourceRepository(session)
        for body in (first, second):
            version, _ = sources.add_version("ops/meter", body)
            ClaimRepository(session).add_all(
                extract(body, source_id="ops/meter", source_version_id=version.id)
            )
        recompute_edges(session, generation)
    with engine.begin() as conn:
        build_claim_status(conn)
        stored = dict(conn.execute(text("SELECT claim_id, status FROM claim_status")).all())
        keys = sorted(set(conn.execute(text("SELECT claim_key FROM claims")).scalars()))
        full = evaluate(EvidenceLoader(conn).group_for_keys(keys).narrow(everyone(conn)))
    bare = {cid for cid, verdict in full.items() if verdict.claim.claim_key.startswith("unknown:")}
    assert len(bare) >= 16
    assert {stored[cid] for cid in bare} == {"superseded", "none"}
    assert {cid: stored[cid] for cid in bare} == {cid: full[cid].status.value for cid in bare}
