"""The forms on an item page: claim, release, resolve, dismiss, mark ambiguous, defer, reopen.

Every POST needs the session's CSRF token; every action goes through ``review.queue`` in one
transaction, attributed to the reviewer, and redirects back to the item with a notice.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from urllib.parse import quote

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy.orm import Session

from claims.errors import ClaimLedgerError, InputError
from claims.models import DismissReason
from claims.store import transaction
from review import queue
from review.reviewers import Reviewer
from review.web.pages import PREFIX, ReviewPages
from review.web.session import CsrfError

ItemAction = Callable[[Session, Reviewer], object]


def item_actions_router(pages: ReviewPages) -> APIRouter:
    """POST /items/{item_id}/{claim,release,resolve,dismiss,ambiguous,defer,reopen}."""
    router = APIRouter()
    act = _acting(pages)

    @router.post("/items/{item_id}/claim")
    def claim(
        request: Request, item_id: str, csrf_token: str = Form(""), revision: str = Form("")
    ) -> Response:
        return act(
            request,
            item_id,
            csrf_token,
            "claimed",
            lambda s, r: queue.claim(s, item_id, r, expected_revision=_revision(revision)),
        )

    @router.post("/items/{item_id}/release")
    def release(
        request: Request, item_id: str, csrf_token: str = Form(""), revision: str = Form("")
    ) -> Response:
        return act(
            request,
            item_id,
            csrf_token,
            "released",
            lambda s, r: queue.release(s, item_id, r, expected_revision=_revision(revision)),
        )

    @router.post("/items/{item_id}/resolve")
    def resolve(
        request: Request,
        item_id: str,
        csrf_token: str = Form(""),
        revision: str = Form(""),
        winner: list[str] = Form(default_factory=list),
        rationale: str = Form(""),
        evidence: str = Form(""),
        confidence: str = Form(""),
    ) -> Response:
        cited = [e.strip() for e in evidence.replace("\n", ",").split(",") if e.strip()]
        return act(
            request,
            item_id,
            csrf_token,
            "resolved",
            lambda s, r: queue.resolve(
                s,
                item_id,
                r,
                winners=winner,
                rationale=rationale,
                evidence=cited,
                expected_revision=_revision(revision),
                confidence=_confidence(confidence),
            ),
        )

    @router.post("/items/{item_id}/dismiss")
    def dismiss(
        request: Request,
        item_id: str,
        csrf_token: str = Form(""),
        revision: str = Form(""),
        reason: str = Form(""),
        rationale: str = Form(""),
        confidence: str = Form(""),
    ) -> Response:
        def run(session: Session, reviewer: Reviewer) -> object:
            try:
                why = DismissReason(reason)
            except ValueError:
                raise InputError(f"reason: {reason!r} is not a dismiss reason") from None
            return queue.dismiss(
                session,
                item_id,
                reviewer,
                reason=why,
                rationale=rationale,
                expected_revision=_revision(revision),
                confidence=_confidence(confidence),
            )

        return act(request, item_id, csrf_token, "dismissed", run)

    _add_later_actions(router, act)
    return router


def _add_later_actions(router: APIRouter, act: Callable[..., Response]) -> None:
    """The actions that leave an item unsettled or bring it back: ambiguous, defer, reopen."""

    @router.post("/items/{item_id}/ambiguous")
    def ambiguous(
        request: Request,
        item_id: str,
        csrf_token: str = Form(""),
        revision: str = Form(""),
        rationale: str = Form(""),
        confidence: str = Form(""),
    ) -> Response:
        return act(
            request,
            item_id,
            csrf_token,
            "ambiguous",
            lambda s, r: queue.mark_ambiguous(
                s,
                item_id,
                r,
                rationale=rationale,
                expected_revision=_revision(revision),
                confidence=_confidence(confidence),
            ),
        )

    @router.post("/items/{item_id}/defer")
    def defer(
        request: Request,
        item_id: str,
        csrf_token: str = Form(""),
        revision: str = Form(""),
        until: str = Form(""),
        rationale: str = Form(""),
    ) -> Response:
        def run(session: Session, reviewer: Reviewer) -> object:
            try:
                day = date.fromisoformat(until)
            except ValueError:
                raise InputError(f"until: {until!r} is not a date (YYYY-MM-DD)") from None
            return queue.defer(
                session,
                item_id,
                reviewer,
                until=day,
                rationale=rationale,
                expected_revision=_revision(revision),
            )

        return act(request, item_id, csrf_token, "deferred", run)

    @router.post("/items/{item_id}/reopen")
    def reopen(
        request: Request,
        item_id: str,
        csrf_token: str = Form(""),
        revision: str = Form(""),
        reason: str = Form(""),
    ) -> Response:
        return act(
            request,
            item_id,
            csrf_token,
            "reopened",
            lambda s, r: queue.reopen_by_reviewer(
                s, item_id, r, reason=reason, expected_revision=_revision(revision)
            ),
        )


def _acting(pages: ReviewPages) -> Callable[[Request, str, str, str, ItemAction], Response]:
    """Run one item action for the logged-in reviewer, after the CSRF check, in one transaction;
    a refused action shows the item again with the reason."""

    def act(
        request: Request, item_id: str, csrf_token: str, done: str, action: ItemAction
    ) -> Response:
        try:
            pages.signer.check_csrf(request, csrf_token)
        except CsrfError:
            return pages.forbidden(request)
        reviewer = pages.current(request)
        if reviewer is None:
            return pages.to_login(request)
        try:
            with transaction(pages.engine()) as session:
                action(session, reviewer)
        except ClaimLedgerError as problem:
            return pages.item_page(
                request, reviewer, item_id, error=str(problem), status_code=problem.http_status
            )
        return RedirectResponse(f"{PREFIX}/items/{quote(item_id)}?done={done}", status_code=303)

    return act


def _revision(value: str) -> int | None:
    return int(value) if value.strip().isdigit() else None


def _confidence(value: str) -> float | None:
    """The form's optional confidence field: empty is "not stated"."""
    if not value.strip():
        return None
    try:
        return float(value)
    except ValueError:
        raise InputError(f"confidence: {value!r} is not a number from 0 to 1") from None
