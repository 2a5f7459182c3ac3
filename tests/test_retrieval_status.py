"""Conflict status per requester over rows written directly (no extraction involved)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

import pytest
from retrieval_corpus import Corpus, at
from sqlalchemy import Engine

from claims.errors import InputError, NotFoundError
from claims.models import ConflictStatus, Requester
from retrieval.answer import answer_frame
from retrieval.evidence import AsOf
from retrieval.status import status_of_claim, status_of_key, status_of_source

KEY = "interactive assistant.output limit"
EVERYONE = Requester(principal="root", groups=["finance", "legal"])
FINANCE = Requester(principal="fay", groups=["finance"])
OUTSIDER = Requester(principal="otto", groups=[])


@dataclass
class Frame:
    claim_key: str | None
    scope: dict[str, str] = field(default_factory=dict)
    time: Any = None


def ask(engine: Engine, requester: Requester, key: str = KEY, **scope: str) -> dict[str, Any]:
    frame = Frame(claim_key=key, scope=dict(scope))
    return answer_frame(engine, frame, requester, question="q").model_dump(mode="json")


def two_sided(corpus: Corpus, a_groups: tuple[str, ...] = (), b_groups: tuple[str, ...] = ()):
    corpus.source("a", a_groups)
    corpus.source("b", b_groups)
    ca = corpus.claim(corpus.version("a"), KEY, 250, claim_id="ca")
    cb = corpus.claim(corpus.version("b"), KEY, 500, claim_id="cb")
    corpus.edge("conflicts", ca, cb)
    return ca, cb


def test_unresolved_material_conflict_is_contested_with_a_side_per_value(engine: Engine) -> None:
    corpus = Corpus()
    two_sided(corpus)
    corpus.write(engine)
    report = status_of_claim(engine, "ca", EVERYONE)
    assert report.status is ConflictStatus.CONTESTED
    assert [(s.value, s.source_ids) for s in report.sides] == [(250, ["a"]), (500, ["b"])]
    assert [c.claim_id for s in report.sides for c in s.citations] == ["ca", "cb"]
    result = ask(engine, EVERYONE)
    assert (result["status"], result["value"], result["citations"]) == (
        "conflict",
        None,
        ["a", "b"],
    )


def test_claimed_review_item_reports_under_review(engine: Engine) -> None:
    corpus = Corpus()
    ca, cb = two_sided(corpus)
    item = corpus.review([ca, cb], state="claimed")
    corpus.write(engine)
    report = status_of_key(engine, KEY, EVERYONE)
    assert report.status is ConflictStatus.UNDER_REVIEW
    assert report.claims[0].review_item_id == item
    assert ask(engine, EVERYONE)["status"] == "conflict"


def test_resolution_answers_with_the_winner_and_its_policy_version(engine: Engine) -> None:
    corpus = Corpus()
    ca, cb = two_sided(corpus)
    item = corpus.review([ca, cb])
    corpus.resolve(item, [cb], policy_version="3+abcdefabcdef")
    corpus.write(engine)
    report = status_of_claim(engine, ca, EVERYONE)
    assert report.status is ConflictStatus.RESOLVED
    assert report.claims[0].resolution is not None
    assert report.claims[0].resolution.winner_claim_ids == [cb]
    assert report.policy_version == "3+abcdefabcdef"
    result = ask(engine, EVERYONE)
    assert (result["status"], result["value"], result["citations"]) == ("answered", 500, ["b"])
    assert result["policy_version"] == "3+abcdefabcdef"


def test_hidden_winner_is_recomputed_from_visible_evidence(engine: Engine) -> None:
    corpus = Corpus()
    corpus.source("a")
    corpus.source("b")
    corpus.source("secret", ["legal"])
    ca = corpus.claim(corpus.version("a"), KEY, 250, claim_id="ca")
    cb = corpus.claim(corpus.version("b"), KEY, 500, claim_id="cb")
    cs = corpus.claim(corpus.version("secret"), KEY, 500, claim_id="cs")
    corpus.edge("conflicts", ca, cb)
    corpus.edge("conflicts", ca, cs)
    corpus.edge("corroborates", cb, cs)
    item = corpus.review([ca, cb, cs])
    corpus.resolve(item, [cs], policy_version="2+bbbbbbbbbbbb")
    corpus.write(engine)
    # Legal sees the winner: resolved, answered from it and its corroboration.
    legal = ask(engine, Requester(principal="lee", groups=["legal"]))
    assert (legal["status"], legal["value"], legal["citations"]) == (
        "answered",
        500,
        ["b", "secret"],
    )
    # The outsider sees no winner: the visible conflict is unresolved for them.
    report = status_of_claim(engine, ca, OUTSIDER)
    assert report.status is ConflictStatus.CONTESTED
    assert report.policy_version is None
    outsider = ask(engine, OUTSIDER)
    assert (outsider["status"], outsider["citations"]) == ("conflict", ["a", "b"])
    assert "secret" not in str(outsider)


def test_withdrawn_winner_is_recomputed_like_a_hidden_one(engine: Engine) -> None:
    corpus = Corpus()
    ca, cb = two_sided(corpus)
    corpus.sources["b"]["withdrawn"] = True
    item = corpus.review([ca, cb])
    corpus.resolve(item, [cb])
    corpus.write(engine)
    assert status_of_claim(engine, ca, EVERYONE).status is ConflictStatus.NONE
    result = ask(engine, EVERYONE)
    assert (result["status"], result["value"], result["citations"]) == ("answered", 250, ["a"])
    with pytest.raises(NotFoundError):
        status_of_claim(engine, cb, EVERYONE)


def test_register_supersession_marks_the_old_version_and_answers_the_new(engine: Engine) -> None:
    corpus = Corpus()
    corpus.source("old")
    corpus.source("new")
    v_old, v_new = corpus.version("old"), corpus.version("new")
    c_old = corpus.claim(v_old, KEY, 250)
    corpus.claim(v_new, KEY, 500)
    corpus.supersede(v_new, v_old)
    corpus.write(engine)
    report = status_of_source(engine, "old", EVERYONE)
    assert report.status is ConflictStatus.SUPERSEDED
    assert report.superseded_by is not None and report.superseded_by.source_id == "new"
    assert status_of_claim(engine, c_old, EVERYONE).status is ConflictStatus.SUPERSEDED
    result = ask(engine, EVERYONE)
    assert (result["status"], result["value"], result["citations"]) == ("answered", 500, ["new"])


def test_supersession_by_a_hidden_version_is_not_disclosed(engine: Engine) -> None:
    corpus = Corpus()
    corpus.source("old")
    corpus.source("new", ["legal"])
    v_old, v_new = corpus.version("old"), corpus.version("new")
    c_old = corpus.claim(v_old, KEY, 250)
    corpus.claim(v_new, KEY, 500)
    corpus.supersede(v_new, v_old)
    corpus.write(engine)
    assert status_of_claim(engine, c_old, OUTSIDER).status is ConflictStatus.NONE
    assert status_of_source(engine, "old", OUTSIDER).superseded_by is None
    result = ask(engine, OUTSIDER)
    assert (result["value"], result["citations"]) == (250, ["old"])


def test_different_scope_answers_the_asked_scope(engine: Engine) -> None:
    corpus = Corpus()
    corpus.source("interactive")
    corpus.source("batch")
    corpus.claim(corpus.version("interactive"), KEY, 250, scope={"request_type": "interactive"})
    corpus.claim(corpus.version("batch"), KEY, 500, scope={"request_type": "batch"})
    corpus.write(engine)
    result = ask(engine, EVERYONE, request_type="interactive")
    assert (result["status"], result["value"], result["citations"]) == (
        "answered",
        250,
        ["interactive"],
    )
    unscoped = ask(engine, EVERYONE)
    assert (unscoped["status"], unscoped["value"]) == ("conflict", None)
    assert status_of_key(engine, KEY, EVERYONE).status is ConflictStatus.NONE


def test_ambiguous_edge_gives_ambiguous_status_and_no_answer(engine: Engine) -> None:
    corpus = Corpus()
    ca, cb = two_sided(corpus)
    corpus.edges.clear()
    corpus.edge("ambiguous", ca, cb, reason="units cannot be reconciled")
    corpus.write(engine)
    report = status_of_claim(engine, ca, EVERYONE)
    assert report.status is ConflictStatus.AMBIGUOUS
    assert report.claims[0].reasons == ["units cannot be reconciled"]
    assert ask(engine, EVERYONE)["status"] == "conflict"


def test_dismissed_conflict_is_none_and_corroboration_shares_a_side(engine: Engine) -> None:
    corpus = Corpus()
    ca, cb = two_sided(corpus)
    corpus.resolve(corpus.review([ca, cb]), [], outcome="dismissed")
    corpus.source("c")
    cc = corpus.claim(corpus.version("c"), KEY, 250, claim_id="cc")
    corpus.edge("corroborates", ca, cc)
    corpus.write(engine)
    report = status_of_claim(engine, ca, EVERYONE)
    assert report.status is ConflictStatus.NONE
    assert [(s.value, s.source_ids) for s in report.sides] == [(250, ["a", "c"])]


def test_hidden_and_missing_things_raise_the_same_error(engine: Engine) -> None:
    corpus = Corpus()
    two_sided(corpus, a_groups=("finance",))
    corpus.write(engine)
    messages = []
    for thing in ("ca", "no-such-claim"):
        with pytest.raises(NotFoundError) as caught:
            status_of_claim(engine, thing, OUTSIDER)
        messages.append(str(caught.value).replace(thing, "X"))
    for source in ("a", "zz"):
        with pytest.raises(NotFoundError) as caught:
            status_of_source(engine, source, OUTSIDER)
        messages.append(str(caught.value).replace(source, "X"))
    assert messages[0] == messages[1] and messages[2] == messages[3]
    assert status_of_claim(engine, "ca", FINANCE).status is ConflictStatus.CONTESTED
    # The outsider sees only b, so for them nothing is contested.
    assert status_of_claim(engine, "cb", OUTSIDER).status is ConflictStatus.NONE


def test_status_as_known_at_a_past_system_time(engine: Engine) -> None:
    corpus = Corpus()
    ca, cb = two_sided(corpus)
    corpus.edges.clear()
    corpus.edge("conflicts", ca, cb, created=2)
    item = corpus.review([ca, cb], opened=3)
    corpus.resolve(item, [ca], decided=5, superseded=8)
    corpus.resolve(item, [cb], decided=9, policy_version="2+cccccccccccc")
    corpus.write(engine)

    def status_at(hours: float) -> tuple[ConflictStatus, str | None]:
        report = status_of_claim(engine, ca, EVERYONE, AsOf(known_at=at(hours)))
        res = report.claims[0].resolution
        return report.status, res.winner_claim_ids[0] if res else None

    assert status_at(1) == (ConflictStatus.NONE, None)
    assert status_at(4) == (ConflictStatus.CONTESTED, None)
    assert status_at(6) == (ConflictStatus.RESOLVED, ca)
    assert status_at(10) == (ConflictStatus.RESOLVED, cb)
    with pytest.raises(NotFoundError):
        status_of_claim(engine, ca, EVERYONE, AsOf(known_at=at(-1)))


def test_status_at_an_effective_date(engine: Engine) -> None:
    corpus = Corpus()
    corpus.source("policy-2019")
    corpus.source("policy-2026")
    v19, v26 = corpus.version("policy-2019"), corpus.version("policy-2026")
    c19 = corpus.claim(v19, KEY, 250, time=(date(2019, 1, 1), None))
    corpus.claim(v26, KEY, 500, time=(date(2026, 3, 1), None))
    corpus.supersede(v26, v19, effective_from=date(2026, 3, 1))
    corpus.write(engine)
    before = status_of_claim(engine, c19, EVERYONE, AsOf(effective=date(2025, 6, 1)))
    after = status_of_claim(engine, c19, EVERYONE, AsOf(effective=date(2026, 6, 1)))
    assert before.status is ConflictStatus.NONE
    assert after.status is ConflictStatus.SUPERSEDED
    old = answer_frame(
        engine, Frame(KEY), EVERYONE, question="q", as_of=AsOf(effective=date(2025, 6, 1))
    )
    assert (old.value, old.citations) == (250, ["policy-2019"])


def test_passage_status_covers_only_claims_overlapping_the_span(engine: Engine) -> None:
    corpus = Corpus()
    corpus.source("a")
    corpus.source("b")
    va = corpus.version("a")
    ca = corpus.claim(va, KEY, 250, span=(0, 40))
    corpus.claim(va, "batch.output limit", 900, span=(41, 80))
    cb = corpus.claim(corpus.version("b"), KEY, 500)
    corpus.edge("conflicts", ca, cb)
    corpus.write(engine)
    assert status_of_source(engine, "a", EVERYONE, span=(10, 20)).status is ConflictStatus.CONTESTED
    quiet = status_of_source(engine, "a", EVERYONE, span=(50, 60))
    assert quiet.status is ConflictStatus.NONE and len(quiet.claims) == 1
    with pytest.raises(InputError):
        status_of_source(engine, "a", EVERYONE, span=(20, 10))


@dataclass
class Period:
    start: date | None
    end: date | None


def test_a_question_about_a_past_year_is_answered_from_what_was_in_force_then(
    engine: Engine,
) -> None:
    corpus = Corpus()
    corpus.source("travel-2019", effective_from=date(2019, 3, 1), effective_to=date(2025, 12, 31))
    corpus.source("travel-2026", effective_from=date(2026, 1, 1))
    v19, v26 = corpus.version("travel-2019"), corpus.version("travel-2026")
    corpus.claim(v19, "meal allowance", 40, "EUR")
    corpus.claim(v26, "meal allowance", 55, "EUR")
    corpus.supersede(v26, v19, effective_from=date(2026, 1, 1))
    corpus.write(engine)

    def asked(period: Period | None) -> tuple[Any, list[str]]:
        result = answer_frame(engine, Frame("meal allowance", time=period), EVERYONE, question="q")
        return result.value, result.citations

    assert asked(Period(date(2019, 1, 1), date(2019, 12, 31))) == (40, ["travel-2019"])
    assert asked(Period(date(2026, 1, 1), date(2026, 12, 31))) == (55, ["travel-2026"])
    assert asked(None) == (55, ["travel-2026"])


def test_a_key_word_the_claims_state_as_a_qualifier_still_finds_them(engine: Engine) -> None:
    corpus = Corpus()
    corpus.source("note")
    corpus.source("search-interactive")
    corpus.source("search-batch", ["legal"])
    corpus.claim(corpus.version("note"), KEY, 250, scope={"request_type": "interactive"})
    search = corpus.claim(
        corpus.version("search-interactive"), KEY, 300, scope={"request_type": "interactive"}
    )
    corpus.claims[search]["scope_residual"] = ["search"]
    batch = corpus.claim(corpus.version("search-batch"), KEY, 900, scope={"request_type": "batch"})
    corpus.claims[batch]["scope_residual"] = ["search"]
    corpus.write(engine)
    wider = f"search {KEY}"
    asked = answer_frame(
        engine, Frame(wider, {"request_type": "interactive"}), EVERYONE, question="q"
    )
    assert (asked.status.value, asked.value, asked.citations) == (
        "answered",
        300,
        ["search-interactive"],
    )
    hidden = answer_frame(engine, Frame(wider, {"request_type": "batch"}), OUTSIDER, question="q")
    assert hidden.status.value == "not_found"
    unknown = answer_frame(engine, Frame(f"zzz {KEY}"), EVERYONE, question="q")
    assert unknown.status.value == "not_found"


def test_a_newer_version_of_the_same_source_supersedes_the_older_one(engine: Engine) -> None:
    corpus = Corpus()
    corpus.source("limits")
    v1, v2 = corpus.version("limits", "v1"), corpus.version("limits", "v2", ingested=2)
    corpus.claim(v1, KEY, 250)
    corpus.claim(v2, KEY, 500)
    corpus.supersede(v2, v1, origin="lineage", created=2)
    corpus.write(engine)
    latest = status_of_source(engine, "limits", EVERYONE)
    assert (latest.target.version, latest.status) == (2, ConflictStatus.NONE)
    first = status_of_source(engine, "limits", EVERYONE, version=1)
    assert first.status is ConflictStatus.SUPERSEDED
    assert first.superseded_by is not None
    assert (first.superseded_by.version, first.superseded_by.origin) == (2, "lineage")
    assert ask(engine, EVERYONE)["value"] == 500
    # As known before version 2 was ingested, version 1 is the latest and stands.
    past = status_of_source(engine, "limits", EVERYONE, as_of=AsOf(known_at=at(1)))
    assert (past.target.version, past.status) == (1, ConflictStatus.NONE)


def test_a_near_miss_edge_is_read_through_the_coarse_key_block(engine: Engine) -> None:
    # "output limit" and plain "limit" are different claim keys; the edge builder links
    # them in the block "~limit" of their shared coarse key, not in either key's block.
    corpus = Corpus()
    corpus.source("a")
    corpus.source("b")
    narrow = corpus.claim(corpus.version("a"), "assistant output limit", 500, claim_id="cn")
    broad = corpus.claim(corpus.version("b"), "assistant limit", 1000, claim_id="cw")
    for claim_id in (narrow, broad):
        corpus.claims[claim_id]["coarse_key"] = "limit"
    edge = corpus.edge("ambiguous", narrow, broad)
    corpus.edges[edge]["claim_key"] = "~limit"
    corpus.write(engine)
    for key, other in (("assistant output limit", "cw"), ("assistant limit", "cn")):
        report = status_of_key(engine, key, EVERYONE)
        assert report.status is ConflictStatus.AMBIGUOUS, key
        sides = [c.claim_id for side in report.claims[0].sides for c in side.citations]
        assert other in sides
