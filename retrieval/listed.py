"""Values one sentence lists for one slot: "available in 16 GB, 32 GB and 64 GB versions".

The extraction makes one claim per listed value, all with the sentence's key (issue 12,
point 5: they never conflict with each other). A question about the slot is answered by the
list, not by one of its items: the claims of one sentence at one slot are one *statement*,
and statements are compared as sets of values. Documents stating the same set agree (in
any order, in any unit that converts); two different sets for the same slot and time are a
conflict with both lists shown.

A sentence's values form a list only when nothing but list joiners stands between them
("16 GB, 32 GB and 64 GB", "£12, £15 or £20"): "1,066, up from 630" states a level and an
earlier level, "500 tokens, not 250 tokens" a value and a denial, and both stay separate
claims for the single-value rules to decide. The check reads the value spans of the few
claims concerned (one indexed read by primary key); every claim given is already visible
to the requester, so a hidden item never joins a list, nor counts towards its length.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import Connection, select

from claims.tables import ClaimRow
from retrieval.contract import Side, Value
from retrieval.evidence import ClaimFact
from retrieval.status import citation, citation_order, stated_value, value_key

# What may stand between two listed values of a sentence: commas, semicolons, slashes and
# the coordinating "and" / "or" (the joiners of an English list; "as well as" is a list
# too). A currency sign belongs to the value's span already.
_JOINER = re.compile(r"\s*(?:[,;/]\s*)?(?:(?:and|or|as well as|&)\s+)?", re.IGNORECASE)

ValueKey = tuple[str, ...]


@dataclass(frozen=True)
class Statement:
    """The claims one sentence states for one slot, the values they list in text order
    (compared by key), and each value as shown (value, unit)."""

    claims: tuple[ClaimFact, ...]
    items: tuple[ValueKey, ...]
    shown: tuple[tuple[Value, str | None], ...]

    @property
    def listed(self) -> frozenset[ValueKey]:
        return frozenset(self.items)


def _sentence(claim: ClaimFact) -> tuple[object, ...]:
    """What makes claims parts of one statement: one sentence of one version, one slot
    (key, qualifiers, time, polarity)."""
    return (
        claim.version_id,
        claim.span_start,
        claim.span_end,
        claim.quote,
        claim.claim_key,
        tuple(sorted(claim.scope.items())),
        tuple(sorted(claim.scope_residual)),
        claim.time_start,
        claim.time_end,
        claim.polarity,
        claim.modality,
    )


def _value_spans(conn: Connection, ids: list[str]) -> dict[str, tuple[int, int]]:
    found: dict[str, tuple[int, int]] = {}
    for start in range(0, len(ids), 500):
        rows = conn.execute(
            select(ClaimRow.id, ClaimRow.value_start, ClaimRow.value_end).where(
                ClaimRow.id.in_(ids[start : start + 500])
            )
        )
        found.update({r[0]: (r[1], r[2]) for r in rows if r[1] is not None and r[2] is not None})
    return found


def _joined(quote: str, span_start: int, spans: list[tuple[int, int]]) -> bool:
    """Whether only list joiners stand between consecutive values in the quote."""
    for (_, end), (start, _) in zip(spans, spans[1:], strict=False):
        between = quote[end - span_start : start - span_start]
        if start < end or _JOINER.fullmatch(between) is None:
            return False
    return True


def statements(conn: Connection, claims: list[ClaimFact]) -> list[Statement] | None:
    """The claims as statements when at least one sentence lists several values for the
    slot; None when none does (one value per sentence: the single-value rules decide), or
    when a sentence states several values that are no list."""
    groups: dict[tuple[object, ...], list[ClaimFact]] = defaultdict(list)
    for claim in claims:
        groups[_sentence(claim)].append(claim)
    several = [g for g in groups.values() if len({value_key(c) for c in g}) > 1]
    labels = {id(g): _label_items(g[0]) for g in groups.values() if len(g) == 1}
    if not several and not any(labels.values()):
        return None
    spans = _value_spans(conn, [c.id for g in several for c in g]) if several else {}
    out: list[Statement] = []
    for group in groups.values():
        named = labels.get(id(group))
        if named:
            # "Supported languages are English, French and German": one claim, three items
            keys = tuple(dict.fromkeys(("c", item.casefold()) for item in named))
            shown = {("c", item.casefold()): item for item in reversed(named)}
            out.append(Statement(tuple(group), keys, tuple((shown[k], None) for k in keys)))
            continue
        if group in several:
            if any(c.id not in spans for c in group):
                return None
            group = sorted(group, key=lambda c: (spans[c.id], c.id))
            ordered = [spans[c.id] for c in group]
            if not _joined(group[0].quote, group[0].span_start, ordered):
                return None
        first: dict[ValueKey, ClaimFact] = {}
        for claim in group:
            first.setdefault(value_key(claim), claim)
        out.append(
            Statement(
                tuple(group),
                tuple(first),
                tuple((stated_value(c), c.unit) for c in first.values()),
            )
        )
    return out


_LAST_ITEM = re.compile(r"\s(?:and|or)\s+\S+$", re.IGNORECASE)
_LABEL_JOINER = re.compile(r"\s*(?:,\s*(?:(?:and|or)\s+)?|\s(?:and|or)\s+)", re.IGNORECASE)


def _label_items(claim: ClaimFact) -> list[str]:
    """The items of a label a sentence lists ("red, blue or green"), as written; [] when
    the label is one item. The label's words are found in order in the quote, and the
    list joiners between them split it; any other word between them means no list. A list
    of names needs a comma and a last "and"/"or" ("A, B and C"): "Springfield, Illinois"
    is one place and "Bosnia and Herzegovina" one country."""
    words = (claim.value_text or "").split()
    if claim.kind != "categorical" or len(words) < 2:
        return []
    pattern = r"\b" + r"(\W+(?:(?:and|or)\s+)?)".join(re.escape(w) for w in words) + r"\b"
    found = re.search(pattern, claim.quote, re.IGNORECASE)
    if found is None:
        return []
    text = found.group(0)
    items = [part for part in _LABEL_JOINER.split(text) if part]
    listed = len(items) > 2 and "," in text and _LAST_ITEM.search(text) is not None
    return items if listed and len(" ".join(items).split()) == len(words) else []


def _item_text(value: Value, unit: str | None) -> str:
    return f"{value} {unit}" if unit else f"{value}"


def in_words(items: list[tuple[Value, str | None]]) -> tuple[str, str | None]:
    """The list as a reader writes it, and its unit when every item has the same one:
    ("16, 32 and 64", "GB"); items of different units carry their own ("1 h and 90 min")."""
    words = [f"{v}" for v, _ in items] if not _mixed(items) else [_item_text(*i) for i in items]
    text = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    return text, None if _mixed(items) else items[0][1]


def _mixed(items: list[tuple[Value, str | None]]) -> bool:
    return len({unit for _, unit in items}) > 1


def list_sides(found: list[Statement]) -> list[Side]:
    """One side per distinct set of values, citing every claim of every statement of it.

    The side's ``values`` are the items in the text order of its first statement (by
    source id), ``value`` the list in words and ``unit`` the items' shared unit."""
    by_set: dict[frozenset[ValueKey], list[Statement]] = defaultdict(list)
    for statement in found:
        by_set[statement.listed].append(statement)
    sides = []
    for same in by_set.values():
        claims = sorted({c.id: c for s in same for c in s.claims}.values(), key=citation_order)
        first = min(same, key=lambda s: citation_order(min(s.claims, key=citation_order)))
        items = list(first.shown)
        text, unit = in_words(items)
        sources = sorted({c.source_id for c in claims})
        sides.append(
            Side(
                value=text,
                unit=unit,
                values=[_item_text(*i) if _mixed(items) else i[0] for i in items],
                source_ids=sources,
                citations=[citation(c) for c in claims],
                claim_count=len(claims),
                source_count=len(sources),
            )
        )
    return sorted(sides, key=lambda s: (s.source_ids, str(s.value)))
