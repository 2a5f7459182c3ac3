"""Reviewers teach the ledger: two attributes are one thing (``same``) or two (``different``).

``teach(session, left, right, relation=..., reason=..., actor=...)`` stores the teaching,
re-keys the claims it names (``claims.store.taught_synonyms``), re-evaluates the edges of
every key that gained or lost claims, routes those keys under the active policy and records
what changed (``SynonymImpact``: keys merged or split, edges and conflicts added or removed,
review items opened, reopened or closed) with one audit row. ``withdraw`` undoes a teaching
the same way: the claims get back the keys the extractor gave them (or what the remaining
teachings make of them), and the diff says what that changed. Both run in the caller's
transaction; ``record=False`` writes no audit row (a dry run the caller rolls back).

Who may teach: the same people as may apply a policy (a reviewer of the reviewers file, or
the operator at the terminal); the caller names the actor.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from claims.edge_refresh import recompute_edges
from claims.edges.builder import NEAR_MISS_PREFIX
from claims.errors import InputError
from claims.store.changes import CLAIMS, EDGES, record_changes
from claims.store.generations import GenerationRepository
from claims.store.taught_synonyms import (
    KeyMove,
    TaughtSynonymRepository,
    active_teachings,
    generation_ids,
    rekey_claims,
)
from claims.synonyms import RELATIONS, SAME, quote_words
from claims.tables import ClaimRow, EdgeRow, TaughtSynonymRow
from review import audit
from review.policy import policy_for_routing
from review.policy_impact import CHANGE_TITLES, ItemChange, diff_outcomes, item_outcomes
from review.routing import ROUTER_ACTOR, route

MAX_PHRASE = 120
SYNONYM_CHANGE_TITLES = {**CHANGE_TITLES, "closed": "closed itself (evidence changed)"}
_UNRESOLVED = ("open", "claimed", "deferred")


@dataclass
class SynonymImpact:
    """What a teaching or its withdrawal changed, key by key, edge by edge, item by item."""

    synonym_id: int
    action: str  # "teach" | "withdraw"
    dry_run: bool
    keys: list[dict[str, Any]] = field(default_factory=list)
    edges_added: dict[str, int] = field(default_factory=dict)
    edges_removed: dict[str, int] = field(default_factory=dict)
    conflicts_added: list[dict[str, str]] = field(default_factory=list)
    conflicts_removed: list[dict[str, str]] = field(default_factory=list)
    items: list[ItemChange] = field(default_factory=list)
    routing: dict[str, int | str] = field(default_factory=dict)

    def item_counts(self) -> dict[str, int]:
        found = Counter(c.kind for c in self.items)
        return {kind: found.get(kind, 0) for kind in SYNONYM_CHANGE_TITLES}

    def as_dict(self) -> dict[str, Any]:
        return {
            "synonym_id": self.synonym_id,
            "action": self.action,
            "dry_run": self.dry_run,
            "keys": self.keys,
            "edges_added": self.edges_added,
            "edges_removed": self.edges_removed,
            "conflicts_added": self.conflicts_added,
            "conflicts_removed": self.conflicts_removed,
            "item_counts": self.item_counts(),
            "items": [c.as_dict() for c in self.items],
            "routing": self.routing,
        }


def synonym_as_dict(row: TaughtSynonymRow) -> dict[str, Any]:
    """A teaching as listed and audited: who said what, when and why, and whether it stands."""
    return {
        "id": row.id,
        "relation": row.relation,
        "left": row.left_phrase,
        "right": row.right_phrase,
        "from_attribute": row.from_attribute,
        "to_attribute": row.to_attribute,
        "reason": row.reason,
        "taught_by": row.taught_by,
        "taught_at": row.taught_at.isoformat() if row.taught_at else None,
        "withdrawn_by": row.withdrawn_by,
        "withdrawn_at": row.withdrawn_at.isoformat() if row.withdrawn_at else None,
        "withdraw_reason": row.withdraw_reason,
    }


def describe(row: TaughtSynonymRow) -> str:
    """The teaching in words: "'heft' is the same as 'weight' (heft -> weight)"."""
    if row.relation == SAME:
        said = f"{row.left_phrase!r} is the same as {row.right_phrase!r}"
    else:
        said = f"{row.left_phrase!r} is not {row.right_phrase!r}"
    return f"{said} ({row.from_attribute} -> {row.to_attribute})"


# --------------------------------------------------------------------------- reading phrases


def attribute_words(phrase: str) -> list[str]:
    """The phrase's words as the extractor keys them (lemmas), before synonyms fold."""
    from claims.extraction.identity import lemma

    return [lemma(w) for w in phrase.replace("-", " ").split() if any(c.isalnum() for c in w)]


