"""Reviewers teach the ledger (issue 32 point 4): "these two attributes are one thing" (or
two), stored, audited, applied at once to claim keys, edges, review items and questions,
and withdrawable, on a real store built by real extraction, edge refresh and routing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from retrieval_cases import load_case
from sqlalchemy import Engine, select

from claims.errors import InputError
from claims.models import Requester
from claims.store import make_engine, transaction
from claims.tables import AuditEventRow, ClaimRow, ClaimTaughtKeyRow, EdgeRow, ReviewItemRow
from retrieval.answer import answer
from review import audit
from review.synonyms import teach, withdraw

ANYONE = Requester(principal="anyone", groups=[])
REVIEWERS = Path(__file__).parent / "fixtures" / "review" / "reviewers.yaml"

# two catalogues name one property of one product in two words
SHOP_SHEET = "# Z-70 blower\n\nThe Z-70 blower weighs 11 kg.\n"
SUPPLIER_SHEET = "# Supplier data\n\nThe Z-70 blower has a heft of 14 kg.\n"
# a handbook that calls paid leave by its own in-house word
HANDBOOK = (
    "# Time away\n\n"
    "Every full-time employee is entitled to 26 days of downtime.\n\n"
    "Every full-time employee is entitled to 10 days of study time.\n"
)
# two kinds of days off the built-in lexicon folds into one attribute
OFFICE_RULES = "# Office rules\n\nEach employee is entitled to 25 days of vacation per year.\n"
CALENDAR = "# Calendar\n\nEach employee is entitled to 8 days of holiday per year.\n"


def _case(*documents: tuple[str, str]) -> dict[str, Any]:
    return {"documents": [{"id": i, "text": t} for i, t in documents], "supersedes": {}}


def _keys(engine: Engine) -> dict[str, str]:
    with transaction(engine) as session:
        return {
            source: key
            for source, key in session.execute(select(ClaimRow.source_id, ClaimRow.claim_key))
        }


def _live_conflicts(engine: Engine) -> list[str]:
    with transaction(engine) as session:
        return sorted(
            session.scalars(
                select(EdgeRow.claim_key).where(
                    EdgeRow.kind == "conflicts", EdgeRow.retired_at.is_(None)
                )
            )
        )


def _items(engine: Engine) -> dict[str, str]:
    with transaction(engine) as session:
        return {row.claim_key: row.state for row in session.scalars(select(ReviewItemRow))}


@pytest.fixture
def sheets(migrated_url: str) -> Iterator[Engine]:
    """The two sheets in a store on SQLite and on PostgreSQL."""
    store = make_engine(migrated_url)
    load_case(store, _case(("shop", SHOP_SHEET), ("supplier", SUPPLIER_SHEET)))
    yield store
    store.dispose()


def test_teaching_two_words_one_thing_merges_keys_and_opens_the_conflict(sheets: Engine) -> None:
    assert _keys(sheets) == {"shop": "z-70 blower weight", "supplier": "z-70 blower heft"}
    assert _live_conflicts(sheets) == []
    with transaction(sheets) as session:
        row, impact = teach(
            session, "heft", "weight", relation="same", reason="suppliers say heft", actor="alice"
        )
    assert _keys(sheets) == {"shop": "z-70 blower weight", "supplier": "z-70 blower weight"}
    assert _live_conflicts(sheets) == ["z-70 blower weight"]
    assert _items(sheets) == {"z-70 blower weight": "open"}
    assert impact.keys == [
        {
            "from_key": "z-70 blower heft",
            "to_key": "z-70 blower weight",
            "claims": 1,
            "change": "merged",
        }
    ]
    assert impact.edges_added.get("conflicts") == 1 and impact.conflicts_removed == []
    assert [(c.kind, c.claim_key) for c in impact.items] == [("opened", "z-70 blower weight")]
    with transaction(sheets) as session:
        taught = audit.events(session, action="synonym.teach")
    assert [(e.actor, e.entity_id) for e in taught] == [("alice", f"synonym-{row.id}")]
    assert taught[0].after["synonym"]["reason"] == "suppliers say heft"
    assert taught[0].after["impact"]["item_counts"]["opened"] == 1


def test_withdrawing_restores_the_keys_retires_the_conflict_and_closes_the_item(
    sheets: Engine,
) -> None:
    with transaction(sheets) as session:
        row, _ = teach(session, "heft", "weight", relation="same", reason="same", actor="alice")
    with transaction(sheets) as session:
        _, impact = withdraw(session, row.id, reason="heft is gross weight here", actor="bob")
    assert _keys(sheets) == {"shop": "z-70 blower weight", "supplier": "z-70 blower heft"}
    assert _live_conflicts(sheets) == []
    assert _items(sheets) == {"z-70 blower weight": "dismissed"}
    assert [(c.kind, c.claim_key) for c in impact.items] == [("closed", "z-70 blower weight")]
    assert impact.edges_removed.get("conflicts") == 1
    assert impact.keys[0]["to_key"] == "z-70 blower heft"
    with transaction(sheets) as session:
        assert session.scalars(select(ClaimTaughtKeyRow)).all() == []
        withdrawn = audit.events(session, action="synonym.withdraw")
        assert [(e.actor, e.before["withdrawn_at"]) for e in withdrawn] == [("bob", None)]
        assert withdrawn[0].after["synonym"]["withdraw_reason"] == "heft is gross weight here"
        # taught and withdrawn: two rows of the one hash chain the review log keeps
        assert audit.verify(session.connection()).ok
    with transaction(sheets) as session, pytest.raises(InputError, match="already withdrawn"):
        withdraw(session, row.id, reason="again", actor="bob")


def test_claims_written_after_the_teaching_get_the_taught_key(engine: Engine) -> None:
    load_case(engine, _case(("shop", SHOP_SHEET)))
    with transaction(engine) as session:
        teach(session, "heft", "weight", relation="same", reason="one thing", actor="alice")
    load_case(engine, _case(("supplier", SUPPLIER_SHEET)))
    assert _keys(engine)["supplier"] == "z-70 blower weight"
    assert _live_conflicts(engine) == ["z-70 blower weight"]


def test_the_vacation_question_is_answered_once_a_reviewer_teaches_the_handbooks_word(
    engine: Engine,
) -> None:
    load_case(engine, _case(("handbook", HANDBOOK)))
    question = "How many vacation days do full-time staff get?"
    before = answer(engine, question, ANYONE)
    assert before.value != 26
    with transaction(engine) as session:
        teach(session, "vacation", "downtime", relation="same", reason="our word", actor="alice")
    after = answer(engine, question, ANYONE)
    assert (after.status.value, after.value) == ("answered", 26)
    assert after.citations == ["handbook"]


def test_telling_two_words_apart_splits_the_key_and_ends_the_false_conflict(
    engine: Engine,
) -> None:
    load_case(engine, _case(("rules", OFFICE_RULES), ("calendar", CALENDAR)))
    assert _keys(engine) == {"rules": "leave", "calendar": "leave"}
    assert _live_conflicts(engine) == ["leave"]
    assert _items(engine) == {"leave": "open"}
    question = "How many days of holiday does each employee get per year?"
    assert answer(engine, question, ANYONE).status.value == "conflict"
    with transaction(engine) as session:
        row, impact = teach(
            session,
            "holiday",
            "vacation",
            relation="different",
            reason="holidays are the public ones",
            actor="alice",
        )
    assert _keys(engine) == {"rules": "leave", "calendar": "holiday"}
    assert _live_conflicts(engine) == []
    assert _items(engine) == {"leave": "dismissed"}
    assert [(c.kind, c.claim_key) for c in impact.items] == [("closed", "leave")]
    assert impact.keys == [
        {"from_key": "leave", "to_key": "holiday", "claims": 1, "change": "split"}
    ]
    # a question saying "holiday" asks for the holiday key, no longer the vacation days
    told = answer(engine, question, ANYONE)
    assert (told.status.value, told.value, told.citations) == ("answered", 8, ["calendar"])
    with transaction(engine) as session:
        withdraw(session, row.id, reason="they are one after all", actor="alice")
    assert _keys(engine) == {"rules": "leave", "calendar": "leave"}
    assert _live_conflicts(engine) == ["leave"]
    assert _items(engine) == {"leave": "open"}


def test_a_teaching_that_teaches_nothing_is_refused_before_anything_is_written(
    sheets: Engine,
) -> None:
    with transaction(sheets) as session:
        before = len(session.scalars(select(AuditEventRow)).all())
    cases = [
        (("weight", "weight", "same", "r"), "already share one attribute"),
        (("heft", "weight", "different", "r"), "already have keys of their own"),
        (("heft", "weight", "same", "  "), "reason"),
        (("", "weight", "same", "r"), "left"),
        (("heft", "weight", "alike", "r"), "relation"),
    ]
    for (left, right, relation, reason), message in cases:
        with transaction(sheets) as session, pytest.raises(InputError, match=message):
            teach(session, left, right, relation=relation, reason=reason, actor="alice")
    with transaction(sheets) as session:
        assert len(session.scalars(select(AuditEventRow)).all()) == before
    assert _keys(sheets)["supplier"] == "z-70 blower heft"


def test_a_question_in_the_taught_word_reaches_the_claims_of_the_other(sheets: Engine) -> None:
    question = "What is the heft of the Z-70 blower?"
    before = answer(sheets, question, ANYONE)
    # the supplier's figure alone: the shop's weight is another key until taught
    assert (before.status.value, before.value, before.citations) == ("answered", 14, ["supplier"])
    with transaction(sheets) as session:
        teach(session, "heft", "weight", relation="same", reason="one thing", actor="alice")
    asked = answer(sheets, question, ANYONE)
    assert (asked.status.value, asked.claim_key) == ("conflict", "weight")
    assert sorted(side.value for side in asked.sides or []) == [11, 14]


def test_the_review_cli_teaches_lists_and_withdraws_a_synonym(
    cli_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from claimledger.cli import app
    from claims.settings import get_settings
    from tests.store_template import upgrade

    monkeypatch.setenv("CLAIMS_REVIEWERS_FILE", str(REVIEWERS))
    get_settings.cache_clear()
    url = get_settings().resolved_database_url
    upgrade(url)
    store = make_engine(url)
    try:
        load_case(store, _case(("shop", SHOP_SHEET), ("supplier", SUPPLIER_SHEET)))
    finally:
        store.dispose()
    runner = CliRunner()

    def claims(*args: str) -> str:
        run = runner.invoke(app, list(args))
        assert run.exit_code == 0, (run.output, run.exception)
        return run.output

    teach_args = ("review", "synonyms", "add", "heft", "weight", "--reason", "supplier word")
    dry = claims(*teach_args, "--as", "alice", "--dry-run")
    assert "would teach #1 'heft' is the same as 'weight'" in dry
    assert "key merged: z-70 blower heft -> z-70 blower weight (1 claims)" in dry
    assert "dry run: nothing was written" in dry
    assert json.loads(claims("review", "synonyms", "list", "--json")) == []
    out = claims(*teach_args, "--as", "alice")
    assert "opened: ri_" in out and "edges added: 1 conflicts" in out
    item = out.split("opened: ")[1].split()[0]
    shown = claims("review", "show", item)
    assert "key: keyed by a taught synonym; extracted as 'z-70 blower heft'" in shown
    listed = json.loads(claims("review", "synonyms", "list", "--json"))
    assert [(s["left"], s["right"], s["taught_by"], s["reason"]) for s in listed] == [
        ("heft", "weight", "alice", "supplier word")
    ]
    refused = runner.invoke(app, [*teach_args, "--as", "mallory"])
    assert refused.exit_code != 0 and "neither a reviewer" in str(refused.exception)
    out = claims("review", "synonyms", "withdraw", "1", "--reason", "gross weight", "--as", "bob")
    assert "withdrew #1" in out and "closed itself (evidence changed): ri_" in out
    assert json.loads(claims("review", "synonyms", "list", "--json")) == []
    shown = claims("review", "synonyms", "list", "--all")
    assert "WITHDRAWN by bob" in shown and "gross weight" in shown
    store = make_engine(url)
    try:
        assert _keys(store)["supplier"] == "z-70 blower heft"
    finally:
        store.dispose()


def test_taught_keys_follow_chains_split_by_the_quote_and_leave_other_key_forms() -> None:
    from claims.synonyms import DIFFERENT, SAME, Teaching, Teachings

    taught = Teachings(
        [
            Teaching(1, SAME, "tare", "heft"),
            Teaching(2, SAME, "heft", "weight"),
            Teaching(3, DIFFERENT, "leave", "holiday", ("holiday",), ("vacation",)),
        ]
    )
    chained = taught.key_for("p-1 tare", "p-1", "tare", "tare", "The P-1 has a tare of 3 kg.")
    assert chained is not None
    assert (chained.claim_key, chained.coarse_key, chained.attribute) == (
        "p-1 weight",
        "weight",
        "weight",
    )
    said = "Staff get 8 holidays a year."
    split = taught.key_for("leave", None, "leave", "leave", said)
    assert split is not None and split.claim_key == "holiday"
    # a quote saying both words, or neither, stays with the shared attribute
    assert taught.key_for("leave", None, "leave", "leave", "8 holiday and vacation days") is None
    assert taught.key_for("leave", None, "leave", "leave", "Staff get 25 days of leave.") is None
    # a key that is neither the attribute nor the entity followed by it is left as extracted
    assert taught.key_for("listed: p-1 heft", "p-1", "heft", "heft", "") is None


def test_explain_shows_the_question_read_with_the_taught_word(sheets: Engine) -> None:
    from retrieval.explain import explain

    question = "What is the heft of the Z-70 blower?"
    assert explain(sheets, question, ANYONE).frame.attribute == "heft"
    with transaction(sheets) as session:
        teach(session, "heft", "weight", relation="same", reason="one thing", actor="alice")
    why = explain(sheets, question, ANYONE)
    assert (why.frame.attribute, why.frame.claim_key) == ("weight", "weight")
    assert why.answer.status.value == "conflict"
