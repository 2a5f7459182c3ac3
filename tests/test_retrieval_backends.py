"""The same status and answer on SQLite and PostgreSQL (the loader renders its own SQL)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from retrieval_corpus import Corpus, at

from claims.models import ConflictStatus, Requester
from claims.store import make_engine
from retrieval.answer import answer_frame
from retrieval.evidence import AsOf
from retrieval.status import status_of_claim, status_of_source

KEY = "output limit"
FINANCE = Requester(principal="fay", groups=["finance"])


@dataclass
class Frame:
    claim_key: str
    scope: dict[str, str] = field(default_factory=dict)
    time: Any = None


def test_status_answer_and_as_of_agree_on_both_backends(migrated_url: str) -> None:
    corpus = Corpus()
    corpus.source("a")
    corpus.source("b", ["finance"])
    corpus.source("old")
    va = corpus.version("a")
    ca = corpus.claim(va, KEY, 250, claim_id="ca", scope={"rt": "interactive"})
    cb = corpus.claim(corpus.version("b"), KEY, 500, claim_id="cb", scope={"rt": "interactive"})
    v_old = corpus.version("old")
    corpus.claim(v_old, "other", 1)
    corpus.supersede(va, v_old, created=1)
    corpus.edge("conflicts", ca, cb, created=1)
    item = corpus.review([ca, cb], opened=2)
    corpus.resolve(item, [cb], decided=3, policy_version="4+dddddddddddd")
    engine = make_engine(migrated_url)
    try:
        corpus.write(engine)
        assert status_of_claim(engine, ca, FINANCE).status is ConflictStatus.RESOLVED
        early = status_of_claim(engine, ca, FINANCE, AsOf(known_at=at(2)))
        assert early.status is ConflictStatus.CONTESTED
        assert status_of_claim(engine, ca, Requester(principal="o")).status is ConflictStatus.NONE
        assert status_of_source(engine, "old", FINANCE).status is ConflictStatus.SUPERSEDED
        result = answer_frame(engine, Frame(KEY, {"rt": "interactive"}), FINANCE, question="q")
        assert (result.value, result.citations, result.policy_version) == (
            500,
            ["b"],
            "4+dddddddddddd",
        )
        report = status_of_claim(engine, ca, FINANCE)
        assert report.claims[0].resolution is not None
        assert report.claims[0].resolution.decided_at == at(3)
    finally:
        engine.dispose()
