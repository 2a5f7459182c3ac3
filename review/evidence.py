"""What a reviewer needs to see about an item: every side's quote in context and provenance.

A caller gets ``item_view(session, item_id)`` -> ``ItemView`` with one ``Side`` per claim
(verbatim quote, the text around it, source title, version, tier, access groups, the
source's effective window, scope, the claim's time, the value as written and converted into
a unit another side writes), the explanation of why the item is here
(``review.explain``), the standing resolution with its winners, and the history.
The CLI and the web UI render the same view, so they cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from claims.lookalikes import lookalike_note
from claims.models import AuditEvent, Claim, Resolution, ReviewItem
from claims.store import row_to_claim
from claims.tables import (
    ClaimRow,
    ClaimTaughtKeyRow,
    SourceGrantRow,
    SourceRow,
    SourceVersionRow,
)
from review import audit
from review.explain import Explanation, explain_item
from review.items import ReviewItemRepository
from review.resolutions import current_resolution, resolutions_for
from review.routing import touched_by_a_person
from review.shown_values import converted_text, value_text

CONTEXT_CHARS = 160


@dataclass
class Side:
    claim: Claim
    source_id: str
    source_title: str | None
    authority_tier: str | None
    withdrawn: bool
    version_id: str
    version_number: int
    version_label: str | None
    access_groups: list[str]  # [] = public
    source_effective: str  # the register's effective window of the source
    context_before: str
    quote: str
    context_after: str
    value_text: str
    converted_text: str | None
    scope_text: str
    time_text: str
    policy_note: str = ""  # what the policy's rules say about this side
    taught_note: str = ""  # the key the extractor gave it, when a taught synonym re-keyed it
    winner: bool = False  # a winner of the standing resolution

    @property
    def source_name(self) -> str:
        return self.source_title or self.source_id

    @property
    def lookalike_note(self) -> str:
        """Empty, or what in the quote is not what it looks like (mixed scripts inside a
        word, invisible characters): claims/lookalikes.py."""
        return lookalike_note(self.quote)

    @property
    def access_text(self) -> str:
        groups = ", ".join(self.access_groups)
        return f"visible to {groups} only" if groups else "public"

    def as_dict(self) -> dict[str, Any]:
        data = {k: v for k, v in self.__dict__.items() if k != "claim"}
        data["claim_id"] = self.claim.id
        data["access_text"] = self.access_text
        data["lookalike_note"] = self.lookalike_note
        locator = self.claim.locator
        data["locator"] = locator.to_dict() if locator is not None else None
        data["where"] = locator.describe() if locator is not None else None
        return data


@dataclass
class ItemView:
    item: ReviewItem
    sides: list[Side]
    resolution: Resolution | None
    resolutions: list[Resolution] = field(default_factory=list)
    history: list[AuditEvent] = field(default_factory=list)
    explanation: Explanation = field(default_factory=Explanation)

    @property
    def winners(self) -> list[Side]:
        return [s for s in self.sides if s.winner]

    @property
    def resolution_confidence_text(self) -> str:
        """The decider's confidence, apart from extraction confidence and source authority."""
        r = self.resolution
        if r is None:
            return "no decision"
        if r.confidence is None:
            return "not stated"
        who = "the rule (it follows from the policy)" if r.method.value == "rule" else r.decided_by
        return f"{r.confidence:.2f}, set by {who}"

    @property
    def lock_holder(self) -> str | None:
        """Who holds the item: only a claimed item has one (a decision releases the lock)."""
        return self.item.assignee if self.item.state.value == "claimed" else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "item": self.item.model_dump(mode="json"),
            "explanation": self.explanation.as_dict(),
            "sides": [s.as_dict() for s in self.sides],
            "resolution": self.resolution.model_dump(mode="json") if self.resolution else None,
            "resolutions": [r.model_dump(mode="json") for r in self.resolutions],
            "history": [e.model_dump(mode="json") for e in self.history],
        }


def _window(start: object, end: object) -> str:
    if start is None and end is None:
        return "not stated in the register"
    return f"{start or '...'} to {end or '...'}"


