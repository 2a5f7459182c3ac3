"""``claims check`` on two texts, read both ways round (shared by the revision tests)."""

from __future__ import annotations

from claims.check import check_texts
from claims.models import Relation


def both_ways(left: str, right: str, profile: str | None = None) -> tuple[Relation, str, str]:
    """The verdict (both texts read with ``profile``), checked to be the same whichever text
    comes first."""
    one, other = check_texts(left, right, profile), check_texts(right, left, profile)
    assert (one.relation, one.rule) == (other.relation, other.rule), (one.reason, other.reason)
    return one.relation, one.rule, one.reason
