"""A request-body ceiling for the whole HTTP app (reviewer forms and the retrieval API).

Starlette reads a body into memory before a route can look at its size, so a client could
make the server hold hundreds of megabytes. This ASGI middleware refuses a request whose
``Content-Length`` is over the limit before the app runs, and counts the bytes of a
chunked body as they arrive: past the limit it answers 413 at once and stops reading
(the app sees a disconnect; uvicorn drops the rest of the body and closes the
connection). Nothing over the limit is ever held in memory.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

DEFAULT_MAX_BODY_BYTES = 256 * 1024  # the largest reviewer form is a rationale of a few KB


class _BodyTooLarge(Exception):
    """Raised into the app when a streamed body passes the limit."""


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int = DEFAULT_MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(scope, send)
            return
        received = 0
        refused = False
        started = False

        async def counted_receive() -> Message:
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    if started:
                        raise _BodyTooLarge()  # too late for a 413: abort the response
                    refused = True
                    await self._refuse(scope, send)
                    raise _BodyTooLarge()
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the 413 is already out; whatever the app answers is dropped
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted_receive, guarded_send)
        except Exception:
            if not refused:
                raise
            # The app unwound after the refusal (its parser saw the body stop): expected.

    async def _refuse(self, scope: Scope, send: Send) -> None:
        path = str(scope.get("path", ""))
        message = f"the request body is over the limit of {self.max_bytes} bytes"
        if path.startswith("/api/"):
            body = json.dumps({"error": {"code": "payload_too_large", "message": message}})
            media = "application/json"
        else:
            body, media = message + "\n", "text/plain; charset=utf-8"
        data = body.encode("utf-8")
        headers: list[tuple[bytes, bytes]] = [
            (b"content-type", media.encode()),
            (b"content-length", str(len(data)).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": data, "more_body": False})


def _content_length(scope: Scope) -> str | None:
    headers: Any = scope.get("headers") or []
    for name, value in headers:
        if name.lower() == b"content-length":
            return bytes(value).decode("latin-1").strip()
    return None
