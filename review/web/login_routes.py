"""Static files, login and logout: the pages a reviewer reaches before proving who they are.

Failed logins are throttled per account and per address and recorded in the audit log.
"""

from __future__ import annotations

import logging

from fastapi import APIRouter, Form, Request
from fastapi.responses import FileResponse, RedirectResponse, Response

from claims.settings import Settings
from claims.store import transaction
from review import audit
from review.reviewers import Reviewer, ReviewerDirectory, load_reviewers
from review.web import throttle
from review.web.pages import HERE, PREFIX, ReviewPages, safe_next
from review.web.session import CsrfError

LOG = logging.getLogger("claimledger.review")
LOGIN_ACTOR = "(login)"  # who a failed login is attributed to: nobody proved who they are
STATIC_FILES = {"review.css": "text/css", "review.js": "text/javascript"}


def login_router(pages: ReviewPages) -> APIRouter:
    """GET /static/{name}, GET /, GET+POST /login, POST /logout."""
    router = APIRouter()

    @router.get("/static/{name}")
    def static(name: str) -> Response:
        if name not in STATIC_FILES:
            return Response(status_code=404)
        return FileResponse(
            HERE / "static" / name,
            media_type=STATIC_FILES[name],
            headers={"X-Content-Type-Options": "nosniff"},
        )

    @router.get("/")
    def home() -> Response:
        return RedirectResponse(f"{PREFIX}/queue", status_code=303)

    @router.get("/login")
    def login_page(request: Request, next: str = f"{PREFIX}/queue") -> Response:
        return pages.render(
            request,
            "login.html",
            reviewer=None,
            next=safe_next(next),
            setup_note=reviewers_setup_note(pages.settings, pages.reviewers.get()),
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
            pages.signer.check_csrf(request, csrf_token)
        except CsrfError:
            return pages.forbidden(request)
        return _log_in(pages, request, username, password, next)

    @router.post("/logout")
    def logout(request: Request, csrf_token: str = Form("")) -> Response:
        try:
            pages.signer.check_csrf(request, csrf_token)
        except CsrfError:
            return pages.forbidden(request)
        reviewer = pages.current(request)
        pages.signer.close(request)  # the session row is gone: this cookie and any copy are dead
        if reviewer is not None:
            with transaction(pages.engine()) as session:
                audit.record(
                    session,
                    actor=reviewer.name,
                    action="logout",
                    entity_type="reviewer",
                    entity_id=reviewer.name,
                    before=None,
                    after={"address": pages.signer.client_address(request)},
                )
        response = RedirectResponse(f"{PREFIX}/login", status_code=303)
        pages.signer.store(response, pages.signer.new(None))
        return response

    return router


def _log_in(
    pages: ReviewPages, request: Request, username: str, password: str, next: str
) -> Response:
    """Check the password unless the account or address is throttled; audit the outcome."""
    account = username.strip()[: throttle.ACCOUNT_MAX]
    address = pages.signer.client_address(request)
    now = throttle.now_utc()
    failures = 0
    with transaction(pages.engine()) as session:
        wait = throttle.retry_after(session, account, address, now)
        if wait is None:
            # Counted as a failure until the password proves right (parallel guesses too).
            failures = throttle.record_attempt(session, account, address, now)
    if wait is not None:
        LOG.warning("login throttled: account %r from %s for %d s", account, address, wait)
        throttled = pages.render(
            request,
            "login.html",
            reviewer=None,
            status_code=429,
            error=f"Too many failed logins. Try again in {wait} seconds.",
            next=safe_next(next),
        )
        throttled.headers["Retry-After"] = str(wait)
        return throttled
    reviewer = pages.reviewers.get().authenticate(account, password)
    _record_login(pages, reviewer, account, address, failures)
    if reviewer is None:
        return pages.render(
            request,
            "login.html",
            reviewer=None,
            status_code=401,
            error="Unknown name or wrong password.",
            next=safe_next(next),
        )
    response = RedirectResponse(safe_next(next), status_code=303)
    pages.signer.store(response, pages.signer.open(reviewer))  # fresh token: no session fixation
    return response


def _record_login(
    pages: ReviewPages, reviewer: Reviewer | None, account: str, address: str, failures: int
) -> None:
    """Audit a login attempt; a right password forgives the account's and address's failures."""
    with transaction(pages.engine()) as session:
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
