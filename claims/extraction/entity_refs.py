"""Entity references as data while a text is read: the readers that qualify a subject ("kind
hush (album)") or know it only inside one page ("frederick groves (in doc03)") build an
``EntityRef`` and use its ``text`` as the readable entity; ``with_refs`` then puts each
claim's reference on it by that text, so nothing downstream parses the parentheses back.

A claim whose entity no reader qualified gets a plain reference (its entity is its name).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from claims.models import Claim, EntityRef

_MADE: ContextVar[dict[str, EntityRef] | None] = ContextVar("entity_refs", default=None)


def qualified(name: str, qualifier: str | None = None, local_to: str | None = None) -> str:
    """The readable entity of ``name`` with its qualifier and/or the page it is local to,
    remembered for ``with_refs`` (a qualified name keeps its qualifier when it is marked
    local later: pass the ``EntityRef`` parts, not a readable text)."""
    known = known_ref(name)
    if known is not None:  # marking an already qualified subject as local to its page
        ref = EntityRef(
            name=known.name,
            qualifier=qualifier or known.qualifier,
            local_to=local_to or known.local_to,
        )
    else:
        ref = EntityRef(name=name, qualifier=qualifier or None, local_to=local_to or None)
    made = _MADE.get()
    if made is not None:
        made[ref.text] = ref
    return ref.text


def known_ref(entity: str) -> EntityRef | None:
    """The reference a reader made for the readable ``entity`` in this text, if any."""
    made = _MADE.get()
    return made.get(entity) if made else None


@contextmanager
def reading() -> Iterator[None]:
    """Remember the references the readers make while one text is read."""
    token = _MADE.set({})
    try:
        yield
    finally:
        _MADE.reset(token)


def with_refs(claims: list[Claim]) -> list[Claim]:
    """``claims`` each with the reference of its entity (see module)."""
    made = _MADE.get() or {}
    out = []
    for claim in claims:
        # readers build claims with ``trusted`` (no validation, no defaults filled in)
        if claim.__dict__.get("entity_ref") is None:
            entity = claim.entity
            ref = (made.get(entity) or EntityRef(name=entity)) if entity else None
            claim = claim.model_copy(update={"entity_ref": ref})
        out.append(claim)
    return out
