"""The reviewer web UI: ``create_router(settings)`` returns a FastAPI APIRouter mounted at
/review (queue, item pages, forms, login). Registered in ``claimledger.web.create_app``.
"""

from review.web.routes import create_router, reviewers_setup_note

__all__ = ["create_router", "reviewers_setup_note"]
