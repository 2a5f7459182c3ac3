"""Clause frames: the subject and predicate sides of a clause, their heads and owner, the
entity and attribute words a claim key is read from (``read_frame``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import cast

from spacy.tokens import Doc

from claims.extraction.identity import (
    attribute_lexicon,
    entity_name,
    identity_words,
    is_name,
    manner_adjective,
)
from claims.extraction.keys import fold_word, named_after_descriptor
from claims.extraction.mentions import TimeMention
from claims.extraction.resources import Resources, read_yaml
from claims.extraction.roles import (
    _MODALITY,
    CONTENT,
    LABEL,
    MODAL,
    NEG,
    PIVOT,
    POSS,
    PREP,
    PUNCT,
    SCOPE,
    SEP,
    STOP,
    TIME,
    VALUE,
    VERB,
    Roles,
    _corrects_another,
    _text,
)
from claims.models import (
    Modality,
)


@dataclass(slots=True)
class Frame:
    """What a context of tokens says: key, subject, predicate, scope, polarity, modality."""

    key_words: list[str] = field(default_factory=list)
    subject: str | None = None
    predicate: str | None = None
    scope: dict[str, str] = field(default_factory=dict)
    residual: list[str] = field(default_factory=list)
    negated: bool = False
    modality: Modality | None = None
    modal_id: str | None = None
    pivot_found: bool = False
    action_words: list[str] = field(default_factory=list)
    action_text: str | None = None
    pivot_kind: str | None = None
    predicate_text: str | None = None
    subject_words: list[str] = field(default_factory=list)
    # claim identity: key_words == entity_words + attribute_words (deduplicated)
    entity_words: list[str] = field(default_factory=list)
    attribute_words: list[str] = field(default_factory=list)
    entity_ref: bool = False  # "it", "we", "the company": the document's subject
    verb: str | None = None  # lemma of an action pivot ("lasts" -> "last")


def read_frame(
    doc: Doc,
    roles: Roles,
    idxs: Sequence[int],
    res: Resources,
    times: Sequence[TimeMention],
    *,
    dated: bool = False,
) -> Frame:
    """The key, subject, predicate, scope and polarity a list of token indices states
    (``dated``: the tokens are a dated act's, its date taken out)."""
    role = roles.role
    if _WORDLESS.issuperset([role[i] for i in idxs]):
        # Only values, punctuation and separators ("57279, 1, 917.68\n..."): the frame is
        # the same for every such context with the same tokens, so a table of bare numbers
        # reads it once
        key = (id(res), tuple([role[i] for i in idxs]), _wordless_forms(roles, idxs))
        known = _WORDLESS_FRAMES.get(key)
        if known is None:
            known = _read_frame(doc, roles, idxs, res, times, dated)
            if len(_WORDLESS_FRAMES) < _WORDLESS_KEPT:
                _WORDLESS_FRAMES[key] = known
        return _fresh(known)
    return _read_frame(doc, roles, idxs, res, times, dated)


# Token roles that give a frame nothing to read: no MODAL, PIVOT, NEG or VERB (so no
# pivot and no predicate), no SCOPE, LABEL or TIME (so neither ``info``, ``times`` nor the
# text between tokens is read), no content word or preposition (so no head, entity or
# attribute; a separator only moves content words between head and qualifiers). What such
# a frame holds depends only on the roles and lowercase forms of its tokens (the "of",
# "there" and reference-word checks), and a value's form only when it has letters or is a
# reference word (``_wordless_forms``); tests/test_extraction_wordless_frames.py and
# tests/test_extraction_number_tables.py.
_WORDLESS = frozenset({VALUE, PUNCT, SEP})
_WORDLESS_KEPT = 1024
_WORDLESS_FRAMES: dict[tuple[int, tuple[int, ...], tuple[str, ...]], Frame] = {}


def _wordless_forms(roles: Roles, idxs: Sequence[int]) -> tuple[str, ...]:
    """The lowercase forms a wordless frame depends on. A value written without letters
    ("57279", "917.68", "1,200") is read only by comparisons with words ("of", "there")
    and with the reference words ("it", "we"): one that is no reference word stands as ""
    in the key, so the contexts of a table's different numbers share one frame."""
    role, lower = roles.role, roles.lower
    references = identity_words().references
    letter = _LETTER.search
    return tuple(
        [
            ""
            if role[i] == VALUE and lower[i] not in references and letter(lower[i]) is None
            else lower[i]
            for i in idxs
        ]
    )


_LETTER = re.compile(r"[^\W\d_]")  # every character str.isalpha() accepts (and a few marks)


def _fresh(frame: Frame) -> Frame:
    """A copy of a kept frame whose lists and scope the caller may change."""
    return replace(
        frame,
        key_words=list(frame.key_words),
        scope=dict(frame.scope),
        residual=list(frame.residual),
        action_words=list(frame.action_words),
        subject_words=list(frame.subject_words),
        entity_words=list(frame.entity_words),
        attribute_words=list(frame.attribute_words),
    )


def _find_pivot(frame: Frame, roles: Roles, idxs: Sequence[int]) -> tuple[int, bool]:
    """Where the clause splits into subject and predicate (the position in ``idxs``, -1:
    nowhere) and whether a statement verb split it; the modal, pivot kind and negation go
    on ``frame``."""
    role, info = roles.role, roles.info
    pivot = -1
    for k, i in enumerate(idxs):
        r = role[i]
        if r == MODAL and frame.modal_id is None:
            frame.modal_id = str(info[i])
            frame.modality = _MODALITY.get(frame.modal_id)
            if pivot == -1:
                pivot = k
        elif r == PIVOT and pivot == -1:
            pivot = k
            frame.pivot_kind = str(info[i])
        elif r == NEG and not (k and role[idxs[k - 1]] == NEG) and roles.lower[i] != "nor":
            if _corrects_another(roles, idxs, k):
                continue
            # one negation per cue span ("no longer"); "neither ... nor" negates once
            frame.negated = not frame.negated
    verb_pivot = False
    if pivot == -1:
        # "The service doesn't store payment data": the negation splits subject and action
        pivot = next((k for k, i in enumerate(idxs) if role[i] == NEG), -1)
    if pivot == -1:
        # "The service stores payment data": the verb splits them and belongs to the action
        seen_content = False
        for k, i in enumerate(idxs):
            if role[i] == VERB and seen_content:  # "Refunds apply": not the leading noun
                pivot = k
                break
            seen_content = seen_content or role[i] in (CONTENT, SCOPE, VERB)
        verb_pivot = pivot != -1
        frame.pivot_kind = "verb" if verb_pivot else None
    frame.pivot_found = pivot != -1
    return pivot, verb_pivot


def _read_scope(
    frame: Frame,
    roles: Roles,
    idxs: Sequence[int],
    predicate_side: Sequence[int],
    times: Sequence[TimeMention],
) -> dict[int, int]:
    """The clause's scope, labels and times on ``frame``; returns the tokens whose role is
    read otherwise here (a party word in the object is content)."""
    role, info = roles.role, roles.info
    # A party word in the object ("never shares *customer* data") is content, not scope:
    # parties scope a claim when they are its subject or follow a preposition.
    override: dict[int, int] = {}
    frame_roles = [role[i] for i in idxs]
    has_scope = SCOPE in frame_roles
    if has_scope:
        for i in predicate_side:
            if role[i] == PREP:
                break
            if role[i] == SCOPE and cast(tuple[str, str], info[i])[0] == "party":
                override[i] = CONTENT
    scoped = idxs
    if has_scope and NEG in frame_roles:
        # "10 hours in logging mode, not the figure we quote to customers": a contrast
        # after the value scopes nothing the value says
        for k in range(1, len(idxs) - 1):
            if frame_roles[k] == SEP and frame_roles[k + 1] == NEG and VALUE in frame_roles[:k]:
                scoped = idxs[:k]
                break
    for i in scoped if has_scope or LABEL in frame_roles or TIME in frame_roles else ():
        r = override.get(i, role[i])
        if r == SCOPE:
            dim, value = cast(tuple[str, str], info[i])
            if dim not in frame.scope:
                frame.scope[dim] = value
            elif frame.scope[dim] != value:
                frame.residual.append(value)
        elif r == LABEL and info[i] is not None:
            dim, value = cast(tuple[str, str], info[i])
            frame.scope.setdefault(dim, value)
        elif r == TIME:
            t = times[cast(int, info[i])]
            if t.scope is not None:
                frame.scope.setdefault(*t.scope)
    return override


def _read_frame(
    doc: Doc,
    roles: Roles,
    idxs: Sequence[int],
    res: Resources,
    times: Sequence[TimeMention],
    dated: bool = False,
) -> Frame:
    role, info = roles.role, roles.info
    frame = Frame()
    pivot, verb_pivot = _find_pivot(frame, roles, idxs)
    if pivot == -1:
        subject_side: Sequence[int] = idxs
        predicate_side: Sequence[int] = ()
    else:
        subject_side = idxs[:pivot]
        after = idxs[pivot:] if verb_pivot else idxs[pivot + 1 :]
        predicate_side = [i for i in after if role[i] not in (PIVOT, MODAL)]
    override = _read_scope(frame, roles, idxs, predicate_side, times)
    subj_head, subj_quals = _head(roles.lower, role, subject_side, override)
    pred_head, pred_quals = _head(roles.lower, role, predicate_side, override)
    case = "subject"  # where the attribute comes from (see _read_identity)
    if verb_pivot and subj_head and len(pred_head) <= 1:
        # "A late fee of 5% applies": a lone statement verb names no attribute
        key_idx = subj_head
        others = subj_quals + pred_quals
        frame.predicate = _text(roles, pred_head) if pred_head else None
    elif pred_head and frame.pivot_kind == "action" and subj_head:
        # "The Acme board declared a dividend": the actor owns what the verb produced, as
        # "the Acme notice period" owns its period, so its own words enter the key
        actor = [i for i in subj_head if roles.lower[i] not in res.generic_heads]
        key_idx = actor + pred_head
        case = "actor"
        others = [i for i in subj_head if i not in actor] + subj_quals + pred_quals
        frame.predicate = _text(roles, pred_head)
    elif pred_head:
        key_idx = pred_head
        others = subj_head + subj_quals + pred_quals
        case = "predicate"
        frame.predicate = _text(roles, pred_head)
    else:
        key_idx = subj_head
        others = subj_quals + pred_quals
        frame.predicate = roles.lower[idxs[pivot]] if pivot != -1 else None
    if case != "subject" and frame.pivot_kind == "action" and set(pred_head) <= set(override):
        # "We pay contractors within 30 days": a party the verb acts on scopes the claim as
        # in "contractors are paid within 45 days", and the verb names the attribute
        for i in pred_head:
            frame.scope.setdefault(*cast(tuple[str, str], info[i]))
        key_idx = [i for i in key_idx if i not in pred_head]
        case = "actor" if key_idx else "verb-only"
    frame.subject = _text(roles, [i for i in subject_side if role[i] in (CONTENT, SCOPE)]) or None
    frame.subject_words = [
        w for i in subject_side if role[i] in (CONTENT, VERB) if (w := fold_word(roles.lower[i]))
    ]
    if not pred_head and not subj_head and pivot != -1 and frame.pivot_kind == "action":
        # "the vendor charged $5 million": nothing but the verb names what was measured
        key_idx = [idxs[pivot]]
        case = "verb-only"
    if pivot != -1 and frame.pivot_kind == "action":
        frame.verb = fold_word(roles.lower[idxs[pivot]])
    elif 0 <= pivot < len(idxs) - 1 and roles.info[idxs[pivot + 1]] == "action":
        # "contractors are paid", "the club was established": the participle is the verb
        frame.verb = fold_word(roles.lower[idxs[pivot + 1]])
    seen = _read_identity(
        frame, roles, res, case, subject_side, predicate_side, subj_head, key_idx, idxs, dated
    )
    for i in others:
        w = fold_word(roles.lower[i])
        w = manner_adjective(w) or w  # "fully paid" and "on full pay" qualify alike
        if w in seen or w in res.generic_heads or roles.lower[i] in res.generic_heads:
            continue
        seen.add(w)
        frame.residual.append(w)
    frame.action_words = [w for i in pred_head if (w := fold_word(roles.lower[i]))]
    frame.action_text = _text(roles, pred_head)
    frame.predicate_text = _text(
        roles, [i for i in predicate_side if role[i] in (CONTENT, SCOPE, STOP, PREP)]
    )
    return frame


def _read_identity(
    frame: Frame,
    roles: Roles,
    res: Resources,
    case: str,
    subject_side: Sequence[int],
    predicate_side: Sequence[int],
    subj_head: list[int],
    key_idx: list[int],
    idxs: Sequence[int],
    dated: bool = False,
) -> set[str]:
    """Split what the key tokens say into the entity and the attribute (docs/EXTRACTION.md,
    "The claim key"); fills ``frame.entity_words``, ``attribute_words`` and ``key_words``
    and returns every word used, which the residual qualifiers leave out."""
    lower, role = roles.lower, roles.role
    references = identity_words().references
    lex = attribute_lexicon()
    entity_idx = _owner(roles, res, subject_side) or _owner(roles, res, predicate_side)
    attr_idx: list[int]
    named_by_subject: list[str] = []
    if case == "actor":  # "The Acme board declared a dividend"
        head = set(subj_head)
        entity_idx = entity_idx + [i for i in key_idx if i in head]
        attr_idx = [i for i in key_idx if i not in head]
    elif case == "predicate":  # "Acme has a 30-day return window"
        attr_idx = list(key_idx)
        after_owner = _after_possessive(roles, subject_side)
        subject = [i for i in _noun_phrase(roles, after_owner) if lower[i] not in res.generic_heads]
        known = lex.known_suffix([fold_word(lower[i]) for i in subject])
        if 0 < known < len(subject):  # "The Kestrel K2 weighs ...": the attribute is no name
            named_by_subject = [fold_word(lower[i]) for i in subject[-known:]]
            subject = subject[:-known]
        if not any(_is_named(roles, i) for i in subject):
            # "The fee is a flat rate", "The warehouse ships orders": a common noun stays
            # a qualifier (residual); named subjects ("Acme", "the P-9 router") are things
            subject = []
        entity_idx = entity_idx + [i for i in subject if lower[i] not in references]
    elif case == "verb-only":  # "the vendor charged $5 million"
        attr_idx = []
    else:  # the subject names both: "The P-9 router battery lasts 11 hours"
        attr_idx = list(key_idx)
        if not entity_idx:
            entity_idx = _named_part(roles, subject_side, attr_idx, frame.verb)
    if not entity_idx and case != "actor":  # "the population of Lakeview"
        # a dated act's capitalised "X of Y" is where the act happened ("was listed on the
        # Provincial Register of Heritage Buildings in 1983"), not what it is about
        entity_idx = _of_name(roles, subject_side) or _of_name(
            roles, predicate_side, inside_names=not dated
        )
    if not entity_idx and _existential(roles, subject_side):
        # "There were 1,245 households in Millbrook": the place is what the count is of,
        # as in "Millbrook had 1,245 households"
        entity_idx = _of_name(roles, predicate_side, "in")
    used = set(entity_idx)
    attr_idx = [i for i in attr_idx if i not in used and lower[i] not in references]
    attr_idx = [i for i in attr_idx if fold_word(lower[i])]  # a lone zero-width space folds to ""
    attr_words = [fold_word(lower[i]) for i in attr_idx]
    measured_after = _measured_after_unit(roles, res, idxs) if attr_words else []
    if measured_after:
        # "Parents can take 112 days of parental leave": a measure of something named
        # after it; the subject and the verb only qualify it (as "Employees get ...")
        attr_words = [fold_word(lower[i]) for i in measured_after]
        used.update(measured_after)
        attr_idx = []
    elif not attr_words or (
        len(attr_words) == 1
        and (attr_words[0] in lex.measure_heads or lower[attr_idx[0]] in res.unit_words)
    ):
        # "the number of employees", "25 days of annual leave": the of-phrase is measured
        measured = _of_phrase(roles, idxs, after_head=bool(attr_words))
        if measured:
            attr_words = [fold_word(lower[i]) for i in measured]
            used.update(measured)
            scoped = {roles.info[i] for i in measured if role[i] == SCOPE}
            frame.scope = {d: v for d, v in frame.scope.items() if (d, v) not in scoped}
    if (
        attr_words
        and attr_idx  # empty when the attribute came from an of-phrase ("12% of the population")
        and attr_words[-1] == "population"
        and _age_bounded(roles, res, attr_idx[0])
    ):
        # "This Upazila's eighteen up population is 101,300", "the 18+ population": the
        # count of an age group, not the population (not even a wider key of it, which
        # a population question would read)
        attr_words = ["age", "group"]
    if not entity_idx:
        frame.entity_ref = any(lower[i] in references for i in subject_side or idxs)
    if named_by_subject and attr_words and not lex.known_suffix(attr_words):
        # "The K2 weighs 450 g without its mounting bracket": the subject's last word names
        # the attribute (weight); the words after the value only qualify it
        attribute = lex.canonical(named_by_subject)
        used -= set(attr_idx)
        attr_idx = []
    elif frame.verb and attr_words and lex.known_suffix([*attr_words, frame.verb]):
        attribute = lex.canonical([*attr_words, frame.verb])  # "battery lasts"
    else:
        attribute = lex.canonical(attr_words)
    limit = _attribute_limits().get(attribute[0]) if len(attribute) > 1 else None
    if limit is not None and "metric" not in frame.scope:
        attribute = attribute[1:]  # "maximum flow rate": the flow rate, at its maximum
        frame.scope["metric"] = limit
    named = [i for i in entity_idx if role[i] != SCOPE]
    described = named_after_descriptor([roles.word(i) for i in named])
    if described:  # "review aggregator Rotten Tomatoes": the name alone is the entity
        named = named[described:]
    entity = entity_name([w for i in named if (w := fold_word(lower[i]))])
    frame.entity_words = entity.split(" ") if entity else []
    frame.attribute_words = attribute
    frame.key_words = _joined(frame.entity_words, attribute)
    return (
        {fold_word(lower[i]) for i in used | set(attr_idx)}
        | set(frame.key_words)
        | set(named_by_subject)
    )


@lru_cache(maxsize=1)
def _attribute_limits() -> dict[str, str]:
    """scope.yaml's ``attribute_limits``: "maximum" -> maximum, "min" -> minimum."""
    limits = read_yaml("scope.yaml").get("attribute_limits") or {}
    return {str(word): str(metric) for word, metric in limits.items()}


_AGE_BOUNDS = frozenset({"up", "plus", "+", "over", "above", "older"})


def _age_bounded(roles: Roles, res: Resources, i: int) -> bool:
    """Whether the words before token ``i`` bound an age: "eighteen up", "18+", "65 and over"."""
    lower = roles.lower
    j = i - 1
    if j < 1 or lower[j] not in _AGE_BOUNDS:
        return False
    if lower[j - 1] in ("and", "or") and j >= 2:
        j -= 1
    before = lower[j - 1]
    return (
        roles.role[j - 1] == VALUE
        or before.isdigit()
        or res.number_words.fullmatch(before) is not None
    )


def _joined(entity: Sequence[str], attribute: Sequence[str]) -> list[str]:
    out = list(entity)
    out += [w for w in attribute if w not in out]
    return out


# Verbs that move a count from one holder to another (lemmas): the number they state is the
# size of the move, not what the subject holds ("Ana gave 7 apples" is no count of Ana's
# apples, which "Ana has 2 apples" states).
TRANSFER_VERBS = frozenset(
    {"give", "receive", "buy", "sell", "lose", "lend", "borrow", "donate", "send", "hand",
     "pass", "swap", "trade", "spend", "eat", "drop", "throw"}
)  # fmt: skip


def fallback_attribute(frame: Frame, counted: Sequence[str]) -> list[str]:
    """The attribute of a claim whose words name none: the verb with what it counts
    ("employs 250 people": headcount), the verb, then the counted thing; a verb that moves
    the count stays with it ("gave 7 apples": ``give apple``, never ``apple``)."""
    lex = attribute_lexicon()
    verb = frame.verb
    if verb and counted and tuple([verb, *counted]) in lex.phrases:
        return lex.canonical([verb, *counted])
    if verb and (verb,) in lex.phrases:
        return lex.canonical([verb])
    if verb in TRANSFER_VERBS and counted:
        return [verb, *lex.canonical(list(counted))]
    if counted:
        return lex.canonical(list(counted))
    return [verb] if verb else []


def _is_named(roles: Roles, i: int) -> bool:
    """A token that names a thing: an identifier ("P-9", "X200"), a capitalised word no
    dictionary knows ("Lakeview", "Acme"), or an acronym."""
    r = roles.role[i]
    if r == LABEL:  # "P-9", "X200": an identifier, not a bare number after "Revision"
        word = roles.word(i)
        return (
            roles.info[i] is None
            and any(ch.isalpha() for ch in word)
            and any(ch.isdigit() for ch in word)
        )
    if r not in (CONTENT, VERB):
        return False
    return is_name(roles.word(i))


def _existential(roles: Roles, side: Sequence[int]) -> bool:
    """Whether a subject side is only "there" ("There were 12 cases in ..."), besides
    times, punctuation and stopwords."""
    words = [i for i in side if roles.role[i] in (CONTENT, VERB, SCOPE, LABEL)]
    return not words and any(roles.lower[i] == "there" for i in side)


def _noun_phrase(roles: Roles, side: Sequence[int]) -> list[int]:
    """Content and name tokens of ``side`` up to its first preposition or separator."""
    out: list[int] = []
    role = roles.role
    for i in side:
        r = role[i]
        if r in (PREP, SEP, VALUE) and out:
            break
        if out and roles.lower[i] in _ARTICLES and role[side[0]] == PREP:
            # "On Rotten Tomatoes the film has ...": an article after a phrase that a
            # preposition opened ends it; the phrase names where, as with its comma
            break
        if r in (CONTENT, VERB) or (r == LABEL and roles.info[i] is None):
            out.append(i)
    return out


def _owner(roles: Roles, res: Resources, side: Sequence[int]) -> list[int]:
    """The owner's tokens before a possessive ("the P-9 router's battery"); a generic
    owner ("the interactive assistant's") or a reference ("the company's") names none."""
    poss = [k for k, i in enumerate(side) if roles.role[i] == POSS]
    if not poss:
        return []
    owner = _noun_phrase(roles, side[: poss[-1]])
    references = identity_words().references
    if any(roles.lower[i] in references for i in owner):
        return []
    return [i for i in owner if roles.lower[i] not in res.generic_heads]


def _named_part(
    roles: Roles, side: Sequence[int], attr_idx: Sequence[int], verb: str | None
) -> list[int]:
    """The entity at the front of a subject that also names the attribute: "The P-9
    router battery" -> "P-9 router" (the attribute is the known phrase at the end)."""
    region = _noun_phrase(roles, side)
    named = [_is_named(roles, i) for i in region]
    if not any(named):
        return []
    words = [fold_word(roles.lower[i]) for i in region]
    lex = attribute_lexicon()
    known = lex.known_suffix([*words, verb]) - 1 if verb else 0
    if known <= 0:
        known = lex.known_suffix(words)
    cut = len(region) - known
    if known and any(named[:cut]):
        return region[:cut]
    last = max(k for k, flag in enumerate(named) if flag)
    if last == len(region) - 1 and not named[0]:
        # "inhabitants ... Lakeview" (a question's word order): the name closes the phrase
        first = last
        while first > 0 and named[first - 1]:
            first -= 1
        return region[first:]
    return region[: last + 1]


def _of_name(
    roles: Roles, side: Sequence[int], preposition: str = "of", *, inside_names: bool = True
) -> list[int]:
    """A named thing after "of" in the subject ("the population *of Lakeview*"), or after
    another ``preposition``. Without ``inside_names`` an "of" right after a capitalised
    word is skipped: in a dated predicate ("was listed on the Provincial Register *of*
    Heritage Buildings in 1983", "graduated from the University of Leeds in 1990") it joins
    one name, the place the sentence mentions, not the thing it is about."""
    for k, i in enumerate(side):
        if roles.lower[i] != preposition:
            continue
        if not inside_names and k and roles.word(side[k - 1])[:1].isupper():
            continue
        phrase = _noun_phrase(roles, side[k + 1 :])
        if any(_is_named(roles, j) for j in phrase):
            return phrase
    return []


def _of_phrase(roles: Roles, idxs: Sequence[int], *, after_head: bool) -> list[int]:
    """The content words after "of" that name what is measured: after a measure head
    ("the number *of employees*") or after the value ("25 days *of annual leave*")."""
    role = roles.role
    for k, i in enumerate(idxs[:-1]):
        if roles.lower[i] != "of" or role[i] != PREP:
            continue
        before = role[idxs[k - 1]] if k else -1
        if (before == VALUE) == after_head:
            continue
        words: list[int] = []
        rest = idxs[k + 1 :]
        for n, j in enumerate(rest):
            r = role[j]
            if (
                r == CONTENT
                and not words
                and n + 1 < len(rest)
                and role[rest[n + 1]] == PIVOT
                and manner_adjective(fold_word(roles.lower[j]))
            ):
                continue  # "16 weeks of *fully* paid leave": the adverb qualifies the participle
            if r == PIVOT and roles.info[j] == "action" and not words:
                words.append(j)  # "25 days of *paid* time off": a participle describes
                continue
            if r == STOP and roles.lower[j] in _PARTICLES and words:
                words.append(j)  # "time *off*"
                continue
            if r in (PREP, SEP, VALUE, PIVOT, MODAL, VERB, NEG, PUNCT) or (
                r == STOP and roles.lower[j] not in _ARTICLES
            ):
                break
            if r == CONTENT or (r == SCOPE and cast(tuple[str, str], roles.info[j])[0] == "party"):
                words.append(j)
        if len(words) > 1 and role[words[0]] == PIVOT:
            # "paid time off" names leave as a whole; in "paid parental leave" the
            # participle only describes the leave
            folded = [fold_word(roles.lower[i]) for i in words]
            if attribute_lexicon().known_suffix(folded) != len(folded):
                words = words[1:]
        if words and fold_word(roles.lower[words[-1]]) not in attribute_lexicon().reference_points:
            return words
    return []


def _measured_after_unit(roles: Roles, res: Resources, idxs: Sequence[int]) -> list[int]:
    """The words of "of <what>" right after a value written with a unit that measures
    ("112 days *of parental leave*", "3 hours *of battery life*"), or []: a share ("25% of
    the shares") or a count ("3 teams of engineers") is no measure of what follows."""
    measured = _of_phrase(roles, idxs, after_head=False)
    if not measured:
        return []
    of = next((i for i in reversed(idxs) if i < measured[0] and roles.lower[i] == "of"), None)
    if of is None or of == 0:
        return []
    unit = roles.lower[of - 1]
    if unit not in res.unit_words or unit in _NO_MEASURE:
        return []
    return measured


# unit words that count or share out what an of-phrase names
_NO_MEASURE = frozenset({"percent", "per", "cent", "pct", "times", "time", "x"})
_ARTICLES = frozenset({"the", "a", "an"})
_PARTICLES = frozenset({"off", "out"})


def _after_possessive(roles: Roles, side: Sequence[int]) -> Sequence[int]:
    poss = [k for k, i in enumerate(side) if roles.role[i] == POSS]
    return side[poss[-1] + 1 :] if poss else side


_RELATIVES = frozenset({"which", "who", "whom", "whose", "that", "where", "when"})


def _head(
    lower: list[str], role: list[int], side: Sequence[int], override: dict[int, int] | None = None
) -> tuple[list[int], list[int]]:
    """(head content tokens, qualifier content tokens) of one side of the pivot."""
    if not side:
        return [], []
    owner: list[int] = []
    poss = [k for k, i in enumerate(side) if role[i] == POSS]
    if poss:
        k = poss[-1]
        owner = [i for i in side[:k] if role[i] == CONTENT]
        side = side[k + 1 :]
    head: list[int] = []
    quals: list[int] = list(owner)
    in_quals = False
    override = override or {}
    seen_value = False
    for i in side:
        r = override.get(i, role[i])
        if r == VALUE:
            seen_value = True
        elif r == PREP or (head and lower[i] in _RELATIVES):
            in_quals = True  # "limit *for* interactive requests": what follows qualifies
        elif r == SEP:
            # "In production, the timeout": a comma ends an introductory phrase; after a
            # head or a value ("99.95%, measured over ...") what follows only qualifies.
            in_quals = bool(head) or seen_value
        elif r in (CONTENT, VERB):
            (quals if in_quals else head).append(i)
    return head, quals


def _name_of_phrase(roles: Roles, side: Sequence[int]) -> dict[int, int]:
    """Roles that read a name's of-phrase as the name (an override for ``_head``): in "The
    University of Leeds was founded in 1904" and "The Museum of Rural Life opened in 1982"
    the words after "of" are the name's, not a qualifier of "university" (a place word such
    as "Leeds" is read as a scope otherwise). Only an "of" between two capitalised words
    joins: "the first branch of Barclays" keeps its qualifier."""
    override: dict[int, int] = {}
    for k in range(1, len(side) - 1):
        at, before, after = side[k], side[k - 1], side[k + 1]
        if roles.lower[at] != "of" or not (
            roles.word(before)[:1].isupper() and roles.word(after)[:1].isupper()
        ):
            continue
        if roles.lower[before] in _ARTICLES:
            continue  # "The Of ..." is no name
        override[at] = STOP
        for j in side[k + 1 :]:
            if not roles.word(j)[:1].isupper() or roles.role[j] in (SEP, PUNCT, VALUE, TIME):
                break
            override[j] = CONTENT
    return override
