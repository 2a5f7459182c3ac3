"""The HTTP app served by ``claims serve``: the reviewer UI and the retrieval API, composed.

Each layer contributes an APIRouter; this module only assembles them, under one
request-body ceiling (``claimledger.limits``).
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from claimledger.limits import BodyLimit
from claims.settings import Settings, get_settings
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
    return app