def attribute_of(phrase: str) -> str:
    """The attribute the extractor makes of ``phrase`` ("vacation days" -> "leave")."""
    from claims.extraction.identity import attribute_lexicon

    return " ".join(attribute_lexicon().canonical(attribute_words(phrase)))


def _checked(phrase: str, field_name: str) -> str:
    text = " ".join(phrase.split())
    if not text or not any(c.isalpha() for c in text):
        raise InputError(f"{field_name}: name an attribute in words (e.g. 'annual leave')")
    if len(text) > MAX_PHRASE:
        raise InputError(f"{field_name}: at most {MAX_PHRASE} characters")
    return text


def _planned(session: Session, left: str, right: str, relation: str) -> dict[str, Any]:
    """The rewrite a new teaching makes, or the reason it would teach nothing."""
    from claims.extraction.identity import named_attributes

    teachings = active_teachings(session)
    first, second = attribute_of(left), attribute_of(right)
    if relation == SAME:
        if teachings.resolve(first) == teachings.resolve(second):
            raise InputError(
                f"{left!r} and {right!r} already share one attribute "
                f"({teachings.resolve(first)!r}): nothing to teach"
            )
        # the attribute the extractor already names stays; an unknown word folds into it
        if first in named_attributes() and second not in named_attributes():
            first, second = second, first
        if first in teachings.same:
            raise InputError(
                f"{first!r} is already taught the same as "
                f"{teachings.same[first].to_attribute!r} (synonym #{teachings.same[first].id}); "
                "withdraw that first, or teach the other way round"
            )
        return {"from_attribute": first, "to_attribute": second}
    if first != second:
        if teachings.resolve(first) == teachings.resolve(second):
            taught = teachings.same.get(first) or teachings.same.get(second)
            raise InputError(
                f"{left!r} and {right!r} are one attribute because of synonym "
                f"#{taught.id if taught else '?'}; withdraw it instead"
            )
        raise InputError(
            f"{left!r} ({first!r}) and {right!r} ({second!r}) already have keys of their own: "
            "nothing to tell apart"
        )
    # the side that is not the shared attribute's own name gets a key of its own
    split, kept = (right, left) if " ".join(attribute_words(left)) == first else (left, right)
    split_attribute = " ".join(attribute_words(split))
    if split_attribute == first:
        raise InputError(f"{left!r} and {right!r} are one word to the extractor: nothing to split")
    words = " ".join(quote_words(split))
    for told in teachings.different.get(first, ()):
        if " ".join(told.split_words) == words:
            raise InputError(f"{split!r} is already told apart from {first!r} (#{told.id})")
    return {
        "from_attribute": first,
        "to_attribute": split_attribute,
        "split_words": words,
        "kept_words": " ".join(quote_words(kept)),
    }


# --------------------------------------------------------------------------- teaching


def teach(
    session: Session,
    left: str,
    right: str,
    *,
    relation: str,
    reason: str,
    actor: str,
    record: bool = True,
    now: datetime | None = None,
) -> tuple[TaughtSynonymRow, SynonymImpact]:
    """Store "``left`` is the same as / different from ``right``" and apply it at once."""
    if relation not in RELATIONS:
        raise InputError(f"relation: {relation!r} is not one of {', '.join(RELATIONS)}")
    left, right = _checked(left, "left"), _checked(right, "right")
    reason = reason.strip()
    if not reason:
        raise InputError("reason: say why (it is kept with the teaching and in the audit log)")
    now = now or datetime.now(UTC)
    row = TaughtSynonymRow(
        relation=relation,
        left_phrase=left,
        right_phrase=right,
        reason=reason,
        taught_by=actor,
        taught_at=now,
        **_planned(session, left, right, relation),
    )
    TaughtSynonymRepository(session).add(row)
    impact = _apply(session, row, "teach", actor=actor, record=record, now=now)
    if record:
        audit.record(
            session,
            actor=actor,
            action="synonym.teach",
            entity_type="taught_synonym",
            entity_id=f"synonym-{row.id}",
            before=None,
            after={"synonym": synonym_as_dict(row), "impact": impact.as_dict()},
            at=now,
        )
    return row, impact


