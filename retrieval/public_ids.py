"""The review item and resolution ids a requester is shown, derived from what they may see.

A review item's stored id is ``ri_`` + a hash over its claim key and *all* its member
claims, hidden ones included. Shown as is to a requester who cannot see every member, it
would give the hidden members away: the requester can hash the members they do see and
notice the difference. So a retrieval response never carries a stored id. It carries the
same formula over the members the requester sees in the narrowed evidence group (which
is the stored id whenever the requester sees every member of an item that never grew),
and a resolution id hashed from the shown item id and the visible parts of the decision.
Both are computed from visible data only, so a requester's responses are the same as
over a store without the things hidden from them (tests/test_security_item_ids.py).
"""

from __future__ import annotations

from claims.ids import stable_id
from retrieval.evidence import EvidenceGroup, ResolutionFact, ReviewFact


def shown_item_id(item: ReviewFact) -> str:
    """The id of ``item`` as a requester sees it (``item`` from a narrowed group)."""
    return stable_id("ri", item.claim_key, *sorted(item.claim_ids))


def shown_resolution_id(item_id: str | None, resolution: ResolutionFact) -> str:
    """The id of a resolution as a requester sees it (winners already narrowed)."""
    return stable_id(
        "res",
        item_id,
        resolution.outcome,
        resolution.policy_version,
        resolution.decided_at.isoformat(),
        *sorted(resolution.winners),
    )


class ShownIds:
    """Stored item id -> shown id, for the items of one narrowed group."""

    def __init__(self, group: EvidenceGroup) -> None:
        self._items = {item.id: shown_item_id(item) for item in group.reviews}

    def item(self, stored_id: str | None) -> str | None:
        if stored_id is None:
            return None
        # An item outside the group cannot be named by a verdict of it; never echo a stored id.
        return self._items.get(stored_id)

    def resolution(self, stored_item_id: str | None, resolution: ResolutionFact) -> str:
        return shown_resolution_id(self.item(stored_item_id), resolution)
