"""How names are matched while one question is answered: the core matches a name as
written; a profile may lend familiar given names and other spellings (the reference
profile's, ``claims.profiles.NameForms``). ``answer_frame`` sets them for its call from
the profiles of the store's sources (or the one a caller names)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from claims.profiles import AS_WRITTEN, NameForms

_current: ContextVar[NameForms] = ContextVar("claims_name_forms", default=AS_WRITTEN)


def name_forms() -> NameForms:
    """The name forms of the question being answered (as written outside a question)."""
    return _current.get()


@contextmanager
def names_read_as(forms: NameForms) -> Iterator[None]:
    """Match names by ``forms`` inside the block (this thread or task only)."""
    token = _current.set(forms)
    try:
        yield
    finally:
        _current.reset(token)
