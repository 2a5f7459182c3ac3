"""The HTTP app served by ``claims serve``: the reviewer UI and the retrieval API, composed.

Each layer contributes an APIRouter; this module only assembles them, under one
request-body ceiling (``claimledger.limits``).
"""

from __future__ import annotations

import gc
import html
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from sqlalchemy.exc import DBAPIError

from claimledger.limits import BodyLimit
from claims.settings import Settings, get_settings
from claims.store.disk_full import storage_full
from retrieval.http import create_router as retrieval_router
from review.web import create_router as review_router


@asynccontextmanager
async def _frozen_start_up(app: FastAPI) -> AsyncIterator[None]:
    """Keep what start-up made out of the cyclic garbage collector's reach while serving.

    Modules, models, the routes and their services live as long as the process; without
    this, every full collection walks them again (15-20% of the CPU of a status by key in
    a process holding the extraction models, docs/RETRIEVAL.md "Session 8"). ``gc.freeze``
    moves every object that exists now to a permanent generation; shutting down moves them
    back, so an app made and stopped again (tests) leaves nothing pinned."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    app = FastAPI(title="claimledger", version="0.1.0", lifespan=_frozen_start_up)
    # Routers are registered here, one line per layer (review UI, retrieval API, metrics).
    app.include_router(review_router(settings))
    app.include_router(retrieval_router(settings))
    app.add_middleware(BodyLimit)
    handler = _storage_full_handler(settings)
    app.add_exception_handler(DBAPIError, handler)
    app.add_exception_handler(OSError, handler)
    return app


def _storage_full_handler(
    settings: Settings,
) -> Callable[[Request, Exception], Awaitable[Response]]:
    """A full disk under a request: 507 with what happened and what to do (the request's
    transaction was rolled back), as HTML on the reviewer pages and JSON on the API; any
    other database or OS error goes on to the server's 500 as before."""

    async def handle(request: Request, error: Exception) -> Response:
        url = settings.resolved_database_url
        folders = [settings.data_dir.absolute()]
        if url.startswith("sqlite:///"):
            database = Path(url.removeprefix("sqlite:///").split("?", 1)[0])
            folders.insert(0, database.absolute().parent)
        full = storage_full(error, store="the claim store", folders=folders)
        if full is None:
            raise error
        message = f"{full}. Nothing of this request was saved."
        if request.url.path.startswith("/review"):
            return HTMLResponse(
                f"<!doctype html><title>Storage full</title><p>{html.escape(message)}</p>",
                status_code=full.http_status,
            )
        body = {"error": {"code": "storage_full", "message": message}}
        return JSONResponse(body, status_code=full.http_status)

    return handle
