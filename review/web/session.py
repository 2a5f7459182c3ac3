"""Web sessions, CSRF tokens, who the reviewer is, and which address a request comes from.

A logged-in session lives in the store (``review_sessions``): the cookie carries a random
token, the row is keyed by the token's sha256 and holds the reviewer, the CSRF token, the
expiry and a fingerprint of the password the session was opened with. Logout deletes the
row, so a copied cookie is refused afterwards; a changed password (the reviewers file is
re-read when it changes) or a removed reviewer ends every session of that reviewer.

Before login the visitor only needs a CSRF token for the login form: that pre-login
session is a small signed cookie (HMAC-SHA256 under the reviewers file's
``session_secret``, random per process when unset), so anonymous page views write
nothing to the store. Cookies are HttpOnly and SameSite=Strict. Every POST must carry
the session's CSRF token in a hidden form field (``csrf_token``); the login form too.

Behind a reverse proxy the reviewer may come from ``trusted_header`` and the client
address from ``X-Forwarded-For``, both honoured only when the TCP peer itself is one of
``trusted_proxies`` (``claims serve`` turns off uvicorn's own forwarded-header rewriting,
which would let any local process claim to be a proxy).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from fastapi import Request, Response
from sqlalchemy import Engine, delete

from claims.errors import AuthError, InputError
from claims.store import transaction
from claims.tables import ReviewSessionRow
from review.items import as_utc
from review.reviewers import (
    Reviewer,
    ReviewerDirectory,
    ReviewersFileWatcher,
    credential_fingerprint,
    random_secret,
)

COOKIE = "claims_review_session"
SESSION_SECONDS = 12 * 3600
SERVER_PREFIX = "s."  # cookie of a logged-in session: "s." + token
ANONYMOUS_PREFIX = "a."  # signed pre-login cookie: "a." + payload + "." + signature


@dataclass
class WebSession:
    reviewer: str | None
    csrf: str
    expires: int
    token: str | None = None  # set for a logged-in (server-side) session


def token_id(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class SessionSigner:
    """Sessions for the reviewer UI over one reviewers file and one store."""

    def __init__(self, reviewers: ReviewersFileWatcher, engine: Callable[[], Engine]) -> None:
        self.reviewers = reviewers
        self.engine = engine
        self._secrets: dict[str | None, bytes] = {}

    @property
    def directory(self) -> ReviewerDirectory:
        return self.reviewers.get()

    # ----------------------------------------------------------------- pre-login cookies

    def _key(self) -> bytes:
        configured = self.directory.config.session_secret
        if configured not in self._secrets:
            secret = configured or random_secret()
            self._secrets[configured] = hashlib.sha256(
                b"claimledger-review-session:" + secret.encode()
            ).digest()
        return self._secrets[configured]

    def _sign(self, payload: bytes) -> str:
        return base64.urlsafe_b64encode(
            hmac.new(self._key(), payload, hashlib.sha256).digest()
        ).decode()

    def _dump_anonymous(self, session: WebSession) -> str:
        payload = json.dumps({"c": session.csrf, "e": session.expires}, separators=(",", ":"))
        body = base64.urlsafe_b64encode(payload.encode()).decode()
        return ANONYMOUS_PREFIX + body + "." + self._sign(payload.encode())

    def _load_anonymous(self, cookie: str) -> WebSession | None:
        body, _, signature = cookie[len(ANONYMOUS_PREFIX) :].rpartition(".")
        try:
            payload = base64.urlsafe_b64decode(body.encode())
        except (ValueError, TypeError):
            return None
        if not body or not hmac.compare_digest(signature, self._sign(payload)):
            return None
        try:
            data = json.loads(payload)
            session = WebSession(reviewer=None, csrf=str(data["c"]), expires=int(data["e"]))
        except (ValueError, KeyError, TypeError):
            return None
        return session if session.expires > time.time() else None

    def new(self, reviewer: None = None) -> WebSession:
        """A fresh pre-login session (a new CSRF token)."""
        return WebSession(None, secrets.token_urlsafe(32), int(time.time()) + SESSION_SECONDS)

    # ----------------------------------------------------------------- server-side sessions

    def open(self, reviewer: Reviewer) -> WebSession:
        """A new logged-in session row (a fresh token: no session fixation)."""
        token = secrets.token_urlsafe(32)
        now = datetime.now(UTC)
        expires = now + timedelta(seconds=SESSION_SECONDS)
        with transaction(self.engine()) as db:
            db.execute(delete(ReviewSessionRow).where(ReviewSessionRow.expires_at < now))
            db.add(
                ReviewSessionRow(
                    id=token_id(token),
                    reviewer=reviewer.name,
                    csrf=secrets.token_urlsafe(32),
                    credential=credential_fingerprint(reviewer),
                    created_at=now,
                    expires_at=expires,
                )
            )
            row = db.get(ReviewSessionRow, token_id(token))
            assert row is not None
            csrf = row.csrf
        return WebSession(reviewer.name, csrf, int(expires.timestamp()), token=token)

    def close(self, request: Request) -> None:
        """Logout: the session row is deleted, so this cookie (or a copy) is dead."""
        cookie = request.cookies.get(COOKIE) or ""
        if cookie.startswith(SERVER_PREFIX):
            with transaction(self.engine()) as db:
                db.execute(
                    delete(ReviewSessionRow).where(
                        ReviewSessionRow.id == token_id(cookie[len(SERVER_PREFIX) :])
                    )
                )

    def _load_server(self, token: str) -> WebSession | None:
        now = datetime.now(UTC)
        with transaction(self.engine()) as db:
            row = db.get(ReviewSessionRow, token_id(token))
            if row is None:
                return None
            expires = as_utc(row.expires_at)
            try:
                reviewer = self.directory.get(row.reviewer)
            except InputError:
                reviewer = None  # removed from the reviewers file since logging in
            current = reviewer is not None and row.credential == credential_fingerprint(reviewer)
            if expires is None or expires <= now or not current:
                db.delete(row)  # expired, or the password changed: end it for good
                return None
            return WebSession(row.reviewer, row.csrf, int(expires.timestamp()), token=token)

    # ----------------------------------------------------------------- cookies

    def store(self, response: Response, session: WebSession) -> None:
        value = (
            SERVER_PREFIX + session.token
            if session.token is not None
            else self._dump_anonymous(session)
        )
        response.set_cookie(
            COOKIE,
            value,
            max_age=SESSION_SECONDS,
            httponly=True,
            samesite="strict",
            secure=self.directory.config.secure_cookies,
            path="/",
        )

    # ----------------------------------------------------------------- requests

    def session_of(self, request: Request) -> WebSession | None:
        cached = request.scope.get("claimledger.session")
        if cached is not None:
            return cached if isinstance(cached, WebSession) else None
        cookie = request.cookies.get(COOKIE) or ""
        session: WebSession | None = None
        if cookie.startswith(SERVER_PREFIX) and len(cookie) < 200:
            session = self._load_server(cookie[len(SERVER_PREFIX) :])
        elif cookie.startswith(ANONYMOUS_PREFIX) and len(cookie) < 1000:
            session = self._load_anonymous(cookie)
        request.scope["claimledger.session"] = session if session is not None else False
        return session

    def reviewer_of(self, request: Request) -> Reviewer | None:
        """The logged-in (or proxy-asserted) reviewer, or None."""
        directory = self.directory
        config = directory.config
        peer = request.client.host if request.client else None
        if config.trusted_header and config.trusts_proxy(peer):
            name = request.headers.get(config.trusted_header)
            if name:
                try:
                    return directory.get(name)
                except InputError:
                    raise AuthError(f"the proxy named an unknown reviewer {name!r}") from None
        session = self.session_of(request)
        if session is None or session.reviewer is None:
            return None
        try:
            return directory.get(session.reviewer)
        except InputError:
            return None  # removed from the reviewers file since logging in

    def client_address(self, request: Request) -> str:
        """The address a request comes from: the TCP peer, or, when the peer is a trusted
        proxy, the last address that proxy appended to ``X-Forwarded-For``."""
        peer = request.client.host if request.client else "unknown"
        if self.directory.config.trusts_proxy(peer):
            forwarded = [a.strip() for a in request.headers.get("x-forwarded-for", "").split(",")]
            if forwarded and forwarded[-1]:
                return forwarded[-1][:64]
        return peer

    def check_csrf(self, request: Request, token: str | None) -> None:
        session = self.session_of(request)
        if session is None or not token or not hmac.compare_digest(session.csrf, token):
            raise CsrfError()


class CsrfError(Exception):
    """The form did not carry this session's CSRF token."""
