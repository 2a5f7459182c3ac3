"""The pages a reviewer reads: the queue with its filters, one item, metrics and policies."""

from __future__ import annotations

from datetime import UTC, datetime
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from claims.models import ReviewState
from claims.store import transaction
from claims.tables import AuthorityPolicyRow
from review.items import ReviewItemRepository, as_utc
from review.metrics import review_metrics
from review.policy import active_policy_row, describe_policy, describe_rule, policy_from_row
from review.policy_impact import CHANGE_TITLES, recorded_impacts
from review.web.pages import PREFIX, ReviewPages

QUEUE_PAGE = 200  # the riskiest and oldest first; filters narrow the rest
STATE_CHOICES = ("unresolved", *(s.value for s in ReviewState), "all")
NOTICES = {
    "claimed": "You claimed the item.",
    "released": "You released the item.",
    "resolved": "Resolved. The item left the open queue.",
    "dismissed": "Dismissed as not a conflict.",
    "ambiguous": "Marked ambiguous.",
    "deferred": "Deferred.",
    "reopened": "Reopened.",
}


def queue_router(pages: ReviewPages) -> APIRouter:
    """GET /queue (filters: state, risk, key, mine) and GET /items/{item_id}."""
    router = APIRouter()

    @router.get("/queue")
    def queue_page(
        request: Request, state: str = "unresolved", risk: str = "", key: str = "", mine: str = ""
    ) -> Response:
        reviewer = pages.current(request)
        if reviewer is None:
            return pages.to_login(request)
        states, state = _queue_states(state)
        with transaction(pages.engine()) as session:
            items = ReviewItemRepository(session).search(
                states=states,
                assignee=reviewer.name if mine else None,
                high_risk={"high": True, "normal": False}.get(risk),
                key_contains=key.strip() or None,
                limit=QUEUE_PAGE + 1,
            )
        now = datetime.now(UTC)
        more = len(items) > QUEUE_PAGE
        items = items[:QUEUE_PAGE]
        return pages.render(
            request,
            "queue.html",
            reviewer=reviewer,
            items=items,
            more=more,
            page=QUEUE_PAGE,
            now=now,
            ages={i.id: _age(i.opened_at, now) for i in items},
            filters={"state": state, "risk": risk, "key": key, "mine": bool(mine)},
            state_choices=STATE_CHOICES,
        )

    @router.get("/items/{item_id}")
    def show_item(request: Request, item_id: str, done: str = "") -> Response:
        reviewer = pages.current(request)
        if reviewer is None:
            return pages.to_login(request)
        return pages.item_page(request, reviewer, item_id, notice=NOTICES.get(done))

    return router


def policy_router(pages: ReviewPages) -> APIRouter:
    """GET /metrics, GET /policies (the active one) and GET /policies/{version}."""
    router = APIRouter()

    @router.get("/metrics")
    def metrics_page(request: Request) -> Response:
        reviewer = pages.current(request)
        if reviewer is None:
            return pages.to_login(request)
        with transaction(pages.engine()) as session:
            row = active_policy_row(session)
            policy = policy_from_row(row) if row is not None else None
            figures = review_metrics(session, policy)
        return pages.render(
            request,
            "metrics.html",
            reviewer=reviewer,
            m=figures,
            policy_version=policy.stamp if policy else None,
        )

    @router.get("/policies")
    def active_policy_page(request: Request) -> Response:
        with transaction(pages.engine()) as session:
            row = active_policy_row(session)
        if row is None:
            return pages.message(
                request,
                status_code=404,
                heading="No policy",
                error="no authority policy has been applied; run `claims policy apply FILE`",
            )
        return RedirectResponse(f"{PREFIX}/policies/{quote(row.version)}", status_code=303)

    @router.get("/policies/{version}")
    def policy_page(request: Request, version: str) -> Response:
        """A stored policy version: its rules in words and the impact of applying it."""
        reviewer = pages.current(request)
        if reviewer is None:
            return pages.to_login(request)
        with transaction(pages.engine()) as session:
            row = session.get(AuthorityPolicyRow, version)
            active = active_policy_row(session)
            if row is None:
                return pages.render(
                    request,
                    "message.html",
                    reviewer=reviewer,
                    status_code=404,
                    heading="Not found",
                    error=f"no applied policy version {version!r}",
                )
            policy = policy_from_row(row)
            impacts = [
                i
                for i in recorded_impacts(session, policy.policy_id)
                if i.get("to_version") == row.version
            ]
        return pages.render(
            request,
            "policy.html",
            reviewer=reviewer,
            policy=policy,
            lines=describe_policy(policy),
            rules=[(rule.id, describe_rule(rule)) for rule in policy.auto_resolution],
            active=active is not None and active.version == row.version,
            applied_at=as_utc(row.applied_at),
            applied_by=row.applied_by,
            impacts=impacts,
            titles=CHANGE_TITLES,
        )

    return router


def _queue_states(state: str) -> tuple[list[ReviewState] | None, str]:
    """The states the queue filter ``state`` lists (None: all), and the filter as shown."""
    if state == "unresolved":
        return [ReviewState.OPEN, ReviewState.CLAIMED, ReviewState.DEFERRED], state
    if state == "all":
        return None, state
    try:
        return [ReviewState(state)], state
    except ValueError:
        return [ReviewState.OPEN], "open"


def _age(opened: datetime | None, now: datetime) -> str:
    if opened is None:
        return ""
    hours = (now - opened).total_seconds() / 3600
    return f"{hours:.0f} h" if hours < 48 else f"{hours / 24:.0f} d"