def withdraw(
    session: Session,
    synonym_id: int,
    *,
    reason: str,
    actor: str,
    record: bool = True,
    now: datetime | None = None,
) -> tuple[TaughtSynonymRow, SynonymImpact]:
    """Withdraw a teaching: its claims get their earlier keys back, edges and items follow."""
    reason = reason.strip()
    if not reason:
        raise InputError("reason: say why the teaching is withdrawn")
    repository = TaughtSynonymRepository(session)
    row = repository.get(synonym_id)
    if row.withdrawn_at is not None:
        raise InputError(
            f"synonym #{synonym_id} was already withdrawn by {row.withdrawn_by} "
            f"on {row.withdrawn_at:%Y-%m-%d}"
        )
    dependent = [
        t
        for t in active_teachings(session).all
        if t.id != row.id and t.relation == SAME and t.to_attribute == row.from_attribute
    ]
    now = now or datetime.now(UTC)
    before = synonym_as_dict(row)
    repository.withdraw(row, by=actor, at=now, reason=reason)
    impact = _apply(session, row, "withdraw", actor=actor, record=record, now=now)
    if record:
        audit.record(
            session,
            actor=actor,
            action="synonym.withdraw",
            entity_type="taught_synonym",
            entity_id=f"synonym-{row.id}",
            before=before,
            after={
                "synonym": synonym_as_dict(row),
                "impact": impact.as_dict(),
                "still_chained": [t.id for t in dependent],
            },
            at=now,
        )
    return row, impact


# --------------------------------------------------------------------------- applying


def _apply(
    session: Session, row: TaughtSynonymRow, action: str, *, actor: str, record: bool, now: datetime
) -> SynonymImpact:
    """Re-key the teaching's claims, re-evaluate their keys' edges, route, and diff."""
    attributes = {row.from_attribute, row.to_attribute}
    teachings = active_teachings(session)
    attributes |= {teachings.resolve(a) for a in list(attributes)}
    keys = _keys_of_attributes(session, attributes)
    edges_before = _live_edges(session, keys)
    items_before = item_outcomes(session, keys)
    counts_before = _claims_per_key(session, keys)
    moves = rekey_claims(session, attributes)
    impact = SynonymImpact(synonym_id=row.id, action=action, dry_run=not record)
    if not moves:
        return impact
    keys |= {m.to_key for m in moves}
    by_generation: dict[str, set[str]] = defaultdict(set)
    for move in moves:
        by_generation[move.generation].update((move.from_key, move.to_key))
    for generation, moved in sorted(by_generation.items()):
        record_changes(session, moved, CLAIMS, generation)
    active = GenerationRepository(session).active()
    generations = [active.id] if active is not None else sorted(by_generation)
    policy = policy_for_routing(session, None, actor=actor)
    touched: set[str] = set()
    for generation in generations:
        moved = by_generation.get(generation, set())
        if not moved:
            continue
        report = recompute_edges(
            session, generation, moved, materiality=policy.materiality_settings()
        )
        evaluated = report.touched_keys or moved
        record_changes(session, evaluated, EDGES, generation)
        touched |= evaluated
    keys |= touched
    routing = route(session, policy, now=now, claim_keys=sorted(touched))
    impact.routing = routing.as_metadata()
    impact.keys = _key_changes(moves, counts_before, _claims_per_key(session, keys))
    _edge_changes(impact, edges_before, _live_edges(session, keys))
    items_after = item_outcomes(session, keys)
    impact.items = diff_outcomes(items_before, items_after) + _closed(items_before, items_after)
    return impact


