"""Questions asked of a store where one head word (coarse key) holds more claims than a
question reads of its block (``retrieval.evidence.MAX_BLOCK_ROWS``): the answers are the
ones a small store gives, on SQLite and PostgreSQL. Real extraction for the documents;
the crowd is copies of one extracted claim under other keys of the same head word, written
before the documents asked about (so first in the block's index order)."""

from __future__ import annotations

from typing import Any

import pytest
from retrieval_cases import load_case
from sqlalchemy import Engine, select

from claims.models import Requester
from claims.store import make_engine
from claims.tables import ClaimRow
from retrieval.answer import answer
from retrieval.evidence import MAX_BLOCK_ROWS, EvidenceLoader

ANYONE = Requester(principal="anyone", groups=[])
CROWD = MAX_BLOCK_ROWS + 500
FIRST = "The Tolvar notice period is 45 days. The Tolvar sander weighs 9 kg."
VELLUM = "The Vellum notice period is 30 days. The K-40 press weighs 310 kg."
ORBIS = "The Vellum notice period is 60 days."
PLAIN = "The notice period is 14 days."


def _case(*documents: tuple[str, str]) -> dict[str, Any]:
    return {"documents": [{"id": i, "text": t} for i, t in documents], "supersedes": {}}


def _crowd(engine: Engine, template_key: str, head: str) -> None:
    """``CROWD`` claims like the one at ``template_key``, each at its own key ending in
    ``head`` (``crowd17 notice period``), in one bulk insert."""
    table = ClaimRow.__table__
    with engine.begin() as conn:
        row = conn.execute(select(table).where(table.c.claim_key == template_key)).mappings()
        template = dict(row.first() or {})
        assert template, f"no claim keyed {template_key!r} to copy"
        conn.execute(
            table.insert(),
            [
                {
                    **template,
                    "id": f"crowd-{i}",
                    "claim_key": f"crowd{i} {head}",
                    "subject": f"crowd{i}",
                    "entity": f"crowd{i}",
                    "entity_name": f"crowd{i}",
                }
                for i in range(CROWD)
            ],
        )


@pytest.fixture
def crowded(migrated_url: str) -> Engine:
    engine = make_engine(migrated_url)
    load_case(engine, _case(("first", FIRST)))
    _crowd(engine, "tolvar notice period", "notice period")
    load_case(engine, _case(("vellum", VELLUM), ("orbis", ORBIS), ("plain", PLAIN)))
    yield engine
    engine.dispose()


def _ask(engine: Engine, question: str) -> dict[str, Any]:
    return answer(engine, question, ANYONE).model_dump(mode="json")


def test_the_crowded_block_is_read_only_up_to_its_bound(crowded: Engine) -> None:
    with crowded.connect() as conn:
        block = EvidenceLoader(conn).keys_with_coarse_key("period")
    assert len(block) <= MAX_BLOCK_ROWS
    assert {"crowd0 notice period", "vellum notice period"} - set(block)
    if crowded.dialect.name == "sqlite":
        # in the block's index order (rowid) the keys written after the crowd are past the
        # bound: the questions below find them by their own key, not by reading the block
        # (PostgreSQL returns the bounded rows in no set order)
        assert "tolvar notice period" in block
        assert "vellum notice period" not in block


def test_a_qualified_key_past_the_bound_still_answers(crowded: Engine) -> None:
    result = _ask(crowded, "What is Vellum's notice period?")
    assert result["status"] == "conflict"
    assert sorted(side["value"] for side in result["sides"]) == [30, 60]
    assert sorted(result["citations"]) == ["orbis", "vellum"]


def test_a_qualifier_written_first_in_the_block_answers_alone(crowded: Engine) -> None:
    result = _ask(crowded, "What is Tolvar's notice period?")
    assert (result["status"], result["value"], result["citations"]) == (
        "answered",
        45,
        ["first"],
    )


def test_the_question_without_a_qualifier_reads_its_own_key(crowded: Engine) -> None:
    result = _ask(crowded, "What is the notice period?")
    assert (result["status"], result["value"], result["citations"]) == ("answered", 14, ["plain"])


def test_how_heavy_finds_the_mass_of_the_named_thing_in_a_crowded_store(
    crowded: Engine,
) -> None:
    result = _ask(crowded, "How heavy is the K-40 press?")
    assert (result["status"], result["value"], result["unit"], result["citations"]) == (
        "answered",
        310,
        "kg",
        ["vellum"],
    )


def test_the_mass_of_a_thing_written_before_the_crowd_and_of_one_never_named(
    crowded: Engine,
) -> None:
    result = _ask(crowded, "How heavy is the Tolvar sander?")
    assert (result["status"], result["value"], result["unit"], result["citations"]) == (
        "answered",
        9,
        "kg",
        ["first"],
    )
    # every stage runs (the office reading by kind last) and nothing answers
    assert _ask(crowded, "How heavy is the Q-12 lathe?")["status"] == "not_found"
