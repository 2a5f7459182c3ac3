"""What every reviewer page shares: the store engine, the session signer, the templates, and
rendering with the security headers and the session cookie.

Templates autoescape everything: source text is untrusted input.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape
from sqlalchemy import Engine

from claims.errors import AuthError, ClaimLedgerError
from claims.models import DismissReason
from claims.settings import Settings
from claims.store import make_engine, transaction
from review.evidence import item_view
from review.items import as_utc
from review.reviewers import Reviewer, ReviewersFileWatcher
from review.web.session import SessionSigner, WebSession

HERE = Path(__file__).parent
PREFIX = "/review"
SECURITY_HEADERS = {
    # No inline script or style anywhere, so even a missed escape could not run code.
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
    "img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}


class ReviewPages:
    """The reviewer UI's shared state for one app: reviewers file, store, signer, templates."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.reviewers = ReviewersFileWatcher(settings.resolved_reviewers_file)
        self.templates = Environment(
            loader=FileSystemLoader(HERE / "templates"),
            autoescape=select_autoescape(["html"], default=True),
        )
        self._engine: Engine | None = None
        self.signer = SessionSigner(self.reviewers, self.engine)

    def engine(self) -> Engine:
        if self._engine is None:  # created per process, on first use
            self._engine = make_engine(self.settings.resolved_database_url)
        return self._engine

    def render(
        self,
        request: Request,
        template: str,
        *,
        reviewer: Reviewer | None,
        status_code: int = 200,
        session: WebSession | None = None,
        **context: Any,
    ) -> HTMLResponse:
        """The page ``template`` with the session's CSRF token, security headers and cookie."""
        session = session or self.signer.session_of(request) or self.signer.new(None)
        html = self.templates.get_template(template).render(
            prefix=PREFIX, reviewer=reviewer, csrf=session.csrf, **context
        )
        response = HTMLResponse(html, status_code=status_code, headers=SECURITY_HEADERS)
        self.signer.store(response, session)
        return response

    def message(
        self, request: Request, *, status_code: int, heading: str, error: str
    ) -> HTMLResponse:
        """A page that only says what went wrong."""
        return self.render(
            request,
            "message.html",
            reviewer=self.current(request),
            status_code=status_code,
            heading=heading,
            error=error,
        )

    def to_login(self, request: Request) -> Response:
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return RedirectResponse(f"{PREFIX}/login?next={quote(target)}", status_code=303)

    def current(self, request: Request) -> Reviewer | None:
        """The logged-in reviewer, or None."""
        try:
            return self.signer.reviewer_of(request)
        except AuthError:
            return None

    def forbidden(self, request: Request) -> HTMLResponse:
        return self.message(
            request,
            status_code=403,
            heading="Form expired or forged",
            error="This form did not carry a valid security token (CSRF). Reload the page "
            "and submit it again.",
        )

    def item_page(
        self,
        request: Request,
        reviewer: Reviewer,
        item_id: str,
        *,
        error: str | None = None,
        notice: str | None = None,
        status_code: int = 200,
    ) -> Response:
        """One review item with its evidence and the action forms."""
        try:
            with transaction(self.engine()) as session:
                view = item_view(session, item_id)
        except ClaimLedgerError as problem:
            return self.render(
                request,
                "message.html",
                reviewer=reviewer,
                status_code=problem.http_status,
                heading="Not found",
                error=str(problem),
            )
        lock = as_utc(view.item.lock_expires_at)
        return self.render(
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


def safe_next(target: str) -> str:
    """Only local paths under the UI: no open redirect to another site."""
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith(PREFIX + "/") or "//" in target:
        return f"{PREFIX}/queue"
    return target