def _keys_of_attributes(session: Session, attributes: Collection[str]) -> set[str]:
    found: set[str] = set()
    for generation in generation_ids(session):  # (generation, attribute) is the index
        found.update(
            session.scalars(
                select(ClaimRow.claim_key)
                .where(
                    ClaimRow.generation == generation, ClaimRow.attribute.in_(sorted(attributes))
                )
                .distinct()
            )
        )
    return found


def _claims_per_key(session: Session, keys: Collection[str]) -> dict[str, int]:
    counts: Counter[str] = Counter()
    listed = sorted(keys)
    for generation in generation_ids(session):  # (generation, claim_key) is the index
        for start in range(0, len(listed), 500):
            rows = session.execute(
                select(ClaimRow.claim_key, func.count())
                .where(
                    ClaimRow.generation == generation,
                    ClaimRow.claim_key.in_(listed[start : start + 500]),
                )
                .group_by(ClaimRow.claim_key)
            )
            counts.update({key: int(n) for key, n in rows})
    return dict(counts)


def _key_changes(
    moves: Iterable[KeyMove], before: dict[str, int], after: dict[str, int]
) -> list[dict[str, Any]]:
    """Each (from key, to key) with its claims, as a merge (the key it joined held claims),
    a split (the key it left still holds claims) or a rename."""
    grouped = Counter((m.from_key, m.to_key) for m in moves)
    out = []
    for (source, target), claims in sorted(grouped.items()):
        if before.get(target, 0):
            change = "merged"
        elif after.get(source, 0):
            change = "split"
        else:
            change = "renamed"
        out.append({"from_key": source, "to_key": target, "claims": claims, "change": change})
    return out


def _near_miss_keys(keys: Collection[str]) -> set[str]:
    return {NEAR_MISS_PREFIX + k.split(" ")[-1] for k in keys if k}


def _live_edges(session: Session, keys: Collection[str]) -> dict[str, tuple[str, str, str, str]]:
    """Live edges stored under ``keys`` (and their near-miss blocks): id -> (kind, key,
    left claim, right claim)."""
    listed = sorted(set(keys) | _near_miss_keys(keys))
    found: dict[str, tuple[str, str, str, str]] = {}
    for generation in generation_ids(session):  # (generation, claim_key, kind) is the index
        for start in range(0, len(listed), 500):
            rows = session.execute(
                select(
                    EdgeRow.id, EdgeRow.kind, EdgeRow.claim_key, EdgeRow.left_claim_id,
                    EdgeRow.right_claim_id,
                ).where(
                    EdgeRow.generation == generation,
                    EdgeRow.claim_key.in_(listed[start : start + 500]),
                    EdgeRow.retired_at.is_(None),
                )
            )  # fmt: skip
            for edge_id, kind, key, left, right in rows:
                found[edge_id] = (kind, key, left, right)
    return found


def _edge_changes(
    impact: SynonymImpact,
    before: dict[str, tuple[str, str, str, str]],
    after: dict[str, tuple[str, str, str, str]],
) -> None:
    added = [after[i] for i in sorted(set(after) - set(before))]
    removed = [before[i] for i in sorted(set(before) - set(after))]
    impact.edges_added = dict(sorted(Counter(e[0] for e in added).items()))
    impact.edges_removed = dict(sorted(Counter(e[0] for e in removed).items()))

    def shown(edge: tuple[str, str, str, str]) -> dict[str, str]:
        return {"claim_key": edge[1], "left": edge[2], "right": edge[3]}

    impact.conflicts_added = [shown(e) for e in added if e[0] == "conflicts"]
    impact.conflicts_removed = [shown(e) for e in removed if e[0] == "conflicts"]


def _closed(
    before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]
) -> list[ItemChange]:
    """Items that were waiting for a person and closed themselves (their conflict is gone)."""
    out = []
    for item_id in sorted(after):
        old, new = before.get(item_id), after[item_id]
        if old is None or old["state"] not in _UNRESOLVED:
            continue
        if new["state"] == "dismissed" and new.get("decided_by") == ROUTER_ACTOR:
            out.append(
                ItemChange(
                    item_id=item_id,
                    claim_key=new["claim_key"],
                    kind="closed",
                    before={k: v for k, v in old.items() if k != "claim_key"},
                    after={k: v for k, v in new.items() if k != "claim_key"},
                )
            )
    return out
