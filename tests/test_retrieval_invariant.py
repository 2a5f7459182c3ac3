"""The authorization invariant, over random corpora and random access groups:

the response for requester P over the whole corpus equals the response over the corpus
from which every source P cannot see has been removed — statuses, values, counts,
citations, reasons, response shape, and not-found vs forbidden alike.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from retrieval_corpus import GENERATION, Corpus, at
from sqlalchemy import Engine

from claims.errors import ClaimLedgerError
from claims.models import Requester
from claims.store.search import search_words
from retrieval.access import source_visible
from retrieval.answer import answer_frame
from retrieval.answer_type import expected_answer_type
from retrieval.candidates import candidate_keys
from retrieval.evidence import AsOf
from retrieval.status import status_of_claim, status_of_key, status_of_source
from tests.store_template import memory_engine, reset_memory

GROUPS = ["g1", "g2", "g3"]
KEYS = ["k1", "k2"]
SCOPES: list[dict[str, str]] = [{}, {"rt": "interactive"}, {"rt": "batch"}]
TIMES: list[tuple[date | None, date | None]] = [
    (None, None),
    (None, None),
    (date(2025, 1, 1), date(2025, 12, 31)),
    (date(2026, 1, 1), None),
]


ENTITIES = [None, "acme", "acme, east", "globex"]
ATTRIBUTES = {"k1": "output limit", "k2": "upload limit"}


@dataclass
class Frame:
    claim_key: str | None
    scope: dict[str, str] = field(default_factory=dict)
    time: Any = None
    # a question worded otherwise than the claims: found through candidate keys
    entity: str | None = None
    attribute: str = ""
    coarse_key: str | None = None
    text: str = ""
    scope_residual: list[str] = field(default_factory=list)


@st.composite
def corpora(draw: st.DrawFn) -> Corpus:
    corpus = Corpus()
    versions: list[str] = []
    for s in range(draw(st.integers(3, 5))):
        sid = f"s{s}"
        corpus.source(
            sid,
            draw(st.lists(st.sampled_from(GROUPS), max_size=2, unique=True)),
            withdrawn=draw(st.booleans()) and draw(st.booleans()) and draw(st.booleans()),
            effective_from=draw(st.sampled_from([None, None, None, date(2026, 3, 1)])),
        )
        own = [corpus.version(sid, ingested=draw(st.integers(0, 2)))]
        if draw(st.booleans()):
            own.append(corpus.version(sid, ingested=draw(st.integers(0, 3))))
            if draw(st.booleans()):
                corpus.supersede(own[1], own[0], origin="lineage", created=draw(st.integers(0, 3)))
        versions += own
    claims: list[str] = []
    for version in versions:
        for _ in range(draw(st.integers(1, 2))):
            claim_id = corpus.claim(
                version,
                draw(st.sampled_from([KEYS[0], KEYS[0], KEYS[1]])),
                draw(st.sampled_from([250, 500, 1000])),
                scope=draw(st.sampled_from(SCOPES)),
                time=draw(st.sampled_from(TIMES)),
                created=draw(st.integers(0, 2)),
            )
            # Some claims state a qualifier word the question may put into its key.
            corpus.claims[claim_id]["scope_residual"] = draw(st.sampled_from([[], [], ["x"]]))
            row = corpus.claims[claim_id]
            row["entity"] = draw(st.sampled_from(ENTITIES))
            row["attribute"] = ATTRIBUTES[row["claim_key"]]
            row["coarse_key"] = "limit"
            row["quote"] = (
                f"The {row['entity'] or 'service'} {row['attribute']} is "
                f"{row['value_number']:g} tokens."
            )
            claims.append(claim_id)
    if draw(st.booleans()):
        claims += _listing_source(draw, corpus)
    if len(versions) > 1 and draw(st.booleans()):
        newer, older = draw(st.permutations(versions))[:2]
        corpus.supersede(
            newer,
            older,
            created=draw(st.integers(0, 3)),
            effective_from=draw(st.sampled_from([None, date(2026, 2, 1)])),
        )
    for key in KEYS:
        at_key = [c for c in claims if corpus.claims[c]["claim_key"] == key]
        if len(at_key) < 2:
            continue
        # Every pair of claims at a key may be linked, as the edge recompute would link it.
        for i, left in enumerate(at_key):
            for right in at_key[i + 1 :]:
                kind = draw(
                    st.sampled_from(
                        ["conflicts"] * 4 + ["corroborates", "ambiguous", "supersedes", "none"]
                    )
                )
                if kind == "none":
                    continue
                corpus.edge(
                    kind,
                    left,
                    right,
                    material=draw(st.sampled_from([True, True, True, False, None])),
                    created=draw(st.integers(0, 2)),
                    retired=draw(st.sampled_from([None, None, 3])),
                )
        if draw(st.integers(0, 3)):
            # A conflict set usually holds the whole key; sometimes only part of it.
            members = draw(
                st.sampled_from([at_key, at_key])
                | st.lists(st.sampled_from(at_key), min_size=2, unique=True)
            )
            item = corpus.review(
                members, state=draw(st.sampled_from(["open", "claimed"])), opened=1
            )
            if draw(st.integers(0, 3)):
                corpus.resolve(
                    item,
                    draw(st.lists(st.sampled_from(members), min_size=1, max_size=2, unique=True)),
                    outcome=draw(
                        st.sampled_from(["resolved", "resolved", "dismissed", "ambiguous"])
                    ),
                    decided=draw(st.integers(1, 3)),
                    superseded=draw(st.sampled_from([None, None, 4])),
                )
    return corpus


def _listing_source(draw: st.DrawFn, corpus: Corpus) -> list[str]:
    """A source whose one sentence lists several values for one slot ("The acme output
    limit is 250 tokens, 500 tokens and 1000 tokens."), one claim per item as the
    extraction makes them, with its own drawn groups: a list a requester may not see must
    leave no trace in the answer, neither its items nor how many there were."""
    sid = f"s{len(corpus.sources)}"
    corpus.source(sid, draw(st.lists(st.sampled_from(GROUPS), max_size=2, unique=True)))
    version = corpus.version(sid, ingested=draw(st.integers(0, 2)))
    values = draw(st.lists(st.sampled_from([250, 500, 1000]), min_size=2, max_size=3, unique=True))
    entity = draw(st.sampled_from(ENTITIES))
    items = [f"{v:g} tokens" for v in values]
    lead = f"The {entity or 'service'} {ATTRIBUTES[KEYS[0]]} is "
    quote = lead + ", ".join(items[:-1]) + " and " + items[-1] + "."
    added, at = [], len(lead)
    for value, item in zip(values, items, strict=True):
        claim_id = corpus.claim(
            version, KEYS[0], value, quote=quote, created=draw(st.integers(0, 2))
        )
        row = corpus.claims[claim_id]
        row.update(entity=entity, attribute=ATTRIBUTES[KEYS[0]], coarse_key="limit")
        start = quote.index(item, at)
        row["value_start"], row["value_end"] = start, start + len(item)
        at = start + len(item)
        added.append(claim_id)
    return added


# Two in-memory stores (the whole corpus, the visible part) emptied and refilled for each
# example instead of two new engines: a new engine recompiled every statement it ran.
_STORES: dict[str, Engine] = {}


def _engine(corpus: Corpus, role: str) -> Engine:
    if role not in _STORES:
        _STORES[role] = memory_engine()
    engine = _STORES[role]
    reset_memory(engine)
    corpus.write(engine)
    return engine


def _outcome(call: Callable[[], Any]) -> str:
    """The response as the requester would see it: a JSON body or an error's type + text."""
    try:
        return json.dumps(call().model_dump(mode="json"), sort_keys=True)
    except ClaimLedgerError as error:
        return f"{type(error).__name__}: {error}"


def _responses(engine: Engine, corpus: Corpus, requester: Requester) -> dict[str, str]:
    out: dict[str, str] = {}
    for as_of in (AsOf(), AsOf(known_at=at(2)), AsOf(effective=date(2026, 1, 15))):
        tag = "now" if as_of == AsOf() else ("t2" if as_of.known_at else "eff")
        for claim_id in sorted(corpus.claims):
            out[f"{tag} claim {claim_id}"] = _outcome(
                lambda c=claim_id, a=as_of: status_of_claim(engine, c, requester, a)
            )
        for source_id in [*sorted(corpus.sources), "missing"]:
            out[f"{tag} source {source_id}"] = _outcome(
                lambda s=source_id, a=as_of: status_of_source(engine, s, requester, as_of=a)
            )
            if as_of != AsOf():
                continue
            out[f"{tag} passage {source_id}"] = _outcome(
                lambda s=source_id, a=as_of: status_of_source(
                    engine, s, requester, version=1, span=(0, 3), as_of=a
                )
            )
        for key in [*KEYS, "k-missing", f"x {KEYS[0]}"]:
            out[f"{tag} key {key}"] = _outcome(
                lambda k=key, a=as_of: status_of_key(engine, k, requester, a)
            )
            for scope in SCOPES if as_of == AsOf() else SCOPES[:1]:
                out[f"{tag} answer {key} {scope}"] = _outcome(
                    lambda k=key, sc=scope, a=as_of: answer_frame(
                        engine, Frame(k, sc), requester, question="q", as_of=a
                    )
                )
        if as_of != AsOf():
            continue  # as-of reads are covered above; worded questions ask about now
        # "big acme" is found by the shorter name "acme" (a short-name read, issue 13)
        for entity in (None, "acme", "globex", "big acme"):
            for attribute in ("output limit", "limit"):
                question = f"What is the {entity or 'service'} {attribute} in tokens?"
                worded = Frame(
                    "no such key",
                    entity=entity,
                    attribute=attribute,
                    coarse_key="limit",
                    text=question,
                    scope_residual=[entity] if entity else [],
                )
                out[f"{tag} worded {question}"] = _outcome(
                    lambda f=worded, q=question, a=as_of: answer_frame(
                        engine, f, requester, question=q, as_of=a
                    )
                )
                out[f"{tag} candidates {question}"] = _candidates(engine, worded, requester)
    return out


def _candidates(engine: Engine, frame: Frame, requester: Requester) -> str:
    """What ``claims ask --explain`` ranks: the candidate keys with ranks and scores."""
    with engine.connect() as conn:
        found = candidate_keys(
            conn,
            entity=frame.entity,
            attribute=frame.attribute,
            attribute_class=frame.coarse_key,
            words=search_words(frame.text),
            asked=expected_answer_type(frame.text, frame.attribute),
            generation=GENERATION,
            groups=requester.groups,
        )
    # a candidate's stored entity reference (a pydantic model) compares by its fields
    return json.dumps(
        [dataclasses.asdict(c) for c in found], sort_keys=True, default=lambda o: o.model_dump()
    )


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(corpus=corpora(), groups=st.lists(st.sampled_from(GROUPS), max_size=3, unique=True))
def test_response_equals_response_over_the_visible_corpus(
    corpus: Corpus, groups: list[str]
) -> None:
    requester = Requester(principal="p", groups=sorted(groups))
    grants: dict[str, list[str]] = {sid: [] for sid in corpus.sources}
    for sid, group in corpus.grants:
        grants[sid].append(group)
    hidden = {
        sid
        for sid, row in corpus.sources.items()
        if not source_visible(grants[sid], row["withdrawn"], requester)
    }
    whole = _engine(corpus, "whole")
    visible_only = _engine(corpus.without_sources(hidden), "visible")
    assert _responses(whole, corpus, requester) == _responses(visible_only, corpus, requester)
