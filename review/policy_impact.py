"""What applying a policy changes, item by item, before anything is committed.

A caller gets ``apply_with_impact(session, policy, actor=...)`` -> ``PolicyImpact``: it
records every item's outcome (state, who or which rule decided, winners), applies the policy,
re-routes every conflict set under it (so rule decisions and open items are re-evaluated at
once, in the caller's transaction) and compares. The diff names items newly auto-resolved,
rule decisions whose winner changed, items reopened, items opened and items rescored, each
with its before and after. It is kept in the audit log (``policy.impact``) unless the caller
is only looking (``record=False``, with the transaction rolled back by the caller: the dry
run of ``claims policy apply --dry-run``).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from claims.models import AuthorityPolicyVersion
from claims.tables import ClaimRow, ResolutionRow, ResolutionWinnerRow, ReviewItemRow
from review import audit
from review.policy import AuthorityPolicy, active_policy_row, apply_policy
from review.routing import RoutingReport, route

# The kinds of change, in the order a reader wants them.
CHANGE_KINDS = (
    "auto_resolved",  # was waiting for a person (or new), now decided by a rule
    "winner_changed",  # still decided by rule, a different side wins
    "reopened",  # was decided (by a rule, or a decision that no longer stands), now open
    "opened",  # a conflict set nobody had seen, now waiting for a person
    "rescored",  # risk or high-risk changed (a new high-risk pattern, another threshold)
)
CHANGE_TITLES = {
    "auto_resolved": "newly auto-resolved",
    "winner_changed": "rule decision changed winner",
    "reopened": "reopened",
    "opened": "opened",
    "rescored": "risk changed",
}


@dataclass
class ItemChange:
    item_id: str
    claim_key: str
    kind: str
    before: dict[str, Any] | None
    after: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class PolicyImpact:
    from_version: str | None
    to_version: str
    policy_id: str
    applied: bool  # False: the policy was already the active one
    dry_run: bool
    routing: dict[str, int | str] = field(default_factory=dict)
    changes: list[ItemChange] = field(default_factory=list)

    def of_kind(self, kind: str) -> list[ItemChange]:
        return [c for c in self.changes if c.kind == kind]

    def counts(self) -> dict[str, int]:
        return {kind: len(self.of_kind(kind)) for kind in CHANGE_KINDS}

    def as_dict(self) -> dict[str, Any]:
        return {
            "policy_id": self.policy_id,
            "from_version": self.from_version,
            "to_version": self.to_version,
            "applied": self.applied,
            "dry_run": self.dry_run,
            "counts": self.counts(),
            "routing": self.routing,
            "changes": [c.as_dict() for c in self.changes],
        }


def item_outcomes(
    session: Session, claim_keys: Collection[str] | None = None
) -> dict[str, dict[str, Any]]:
    """Every item's outcome as the diff compares it: state, decider, winners, risk (only the
    items of ``claim_keys`` when given)."""
    if claim_keys is None:
        rows = list(session.scalars(select(ReviewItemRow)))
    else:
        keys = sorted(set(claim_keys))
        rows = [
            row
            for start in range(0, len(keys), 500)
            for row in session.scalars(
                select(ReviewItemRow).where(ReviewItemRow.claim_key.in_(keys[start : start + 500]))
            )
        ]
    items: dict[str, dict[str, Any]] = {
        row.id: {
            "claim_key": row.claim_key,
            "state": row.state,
            "decided_by": None,
            "winners": [],
            "risk": round(row.risk, 4),
            "high_risk": row.high_risk,
        }
        for row in rows
    }
    standing = select(
        ResolutionRow.id, ResolutionRow.review_item_id, ResolutionRow.decided_by
    ).where(ResolutionRow.superseded_at.is_(None))
    if claim_keys is not None:
        standing = standing.where(ResolutionRow.review_item_id.in_(sorted(items)))
    resolutions: dict[str, str] = {}  # resolution id -> item id
    for res_id, item_id, decided_by in session.execute(standing):
        if item_id in items:
            items[item_id]["decided_by"] = decided_by
            resolutions[res_id] = item_id
    winners = select(ResolutionWinnerRow.resolution_id, ClaimRow.id, ClaimRow.source_id).join(
        ClaimRow, ClaimRow.id == ResolutionWinnerRow.claim_id
    )
    if claim_keys is not None:
        winners = winners.where(ResolutionWinnerRow.resolution_id.in_(sorted(resolutions)))
    for res_id, claim_id, source_id in session.execute(winners.order_by(ClaimRow.id)):
        if res_id in resolutions:
            items[resolutions[res_id]]["winners"].append(f"{source_id} ({claim_id})")
    return items


def _by_rule(outcome: dict[str, Any] | None) -> bool:
    return bool(outcome and str(outcome.get("decided_by") or "").startswith("rule:"))


def _closed(outcome: dict[str, Any]) -> bool:
    return outcome["state"] in ("resolved", "dismissed", "ambiguous")


def _kind(before: dict[str, Any] | None, after: dict[str, Any]) -> str | None:
    if _by_rule(after) and after["state"] == "resolved":
        if before is None or not (_by_rule(before) and before["state"] == "resolved"):
            return "auto_resolved"
        return "winner_changed" if before["winners"] != after["winners"] else None
    if before is None:
        return "opened"
    if _closed(before) and not _closed(after):
        return "reopened"
    if (before["risk"], before["high_risk"]) != (after["risk"], after["high_risk"]):
        return "rescored"
    return None


def diff_outcomes(
    before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]
) -> list[ItemChange]:
    changes = []
    for item_id in sorted(after):
        kind = _kind(before.get(item_id), after[item_id])
        if kind is None:
            continue
        old = before.get(item_id)
        changes.append(
            ItemChange(
                item_id=item_id,
                claim_key=after[item_id]["claim_key"],
                kind=kind,
                before={k: v for k, v in old.items() if k != "claim_key"} if old else None,
                after={k: v for k, v in after[item_id].items() if k != "claim_key"},
            )
        )
    order = {kind: index for index, kind in enumerate(CHANGE_KINDS)}
    return sorted(changes, key=lambda c: (order[c.kind], c.claim_key, c.item_id))


def apply_with_impact(
    session: Session,
    policy: AuthorityPolicy,
    *,
    actor: str,
    record: bool = True,
    now: datetime | None = None,
) -> tuple[AuthorityPolicyVersion, PolicyImpact, RoutingReport]:
    """Apply ``policy``, re-route everything under it, and return what changed.

    ``record=False`` writes no ``policy.impact`` row: the dry run, whose caller rolls the
    whole transaction back.
    """
    now = now or datetime.now(UTC)
    previous = active_policy_row(session)
    before = item_outcomes(session)
    version, applied = apply_policy(session, policy, actor=actor, now=now)
    report = route(session, policy, now=now)
    impact = PolicyImpact(
        from_version=previous.version if previous is not None else None,
        to_version=policy.stamp,
        policy_id=policy.policy_id,
        applied=applied,
        dry_run=not record,
        routing=report.as_metadata(),
        changes=diff_outcomes(before, item_outcomes(session)),
    )
    if record:
        audit.record(
            session,
            actor=actor,
            action="policy.impact",
            entity_type="authority_policy",
            entity_id=policy.policy_id,
            before={"version": impact.from_version},
            after=impact.as_dict(),
            policy_version=policy.stamp,
            at=now,
        )
    return version, impact, report


def recorded_impacts(session: Session, policy_id: str | None = None) -> list[dict[str, Any]]:
    """The ``policy.impact`` rows of the audit log, newest first (with who and when)."""
    return [
        {**(event.after or {}), "at": event.at, "actor": event.actor}
        for event in audit.events(session, action="policy.impact", entity_id=policy_id)
    ]
