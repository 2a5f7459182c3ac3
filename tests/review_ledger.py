"""Test data builder for the review tests: puts sources, versions, claims and conflict
edges straight into a real store through the repositories and tables.

``ReviewLedger(engine).load(FIXTURES / "review" / "corpus.yaml")`` builds the scenario;
``add_version``/``add_claim``/``add_conflict`` extend it inside a test.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import yaml
from sqlalchemy import Engine

from claims.ids import stable_id
from claims.models import Claim, EffectiveTime, ReviewItem, Source, Span, ValueKind
from claims.store import ClaimRepository, SourceRepository, transaction
from claims.tables import EdgeRow, ExtractorGenerationRow, SourceRow
from review.items import ReviewItemRepository
from review.policy import apply_policy, load_policy
from review.reviewers import ReviewerDirectory, load_reviewers
from review.routing import route

FIXTURES = Path(__file__).parent / "fixtures" / "review"


class ReviewLedger:
    def __init__(self, engine: Engine, generation: str = "gen-review-test") -> None:
        self.engine = engine
        self.generation = generation
        self.versions: dict[str, str] = {}  # source id -> latest version id
        with transaction(engine) as session:
            if session.get(ExtractorGenerationRow, generation) is None:
                session.add(
                    ExtractorGenerationRow(
                        id=generation,
                        label="review tests",
                        status="active",
                        regression_report={},
                        created_at=datetime.now(UTC),
                    )
                )

    def load(self, path: Path = FIXTURES / "corpus.yaml") -> ReviewLedger:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for source in data["sources"]:
            self.add_source(
                source["id"], source["text"], tier=source["tier"], title=source["title"]
            )
        for claim in data["claims"]:
            self.add_claim(**claim)
        for edge in data["conflicts"]:
            self.add_conflict(**edge)
        return self

    def add_source(
        self, source_id: str, text: str, *, tier: str | None, title: str | None = None
    ) -> str:
        with transaction(self.engine) as session:
            repo = SourceRepository(session)
            repo.apply_register_entry(Source(id=source_id, title=title, authority_tier=tier))
            version, _ = repo.add_version(source_id, text)
        self.versions[source_id] = version.id
        return version.id

    def add_version(self, source_id: str, text: str) -> str:
        with transaction(self.engine) as session:
            version, _ = SourceRepository(session).add_version(source_id, text)
        self.versions[source_id] = version.id
        return version.id

    def withdraw(self, source_id: str) -> None:
        with transaction(self.engine) as session:
            row = session.get(SourceRow, source_id)
            assert row is not None
            row.withdrawn = True

    def add_claim(
        self,
        *,
        id: str,
        source: str,
        key: str,
        quote: str,
        value: float | str,
        unit: str | None = None,
        canonical_unit: str | None = None,
        canonical_value: float | None = None,
        scope: dict[str, str] | None = None,
        time: dict[str, Any] | None = None,
    ) -> str:
        version_id = self.versions[source]
        with transaction(self.engine) as session:
            version = SourceRepository(session).version(version_id)
            assert version is not None
            start = version.text.index(quote)
            numeric = isinstance(value, int | float)
            claim = Claim(
                id=id,
                source_version_id=version_id,
                source_id=source,
                generation=self.generation,
                subject=key.split("|")[0],
                predicate=key.split("|")[-1],
                claim_key=key,
                kind=ValueKind.QUANTITY if numeric else ValueKind.CATEGORICAL,
                value=float(value) if numeric else value,
                unit=unit,
                canonical_value=(
                    canonical_value
                    if canonical_value is not None
                    else (float(value) if numeric else None)
                ),
                canonical_unit=canonical_unit,
                scope=scope or {},
                time=EffectiveTime(
                    start=_day(time.get("start")) if time else None,
                    end=_day(time.get("end")) if time else None,
                ),
                span=Span(start=start, end=start + len(quote)),
                quote=quote,
                confidence=0.9,
            )
            ClaimRepository(session).add_all([claim])
        return id

    def add_conflict(
        self,
        *,
        left: str,
        right: str,
        material: bool | None = True,
        materiality: float | None = 0.8,
    ) -> str:
        with transaction(self.engine) as session:
            key = ClaimRepository(session).by_id(left).claim_key  # type: ignore[union-attr]
            edge_id = stable_id("edge", "conflicts", left, right, self.generation)
            session.add(
                EdgeRow(
                    id=edge_id,
                    kind="conflicts",
                    left_claim_id=left,
                    right_claim_id=right,
                    claim_key=key,
                    rule="value",
                    reason="values differ under the same scope and time",
                    material=material,
                    materiality=materiality,
                    generation=self.generation,
                    created_at=datetime.now(UTC),
                )
            )
        return edge_id


def _day(value: Any) -> date | None:
    if value is None or isinstance(value, date):
        return value
    return date.fromisoformat(str(value))


def reviewers() -> ReviewerDirectory:
    """alice and bob, from the fixture file (passwords in its comment)."""
    return load_reviewers(FIXTURES / "reviewers.yaml")


def routed_ledger(engine: Engine, policy_file: str = "policy.yaml") -> ReviewLedger:
    """The corpus scenario with the policy applied and the conflicts routed."""
    ledger = ReviewLedger(engine).load()
    policy = load_policy(FIXTURES / policy_file)
    with transaction(engine) as session:
        apply_policy(session, policy, actor="admin")
        route(session, policy)
    return ledger


def item_for_key(engine: Engine, claim_key: str) -> ReviewItem:
    with transaction(engine) as session:
        items = [i for i in ReviewItemRepository(session).search() if i.claim_key == claim_key]
    assert len(items) == 1, items
    return items[0]


DIVIDEND = "acme|dividend_per_share"
HEADCOUNT = "acme|headcount"
LIMIT = "interactive assistant|output_limit"


def next_generation(
    ledger: ReviewLedger, generation: str, *, values: dict[str, float] | None = None
) -> ReviewLedger:
    """Retire ``ledger``'s generation and re-extract the corpus under ``generation``: same
    versions and spans, claim ids prefixed ``<generation>:``, values overridable per old id."""
    with transaction(ledger.engine) as session:
        row = session.get(ExtractorGenerationRow, ledger.generation)
        assert row is not None
        row.status = "retired"
    successor = ReviewLedger(ledger.engine, generation)
    successor.versions = dict(ledger.versions)
    data = yaml.safe_load((FIXTURES / "corpus.yaml").read_text(encoding="utf-8"))
    for claim in data["claims"]:
        old_id = claim["id"]
        claim = {**claim, "id": f"{generation}:{old_id}"}
        if values and old_id in values:
            claim["value"] = values[old_id]
        successor.add_claim(**claim)
    for edge in data["conflicts"]:
        successor.add_conflict(
            **{
                **edge,
                "left": f"{generation}:{edge['left']}",
                "right": f"{generation}:{edge['right']}",
            }
        )
    return successor
