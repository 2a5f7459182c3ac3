"""Claims of a quantity: the figure, its unit and range, a direction of change ("went up
by 3%"), and the value of a counted thing (read for ``DocAssembly``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from claims.extraction.claim_shapes import _COPULAS, _claim, _copy_time, _counts_things
from claims.extraction.frames import Frame, _head, _joined, fallback_attribute, read_frame
from claims.extraction.keys import fold_word
from claims.extraction.mentions import QuantityMention
from claims.extraction.roles import CONTENT, MODAL, NEG, PUNCT, VALUE, VERB, Roles, _text
from claims.extraction.value_kinds import (
    NO_QUANTITY,
    find_phrase,
    lexicon,
)
from claims.models import (
    Claim,
    EffectiveTime,
    Modality,
    Polarity,
    ValueKind,
)
from claims.models import Span as CharSpan
from claims.trusted import trusted
from claims.units.counted import counted_unit
from claims.units.normalize import conversion

if TYPE_CHECKING:
    from claims.extraction.assembly import DocAssembly
    from claims.extraction.clauses import Clause


def quantity_claim(
    asm: DocAssembly,
    clause: Clause,
    q: QuantityMention,
    frame: Frame,
    when: EffectiveTime,
    span: CharSpan,
    reported: bool,
    non_latin_key: str | None = None,
) -> Claim:
    """The claim of quantity ``q`` of ``clause``, keyed by ``frame``, at time ``when``, with
    ``span`` as evidence (``non_latin_key``: the key a sentence of another script gives)."""
    # a plain noun after the number ("1200 pallets") counts things
    entry = conversion(q.unit_key) if q.unit_key else counted_unit(q.unit or "")
    dimension = entry.dimension if entry else None
    entity: str | None = None
    if non_latin_key is not None:
        key = attribute = non_latin_key or f"unknown:{dimension or 'number'}"
    else:
        if not frame.attribute_words:
            # "The free tier includes 1,000 API calls per day": the counted thing is
            # what the number measures; "Acme employs 250 people": the verb says more
            counted: list[str] = []
            if q.unit and _counts_things(dimension):
                words = q.unit.split(" per ")[0].split("/")[0].split()
                counted = [fold_word(w) for w in words if w.isalpha()]
            frame.attribute_words = fallback_attribute(frame, counted)
        entity = asm._entity(frame)
        if frame.attribute_words:
            attribute = " ".join(frame.attribute_words)
            key = " ".join(_joined(entity.split(" ") if entity else [], frame.attribute_words))
        else:
            key = attribute = f"unknown:{dimension or 'number'}"
    confidence = 0.9
    if not frame.pivot_found:
        confidence -= 0.1
    if q.unit is None:
        confidence -= 0.2
    if q.number_word:
        confidence -= 0.05
    if non_latin_key is not None:
        confidence = 0.6 if non_latin_key else 0.3
    elif not frame.attribute_words:
        confidence = 0.3
    canonical = canonical_low = canonical_high = None
    if entry is not None:
        canonical = q.value * entry.factor + entry.offset
        if q.low is not None and q.high is not None:
            canonical_low = q.low * entry.factor + entry.offset
            canonical_high = q.high * entry.factor + entry.offset
    # the bound or approximation words belong to the value ("at least 5 hours", "~80%")
    value_span = trusted(CharSpan, {"start": q.cue_start, "end": q.end})
    polarity = Polarity.NEGATIVE if frame.negated else Polarity.POSITIVE
    if frame.modality == Modality.PROHIBITION:
        polarity = Polarity.NEGATIVE
    claim_id = asm._claim_id(
        span.start,
        span.end,
        value_span.start,
        value_span.end,
        ValueKind.QUANTITY.value,
        key,
    )
    return _claim(
        id=claim_id,
        source_version_id=clause.source_version_id,
        source_id=clause.source_id,
        generation=asm.generation,
        subject=frame.subject,
        predicate=frame.predicate,
        claim_key=key,
        coarse_key=attribute.split(" ")[-1],  # the attribute class
        entity=entity,
        attribute=attribute,
        kind=ValueKind.QUANTITY,
        value=q.value,
        low=q.low,
        high=q.high,
        bound=q.bound,
        approximate=q.approximate,
        precision=None,
        unit=q.unit,
        canonical_value=canonical,
        canonical_low=canonical_low,
        canonical_high=canonical_high,
        canonical_unit=entry.canonical_unit if entry else None,
        dimension=dimension,
        polarity=polarity,
        modality=frame.modality,
        scope=dict(frame.scope),
        scope_residual=list(frame.residual),
        time=_copy_time(when),
        reported_speech=reported,
        span=span,
        value_span=value_span,
        quote=asm._text[span.start : span.end],
        confidence=max(0.05, min(1.0, round(confidence, 2))),
        created_at=None,
    )


def change_of(asm: DocAssembly, roles: Roles, idxs: Sequence[int], qi: int) -> str:
    """ "up"/"down" when the value is a change ("climbed 7%", "fell by 2 points", "a 7%
    drop"); "" for a level ("rose to 5%") or no change word at all."""
    role, info, lower = roles.role, roles.info, roles.lower
    lex = lexicon()
    at = [k for k, i in enumerate(idxs) if role[i] == VALUE and info[i] == qi]
    if not at:
        return ""
    first, last = at[0], at[-1]
    k = first - 1
    while k >= 0 and (lower[idxs[k]] == "by" or lower[idxs[k]].endswith("ly")):
        k -= 1  # "fell *sharply by* 7%"
    if k < 0 or (first and lower[idxs[first - 1]] in lex.level_prepositions):
        return ""
    window = [lower[i] for i in idxs[max(0, k - 2) : k + 1]]
    for n in range(len(window)):
        direction = lex.changes.get(tuple(window[n:]))
        if direction:
            return direction
    if last + 1 < len(idxs):  # "a 7% drop in sales"
        return lex.change_nouns.get(lower[idxs[last + 1]], "")
    return ""


def direction_claim(asm: DocAssembly, clause: Clause) -> Claim | None:
    """ "Attrition went up in May": a categorical claim "<subject> change" = up/down."""
    roles, a, b = clause.roles, clause.a, clause.b
    role, lower = roles.role, roles.lower
    if NEG in role[a:b] or MODAL in role[a:b] or lower[b - 1] == "?":
        return None
    lex = lexicon()
    hit = find_phrase(lower[a:b], lex.changes, lex.longest_change, lex.change_firsts)
    if hit is None:
        return None
    p0, p1, direction = a + hit[0], a + hit[1], hit[2]
    phrase = lower[p0:p1]
    if phrase[-1] in ("up", "down") and (len(phrase) == 1 or phrase[0] in _COPULAS):
        return None  # "the server is down" is a state, not a change
    if p0 > a and lower[p0 - 1] in _COPULAS:
        return None  # "the 86th character was dropped": removed, not a decrease
    if p1 < b and lower[p1] in lex.level_prepositions:
        return None  # "prices fell to a record low": a level
    if p1 < b and role[p1] in (CONTENT, VERB) and not lower[p1].endswith("ly"):
        return None  # "declines card payments": a verb with an object is no change
    head, quals = _head(lower, role, [i for i in range(a, p0) if role[i] != PUNCT])
    if not head:
        return None
    entity: list[str] = []
    for i in head:
        w = fold_word(lower[i])
        if w not in entity:
            entity.append(w)
    idxs = [i for i in range(a, b) if role[i] != PUNCT]
    frame = read_frame(clause.doc, roles, idxs, asm.res, clause.mentions.times)
    residual = [fold_word(lower[i]) for i in quals]
    residual += [w for w in frame.residual if w not in entity and w not in residual]
    return value_claim(asm, clause, ValueKind.CATEGORICAL, entity, ["change"],
        direction, " ".join(phrase), False, residual, clause.when, 0.6,
        subject=_text(roles, head), scope=frame.scope,
    )  # fmt: skip


def value_claim(
    asm: DocAssembly,
    clause: Clause,
    kind: ValueKind,
    entity: list[str],
    attribute: list[str],
    value: str,
    predicate: str,
    negated: bool,
    residual: list[str],
    when: EffectiveTime,
    confidence: float,
    subject: str | None = None,
    scope: dict[str, str] | None = None,
) -> Claim:
    """A date or direction claim of ``clause``: key = entity words + attribute words."""
    span = asm._evidence(clause)
    key_words = entity + [w for w in attribute if w not in entity]
    key = " ".join(key_words)
    claim_id = asm._claim_id(span.start, span.end, asm._roles.idx[clause.a], None, kind.value, key)
    return _claim(
        id=claim_id,
        source_version_id=clause.source_version_id,
        source_id=clause.source_id,
        generation=asm.generation,
        subject=subject,
        predicate=predicate,
        claim_key=key,
        coarse_key=key_words[-1],
        entity=" ".join(entity) or None,
        attribute=" ".join(attribute),
        kind=kind,
        value=value,
        **NO_QUANTITY,
        polarity=Polarity.NEGATIVE if negated else Polarity.POSITIVE,
        modality=None,
        scope=dict(scope or {}),
        scope_residual=[w for w in residual if w not in key_words],
        time=_copy_time(when),
        reported_speech=clause.reported,
        span=span,
        quote=asm._text[span.start : span.end],
        confidence=confidence,
        created_at=None,
    )