def _access_groups(session: Session, source_ids: list[str]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {s: [] for s in source_ids}
    stmt = select(SourceGrantRow.source_id, SourceGrantRow.group_name).where(
        SourceGrantRow.source_id.in_(source_ids)
    )
    for source_id, group in session.execute(stmt):
        groups[source_id].append(group)
    return {s: sorted(g) for s, g in groups.items()}


def _time_text(claim: Claim) -> str:
    time = claim.time
    if not time.is_known:
        return "not stated"
    span = f"{time.start or '...'} to {time.end or '...'}"
    return f"{span} ({time.text})" if time.text else span


def _scope_text(claim: Claim) -> str:
    parts = [f"{k}={v}" for k, v in sorted(claim.scope.items())]
    parts += claim.scope_residual
    return ", ".join(parts) if parts else "not stated"


def item_view(session: Session, item_id: str, *, with_history: bool = True) -> ItemView:
    """Everything about one item; ``NotFoundError`` if there is none with that id."""
    repo = ReviewItemRepository(session)
    item = repo.get(item_id)
    rows = list(
        session.execute(
            select(ClaimRow, SourceVersionRow, SourceRow)
            .join(SourceVersionRow, SourceVersionRow.id == ClaimRow.source_version_id)
            .join(SourceRow, SourceRow.id == ClaimRow.source_id)
            .where(ClaimRow.id.in_(repo.current_claim_ids(item_id)))
        )
    )
    resolution = current_resolution(session, item_id)
    winners = set(resolution.winner_claim_ids) if resolution else set()
    groups = _access_groups(session, sorted({source.id for _, _, source in rows}))
    units = [c.unit for c, _, _ in sorted(rows, key=lambda r: (r[2].id, r[0].id)) if c.unit]
    extracted = {
        claim_id: key
        for claim_id, key in session.execute(
            select(ClaimTaughtKeyRow.claim_id, ClaimTaughtKeyRow.extracted_claim_key).where(
                ClaimTaughtKeyRow.claim_id.in_([c.id for c, _, _ in rows])
            )
        )
    }
    sides = []
    for claim_row, version, source in rows:
        claim = row_to_claim(claim_row)
        text = version.text
        start, end = claim.span.start, claim.span.end
        sides.append(
            Side(
                claim=claim,
                source_id=source.id,
                source_title=source.title,
                authority_tier=source.authority_tier,
                withdrawn=bool(source.withdrawn),
                version_id=version.id,
                version_number=version.number,
                version_label=version.label,
                access_groups=groups.get(source.id, []),
                source_effective=_window(source.effective_from, source.effective_to),
                context_before=text[max(0, start - CONTEXT_CHARS) : start],
                quote=text[start:end] or claim.quote,
                context_after=text[end : end + CONTEXT_CHARS],
                value_text=value_text(claim),
                converted_text=converted_text(claim, text, units),
                scope_text=_scope_text(claim),
                time_text=_time_text(claim),
                winner=claim.id in winners,
                taught_note=(
                    f"keyed by a taught synonym; extracted as '{extracted[claim.id]}'"
                    if claim.id in extracted
                    else ""
                ),
            )
        )
    sides.sort(key=lambda s: (s.source_id, s.claim.id))
    tiers = {s.claim.id: (s.authority_tier, s.withdrawn) for s in sides}
    explanation = explain_item(
        session,
        item,
        [s.claim.id for s in sides],
        resolution,
        tiers,
        touched_by_person=touched_by_a_person(session, item_id),
    )
    for side in sides:
        side.policy_note = explanation.side_notes.get(side.claim.id, "")
    # The values in the sides' own words: a polarity pair reads "required: enter lab" vs
    # "not required: enter lab", whatever wording the edge's reason used.
    explanation.values = list(dict.fromkeys(s.value_text for s in sides))
    return ItemView(
        item=item,
        sides=sides,
        resolution=resolution,
        resolutions=resolutions_for(session, item_id),
        history=audit.history(session, item_id) if with_history else [],
        explanation=explanation,
    )
