"""Claims of a clause with no quantity: a label ("The governing law is German law"), a
statement ("The museum accepts cards"), a stance lent by the profile (read for
``DocAssembly``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from claims.extraction.claim_shapes import (
    _CONTRAST_WORDS,
    _action_with_verb,
    _claim,
    _copy_time,
    _first_pivot_acts,
    _label_shaped,
    _passive_action,
    _pivot_char,
    _predicate_shape,
    _with_particle,
)
from claims.extraction.frames import Frame, _joined, read_frame
from claims.extraction.keys import fold_word
from claims.extraction.roles import (
    _CLAIM_ROLES,
    CONTENT,
    MODAL,
    NEG,
    PIVOT,
    PUNCT,
    SCOPE,
    WH,
    Roles,
)
from claims.extraction.value_kinds import (
    NO_QUANTITY,
    normalise_predicate,
)
from claims.models import (
    Claim,
    Modality,
    Polarity,
    ValueKind,
)

if TYPE_CHECKING:
    from claims.extraction.assembly import DocAssembly
    from claims.extraction.clauses import Clause


# what a clause states: kind, value, attribute words, predicate, confidence
_Reading = tuple[ValueKind, str | None, list[str], str | None, float]


def statement_claims(asm: DocAssembly, clause: Clause, as_property: bool = False) -> Claim | None:
    """The label or statement ``clause`` states (``as_property``: the property a class
    sentence implies), or None."""
    roles, a, b = clause.roles, clause.a, clause.b
    role = roles.role
    if a >= b:
        return None  # an empty clause states nothing
    present = set(role[a:b])
    if roles.lower[b - 1] == "?" or role[a] == WH:
        return None  # a question states nothing ("which"/"when" inside a clause is fine)
    if not present & _CLAIM_ROLES:
        return None  # no obligation, negation or copula: nothing to claim
    idxs = [i for i in range(a, b) if role[i] != PUNCT]
    has_modal = MODAL in present
    has_neg = NEG in present
    statement = PIVOT in present and not has_modal and not has_neg
    if statement and not _label_shaped(roles, a, b, allow_time=_first_pivot_acts(roles, a, b)):
        # Without a modal or negation the first copula/possession/action verb is the
        # pivot (as read_frame would find), and only a clause of the shape "X is
        # <label>", "X includes <thing>" can still be a claim: decide that before
        # reading the frame (prose sentences end here).
        return None
    frame = read_frame(clause.doc, roles, idxs, asm.res, clause.mentions.times)
    has_verb = frame.pivot_kind in ("verb", "possession", "action")
    shape = _predicate_shape(roles, a, b) if frame.pivot_kind == "copula" else ""
    # "The licence is transferable" states a property, as "... is not transferable"
    # denies it: both are polarity claims keyed by the property
    passive = _passive_action(roles, idxs) if PIVOT in present or has_neg else None
    has_verb = has_verb or shape == "property" or as_property or passive is not None
    reading: _Reading | None
    if has_modal or has_neg or has_verb:
        reading = _asserted_action(asm, frame, roles, idxs, passive, as_property)
    elif frame.pivot_kind == "copula" and frame.subject and frame.predicate_text:
        reading = _copula_label(frame, roles, a, b)
    else:
        reading = None
    if reading is None:
        return None
    kind, value, attribute_words, predicate, confidence = reading
    # the evidence only once a claim is certain (most prose clauses returned above)
    span = asm._evidence(clause)
    entity = asm._entity(frame)
    attribute = " ".join(attribute_words)
    key = " ".join(_joined(entity.split(" ") if entity else [], attribute_words))
    polarity = Polarity.NEGATIVE if frame.negated else Polarity.POSITIVE
    if frame.modality == Modality.PROHIBITION:
        polarity = Polarity.NEGATIVE
    modality = frame.modality
    if modality is None and kind == ValueKind.POLARITY:
        modality = Modality.STATEMENT
    claim_id = asm._claim_id(
        span.start,
        span.end,
        roles.idx[a],
        None,
        kind.value,
        key,
    )
    return _claim(
        id=claim_id,
        source_version_id=clause.source_version_id,
        source_id=clause.source_id,
        generation=asm.generation,
        subject=frame.subject,
        predicate=predicate,
        claim_key=key,
        coarse_key=attribute_words[-1],  # the attribute class
        entity=entity,
        attribute=attribute,
        kind=kind,
        value=value,
        **NO_QUANTITY,
        polarity=polarity,
        modality=modality,
        scope=dict(frame.scope),
        scope_residual=list(frame.residual),
        time=_copy_time(clause.when),
        reported_speech=clause.reported,
        span=span,
        quote=asm._text[span.start : span.end],
        confidence=confidence,
        created_at=None,
    )


def _asserted_action(
    asm: DocAssembly,
    frame: Frame,
    roles: Roles,
    idxs: list[int],
    passive: tuple[list[str], list[str]] | None,
    as_property: bool,
) -> _Reading | None:
    """A clause with a modal, a negation or a statement verb: the action asserted or denied
    (a polarity claim), or how a work was received when the profile reads stances."""
    if not frame.action_words and frame.subject_words:
        # "Encryption at rest is required": what is required is the subject
        frame.action_words = frame.subject_words[:1]
        frame.action_text = frame.subject_words[0]
        frame.subject_words = frame.subject_words[1:]
    if not frame.action_words:
        return None
    kind = ValueKind.POLARITY
    # the action is what is asserted or denied; "declines card payments" is
    # "accept card payments" denied (antonyms.yaml)
    if passive is not None:
        # "The budget was not approved by the council" is "the council did not
        # approve the budget": the verb and its object, the agent qualifies
        action, agent = passive
        frame.subject_words = agent
        frame.residual = [w for w in frame.residual if w not in action]
    else:
        action = _action_with_verb(roles, idxs, frame)
    attribute_words, flipped = normalise_predicate(_with_particle(roles, idxs, action))
    frame.negated = frame.negated != flipped
    if _CONTRAST_WORDS.intersection(roles.lower[i] for i in idxs):
        # "switched off in the *other* regions": a scope apart from the named one
        frame.residual = [*frame.residual, "other"]
    if not frame.entity_ref:
        # "The council approved" and "The council did not approve" must key alike
        # whichever word split the clause: the subject qualifies the action
        frame.residual = [*frame.residual, *frame.entity_words]
        frame.entity_words = []
    value: str | None = frame.action_text
    residual = [w for w in frame.residual if w not in frame.entity_words]
    subj_words = [w for w in frame.subject_words if w not in asm.res.generic_heads]
    for w in subj_words:
        if (
            w not in residual
            and w not in frame.scope.values()
            and w not in attribute_words
            and w not in frame.entity_words
        ):
            residual.append(w)
    frame.residual = residual
    predicate = frame.action_text
    confidence = 0.7
    reading = asm._stance
    stance = reading.stance_of(attribute_words) if reading and not as_property else None
    if stance is not None and reading is not None:
        # "The film received mixed reviews": how it was received is the value
        kind = ValueKind.CATEGORICAL
        value = stance.value
        attribute_words = [reading.attribute]
        drop = set(stance.rest) | reading.evaluators()
        frame.residual = [w for w in frame.residual if w not in drop]
        confidence = 0.6
    return kind, value, attribute_words, predicate, confidence


def _copula_label(frame: Frame, roles: Roles, a: int, b: int) -> _Reading | None:
    """ "The governing law is German law": a label claim keyed by the subject."""
    role = roles.role
    # (_label_shaped was checked above: a copula pivot means no modal or negation)
    # "The governing law is German law": key from the subject, value is the predicate.
    subj_idx = [
        i for i in range(a, b) if role[i] == CONTENT and roles.idx[i] < _pivot_char(roles, a, b)
    ]
    if not subj_idx:
        return None
    attribute_words = []
    for i in subj_idx:
        w = fold_word(roles.lower[i])
        if w not in attribute_words and w not in frame.entity_words:
            attribute_words.append(w)
    if not attribute_words:
        # "Yudh is a television mini-series": what the name is; the name is the key
        attribute_words = list(frame.entity_words)
    kind = ValueKind.CATEGORICAL
    value = frame.predicate_text
    pivot_at = _pivot_char(roles, a, b)
    frame.scope = {}
    for i in range(a, b):
        if role[i] == SCOPE and roles.idx[i] < pivot_at:
            dim, val = cast(tuple[str, str], roles.info[i])
            frame.scope.setdefault(dim, val)
    predicate = "is"
    frame.residual = []
    confidence = 0.6
    return kind, value, attribute_words, predicate, confidence
