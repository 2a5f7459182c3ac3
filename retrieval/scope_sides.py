"""Whether a scope one claim states and another does not sets the two apart on what a
question asks (``scope_apart``), for a claim the ledger holds ambiguous by scope with an
answering claim (``retrieval.disputes``).

Two claims of one slot in two documents, one stating a qualifier the other does not, answer
different cases when:

- the answering claim states a qualifier the question asks and the other lacks (the
  interactive *search* limit asked; the assistant's limit beside it names no search); or
- one side states a scope of the catalogue (``scope.yaml``: a quarter, a population, a
  tier, a party, a request type) the question does not ask and the other side's page
  states nowhere ("The Q2 dividend" beside an unscoped dividend on a page of no quarter).

Otherwise they are two sides of one answer: qualifier words the question does not ask
("once the induction ends", words outside the catalogue), words of the question the other
claim states and the answering one leaves implied ("severity 1 *incidents*" beside a table
row "Severity 1"), and a catalogue scope the other page states of all it holds
("clients" in an email, "These times apply to clients ..." above the table) narrow nothing.
"""

from __future__ import annotations

from sqlalchemy import Connection, select

from claims.tables import ClaimRow
from retrieval.evidence import ClaimFact
from retrieval.finding import Ask

Qualifier = tuple[str, str]  # (dimension, value) of a stated scope


class PageScopes:
    """The scopes a page (source version) states of all it holds: the scopes of its claims
    that state no figure (a title, "These times apply to clients on a maintenance plan.").
    A scope a page states with a figure ("The Q2 revenue was ...") is that figure's own.
    Read once per page, of the generation readers see, for the pages of the claims asked
    about only (by version: indexed)."""

    def __init__(self, conn: Connection, generation: str | None) -> None:
        self._conn = conn
        self._generation = generation
        self._read: dict[str, frozenset[Qualifier]] = {}

    def stated(self, version_id: str) -> frozenset[Qualifier]:
        if version_id not in self._read:
            rows = self._conn.execute(
                select(ClaimRow.scope)
                .where(ClaimRow.source_version_id == version_id)
                .where(ClaimRow.generation == self._generation)
                .where(ClaimRow.value_number.is_(None))
            ).scalars()
            self._read[version_id] = frozenset(
                (str(d), str(v)) for scope in rows for d, v in (scope or {}).items()
            )
        return self._read[version_id]


def scope_apart(ask: Ask, answering: ClaimFact, other: ClaimFact, pages: PageScopes) -> bool:
    """True when the scope only one of ``answering`` and ``other`` states makes them answer
    different cases of the question ``ask`` (see the module docstring)."""
    asked_words = set(ask.key.split()) | set(ask.asked_words)
    asked_scope = set(ask.scope.items())
    own_dims = {(d, v) for d, v in answering.scope.items() if d not in other.scope}
    their_dims = {(d, v) for d, v in other.scope.items() if d not in answering.scope}
    own_words = set(answering.scope_residual) - set(other.scope_residual)
    if own_dims & asked_scope or own_words & asked_words:
        return True  # the other claim misses a case the question asks and the answer states
    # a scope of the catalogue (a quarter, a population, a tier, a surface) stated on one
    # side and not asked sets the two apart, unless the other side's page states it too
    if not (own_dims - asked_scope) <= pages.stated(other.version_id):
        return True
    return not (their_dims - asked_scope) <= pages.stated(answering.version_id)
