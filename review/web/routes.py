"""The reviewer UI: server-rendered pages over the review lifecycle (no build step).

Every page needs a logged-in reviewer; every POST needs the session's CSRF token; every
action goes through ``review.queue`` in one transaction, attributed to the reviewer.
Templates autoescape everything: source text is untrusted input.

The routes come in groups, one module each: ``login_routes`` (static files, login, logout),
``queue_routes`` (the queue, an item, metrics, policies), ``item_actions`` (the item forms)
and ``synonym_routes`` (the taught synonyms page and its forms);
``pages`` holds what they share.
"""

from __future__ import annotations

from fastapi import APIRouter

from claims.settings import Settings
from review.web.item_actions import item_actions_router
from review.web.login_routes import login_router, reviewers_setup_note
from review.web.pages import PREFIX, ReviewPages
from review.web.queue_routes import policy_router, queue_router
from review.web.synonym_routes import synonym_router

__all__ = ["create_router", "reviewers_setup_note"]


def create_router(settings: Settings) -> APIRouter:
    """The reviewer UI under /review, on the store and reviewers file of ``settings``."""
    pages = ReviewPages(settings)
    router = APIRouter(prefix=PREFIX, include_in_schema=False)
    for group in (login_router, policy_router, queue_router, item_actions_router, synonym_router):
        router.include_router(group(pages))
    return router
