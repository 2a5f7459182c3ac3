"""Signed session cookies, CSRF tokens and who the reviewer is.

A session is a small JSON payload (reviewer name or none, CSRF token, expiry) signed with
HMAC-SHA256 under the reviewers file's ``session_secret`` (random per process when unset,
which logs everyone out on restart). The cookie is HttpOnly and SameSite=Strict. Every
POST must carry the session's CSRF token in a hidden form field (``csrf_token``); the
login form too, so a foreign page cannot log a victim into an attacker's account.

Behind a reverse proxy the reviewer may instead come from ``trusted_header``, honoured only
when the TCP peer is listed in ``trusted_proxies``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass

from fastapi import Request, Response

from claims.errors import AuthError, InputError
from review.reviewers import Reviewer, ReviewerDirectory, random_secret

COOKIE = "claims_review_session"
SESSION_SECONDS = 12 * 3600


@dataclass
class WebSession:
    reviewer: str | None
    csrf: str
    expires: int


class SessionSigner:
    def __init__(self, directory: ReviewerDirectory) -> None:
        self.directory = directory
        secret = directory.config.session_secret or random_secret()
        self._key = hashlib.sha256(b"claimledger-review-session:" + secret.encode()).digest()

    def _sign(self, payload: bytes) -> str:
        return base64.urlsafe_b64encode(
            hmac.new(self._key, payload, hashlib.sha256).digest()
        ).decode()

    def dump(self, session: WebSession) -> str:
        payload = json.dumps(
            {"r": session.reviewer, "c": session.csrf, "e": session.expires}, separators=(",", ":")
        ).encode()
        return base64.urlsafe_b64encode(payload).decode() + "." + self._sign(payload)

    def load(self, cookie: str | None) -> WebSession | None:
        if not cookie or "." not in cookie:
            return None
        body, signature = cookie.rsplit(".", 1)
        try:
            payload = base64.urlsafe_b64decode(body.encode())
        except (ValueError, TypeError):
            return None
        if not hmac.compare_digest(signature, self._sign(payload)):
            return None
        try:
            data = json.loads(payload)
            session = WebSession(reviewer=data["r"], csrf=str(data["c"]), expires=int(data["e"]))
        except (ValueError, KeyError, TypeError):
            return None
        return session if session.expires > time.time() else None

    def new(self, reviewer: str | None) -> WebSession:
        return WebSession(reviewer, secrets.token_urlsafe(32), int(time.time()) + SESSION_SECONDS)

    def store(self, response: Response, session: WebSession) -> None:
        response.set_cookie(
            COOKIE,
            self.dump(session),
            max_age=SESSION_SECONDS,
            httponly=True,
            samesite="strict",
            secure=self.directory.config.secure_cookies,
            path="/",
        )

    # ----------------------------------------------------------------- requests

    def session_of(self, request: Request) -> WebSession | None:
        return self.load(request.cookies.get(COOKIE))

    def reviewer_of(self, request: Request) -> Reviewer | None:
        """The logged-in (or proxy-asserted) reviewer, or None."""
        config = self.directory.config
        peer = request.client.host if request.client else None
        if config.trusted_header and peer in config.trusted_proxies:
            name = request.headers.get(config.trusted_header)
            if name:
                try:
                    return self.directory.get(name)
                except InputError:
                    raise AuthError(f"the proxy named an unknown reviewer {name!r}") from None
        session = self.session_of(request)
        if session is None or session.reviewer is None:
            return None
        try:
            return self.directory.get(session.reviewer)
        except InputError:
            return None  # removed from the reviewers file since logging in

    def check_csrf(self, request: Request, token: str | None) -> None:
        session = self.session_of(request)
        if session is None or not token or not hmac.compare_digest(session.csrf, token):
            raise CsrfError()


class CsrfError(Exception):
    """The form did not carry this session's CSRF token."""
