"""Questions read with the words reviewers taught (``review.synonyms``): a question about
"heft" asks for the claims re-keyed to "weight" once a reviewer said the two are one, and
one about "holiday" no longer meets the "vacation" claims once they were told apart.

The question's key goes through the same rewrite as a claim's (``claims.synonyms``), with
the question's own words in place of a quote: one small read of the active teachings per
question.
"""

from __future__ import annotations

from dataclasses import is_dataclass, replace
from typing import Any, TypeVar

from sqlalchemy import Connection

from claims.store.taught_synonyms import active_teachings

Frame = TypeVar("Frame")


def with_taught_synonyms(conn: Connection, frame: Frame) -> Frame:
    """``frame`` with the claim key, coarse key and attribute the active teachings give it
    (``frame`` itself when no teaching applies)."""
    key: str | None = getattr(frame, "claim_key", None)
    if not key or not is_dataclass(frame) or isinstance(frame, type):
        return frame
    teachings = active_teachings(conn)
    if not teachings:
        return frame
    attribute = getattr(frame, "attribute", None) or key
    taught = teachings.key_for(
        key,
        getattr(frame, "entity", None),
        attribute,
        getattr(frame, "coarse_key", None),
        getattr(frame, "text", None),
    )
    if taught is None:
        return frame
    changes: dict[str, Any] = {"claim_key": taught.claim_key}
    for name, value in (("coarse_key", taught.coarse_key), ("attribute", taught.attribute)):
        if hasattr(frame, name):
            changes[name] = value
    return replace(frame, **changes)
