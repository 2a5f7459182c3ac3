"""The HTTP app served by ``claims serve``: the reviewer UI and the retrieval API, composed.

Each layer contributes an APIRouter; this module only assembles them, under one
request-body ceiling (``claimledger.limits``).
"""

from __future__ import annotations

from fastapi import FastAPI

from claimledger.limits import BodyLimit
from claims.settings import Settings, get_settings
from retrieval.http import create_router as retrieval_router
from review.web import create_router as review_router


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    app = FastAPI(title="claimledger", version="0.1.0")
    # Routers are registered here, one line per layer (review UI, retrieval API, metrics).
    app.include_router(review_router(settings))
    app.include_router(retrieval_router(settings))
    app.add_middleware(BodyLimit)
    return app
