"""The forms on an item page: claim, release, resolve, dismiss, mark ambiguous, defer, reopen.

Every POST needs the session's CSRF token; every action goes through ``review.queue`` in one
transaction, attributed to the reviewer, and redirects back to the item with a notice. Each
form is one model (FastAPI reads it from the posted fields): the fields every form posts
(the token and the revision the reviewer saw) and those of a decision (rationale and
confidence) are declared once, with their parsing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel
from sqlalchemy.orm import Session

from claims.errors import ClaimLedgerError, InputError
from claims.models import DismissReason
from claims.store import transaction
from review import queue
from review.reviewers import Reviewer
from review.web.pages import PREFIX, ReviewPages
from review.web.session import CsrfError

ItemAction = Callable[[Session, Reviewer], object]


class ItemForm(BaseModel):
    """What every item form posts: the session's CSRF token and the item revision shown."""

    csrf_token: str = ""
    revision: str = ""

    @property
    def expected_revision(self) -> int | None:
        """The revision the reviewer acted on (none stated: the action is not checked)."""
        return int(self.revision) if self.revision.strip().isdigit() else None


class DecisionForm(ItemForm):
    """A form that decides something: why, and how sure the reviewer is (optional)."""

    rationale: str = ""
    confidence: str = ""

    @property
    def stated_confidence(self) -> float | None:
        """The confidence field: empty is "not stated"; InputError when not a number."""
        if not self.confidence.strip():
            return None
        try:
            return float(self.confidence)
        except ValueError:
            raise InputError(
                f"confidence: {self.confidence!r} is not a number from 0 to 1"
            ) from None


class ResolveForm(DecisionForm):
    winner: list[str] = []
    evidence: str = ""  # claim ids, by commas or lines

    @property
    def cited(self) -> list[str]:
        return [e.strip() for e in self.evidence.replace("\n", ",").split(",") if e.strip()]


class DismissForm(DecisionForm):
    reason: str = ""

    @property
    def dismiss_reason(self) -> DismissReason:
        try:
            return DismissReason(self.reason)
        except ValueError:
            raise InputError(f"reason: {self.reason!r} is not a dismiss reason") from None


class DeferForm(ItemForm):
    until: str = ""
    rationale: str = ""

    @property
    def day(self) -> date:
        try:
            return date.fromisoformat(self.until)
        except ValueError:
            raise InputError(f"until: {self.until!r} is not a date (YYYY-MM-DD)") from None


class ReopenForm(ItemForm):
    reason: str = ""


# runs an action: (request, item id, its form, the notice when done, the action)
_Act = Callable[[Request, str, ItemForm, str, ItemAction], Response]


def item_actions_router(pages: ReviewPages) -> APIRouter:
    """POST /items/{item_id}/{claim,release,resolve,dismiss,ambiguous,defer,reopen}."""
    router = APIRouter()
    act = _acting(pages)

    @router.post("/items/{item_id}/claim")
    def claim(request: Request, item_id: str, form: Annotated[ItemForm, Form()]) -> Response:
        return act(
            request,
            item_id,
            form,
            "claimed",
            lambda s, r: queue.claim(s, item_id, r, expected_revision=form.expected_revision),
        )

    @router.post("/items/{item_id}/release")
    def release(request: Request, item_id: str, form: Annotated[ItemForm, Form()]) -> Response:
        return act(
            request,
            item_id,
            form,
            "released",
            lambda s, r: queue.release(s, item_id, r, expected_revision=form.expected_revision),
        )

    @router.post("/items/{item_id}/resolve")
    def resolve(request: Request, item_id: str, form: Annotated[ResolveForm, Form()]) -> Response:
        return act(
            request,
            item_id,
            form,
            "resolved",
            lambda s, r: queue.resolve(
                s,
                item_id,
                r,
                winners=form.winner,
                rationale=form.rationale,
                evidence=form.cited,
                expected_revision=form.expected_revision,
                confidence=form.stated_confidence,
            ),
        )

    @router.post("/items/{item_id}/dismiss")
    def dismiss(request: Request, item_id: str, form: Annotated[DismissForm, Form()]) -> Response:
        return act(
            request,
            item_id,
            form,
            "dismissed",
            lambda s, r: queue.dismiss(
                s,
                item_id,
                r,
                reason=form.dismiss_reason,
                rationale=form.rationale,
                expected_revision=form.expected_revision,
                confidence=form.stated_confidence,
            ),
        )

    _add_later_actions(router, act)
    return router


def _add_later_actions(router: APIRouter, act: _Act) -> None:
    """The actions that leave an item unsettled or bring it back: ambiguous, defer, reopen."""

    @router.post("/items/{item_id}/ambiguous")
    def ambiguous(
        request: Request, item_id: str, form: Annotated[DecisionForm, Form()]
    ) -> Response:
        return act(
            request,
            item_id,
            form,
            "ambiguous",
            lambda s, r: queue.mark_ambiguous(
                s,
                item_id,
                r,
                rationale=form.rationale,
                expected_revision=form.expected_revision,
                confidence=form.stated_confidence,
            ),
        )

    @router.post("/items/{item_id}/defer")
    def defer(request: Request, item_id: str, form: Annotated[DeferForm, Form()]) -> Response:
        return act(
            request,
            item_id,
            form,
            "deferred",
            lambda s, r: queue.defer(
                s,
                item_id,
                r,
                until=form.day,
                rationale=form.rationale,
                expected_revision=form.expected_revision,
            ),
        )

    @router.post("/items/{item_id}/reopen")
    def reopen(request: Request, item_id: str, form: Annotated[ReopenForm, Form()]) -> Response:
        return act(
            request,
            item_id,
            form,
            "reopened",
            lambda s, r: queue.reopen_by_reviewer(
                s, item_id, r, reason=form.reason, expected_revision=form.expected_revision
            ),
        )


def _acting(pages: ReviewPages) -> _Act:
    """Run one item action for the logged-in reviewer, after the CSRF check, in one transaction;
    a refused action (a field that does not parse included) shows the item again with the
    reason."""

    def act(
        request: Request, item_id: str, form: ItemForm, done: str, action: ItemAction
    ) -> Response:
        try:
            pages.signer.check_csrf(request, form.csrf_token)
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
