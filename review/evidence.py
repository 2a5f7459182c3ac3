"""What a reviewer needs to see about an item: every side's quote in context and provenance.

A caller gets ``item_view(session, item_id)`` -> ``ItemView`` with one ``Side`` per claim
(verbatim quote, the text around it, source title, version, tier, scope, effective time,
value as written and after unit conversion), the standing resolution and the history.
The CLI and the web UI render the same view, so they cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from claims.models import AuditEvent, Claim, Resolution, ReviewItem
from claims.store import row_to_claim
from claims.tables import ClaimRow, SourceRow, SourceVersionRow
from review import audit
from review.items import ReviewItemRepository
from review.resolutions import current_resolution, resolutions_for

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
    context_before: str
    quote: str
    context_after: str
    value_text: str
    converted_text: str | None
    scope_text: str
    time_text: str

    def as_dict(self) -> dict[str, Any]:
        data = {k: v for k, v in self.__dict__.items() if k != "claim"}
        data["claim_id"] = self.claim.id
        return data


@dataclass
class ItemView:
    item: ReviewItem
    sides: list[Side]
    resolution: Resolution | None
    resolutions: list[Resolution] = field(default_factory=list)
    history: list[AuditEvent] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "item": self.item.model_dump(mode="json"),
            "sides": [s.as_dict() for s in self.sides],
            "resolution": self.resolution.model_dump(mode="json") if self.resolution else None,
            "resolutions": [r.model_dump(mode="json") for r in self.resolutions],
            "history": [e.model_dump(mode="json") for e in self.history],
        }


def _number(value: float | None) -> str:
    if value is None:
        return "?"
    return f"{value:,.6g}" if abs(value) < 1e15 else f"{value:.6e}"


def value_text(claim: Claim) -> str:
    """The value as the source states it: bound, number or label, unit."""
    if claim.kind.value == "polarity":
        parts = [claim.modality.value if claim.modality else "", str(claim.value or "")]
        if claim.polarity is not None:
            parts.append(f"({claim.polarity.value})")
        return " ".join(p for p in parts if p)
    if isinstance(claim.value, str) or claim.value is None:
        return str(claim.value) if claim.value is not None else "(no value)"
    if claim.bound.value == "range":
        body = f"{_number(claim.low)} to {_number(claim.high)}"
    else:
        prefix = {
            "at_most": "at most ",
            "less_than": "under ",
            "at_least": "at least ",
            "more_than": "over ",
        }.get(claim.bound.value, "")
        body = prefix + _number(claim.value)
    approx = "about " if claim.approximate else ""
    return f"{approx}{body} {claim.unit or ''}".strip()


def converted_text(claim: Claim) -> str | None:
    """The canonical value and unit, when conversion changed anything."""
    if claim.canonical_value is None and claim.canonical_low is None:
        return None
    if claim.bound.value == "range":
        body = f"{_number(claim.canonical_low)} to {_number(claim.canonical_high)}"
    else:
        body = _number(claim.canonical_value)
    text = f"{body} {claim.canonical_unit or ''}".strip()
    return None if text == value_text(claim) else text


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
                context_before=text[max(0, start - CONTEXT_CHARS) : start],
                quote=text[start:end] or claim.quote,
                context_after=text[end : end + CONTEXT_CHARS],
                value_text=value_text(claim),
                converted_text=converted_text(claim),
                scope_text=_scope_text(claim),
                time_text=_time_text(claim),
            )
        )
    sides.sort(key=lambda s: (s.source_id, s.claim.id))
    return ItemView(
        item=item,
        sides=sides,
        resolution=current_resolution(session, item_id),
        resolutions=resolutions_for(session, item_id),
        history=audit.history(session, item_id) if with_history else [],
    )
