"""The reviewer UI: server-rendered pages over the review lifecycle (no build step).

Every page needs a logged-in reviewer; every POST needs the session's CSRF token; every
action goes through ``review.queue`` in one transaction, attributed to the reviewer.
Templates autoescape everything: source text is untrusted input.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from fastapi import APIRouter, Form, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from claims.errors import AuthError, ClaimLedgerError, InputError
from claims.models import DismissReason, ReviewState
from claims.settings import Settings
from claims.shown_text import show_hidden_characters
from claims.store import make_engine, transaction
from claims.tables import AuthorityPolicyRow
from review import audit, queue
from review.evidence import item_view
from review.items import ReviewItemRepository, as_utc
from review.metrics import review_metrics
from review.policy import active_policy_row, describe_policy, describe_rule, policy_from_row
from review.policy_impact import CHANGE_TITLES, recorded_impacts
from review.reviewers import Reviewer, ReviewerDirectory, ReviewersFileWatcher, load_reviewers
from review.web import throttle
from review.web.session import CsrfError, SessionSigner, WebSession

HERE = Path(__file__).parent
LOG = logging.getLogger("claimledger.review")
LOGIN_ACTOR = "(login)"  # who a failed login is attributed to: nobody proved who they are
PREFIX = "/review"
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
SECURITY_HEADERS = {
    # No inline script or style anywhere, so even a missed escape could not run code.
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
    "img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}


def _age(opened: datetime | None, now: datetime) -> str:
    if opened is None:
        return ""
    hours = (now - opened).total_seconds() / 3600
    return f"{hours:.0f} h" if hours < 48 else f"{hours / 24:.0f} d"


def shown_in_html(value: Any) -> Any:
    """What a template prints for ``value``: document text with its bidi controls and
    zero-width characters shown as ``<U+XXXX>`` (claims/shown_text.py), escaped after."""
    if isinstance(value, Markup):  # already HTML: the code goes in escaped
        return Markup(show_hidden_characters(str(value)).replace("<U+", "&lt;U+"))
    if isinstance(value, str):
        return show_hidden_characters(value)
    return value


def create_router(settings: Settings) -> APIRouter:
    """The reviewer UI under /review, on the store and reviewers file of ``settings``."""
    reviewers = ReviewersFileWatcher(settings.resolved_reviewers_file)
    templates = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html"], default=True),
        finalize=shown_in_html,  # bidi controls and zero-width characters as <U+XXXX>
    )
    engines: dict[str, Engine] = {}

    def engine() -> Engine:
        if "store" not in engines:  # created per process, on first use
            engines["store"] = make_engine(settings.resolved_database_url)
        return engines["store"]

    signer = SessionSigner(reviewers, engine)

    router = APIRouter(prefix=PREFIX, include_in_schema=False)

    def render(
        request: Request,
        template: str,
        *,
        reviewer: Reviewer | None,
        status_code: int = 200,
        session: WebSession | None = None,
        **context: Any,
    ) -> HTMLResponse:
        session = session or signer.session_of(request) or signer.new(None)
        html = templates.get_template(template).render(
            prefix=PREFIX, reviewer=reviewer, csrf=session.csrf, **context
        )
        response = HTMLResponse(html, status_code=status_code, headers=SECURITY_HEADERS)
        signer.store(response, session)
        return response

    def to_login(request: Request) -> Response:
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return RedirectResponse(f"{PREFIX}/login?next={quote(target)}", status_code=303)

    def current(request: Request) -> Reviewer | None:
        try:
            return signer.reviewer_of(request)
        except AuthError:
            return None

    # ----------------------------------------------------------------- static + login

    @router.get("/static/{name}")
    def static(name: str) -> Response:
        files = {"review.css": "text/css", "review.js": "text/javascript"}
        if name not in files:
            return Response(status_code=404)
        return FileResponse(
            HERE / "static" / name,
            media_type=files[name],
            headers={"X-Content-Type-Options": "nosniff"},
        )

    @router.get("/")
    def home() -> Response:
        return RedirectResponse(f"{PREFIX}/queue", status_code=303)

    @router.get("/login")
    def login_page(request: Request, next: str = f"{PREFIX}/queue") -> Response:
        return render(
            request,
            "login.html",
            reviewer=None,
            next=_safe_next(next),
            setup_note=reviewers_setup_note(settings, reviewers.get()),
        )

    @router.post("/login")
    def login(
        request: Request,
        username: str = Form(""),
        password: str = Form(""),
        csrf_token: str = Form(""),
        next: str = Form(f"{PREFIX}/queue"),
    ) -> Response:
        try:
            signer.check_csrf(request, csrf_token)
        except CsrfError:
            return _forbidden(request)
        account = username.strip()[: throttle.ACCOUNT_MAX]
        address = signer.client_address(request)
        now = throttle.now_utc()
        with transaction(engine()) as session:
            wait = throttle.retry_after(session, account, address, now)
            if wait is None:
                # Counted as a failure until the password proves right (parallel guesses too).
                failures = throttle.record_attempt(session, account, address, now)
        if wait is not None:
            LOG.warning("login throttled: account %r from %s for %d s", account, address, wait)
            response = render(
                request,
                "login.html",
                reviewer=None,
                status_code=429,
                error=f"Too many failed logins. Try again in {wait} seconds.",
                next=_safe_next(next),
            )
            response.headers["Retry-After"] = str(wait)
            return response
        reviewer = reviewers.get().authenticate(account, password)
        with transaction(engine()) as session:
            if reviewer is None:
                audit.record(
                    session,
                    actor=LOGIN_ACTOR,
                    action="login.failed",
                    entity_type="reviewer",
                    entity_id=account,
                    before=None,
                    after={
                        "address": address,
                        "recent_failures": failures,
                        "wait_seconds": throttle.wait_after(failures, throttle.ACCOUNT_FREE),
                    },
                )
            else:
                throttle.forgive(session, account, address)
                audit.record(
                    session,
                    actor=reviewer.name,
                    action="login",
                    entity_type="reviewer",
                    entity_id=reviewer.name,
                    before=None,
                    after={"address": address},
                )
        if reviewer is None:
            return render(
                request,
                "login.html",
                reviewer=None,
                status_code=401,
                error="Unknown name or wrong password.",
                next=_safe_next(next),
            )
        response = RedirectResponse(_safe_next(next), status_code=303)
        signer.store(response, signer.open(reviewer))  # fresh token: no session fixation
        return response

    @router.post("/logout")
    def logout(request: Request, csrf_token: str = Form("")) -> Response:
        try:
            signer.check_csrf(request, csrf_token)
        except CsrfError:
            return _forbidden(request)
        reviewer = current(request)
        signer.close(request)  # the session row is gone: this cookie and any copy are dead
        if reviewer is not None:
            with transaction(engine()) as session:
                audit.record(
                    session,
                    actor=reviewer.name,
                    action="logout",
                    entity_type="reviewer",
                    entity_id=reviewer.name,
                    before=None,
                    after={"address": signer.client_address(request)},
                )
        response = RedirectResponse(f"{PREFIX}/login", status_code=303)
        signer.store(response, signer.new(None))
        return response

    def _forbidden(request: Request) -> HTMLResponse:
        return render(
            request,
            "message.html",
            reviewer=current(request),
            status_code=403,
            heading="Form expired or forged",
            error="This form did not carry a valid security token (CSRF). Reload the page "
            "and submit it again.",
        )

    # ----------------------------------------------------------------- pages

    @router.get("/metrics")
    def metrics_page(request: Request) -> Response:
        reviewer = current(request)
        if reviewer is None:
            return to_login(request)
        with transaction(engine()) as session:
            row = active_policy_row(session)
            policy = policy_from_row(row) if row is not None else None
            figures = review_metrics(session, policy)
        return render(
            request,
            "metrics.html",
            reviewer=reviewer,
            m=figures,
            policy_version=policy.stamp if policy else None,
        )

    @router.get("/policies")
    def active_policy_page(request: Request) -> Response:
        with transaction(engine()) as session:
            row = active_policy_row(session)
        if row is None:
            return render(
                request,
                "message.html",
                reviewer=current(request),
                status_code=404,
                heading="No policy",
                error="no authority policy has been applied; run `claims policy apply FILE`",
            )
        return RedirectResponse(f"{PREFIX}/policies/{quote(row.version)}", status_code=303)

    @router.get("/policies/{version}")
    def policy_page(request: Request, version: str) -> Response:
        """A stored policy version: its rules in words and the impact of applying it."""
        reviewer = current(request)
        if reviewer is None:
            return to_login(request)
        with transaction(engine()) as session:
            row = session.get(AuthorityPolicyRow, version)
            active = active_policy_row(session)
            if row is None:
                return render(
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
        return render(
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

    @router.get("/queue")
    def queue_page(
        request: Request, state: str = "unresolved", risk: str = "", key: str = "", mine: str = ""
    ) -> Response:
        reviewer = current(request)
        if reviewer is None:
            return to_login(request)
        if state == "unresolved":
            states: list[ReviewState] | None = [
                ReviewState.OPEN,
                ReviewState.CLAIMED,
                ReviewState.DEFERRED,
            ]
        elif state == "all":
            states = None
        else:
            try:
                states = [ReviewState(state)]
            except ValueError:
                states, state = [ReviewState.OPEN], "open"
        with transaction(engine()) as session:
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
        return render(
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

    def item_page(
        request: Request,
        reviewer: Reviewer,
        item_id: str,
        *,
        error: str | None = None,
        notice: str | None = None,
        status_code: int = 200,
    ) -> Response:
        try:
            with transaction(engine()) as session:
                view = item_view(session, item_id)
        except ClaimLedgerError as problem:
            return render(
                request,
                "message.html",
                reviewer=reviewer,
                status_code=problem.http_status,
                heading="Not found",
                error=str(problem),
            )
        lock = as_utc(view.item.lock_expires_at)
        return render(
            request,
            "item.html",
            reviewer=reviewer,
            view=view,
            error=error,
            notice=notice,
            status_code=status_code,
            lock_live=bool(lock and lock > datetime.now(UTC)),
            dismiss_reasons=[r.value for r in DismissReason],
        )

    @router.get("/items/{item_id}")
    def show_item(request: Request, item_id: str, done: str = "") -> Response:
        reviewer = current(request)
        if reviewer is None:
            return to_login(request)
        return item_page(request, reviewer, item_id, notice=NOTICES.get(done))

    # ----------------------------------------------------------------- actions

    def act(
        request: Request,
        item_id: str,
        csrf_token: str,
        done: str,
        action: Callable[[Session, Reviewer], object],
    ) -> Response:
        try:
            signer.check_csrf(request, csrf_token)
        except CsrfError:
            return _forbidden(request)
        reviewer = current(request)
        if reviewer is None:
            return to_login(request)
        try:
            with transaction(engine()) as session:
                action(session, reviewer)
        except ClaimLedgerError as problem:
            return item_page(
                request, reviewer, item_id, error=str(problem), status_code=problem.http_status
            )
        return RedirectResponse(f"{PREFIX}/items/{quote(item_id)}?done={done}", status_code=303)

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

    return router


def reviewers_setup_note(settings: Settings, directory: ReviewerDirectory | None = None) -> str:
    """What to do when nobody can log in (no reviewers file, or one listing nobody); "" if
    someone can."""
    path = settings.resolved_reviewers_file
    if path is None:
        return (
            f"no reviewers file: nobody can log in. Create {settings.data_dir / 'reviewers.yaml'} "
            "(or point CLAIMS_REVIEWERS_FILE at one) with a password hash from `claims review "
            "hash-password` (README, section Review), then restart `claims serve`"
        )
    directory = directory if directory is not None else load_reviewers(path)
    if not directory.names:
        return f"the reviewers file {path} lists no reviewers (or is invalid): nobody can log in"
    return ""


def _safe_next(target: str) -> str:
    """Only local paths under the UI: no open redirect to another site."""
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith(PREFIX + "/") or "//" in target:
        return f"{PREFIX}/queue"
    return target
