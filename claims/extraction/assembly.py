"""Claim assembly: turns a sentence's tokens, cue spans and mentions into claims.

Every token of a sentence gets one role (value, time, label, scope, modal, negation,
reported-speech cue, pivot verb, preposition, separator, stopword or content word). A claim
key is then read off the roles:

* the *pivot* (first copula/possession verb or modal) splits subject side from predicate side;
* each side's *head* is its content words up to the first preposition (a possessive
  "X's Y" makes X the owner and Y the head);
* the key is the predicate head when it has content ("has a 250-token *output limit*"),
  otherwise the subject head ("the *dividend* ... was 12 cents");
* every other content word is a residual qualifier, except generic carriers ("requests").
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from functools import lru_cache
from typing import Any, cast

import spacy.symbols
from spacy.tokens import Doc, Span
from spacy.vocab import Vocab

from claims.extraction.effective_time import effective_time
from claims.extraction.identity import (
    NAME_OPENERS,
    attribute_lexicon,
    clean,
    document_title,
    entity_name,
    identity_words,
    is_name,
    title_entity,
)
from claims.extraction.keys import basis_count, fold_text, fold_word, named_after_descriptor
from claims.extraction.markers import scan_markers
from claims.extraction.mentions import Mentions, QuantityMention, TimeMention
from claims.extraction.prose_relations import relation_claims, with_relations
from claims.extraction.resources import Resources, read_yaml
from claims.extraction.sentence_cache import IdRecorder, SentenceCache
from claims.extraction.stance import ATTRIBUTE as STANCE_ATTRIBUTE
from claims.extraction.stance import stance_lexicon, stance_of
from claims.extraction.value_kinds import (
    NO_QUANTITY,
    find_phrase,
    is_property_word,
    iso_value,
    lexicon,
    normalise_predicate,
)
from claims.ids import stable_id_maker
from claims.models import (
    Bound,
    Claim,
    EffectiveTime,
    Modality,
    Polarity,
    TimeGranularity,
    ValueKind,
)
from claims.models import Span as CharSpan
from claims.trusted import trusted
from claims.units.counted import counted_unit
from claims.units.normalize import conversion

# token roles
(
    CONTENT,
    STOP,
    PUNCT,
    SEP,
    PREP,
    PIVOT,
    MODAL,
    NEG,
    REPORTED,
    WH,
    SCOPE,
    TIME,
    VALUE,
    LABEL,
    UNIT,
    POSS,
    SUPERSEDES,
    VERB,  # a statement verb ("stores", "shares"): content that also splits subject/action
) = range(18)

TEXT_KEY = "claims.text"  # doc.user_data key holding the exact input text (Doc.text rebuilds it)
SUBJECT_KEY = "claims.document_subject"  # doc.user_data: what "it" / "we" refer to (a title)
MAX_CLAUSE_TOKENS = 80  # longer clauses are cut into windows so cost stays linear
CONTEXT_RADIUS = 40  # tokens around a value considered for its key
MAX_QUOTE_CHARS = 600  # a longer sentence quotes the clause window instead
EVENT_DATE_NEAR = 8  # tokens after an event predicate its date may stand in
EVENT_DATE_REACH = 14  # ... or further, past a place's words (capitalised, "the", ",")
_PLACE_WORDS = frozenset({",", "the", "of", "de", "du", "la", "le"})
_SUBJECT_PRONOUNS = frozenset({"it", "he", "she", "they"})

_MODALITY = {
    "obligation": Modality.OBLIGATION,
    "permission": Modality.PERMISSION,
    "prohibition": Modality.PROHIBITION,
    "option": Modality.OPTION,
    "statement": Modality.STATEMENT,
}


@dataclass(slots=True)
class Roles:
    """Per-token roles for one doc (filled once, read by every claim), with the token
    offsets and lowercase forms read once through ``Doc.to_array`` (creating spaCy
    ``Token`` objects per access costs more than the rules themselves)."""

    role: list[int]
    info: list[object]
    idx: list[int]
    end: list[int]
    lower: list[str]
    text: str

    def word(self, i: int) -> str:
        return self.text[self.idx[i] : self.end[i]]


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


_CLAIM_ROLES = frozenset({MODAL, NEG, PIVOT, VERB})
_POS_VERB = spacy.symbols.VERB
_CUE_ROLES = {
    "MODAL": MODAL,
    "NEGATION": NEG,
    "REPORTED": REPORTED,
    "PIVOT": PIVOT,
    "WH": WH,
    "SUPERSEDES": SUPERSEDES,
    "VERB": VERB,
}


_LEXEMES: dict[tuple[int, int], tuple[Vocab, Resources, dict[int, tuple[str, int]]]] = {}
_POSSESSIVES = ("'s", "'", "\u2019s")
_UNIT_HINTS = ("per", "in")


def _lexeme_table(vocab: Vocab, res: Resources) -> dict[int, tuple[str, int]]:
    """Per (vocab, resources) cache orth -> (lowercase form, role the word has when no
    mention or cue claims it). Reading lexeme attributes for every token through
    ``Doc.to_array(...).tolist()`` cost more than the role rules; the entry keeps the vocab
    and resources alive so their ids are not reused."""
    entry = _LEXEMES.get((id(vocab), id(res)))
    if entry is None or entry[0] is not vocab or entry[1] is not res:
        entry = _LEXEMES[(id(vocab), id(res))] = (vocab, res, {})
    return entry[2]


def _word_role(vocab: Vocab, orth: int, res: Resources) -> tuple[str, int]:
    lex = vocab[orth]
    low = lex.lower_
    if low in res.separators:
        return low, SEP
    if lex.is_punct or lex.is_space:
        return low, PUNCT
    if low in _POSSESSIVES:
        return low, POSS
    if low in res.prepositions:
        return low, PREP
    if low in res.stopwords or lex.like_num:
        return low, STOP
    return low, CONTENT


def assign_roles(doc: Doc, mentions: Mentions, res: Resources, text: str) -> Roles:
    n = len(doc)
    role = [-1] * n
    info: list[object] = [None] * n
    if n:
        arr = doc.to_array(["IDX", "LENGTH", "ORTH"])
        starts = arr[:, 0].tolist()
        ends = (arr[:, 0] + arr[:, 1]).tolist()
        orths = arr[:, 2].tolist()
    else:
        starts, ends, orths = [], [], []
    lexemes = _lexeme_table(doc.vocab, res)
    rows = [lexemes.get(orth) for orth in orths]
    if None in rows:
        for k, orth in enumerate(orths):
            if rows[k] is None:
                rows[k] = lexemes[orth] = _word_role(doc.vocab, orth, res)
    lower = [row[0] for row in rows]  # type: ignore[index]

    def mark(start: int, end: int, r: int, data: object) -> None:
        i = max(0, bisect_left(starts, start) - 1)
        while i < n and starts[i] < end:
            if ends[i] > start and role[i] == -1:
                role[i] = r
                info[i] = data
            i += 1

    for qi, q in enumerate(mentions.quantities):
        mark(q.cue_start, q.end, VALUE, qi)
        if q.modifier is not None:  # the describing word stays content ("vacation")
            i = bisect_left(starts, q.modifier[0])
            while i < n and starts[i] < q.modifier[1]:
                role[i], info[i] = -1, None
                i += 1
    for ti, tm in enumerate(mentions.times):
        mark(tm.start, tm.end, TIME, ti)
    for lab in mentions.labels:
        mark(lab.start, lab.end, LABEL, lab.scope)
    cues: list[tuple[int, int, str, str]] = doc._.cues or []
    # longest first at each start, so "shall not" wins over "shall"
    for start, end, label, ident in sorted(cues, key=lambda c: (c[0], c[0] - c[1])):
        if role[start:end].count(-1) != end - start:
            continue
        if label == "MODAL" and start and lower[start - 1] in _MONTH_PREPOSITIONS:
            role[start] = STOP  # "went up in May": the month, not the modal
            continue
        data: object
        if label == "SCOPE":
            dim, _, value = ident.partition("=")
            r, data = SCOPE, (dim, value or text[starts[start] : ends[end - 1]].lower())
        elif label in _CUE_ROLES:
            r, data = _CUE_ROLES[label], ident
        else:
            continue
        for i in range(start, end):
            role[i] = r
            info[i] = data
    for i in range(n - 1):
        # "reached No. 5": the abbreviation of "number", no negation ("no 24-hour support"
        # without the full stop stays one)
        if role[i] == NEG and (
            (lower[i] == "no." and role[i + 1] == VALUE)
            or (lower[i] == "no" and lower[i + 1] == "." and VALUE in role[i + 2 : i + 3])
        ):
            role[i], info[i] = STOP, None
            if role[i + 1] == NEG:  # the full stop of "No." read with it
                role[i + 1], info[i + 1] = STOP, None
    units = res.unit_words
    for i, row in enumerate(rows):
        if role[i] != -1:
            continue
        r = role[i] = row[1]  # type: ignore[index]
        # "per share", "in days": a unit named after a preposition is a unit hint
        if r == PREP and i + 1 < n and lower[i] in _UNIT_HINTS and lower[i + 1] in units:
            role[i + 1] = UNIT
    for i in range(n - 1):
        if (
            role[i] == STOP
            and lower[i] in NAME_OPENERS
            and text[starts[i] : starts[i] + 1].isupper()
            and text[starts[i + 1] : starts[i + 1] + 1].isupper()
            and role[i + 1] in (CONTENT, SCOPE)
        ):
            # "New Mexico", "New England", "Old Trafford": a capitalised "New" or "Old"
            # before a capitalised word opens a name. The stopword it is elsewhere cut the
            # name to "mexico" (one key with Mexico's population) and left "England" a
            # region scope of the United Kingdom
            role[i] = CONTENT
            if role[i + 1] == SCOPE:
                role[i + 1], info[i + 1] = CONTENT, None
    for i in range(n - 2):
        # "a total population of 25,038 of whom 13,665 are men and 11,373 are women": the
        # breakdown after "of whom" / "of which" is a list of its own, each item counting
        # its own part, not more of the total
        if lower[i] == "of" and lower[i + 1] in _BREAKDOWN and role[i + 2] == VALUE:
            role[i] = SEP
            for k in range(i + 3, n - 1):
                if lower[k] in (".", ";"):
                    break
                if lower[k] == "and" and role[k + 1] == VALUE:
                    # "... 13,665 are men and 11,373 are women": each part is an item
                    role[k] = SEP
    poles = stance_lexicon().poles
    if n > 2 and not poles.keys().isdisjoint(lower):
        for i in range(1, n - 1):
            # "mixed to positive reviews": one stance between two poles, no preposition
            if lower[i] == "to" and role[i] == PREP and _between_poles(lower, i, poles):
                role[i] = STOP
    verb_forms = lexicon().verb_forms
    for i in range(n):
        # "The museum declines card payments": an antonym lexicon verb states like "accepts"
        if role[i] == CONTENT and lower[i] in verb_forms:
            role[i] = VERB
    if n and doc.has_annotation("POS"):
        # A trained pipeline (CLAIMS_SPACY_MODEL) tags verbs the lexicons do not know:
        # they split subject from action like the statement verbs of cues.yaml.
        pos = doc.to_array(["POS"]).tolist()
        for i in range(n):
            if role[i] == CONTENT and pos[i] == _POS_VERB:
                role[i] = VERB
    return Roles(role, info, starts, ends, lower, text)


def _between_poles(lower: list[str], i: int, poles: dict[str, str]) -> bool:
    """Whether token ``i`` stands between two stance words ("mixed to positive",
    "mixed-to-negative"), hyphens skipped."""
    before, after = i - 1, i + 1
    if lower[before] == "-" and before > 0:
        before -= 1
    if after < len(lower) - 1 and lower[after] == "-":
        after += 1
    return lower[before] in poles and lower[after] in poles


def _text(roles: Roles, idxs: Sequence[int]) -> str | None:
    if not idxs:
        return None
    text, idx, end = roles.text, roles.idx, roles.end
    # subject and predicate are matched (high-risk phrases): no invisible characters
    return clean(" ".join([text[idx[i] : end[i]] for i in idxs]).lower())


def _corrects_another(roles: Roles, idxs: Sequence[int], k: int) -> bool:
    """ "lasts 10 hours, not the figure we quoted": a negation right after a comma that
    follows the clause's value, with no value after it, corrects something else."""
    role = roles.role
    return (
        k > 0
        and roles.lower[idxs[k - 1]] == ","
        and any(role[j] == VALUE for j in idxs[:k])
        and not any(role[j] == VALUE for j in idxs[k:])
    )


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
    if pivot == -1:
        subject_side: Sequence[int] = idxs
        predicate_side: Sequence[int] = ()
    else:
        subject_side = idxs[:pivot]
        after = idxs[pivot:] if verb_pivot else idxs[pivot + 1 :]
        predicate_side = [i for i in after if role[i] not in (PIVOT, MODAL)]
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
        # National Register of Historic Places in 1983"), not what it is about
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
    if not attr_words or (
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
        # "This Upazila's eighteen up population is 87,404", "the 18+ population": the
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
    word is skipped: in a dated predicate ("was listed on the National Register *of*
    Historic Places in 1983", "graduated from the University of Oxford in 1990") it joins
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
        for j in idxs[k + 1 :]:
            r = role[j]
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
        if words and fold_word(roles.lower[words[-1]]) not in attribute_lexicon().reference_points:
            return words
    return []


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


def drop_lead_ins(roles: Roles, first: int, end: int) -> None:
    """Greetings and lead-ins never name a claim: "Hi all, the notice period ..." and
    "Friendly note ahead of the holidays: contractors are paid ..." lose their opening
    words in the sentence of tokens [first, end) (scope, label and time words stay)."""
    lower, role = roles.lower, roles.role
    while first < end and role[first] == PUNCT:
        first += 1
    if first == end:
        return
    salutations = identity_words().salutations
    if lower[first] in salutations:
        _drop_salutation(roles, first, end, salutations[lower[first]])
    if ":" in lower[first:end]:
        _drop_colon_lead_in(roles, first, end)
    if "," in lower[first:end]:
        _drop_comma_lead_in(roles, first, end)
        _drop_fronted_before_pronoun(roles, first, end)


@dataclass(frozen=True)
class _LeadIns:
    openers: tuple[tuple[str, ...], ...]
    source_openers: tuple[tuple[str, ...], ...]
    sources: frozenset[str]
    firsts: frozenset[str]


@lru_cache(maxsize=1)
def _lead_ins() -> _LeadIns:
    data = read_yaml("lead_ins.yaml")

    def phrases(name: str) -> tuple[tuple[str, ...], ...]:
        try:
            found = tuple(tuple(str(w).casefold() for w in p) for p in data.get(name) or ())
        except TypeError as error:
            raise ValueError(
                f"lead_ins.yaml: {name}: each entry is a list of words ({error})"
            ) from error
        return tuple(sorted(found, key=len, reverse=True))

    openers, source_openers = phrases("openers"), phrases("source_openers")
    return _LeadIns(
        openers=openers,
        source_openers=source_openers,
        sources=frozenset(str(w).casefold() for w in data.get("sources") or ()),
        firsts=frozenset(p[0] for p in openers + source_openers),
    )


def _drop_comma_lead_in(roles: Roles, first: int, end: int) -> None:
    """ "Born in Houghton County, Michigan, Dunn attended ...", "A graduate of Williams
    College, he was elected ...", "As of the 1991 census, Kaliganj had ...": the opening
    (lead_ins.yaml) runs to the last comma before the first verb, copula or value, and is
    not the subject; its dates and scope words stay."""
    lower, role = roles.lower, roles.role
    lead = _lead_ins()
    if lower[first] not in lead.firsts:
        return
    words = tuple(lower[first : min(end, first + 6)])
    opener = next((p for p in lead.openers if words[: len(p)] == p), None)
    needs_source = False
    if opener is None:
        opener = next((p for p in lead.source_openers if words[: len(p)] == p), None)
        needs_source = True
    if opener is None:
        return
    comma = -1
    for k in range(first + len(opener), end):
        if lower[k] == "," and role[k] in (SEP, PUNCT):
            comma = k
        elif role[k] in _CLAIMING:
            break
    if comma < 0 or comma + 1 >= end or role[comma + 1] in _CLAIMING:
        return  # no subject between the opening and what the sentence claims
    if needs_source and lead.sources.isdisjoint(lower[first:comma]):
        return
    for j in range(first, comma + 1):
        if role[j] in _LEAD_IN_WORDS:
            role[j] = STOP


def _drop_fronted_before_pronoun(roles: Roles, first: int, end: int) -> None:
    """ "The Central Statistical Agency in 2005, it had an estimated total population of
    5,000", "Alongside Narsarsuaq Airport, it is one of only two civilian airports": a
    phrase fronted before a comma and a subject pronoun that acts ("it had", "he served")
    describes or places the pronoun, which is the sentence's subject (the page's); the
    phrase's nouns are not. Its dates, values and scope words stay. A fronted part with its
    own copula, modal or negation ("The town is small, it has ...") is a clause of its own
    and keeps its words."""
    lower, role = roles.lower, roles.role
    for k in range(first + 1, end - 2):
        if lower[k] != "," or role[k] not in (SEP, PUNCT):
            continue
        if lower[k + 1] not in _SUBJECT_PRONOUNS or role[k + 2] not in _ACTING:
            continue
        if not _OWN_CLAUSE.isdisjoint(role[first:k]):
            return
        for j in range(first, k + 1):
            if role[j] in _LEAD_IN_WORDS:
                role[j] = STOP
        return


_CLAIMING = frozenset({PIVOT, MODAL, VERB, NEG, VALUE})
_ACTING = frozenset({PIVOT, MODAL, VERB, NEG})  # "it had", "he was", "she did not"
_OWN_CLAUSE = frozenset({PIVOT, MODAL, NEG})  # a fronted part stating its own claim
# what a greeting or lead-in loses (its scope, label and time words are kept)
_LEAD_IN_WORDS = frozenset({CONTENT, VERB, PIVOT, STOP, POSS, PREP, SEP})


def _drop_salutation(
    roles: Roles, first: int, end: int, phrases: tuple[tuple[str, ...], ...]
) -> None:
    lower, role = roles.lower, roles.role
    for phrase in phrases:
        if tuple(lower[first : first + len(phrase)]) != phrase:
            continue
        stop = first + len(phrase)
        # "Hi all," / "Dear team," : the addressee runs to the first comma or line break
        for k in range(stop, min(end, stop + 6)):
            if lower[k] == "," or "\n" in lower[k]:
                stop = k + 1
                break
        for k in range(first, stop):
            if role[k] in _LEAD_IN_WORDS or role[k] == SCOPE:
                role[k] = STOP
        return


def _drop_colon_lead_in(roles: Roles, first: int, end: int) -> None:
    lower, role = roles.lower, roles.role
    for k in range(first, end):
        if lower[k] != ":" or role[k] not in (PUNCT, SEP):
            continue
        before, after = role[first:k], role[k + 1 : end]
        if _CLAIMING.isdisjoint(before) and not _CLAIMING.isdisjoint(after):
            for j in range(first, k):
                if role[j] in _LEAD_IN_WORDS:
                    role[j] = STOP  # "ahead *of* the holidays:" must not start a qualifier
        return


def _clauses(doc: Doc, sent: Span, roles: Roles) -> list[tuple[int, int]]:
    """Token ranges of the sentence's clauses: split at ';' and cut to bounded windows."""
    out: list[tuple[int, int]] = []
    start = sent.start
    lower = roles.lower
    if ";" in lower[sent.start : sent.end]:
        for i in range(sent.start, sent.end):
            if lower[i] == ";" and roles.role[i] != VALUE:
                out.append((start, i))
                start = i + 1
    out.append((start, sent.end))
    if "and" in lower[sent.start : sent.end] or "(" in lower[sent.start : sent.end]:
        out = [part for a, b in out for part in _joined_clauses(roles, a, b)]
    if "," in lower[sent.start : sent.end]:
        out = [part for a, b in out for part in _trailing_clause(roles, a, b)]
    bounded: list[tuple[int, int]] = []
    role, info = roles.role, roles.info
    for a, b in out:
        while b - a > MAX_CLAUSE_TOKENS:
            cut = a + MAX_CLAUSE_TOKENS
            # never cut through a value mention ("1,000 ms" must stay in one window)
            while (
                cut < b
                and role[cut] == VALUE
                and role[cut - 1] == VALUE
                and info[cut] == info[cut - 1]
            ):
                cut += 1
            bounded.append((a, cut))
            a = cut
        if b > a:
            bounded.append((a, b))
    return bounded


def _joined_clauses(roles: Roles, a: int, b: int) -> list[tuple[int, int]]:
    """ "The gmina covers an area of 165 km2, and its total population is 17,289 (out of
    which the population of Pilzno amounts to 4,411)": each clause with its own subject
    and copula states its own value; read as one, the first clause's words named every
    value's attribute ("gmina cover area" = 4,411). A clause starts after ", and" when a
    copula or verb comes before the next value, and at a bracket opening "out of which"
    / "of which"."""
    lower, role = roles.lower, roles.role
    parts: list[tuple[int, int]] = []
    start = a
    for i in range(a + 1, b - 2):
        if i < start:
            continue
        if lower[i] == "(" and lower[i + 1 : i + 4] == ["out", "of", "which"]:
            parts.append((start, i))
            start = i + 4  # the bracket's own clause, without its "out of which"
        elif lower[i] == "(" and lower[i + 1 : i + 3] == ["of", "which"]:
            parts.append((start, i))
            start = i + 3
        elif lower[i] == "," and lower[i + 1] == "and" and role[i + 2] not in (VALUE, PIVOT, VERB):
            for k in range(i + 2, min(b, i + 14)):
                if role[k] in (VALUE, SEP, PUNCT, MODAL):
                    break
                if role[k] in (PIVOT, VERB):
                    parts.append((start, i))
                    start = i + 2
                    break
    parts.append((start, b))
    return [(x, y) for x, y in parts if y > x]


@lru_cache(maxsize=1)
def _trailing_openers() -> frozenset[str]:
    return frozenset(str(w) for w in read_yaml("sentences.yaml")["trailing_clauses"])


def _trailing_clause(roles: Roles, a: int, b: int) -> list[tuple[int, int]]:
    """ "Nearly 3,000 people were killed, which did not stop the city's growth": a clause
    after a comma and "which" / "but" / "although" (sentences.yaml) that holds no value of
    its own is cut off: read with the value, its negation denied the value and its words
    keyed it ("kill growth" = not 3,000 people). It is not read as a clause of its own
    either: without its subject ("which", "it") its words make no claim worth keeping."""
    lower, role = roles.lower, roles.role
    openers = _trailing_openers()
    seen_value = False
    for i in range(a, b - 1):
        if role[i] == VALUE:
            seen_value = True
        elif seen_value and lower[i] == "," and lower[i + 1] in openers:
            if any(role[k] == VALUE for k in range(i + 2, b)):
                return [(a, b)]  # the trailing clause states a value: read as before
            return [(a, i)]
    return [(a, b)]


MAX_STATEMENT_CHARS = 200  # a longer unmarked sentence of another script is prose, not a claim


def _plain_statement(sentence: str) -> bool:
    """Whether an unmarked sentence of another script is short enough to state one fact
    (two words or more, ends with a full stop, no question mark)."""
    text = sentence.strip()
    return (
        len(text) <= MAX_STATEMENT_CHARS
        and len(text.split()) >= 2
        and text[-1:] in (".", "\u3002", "\u0964")
        and "?" not in text
        and "\u061f" not in text
    )


def _is_non_latin(text: str) -> bool:
    if text.isascii():
        return False
    latin = other = 0
    for ch in text:
        if ch.isalpha():
            if ch.isascii():
                latin += 1
            elif ord(ch) > 0x24F:
                other += 1
    return other > latin


class ClaimAssembler:
    """Builds ``Claim`` objects for a processed doc (safe to share between threads: each
    doc gets its own ``_DocAssembly`` holding that doc's text and roles)."""

    def __init__(self, res: Resources, generation: str, cache: bool = True) -> None:
        self.res = res
        self.generation = generation
        # sentences already read give their claims again (claims.extraction.sentence_cache)
        self.sentences = SentenceCache(VALUE, TIME) if cache else None

    def __call__(
        self, doc: Doc, mentions: Mentions, source_id: str | None, source_version_id: str | None
    ) -> list[Claim]:
        assembly = _DocAssembly(self.res, self.generation, self.sentences)
        return assembly(doc, mentions, source_id, source_version_id)


class _DocAssembly:
    """The claims of one doc; lives for one call."""

    def __init__(
        self, res: Resources, generation: str, sentences: SentenceCache | None = None
    ) -> None:
        self.res = res
        self.generation = generation
        self._text = ""
        self._sentences = sentences

    def __call__(
        self, doc: Doc, mentions: Mentions, source_id: str | None, source_version_id: str | None
    ) -> list[Claim]:
        # Doc.text joins every token on each access: read it once per doc, not once per claim.
        self._text = doc.user_data.get(TEXT_KEY) or doc.text
        # stable_id("cl", source version, generation, *rest), the shared parts hashed once
        self._claim_id = stable_id_maker("cl", source_version_id, self.generation)
        self._subject: str | None = doc.user_data.get(SUBJECT_KEY)
        self._document_entity: str | None = None
        self._document_read = False  # the title is read once, when a claim needs it
        roles = assign_roles(doc, mentions, self.res, self._text)
        self._roles = roles
        claims: list[Claim] = []
        cache = self._sentences
        if cache is not None:
            ids = IdRecorder(self._claim_id)
            self._claim_id = ids
            entity = self._entity(Frame(entity_ref=True))  # what "it" names, in every key
        q_starts = [q.start for q in mentions.quantities]
        change_firsts = lexicon().change_firsts  # "attrition went up": a direction
        t_starts = [t.start for t in mentions.times]
        for sent in doc.sents:
            s0, s1 = sent.start_char, sent.end_char
            if s1 <= s0:
                continue
            qlo, qhi = bisect_left(q_starts, s0), bisect_left(q_starts, s1)
            non_latin = _is_non_latin(self._text[s0:s1])
            if (
                qlo == qhi
                and (
                    (non_latin and not self._has_non_latin_marker(self._text[s0:s1]))
                    or (
                        not non_latin
                        and not _CLAIM_ROLES.intersection(roles.role[sent.start : sent.end])
                        and TIME not in roles.role[sent.start : sent.end]  # an event's date
                        and change_firsts.isdisjoint(roles.lower[sent.start : sent.end])
                    )
                )
            ):
                continue  # no value, modal, negation or copula: the sentence claims nothing
            key = None
            if cache is not None and not non_latin:
                key = cache.key(
                    self._text, s0, s1, (sent.start, sent.end), roles, mentions, (qlo, qhi),
                    t_starts, entity,
                )  # fmt: skip
                if key is not None:
                    again = cache.replay(key, s0, ids, source_id, source_version_id)
                    if again is not None:
                        claims.extend(again)
                        continue
            first = len(claims)
            if not non_latin:
                drop_lead_ins(roles, sent.start, sent.end)
            lo, hi = bisect_left(t_starts, s0), bisect_left(t_starts, s1)
            times = mentions.times[lo:hi]
            # every claim copies its sentence's time (_copy_time): sentences without a time
            # expression can share one unknown time
            when = effective_time(self._text, times) if times else _UNKNOWN_TIME
            if non_latin:
                claims.extend(
                    self._non_latin(
                        doc, sent, mentions, qlo, qhi, when, source_id, source_version_id
                    )
                )
                continue
            for a, b in _clauses(doc, sent, roles):
                claims.extend(
                    self._clause(
                        doc, sent, a, b, roles, mentions, when, source_id, source_version_id
                    )
                )
            if key is not None and cache is not None:
                cache.store(key, s0, s1, claims[first:], ids)
        # ties stated in passing: "the son of ...", "born in ..." (prose_relations.py)
        prose = relation_claims(
            doc, self._text, roles.lower, roles.idx, roles.end,
            source_id, source_version_id, self.generation,
        )  # fmt: skip
        return with_relations(claims, prose)

    def _entity(self, frame: Frame) -> str | None:
        """The claim's entity: the one its words name, else the document's own subject when
        the sentence refers to it ("it", "we", "the company")."""
        if frame.entity_words:
            return " ".join(frame.entity_words)
        if not frame.entity_ref:
            return None
        if not self._document_read:
            title = self._subject if self._subject is not None else document_title(self._text)
            self._document_entity = title_entity(title, self.res.stopwords)
            self._document_read = True
        return self._document_entity

    # ------------------------------------------------------------------ English
    def _clause(
        self,
        doc: Doc,
        sent: Span,
        a: int,
        b: int,
        roles: Roles,
        mentions: Mentions,
        when: EffectiveTime,
        source_id: str | None,
        source_version_id: str | None,
    ) -> list[Claim]:
        role, info = roles.role, roles.info
        clause_roles = role[a:b]  # membership tests on the slice run in C
        values: list[int] = []
        if VALUE in clause_roles:
            seen: set[int] = set()
            for i in range(a, b):
                if role[i] == VALUE and info[i] not in seen:
                    seen.add(info[i])  # type: ignore[arg-type]
                    values.append(info[i])  # type: ignore[arg-type]
        clause_start = a  # the evidence window of a long sentence starts here
        reported_at: int | None = None
        if REPORTED in clause_roles:
            reported_at = a + clause_roles.index(REPORTED)
            start = self._after_attribution(roles, a, b)
            if VALUE not in role[a:start]:
                a = start  # a value inside the attribution itself keeps the whole clause
            if a >= b:
                return []  # "According to the 2010 census," with nothing reported after it
        events: list[Claim] = []
        if TIME in clause_roles or VALUE in clause_roles:
            # "The club was established in 1871": the date is the event's value, and the
            # clause's other claims no longer hold "in 1871"
            event = self._event_date(
                doc, sent, a, b, roles, mentions, clause_start, reported_at is not None,
                source_id, source_version_id,
            )  # fmt: skip
            if event is not None:
                events.append(event[0])
                if event[1] >= 0:
                    when = self._time_without(sent, mentions, event[1])
                # "founded in 1542": a year, not a count
                values = [v for v in values if v not in event[2]]
        if not values:
            if events:
                return events
            claim = self._non_quantity(
                doc,
                sent,
                a,
                b,
                roles,
                mentions,
                when,
                clause_start,
                reported_at is not None,
                source_id,
                source_version_id,
            )
            if (
                claim is not None
                and claim.kind is ValueKind.CATEGORICAL
                and "metric" in claim.scope
            ):
                # "Median age is the middle age of the population": a metric (median,
                # mean, p99) measures a number; worded, the sentence defines the metric
                claim = None
            out_claims = [claim] if claim else []
            if (
                claim is not None
                and claim.kind is ValueKind.CATEGORICAL
                and _predicate_shape(roles, a, b) == "class"
            ):
                # "The seminar is a prerequisite": also the property its negation denies
                prop = self._non_quantity(
                    doc, sent, a, b, roles, mentions, when, clause_start,
                    reported_at is not None, source_id, source_version_id, as_property=True,
                )  # fmt: skip
                out_claims += [prop] if prop else []
            direction = self._direction_claim(
                doc, sent, a, b, roles, mentions, when, clause_start, reported_at is not None,
                source_id, source_version_id,
            )  # fmt: skip
            if direction is not None:
                # "Attrition went up in May": the direction is the value
                return [direction]
            if not out_claims and TIME in clause_roles:
                # "In June 2011, his wife gave birth to twins": a dated act with no other
                # value; its date is what the sentence states
                dated = self._dated_act(
                    doc, sent, a, b, roles, mentions, clause_start, reported_at is not None,
                    source_id, source_version_id,
                )  # fmt: skip
                return [dated] if dated is not None else []
            return out_claims
        span = self._evidence(doc, sent, clause_start, b)
        contexts = [
            _without_comparisons(roles, idxs, qi)
            for qi, idxs in zip(values, self._contexts(a, b, role, info, values), strict=True)
        ]
        bases = _basis_counts(roles, a, values, mentions, contexts)
        out: list[Claim] = []
        previous: Frame | None = None
        previous_count: str | None = None
        previous_unit: str | None = None
        previous_states_own = False
        changes: dict[int, str] = {}  # the direction each value moved ("" for a level)
        for qi, idxs in zip(values, contexts, strict=True):
            q = mentions.quantities[qi]
            frame = read_frame(doc, roles, idxs, self.res, mentions.times)
            counts = _counted_dimension(q)
            if qi in bases:
                _key_basis_count(frame, bases[qi], previous)
            if (
                frame.attribute_words
                and previous is not None
                and not previous_states_own
                and _list_item_unit(q) == previous_unit
                and _words_only_after(roles, idxs, qi)
            ):
                # "16 GB, 32 GB and 64 GB versions": the noun after the last item names
                # what every item is, not an attribute of that item alone
                frame.attribute_words = []
            if (
                not frame.attribute_words
                and previous is not None
                and previous.attribute_words
                # "533 people, 200 households and 150 families": each item counts its own
                # thing, so it is keyed by what it counts, not by the first item's key
                and (counts is None or previous_count is None or counts == previous_count)
                # "of whom 2,500 were men and 2,400 women": likewise after a first item
                # that said what it counts
                and not (previous_states_own and q.unit)
            ):
                # "30 days, and 60 days in the first year": the second value reuses the key
                frame.attribute_words = list(previous.attribute_words)
                if not frame.entity_words:
                    frame.entity_words = list(previous.entity_words)
                    frame.entity_ref = frame.entity_ref or previous.entity_ref
                frame.key_words = _joined(frame.entity_words, frame.attribute_words)
                frame.subject = frame.subject or previous.subject
                frame.predicate = frame.predicate or previous.predicate
                for dim, value in previous.scope.items():
                    if dim != "period":  # a period is what list items usually vary by
                        frame.scope.setdefault(dim, value)
            reported = reported_at is not None and roles.idx[reported_at] < q.start
            value_when = when
            if len(values) > 1:
                # "$4.2 billion in 2024, up from $3.75 billion in 2023": a list item's own
                # time expression beats the sentence's
                own = sorted({cast(int, info[i]) for i in idxs if role[i] == TIME})
                if own:
                    value_when = effective_time(self._text, [mentions.times[t] for t in own])
            moved = self._change_of(roles, idxs, qi)
            at = bisect_left(roles.idx, q.start)
            if not moved and at >= 2 and roles.lower[at - 1] == "(" and role[at - 2] == VALUE:
                # "grew by 13.6% (1,951 persons)": the bracket restates the change it follows
                moved = changes.get(cast(int, info[at - 2]), "")
            changes[qi] = moved
            if moved:
                # "sales climbed 7%": a change up (or down) of the attribute, not its level
                frame.attribute_words = [*frame.attribute_words, "change"]
                frame.key_words = _joined(frame.entity_words, frame.attribute_words)
                frame.predicate = moved
            out.append(
                self._quantity_claim(
                    doc, q, frame, value_when, span, reported, source_id, source_version_id
                )
            )
            if frame.attribute_words and qi not in bases:
                previous = frame
                previous_count = counts
                previous_unit = _list_item_unit(q)
                # "of whom 35,048 were men and 31,411 women": the first item said what it
                # counts, so the noun after the next one is that item's own, not shared
                previous_states_own = _states_own_predicate(roles, idxs, qi)
        return events + _share_list_qualifiers(out, self._text)

    @staticmethod
    def _after_attribution(roles: Roles, a: int, b: int) -> int:
        """Skip "According to the complaint," / "The vendor claimed that": the reported content
        starts after the attribution, which must not become the claim's subject."""
        role = roles.role
        for i in range(a, b):
            if role[i] != REPORTED:
                continue
            j = i
            while j < b and role[j] == REPORTED:
                j += 1
            if roles.lower[i] == "according":
                while j < b and role[j] != SEP:
                    j += 1
                return min(j + 1, b) if j < b else a
            return j if j < b else a
        return a

    def _contexts(
        self, a: int, b: int, role: list[int], info: list[object], values: list[int]
    ) -> list[list[int]]:
        """Token indices that describe each value (its list item plus the shared lead-in)."""
        if len(values) == 1:
            first = next(i for i in range(a, b) if role[i] == VALUE)
            lo, hi = max(a, first - CONTEXT_RADIUS), min(b, first + CONTEXT_RADIUS)
            idxs = [i for i in range(lo, hi) if role[i] != VALUE or info[i] == values[0]]
            # the value belongs to the subordinate clause it sits in
            return [idxs[self._subordinate_start(idxs, role) :]]
        segments: list[list[int]] = [[]]
        for i in range(a, b):
            if role[i] == SEP:
                segments.append([])
            else:
                segments[-1].append(i)
        owner: dict[int, int] = {}
        # per segment, its tokens that are no value and each value's own tokens: an item's
        # context is the two merged in text order (a row of a table holds dozens of values,
        # and filtering the whole segment again for each was quadratic in them)
        plain: list[list[int]] = []
        value_tokens: dict[tuple[int, object], list[int]] = {}
        for s, seg in enumerate(segments):
            words = []
            for i in seg:
                if role[i] == VALUE:
                    owner.setdefault(info[i], s)  # type: ignore[arg-type]
                    value_tokens.setdefault((s, info[i]), []).append(i)
                else:
                    words.append(i)
            plain.append(words)
        first_seg = min(owner.values())
        shared = [i for seg in segments[:first_seg] for i in seg]
        out = []
        for qi in values:
            own = sorted(plain[owner[qi]] + value_tokens[owner[qi], qi])
            if own and self._roles.lower[own[0]] in _ITEM_LEADS and owner[qi]:
                # ", with an average rating of 6.3/10": the item's lead word is no
                # preposition of a head, the rating is what the item states
                own = own[1:]
            if len(own) > 2 * CONTEXT_RADIUS:
                pos = next(k for k, i in enumerate(own) if role[i] == VALUE)
                own = own[max(0, pos - CONTEXT_RADIUS) : pos + CONTEXT_RADIUS]
            lead = shared[-CONTEXT_RADIUS:]  # the lead-in ("The limits are") serves every item
            cut = self._subordinate_start(own, role)
            if cut:
                out.append(own[cut:])
            elif _fronted_place(role, lead) and _has_subject(self._roles, own):
                # "On Rotten Tomatoes, the film holds 23% and ...": a fronted phrase read
                # where it would stand unfronted, after the item ("... 23% on Rotten
                # Tomatoes"); before the item it hid the subject behind its preposition
                out.append(own + lead)
            else:
                out.append(lead + own)
        return out

    def _subordinate_start(self, idxs: list[int], role: list[int]) -> int:
        """Position after the last subordinator ("when", "if") before the value, else 0."""
        lower, subordinators = self._roles.lower, self.res.subordinators
        cut = 0
        for k, i in enumerate(idxs):
            if role[i] == VALUE:
                break
            if lower[i] in subordinators:
                cut = k + 1
        return cut

    def _evidence(self, doc: Doc, sent: Span, a: int, b: int) -> CharSpan:
        """The sentence (trimmed of surrounding whitespace), or the clause window if it is long."""
        if sent.end_char - sent.start_char <= MAX_QUOTE_CHARS:
            start, end = sent.start_char, sent.end_char
        else:
            start, end = self._roles.idx[a], self._roles.end[b - 1]
        text = self._text
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        return trusted(CharSpan, {"start": start, "end": end})

    def _quantity_claim(
        self,
        doc: Doc,
        q: QuantityMention,
        frame: Frame,
        when: EffectiveTime,
        span: CharSpan,
        reported: bool,
        source_id: str | None,
        source_version_id: str | None,
        non_latin_key: str | None = None,
    ) -> Claim:
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
            entity = self._entity(frame)
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
        claim_id = self._claim_id(
            span.start,
            span.end,
            value_span.start,
            value_span.end,
            ValueKind.QUANTITY.value,
            key,
        )
        return _claim(
            id=claim_id,
            source_version_id=source_version_id,
            source_id=source_id,
            generation=self.generation,
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
            quote=self._text[span.start : span.end],
            confidence=max(0.05, min(1.0, round(confidence, 2))),
            created_at=None,
        )

    def _non_quantity(
        self,
        doc: Doc,
        sent: Span,
        a: int,
        b: int,
        roles: Roles,
        mentions: Mentions,
        when: EffectiveTime,
        clause_start: int,
        reported: bool,
        source_id: str | None,
        source_version_id: str | None,
        as_property: bool = False,
    ) -> Claim | None:
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
        frame = read_frame(doc, roles, idxs, self.res, mentions.times)
        has_verb = frame.pivot_kind in ("verb", "possession", "action")
        shape = _predicate_shape(roles, a, b) if frame.pivot_kind == "copula" else ""
        # "The licence is transferable" states a property, as "... is not transferable"
        # denies it: both are polarity claims keyed by the property
        passive = _passive_action(roles, idxs) if PIVOT in present or has_neg else None
        has_verb = has_verb or shape == "property" or as_property or passive is not None
        if has_modal or has_neg or has_verb:
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
            subj_words = [w for w in frame.subject_words if w not in self.res.generic_heads]
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
            stance = stance_of(attribute_words) if not as_property else None
            if stance is not None:
                # "The film received mixed reviews": how it was received is the value
                kind = ValueKind.CATEGORICAL
                value = stance.value
                attribute_words = [STANCE_ATTRIBUTE]
                drop = set(stance.rest) | stance_lexicon().evaluators
                frame.residual = [w for w in frame.residual if w not in drop]
                confidence = 0.6
        elif frame.pivot_kind == "copula" and frame.subject and frame.predicate_text:
            # (_label_shaped was checked above: a copula pivot means no modal or negation)
            # "The governing law is German law": key from the subject, value is the predicate.
            subj_idx = [
                i
                for i in range(a, b)
                if role[i] == CONTENT and roles.idx[i] < _pivot_char(roles, a, b)
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
        else:
            return None
        # the evidence only once a claim is certain (most prose clauses returned above)
        span = self._evidence(doc, sent, clause_start, b)
        entity = self._entity(frame)
        attribute = " ".join(attribute_words)
        key = " ".join(_joined(entity.split(" ") if entity else [], attribute_words))
        polarity = Polarity.NEGATIVE if frame.negated else Polarity.POSITIVE
        if frame.modality == Modality.PROHIBITION:
            polarity = Polarity.NEGATIVE
        modality = frame.modality
        if modality is None and kind == ValueKind.POLARITY:
            modality = Modality.STATEMENT
        claim_id = self._claim_id(
            span.start,
            span.end,
            roles.idx[a],
            None,
            kind.value,
            key,
        )
        return _claim(
            id=claim_id,
            source_version_id=source_version_id,
            source_id=source_id,
            generation=self.generation,
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
            time=_copy_time(when),
            reported_speech=reported,
            span=span,
            quote=self._text[span.start : span.end],
            confidence=confidence,
            created_at=None,
        )

    # ------------------------------------------------------------------ value kinds
    def _event_date(
        self,
        doc: Doc,
        sent: Span,
        a: int,
        b: int,
        roles: Roles,
        mentions: Mentions,
        clause_start: int,
        reported: bool,
        source_id: str | None,
        source_version_id: str | None,
    ) -> tuple[Claim, int, list[int]] | None:
        """(date claim, index of the time mention it took or -1, indices of the bare
        numbers it is made of) for "X came into force in 2017", "she was born on 3 May
        1970", "the city was founded in 1542"; None when no event predicate has a date."""
        role, info, lower = roles.role, roles.info, roles.lower
        lex = lexicon()
        hit = find_phrase(lower[a:b], lex.events, lex.longest_event, lex.event_firsts)
        while hit is not None and _hyphen_compound(roles, a + hit[0]):
            # "15% of the inhabitants were Irish-born": an adjective, not the birth event
            hit = find_phrase(
                lower[a:b], lex.events, lex.longest_event, lex.event_firsts, start=hit[1]
            )
        if hit is None:
            return None
        p0, p1, event = a + hit[0], a + hit[1], hit[2]
        taken = None
        year_q = -1
        used: list[int] = []  # bare numbers the date is made of (day, year)
        stepped: list[int] = []  # spans of time that step from another moment ("later")
        skip_to = -1
        month = day = 0
        # "was established *in 1871*", "born on 3 May"; past a place ("began performances at
        # the Signature Theatre, Arlington, Virginia on 4 October 2016") a verb ends the search
        for i in range(p1, min(b, p1 + EVENT_DATE_REACH)):
            if i <= skip_to:
                continue
            if i >= p1 + EVENT_DATE_NEAR and not (
                role[i] in (TIME, PREP) or lower[i] in _PLACE_WORDS or roles.word(i)[:1].isupper()
            ):
                break  # further on only a place's words lead to the date ("..., Virginia on")
            if role[i] == VALUE and (step := self._relative_span(roles, mentions, i, b)) > i:
                stepped.append(cast(int, info[i]))  # "opened *eight months later* in 1918"
                skip_to = step
                continue
            if role[i] == VALUE:
                # a year before 1800 is no time expression: "founded in 1542" is a bare number
                q = mentions.quantities[cast(int, info[i])]
                bare = q.unit is None and q.bound is Bound.EXACT and q.low is None
                next_month = i + 1 < b and lower[i + 1] in self.res.months
                if bare and (month or next_month) and not day and q.value in range(1, 32):
                    day = int(q.value)  # "on February 14 , 1542", "on 14 February 1542"
                    used.append(cast(int, info[i]))
                    continue
                if bare and q.value == int(q.value) and 1000 <= q.value <= 2100:
                    year_q = int(q.value)
                    used.append(cast(int, info[i]))
                break
            if role[i] == LABEL and lower[i].isdigit() and 1000 <= int(lower[i]) <= 2100:
                year_q = int(lower[i])  # "on 14 February 1542": the year read as a label
                break
            if role[i] == TIME:
                t = mentions.times[cast(int, info[i])]
                if t.first is not None and t.last is not None and t.role != "deictic":
                    taken = cast(int, info[i])
                    break
                if not (lower[i] in self.res.months or lower[i].isdigit()):
                    break  # an undated "February 14" may still get its year below
            if lower[i] in self.res.months:
                month = self.res.months[lower[i]]  # "born October 18 , 1984": split date
            elif (
                lower[i].isdigit()
                and 1 <= int(lower[i]) <= 31
                and (month or (i + 1 < b and lower[i + 1] in self.res.months))
            ):
                day = int(lower[i])
            elif role[i] in (VALUE, MODAL) or (role[i] == SEP and lower[i] != ","):
                break
        if taken is None and year_q < 0 and all(role[i] in (PUNCT, STOP) for i in range(p1, b)):
            # "In November 2018, her third daughter was born.": the date opens the clause
            for i in range(a, p0):
                if role[i] == TIME:
                    t = mentions.times[cast(int, info[i])]
                    if t.first is not None and t.last is not None and t.role != "deictic":
                        taken = cast(int, info[i])
                    break
        if taken is None and year_q < 0:
            return None
        if taken is not None:
            t = mentions.times[taken]
            value = _event_value(t, month, day)
            if tuple(lower[p0:p1]) in lex.run_starts:
                if t.role not in ("range", "from"):
                    # "The bus ran from Leeds to York in 1950": no run's dates; "existed from
                    # 1861 until 2008" is read as a start and an end, the start its date
                    return None
                assert t.first is not None  # "ran from 1 April 1975 to 19 March 1992"
                value = iso_value(t.first, t.first, t.granularity)
        elif tuple(lower[p0:p1]) in lex.run_starts:
            return None
        else:
            year = year_q
            value = iso_value(date(year, 1, 1), date(year, 12, 31), TimeGranularity.YEAR)
            if month:
                value = f"{year:04d}-{month:02d}" + (f"-{day:02d}" if day else "")
        copula = next((i for i in range(a, p0) if lower[i] in _COPULAS), p0)
        # "Guadalajara was *officially* founded": the subject ends at the copula
        subject = [i for i in range(a, copula) if role[i] not in (PUNCT, NEG, MODAL)]
        joined = next(
            (k for k in range(p0 - 1, a, -1) if lower[k] == "and" and lower[k - 1] == ","), None
        )
        if joined is not None:
            # "The City covered an area of 1,234 km2, and existed as ... from 1861": the
            # event is the second of two verb phrases, whose subject is the first one's
            verb = next(
                (
                    i
                    for i in range(a + 1, joined)
                    if role[i] == VERB
                    or (role[i] == CONTENT and len(lower[i]) > 4 and lower[i].endswith("ed"))
                ),
                None,
            )
            if verb is not None:
                subject = [i for i in subject if i < verb]
        if subject and subject[-1] == p0 - 1 and lower[p0 - 1] in lex.event_adverbs:
            rest = subject[:-1]
            if (len(rest) == 1 and lower[rest[0]] in _SUBJECT_PRONOUNS) or any(
                roles.word(i)[:1].isupper() and lower[i] not in _ARTICLES for i in rest
            ):
                # "It *originally* ran from ...", "Danger Mouse first aired ...": how, not
                # who; "The station officially opened" keeps its words (two pages' bare
                # "station" would share one key)
                subject.pop()
        if (
            len(subject) > 1
            and lower[subject[-1]] in _SUBJECT_PRONOUNS
            and lower[subject[-1] - 1] == ","
        ):
            # "The only son and heir of John Rowe, he was born on ...": the phrase before the
            # comma describes the pronoun, which is the subject (the page's), not "son"
            subject = subject[-1:]
        head, quals = _head(lower, role, subject, _name_of_phrase(roles, subject))
        if not head and copula == p0:
            # "Founded in 1997 in South Africa, the Cape Wine Academy introduced ...": the
            # subject follows the participle phrase (not after "He was elected in 1954 to
            # represent Hancock County, Ohio": "He" is the subject, the page's)
            comma = next((i for i in range(p1, b) if lower[i] == ","), None)
            if comma is not None:
                after: list[int] = []
                for i in range(comma + 1, b):
                    if role[i] in (PIVOT, VERB, MODAL, NEG, SEP, VALUE, TIME) or (
                        after  # "... Academy introduced", "... the Harbour Choir gave"
                        and role[i] == CONTENT
                        and (lower[i].endswith("ed") or _name_ends(roles, after[-1], i))
                    ):
                        break
                    after.append(i)
                head, _ = _head(lower, role, after)
        attribute = [event]
        entity: list[str] = []
        named = [i for i in head if roles.word(i)[:1].isupper()]
        if named and named[-1] == head[-1] and named[0] != head[0]:
            # "The movie Collateral Beauty", "Musician Thundercat": the name, not its class
            head = head[head.index(named[0]) :]
        for i in head:
            w = fold_word(lower[i])
            if w not in entity and w not in self.res.generic_heads:
                entity.append(w)
        negated = False
        for k, i in enumerate(range(a, b)):
            if role[i] == NEG and not (k and role[i - 1] == NEG):
                negated = not negated
        residual = [fold_word(lower[i]) for i in quals]
        return (
            self._value_claim(
                doc,
                sent,
                a,
                b,
                clause_start,
                ValueKind.DATE,
                entity,
                attribute,
                value,
                event,
                negated,
                residual,
                self._time_without(sent, mentions, -1 if taken is None else taken),
                reported,
                0.75,
                source_id,
                source_version_id,
                subject=_text(roles, head),
            ),  # fmt: skip
            -1 if taken is None else taken,
            (used if year_q >= 0 else []) + stepped,
        )

    def _relative_span(self, roles: Roles, mentions: Mentions, i: int, b: int) -> int:
        """The index of "later" in "eight months later" when the value at ``i`` is a span
        of time stepping from another moment (data/value_kinds.yaml ``relative_words``),
        else -1."""
        q = mentions.quantities[cast(int, roles.info[i])]
        if q.unit is None:
            return -1
        j = i
        while j + 1 < b and roles.role[j + 1] == VALUE and roles.info[j + 1] == roles.info[i]:
            j += 1
        if j + 1 < b and roles.lower[j + 1] in lexicon().relative_words:
            return j + 1
        return -1

    def _dated_act(
        self,
        doc: Doc,
        sent: Span,
        a: int,
        b: int,
        roles: Roles,
        mentions: Mentions,
        clause_start: int,
        reported: bool,
        source_id: str | None,
        source_version_id: str | None,
    ) -> Claim | None:
        """ "In June 2011, his wife gave birth to twins", "The format change was revealed on
        March 11, 2009": a clause with no value and no listed event predicate that dates
        what it tells. The date is the value of the act the clause's words name (its key
        read as for any clause, the time words left out), so two tellings of the act
        with different dates compare; the clause's other time expressions stay its time.
        None when no time expression is dated or nothing names the act."""
        role, info, lower = roles.role, roles.info, roles.lower
        if lower[b - 1] == "?" or role[a] == WH:
            return None  # a question asks when; it states no date
        taken = -1
        yearless = ""  # "on April 13": a day of a year the text does not name
        yearless_at = -1
        for i in range(a, b):
            if role[i] != TIME or (i > a and role[i - 1] == TIME and info[i - 1] == info[i]):
                continue
            last = i
            while last + 1 < b and role[last + 1] == TIME and info[last + 1] == info[i]:
                last += 1
            if (
                last + 1 < b
                and len(lower[last]) == 4
                and lower[last].isdigit()
                and roles.word(last + 1)[:1].isupper()
                and (
                    lower[last - 1] in _NAME_DETERMINERS
                    or (last == i and (i == a or role[i - 1] != PREP))
                )
            ):
                continue  # "after the 1994 Miss Universe pageant": a year inside a name
            if (
                last == i
                and i > a
                and last + 1 < b
                and len(lower[i]) == 4
                and lower[i].isdigit()
                and lower[i - 1] in _NAME_DETERMINERS
                and lower[last + 1].isalpha()
            ):
                continue  # "replaces the 2019 travel policy": the year names the thing
            if _after_name_bracket(roles, sent.start, i):
                continue  # "Kajol (born 5 August 1974)": a person's dates, read elsewhere
            t = mentions.times[cast(int, info[i])]
            if t.first is None or t.last is None or t.role == "deictic":
                if not yearless:
                    yearless = _month_day(lower[i : last + 1], self.res.months)
                    yearless_at = cast(int, info[i])
                continue
            taken = cast(int, info[i])
            break
        if taken < 0 and not yearless:
            return None
        idxs = [
            i
            for i in range(a, b)
            if role[i] not in (PUNCT, TIME)
            and not (role[i] == PREP and i + 1 < b and role[i + 1] == TIME)
        ]
        frame = read_frame(doc, roles, idxs, self.res, mentions.times, dated=True)
        entity = self._entity(frame)
        entity_words = entity.split(" ") if entity else []
        attribute = [w for w in frame.attribute_words if w not in entity_words]
        if not attribute:
            # "On April 12, 1992, Sheedy married actor David Lansbury": the name, the
            # event verb and its object read as one name; split them at the event
            entity_words, attribute = self._event_split(roles, idxs)
        if not attribute:
            return None  # nothing names the act: a bare date ("On 3 May, in Leeds.")
        heading = doc.text[sent.start_char : sent.end_char].lstrip().startswith("#")
        if frame.verb is None and heading:
            return None  # "# Travel policy (2026)": a Markdown heading tells no act
        if taken < 0:
            # No year: the ISO month-day "--04-13" is a label that compares with another
            # telling's day of the same act, never with a dated day (another kind)
            kind, value, taken = ValueKind.CATEGORICAL, yearless, yearless_at
        else:
            kind, value = ValueKind.DATE, _event_value(mentions.times[taken], 0, 0)
        return self._value_claim(
            doc, sent, a, b, clause_start, kind, entity_words, attribute, value,
            frame.verb or "date", frame.negated, list(frame.residual),
            self._time_without(sent, mentions, taken), reported, 0.5,
            source_id, source_version_id, subject=frame.subject, scope=frame.scope,
        )  # fmt: skip

    def _event_split(self, roles: Roles, idxs: Sequence[int]) -> tuple[list[str], list[str]]:
        """(entity, attribute) of a clause whose words all read as a name: the subject
        before an event predicate, and the event with up to four words of its object."""
        lower, role = roles.lower, roles.role
        words = [lower[i] for i in idxs]
        lex = lexicon()
        hit = find_phrase(words, lex.events, lex.longest_event, lex.event_firsts)
        if hit is None:
            return [], []
        content = (CONTENT, VERB)
        subject = [fold_word(lower[i]) for i in idxs[: hit[0]] if role[i] in content]
        thing: list[str] = []
        for i in idxs[hit[1] :]:
            if role[i] in (SEP, PREP) or len(thing) == 4:
                break  # "married actor David Lansbury, the nephew of ...": the object ends
            if role[i] in content:
                thing.append(fold_word(lower[i]))
        return [w for w in subject if w], [hit[2], *[w for w in thing if w]]

    def _time_without(self, sent: Span, mentions: Mentions, taken: int) -> EffectiveTime:
        """The sentence's effective time from its time expressions except ``taken``."""
        times = mentions.times  # sorted by start: only this sentence's are read
        lo = bisect_left(times, sent.start_char, key=lambda t: t.start)
        hi = bisect_left(times, sent.end_char, key=lambda t: t.start)
        rest = [times[k] for k in range(lo, hi) if k != taken]
        return effective_time(self._text, rest) if rest else _UNKNOWN_TIME

    def _change_of(self, roles: Roles, idxs: Sequence[int], qi: int) -> str:
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

    def _direction_claim(
        self,
        doc: Doc,
        sent: Span,
        a: int,
        b: int,
        roles: Roles,
        mentions: Mentions,
        when: EffectiveTime,
        clause_start: int,
        reported: bool,
        source_id: str | None,
        source_version_id: str | None,
    ) -> Claim | None:
        """ "Attrition went up in May": a categorical claim "<subject> change" = up/down."""
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
        frame = read_frame(doc, roles, [i for i in range(a, b) if role[i] != PUNCT],
                           self.res, mentions.times)  # fmt: skip
        residual = [fold_word(lower[i]) for i in quals]
        residual += [w for w in frame.residual if w not in entity and w not in residual]
        return self._value_claim(
            doc, sent, a, b, clause_start, ValueKind.CATEGORICAL, entity, ["change"],
            direction, " ".join(phrase), False, residual, when, reported, 0.6,
            source_id, source_version_id, subject=_text(roles, head), scope=frame.scope,
        )  # fmt: skip

    def _value_claim(
        self,
        doc: Doc,
        sent: Span,
        a: int,
        b: int,
        clause_start: int,
        kind: ValueKind,
        entity: list[str],
        attribute: list[str],
        value: str,
        predicate: str,
        negated: bool,
        residual: list[str],
        when: EffectiveTime,
        reported: bool,
        confidence: float,
        source_id: str | None,
        source_version_id: str | None,
        subject: str | None = None,
        scope: dict[str, str] | None = None,
    ) -> Claim:
        """A date or direction claim: key = entity words + attribute words."""
        span = self._evidence(doc, sent, clause_start, b)
        key_words = entity + [w for w in attribute if w not in entity]
        key = " ".join(key_words)
        claim_id = self._claim_id(span.start, span.end, self._roles.idx[a], None, kind.value, key)
        fields: dict[str, Any] = dict(
            id=claim_id,
            source_version_id=source_version_id,
            source_id=source_id,
            generation=self.generation,
            subject=subject,
            predicate=predicate,
            claim_key=key,
            coarse_key=key_words[-1],
            kind=kind,
            value=value,
            **NO_QUANTITY,
            polarity=Polarity.NEGATIVE if negated else Polarity.POSITIVE,
            modality=None,
            scope=dict(scope or {}),
            scope_residual=[w for w in residual if w not in key_words],
            time=_copy_time(when),
            reported_speech=reported,
            span=span,
            quote=self._text[span.start : span.end],
            confidence=confidence,
            created_at=None,
        )
        if "entity" in Claim.model_fields:  # claim identity (entity, attribute) when present
            fields["entity"] = " ".join(entity) or None
            fields["attribute"] = " ".join(attribute)
        return _claim(**fields)

    # ------------------------------------------------------------------ other scripts
    def _non_latin(
        self,
        doc: Doc,
        sent: Span,
        mentions: Mentions,
        qlo: int,
        qhi: int,
        when: EffectiveTime,
        source_id: str | None,
        source_version_id: str | None,
    ) -> list[Claim]:
        if qlo == qhi:
            claim = self._non_latin_polarity(sent, when, source_id, source_version_id)
            return [claim] if claim else []
        s0, s1 = sent.start_char, sent.end_char
        if s1 - s0 > MAX_QUOTE_CHARS:
            return self._non_latin_windows(
                doc, sent, mentions, qlo, qhi, when, source_id, source_version_id
            )
        text = self._text
        pieces = list(text[s0:s1])
        cut: list[tuple[int, int]] = [(q.cue_start, q.end) for q in mentions.quantities[qlo:qhi]]
        cut += [(t.start, t.end) for t in mentions.times if s0 <= t.start < s1]
        cut += [(lab.start, lab.end) for lab in mentions.labels if s0 <= lab.start < s1]
        scope: dict[str, str] = {}
        sentence = text[s0:s1]
        # "مدة الإشعار ليست 30 يوما": the negation leaves the key and negates the value
        scan = scan_markers(sentence, self.res.non_latin_modal)
        for k, ch in enumerate(scan.text):
            if ch == " " and sentence[k] != " ":
                pieces[k] = " "
        for phrase, dim, value in self.res.non_latin_scope:
            pos = sentence.find(phrase)
            if pos >= 0:
                scope.setdefault(dim, value)
                cut.append((s0 + pos, s0 + pos + len(phrase)))
        for c0, c1 in cut:
            for k in range(max(c0, s0), min(c1, s1)):
                pieces[k - s0] = " "
        key = fold_text("".join(pieces), self.res.non_latin_trim)
        frame = Frame(scope=scope, subject=key or None, negated=scan.negated)
        frame.modality = _MODALITY.get(scan.modal_id) if scan.modal_id else None
        span = self._evidence(doc, sent, sent.start, sent.end)
        out = []
        for q in mentions.quantities[qlo:qhi]:
            out.append(
                self._quantity_claim(
                    doc,
                    q,
                    frame,
                    when,
                    span,
                    False,
                    source_id,
                    source_version_id,
                    non_latin_key=key,
                )
            )
        return out

    def _has_non_latin_marker(self, sentence: str) -> bool:
        # a plain statement of another script is a claim too (its negation contradicts it)
        return _plain_statement(sentence) or any(
            marker in sentence for marker, _ in self.res.non_latin_modal
        )

    def _non_latin_polarity(
        self,
        sent: Span,
        when: EffectiveTime,
        source_id: str | None,
        source_version_id: str | None,
    ) -> Claim | None:
        """A modal or negated sentence in another script: the markers are removed and the
        rest is the key, so permission and prohibition of one action share a key."""
        s0, s1 = sent.start_char, sent.end_char
        if s1 - s0 > MAX_QUOTE_CHARS:
            return None
        scan = scan_markers(self._text[s0:s1], self.res.non_latin_modal)
        modal_id, negated = scan.modal_id, scan.negated
        if modal_id is None and not negated and not _plain_statement(scan.text):
            return None
        key = fold_text(scan.text, self.res.non_latin_trim)
        words = key.split(" ")
        for fragment in self.res.non_latin_trailing:
            if words and words[-1].endswith(fragment) and len(words[-1]) > len(fragment):
                words[-1] = words[-1][: -len(fragment)]
                break
        key = " ".join(words)
        if not key:
            return None
        modality = _MODALITY.get(modal_id) if modal_id else Modality.STATEMENT
        polarity = Polarity.NEGATIVE if negated else Polarity.POSITIVE
        if modality == Modality.PROHIBITION:
            polarity = Polarity.NEGATIVE
        span = self._evidence(sent.doc, sent, sent.start, sent.end)
        kind = ValueKind.POLARITY
        claim_id = self._claim_id(span.start, span.end, s0, None, kind.value, key)
        return _claim(
            id=claim_id,
            source_version_id=source_version_id,
            source_id=source_id,
            generation=self.generation,
            subject=None,
            predicate=key,
            claim_key=key,
            coarse_key=key,
            kind=kind,
            value=key,
            **NO_QUANTITY,
            polarity=polarity,
            modality=modality,
            scope={},
            scope_residual=[],
            time=_copy_time(when),
            reported_speech=False,
            span=span,
            quote=self._text[span.start : span.end],
            confidence=0.5,
            created_at=None,
        )

    def _non_latin_windows(
        self,
        doc: Doc,
        sent: Span,
        mentions: Mentions,
        qlo: int,
        qhi: int,
        when: EffectiveTime,
        source_id: str | None,
        source_version_id: str | None,
    ) -> list[Claim]:
        """A very long non-Latin sentence: each value keyed by the 40 characters before it."""
        out = []
        text = self._text
        for q in mentions.quantities[qlo:qhi]:
            w0 = max(sent.start_char, q.cue_start - 40)
            w1 = min(sent.end_char, q.end + 40)
            key = fold_text(text[w0 : q.cue_start], self.res.non_latin_trim)
            span = trusted(CharSpan, {"start": w0, "end": w1})
            out.append(
                self._quantity_claim(
                    doc,
                    q,
                    Frame(subject=key or None),
                    when,
                    span,
                    False,
                    source_id,
                    source_version_id,
                    non_latin_key=key,
                )
            )
        return out


_UNCOUNTED = ("time", "data", "percent", "mass", "length", "volume", "area", "temperature")


def _counts_things(dimension: str | None) -> bool:
    """True for counted units (tokens, API calls, "members"), not measures or money."""
    if dimension is None:
        return True
    head = dimension.split("/")[0]
    return (
        head not in _UNCOUNTED
        and not head.isupper()
        and head not in ("frequency", "power", "dosage")
    )


def _list_item_unit(q: QuantityMention) -> str | None:
    """The unit that makes values items of one list ("16 GB, 32 GB and 64 GB": GB; a
    scale word is part of the number, so "£950m and £1.2bn" share £)."""
    return (q.unit_key or q.unit or "").casefold() or None


def _words_only_after(roles: Roles, idxs: Sequence[int], qi: int) -> bool:
    """Whether a list item's context has words after its value and none before it (the
    item starts at its separator: "and 64 GB versions"), so whatever it names is the
    list's shared noun."""
    role, info = roles.role, roles.info
    at = next((k for k, i in enumerate(idxs) if role[i] == VALUE and info[i] == qi), None)
    if at is None or at == len(idxs) - 1:
        return False
    if _states_own_predicate(roles, idxs, qi):
        return False  # "and 5,000 are men": the item states its own predicate
    before = idxs[:at]
    if before and (before[-1] != idxs[at] - 1 or any(role[i] not in _WORDLESS for i in before)):
        return False
    start = (before[0] if before else idxs[at]) - 1
    while start >= 0 and role[start] == PUNCT:
        start -= 1
    # the item follows a separator ("," "and" "or"), so it is not the list's first
    return start >= 0 and role[start] == SEP


def _states_own_predicate(roles: Roles, idxs: Sequence[int], qi: int) -> bool:
    """Whether a list item's value is followed by a copula ("13,665 are men"): the item
    says what it counts, so its words name no noun shared with the list's other items."""
    role, info = roles.role, roles.info
    at = next((k for k, i in enumerate(idxs) if role[i] == VALUE and info[i] == qi), None)
    if at is None:
        return False
    while at < len(idxs) and role[idxs[at]] == VALUE and info[idxs[at]] == qi:
        at += 1
    return at < len(idxs) and role[idxs[at]] == PIVOT


# What stands between two items of one list: a comma, semicolon or slash and a
# coordinating "and" / "or" ("£12, £15 and £20"; a currency sign is in the value's span).
_LIST_JOINER = re.compile(r"\s*(?:[,;/]\s*)?(?:(?:and|or)\s+)?", re.IGNORECASE)


def _share_list_qualifiers(claims: list[Claim], text: str) -> list[Claim]:
    """Items of one list share what the sentence says once for all of them: "Parking
    permits at the Leeds office cost £12, £15 and £20 a month" states the office and the
    month for every price, not the office for the first and the month for the last.
    A run of claims with one key and one unit whose values only list joiners separate
    gets the union of their qualifiers; a run whose items name different values of one
    qualifier ("£10 for adults, £5 for children") is left as it is."""
    if len(claims) < 2:
        return claims
    runs: list[list[Claim]] = [[claims[0]]]
    for claim in claims[1:]:
        last = runs[-1][-1]
        joined = (
            claim.claim_key == last.claim_key
            and claim.kind is ValueKind.QUANTITY
            and last.kind is ValueKind.QUANTITY
            and (claim.unit or "").casefold() == (last.unit or "").casefold()
            and claim.value_span is not None
            and last.value_span is not None
            and last.value_span.end <= claim.value_span.start
            and _LIST_JOINER.fullmatch(text[last.value_span.end : claim.value_span.start])
            is not None
        )
        if joined:
            runs[-1].append(claim)
        else:
            runs.append([claim])
    for run in runs:
        if len(run) < 2 or _contrasted_pair(run, text):
            continue
        scope: dict[str, str] = {}
        if any(scope.setdefault(dim, v) != v for c in run for dim, v in c.scope.items()):
            continue
        residual = list(dict.fromkeys(w for c in run for w in c.scope_residual))
        for claim in run:
            claim.scope = dict(scope)
            claim.scope_residual = list(residual)
    return claims


def _contrasted_pair(run: list[Claim], text: str) -> bool:
    """Two values joined by a comma and a conjunction are two statements, not a list of
    two ("The notice period is 30 days, and 60 days in the first year": the year is the
    second value's scope alone); a list of two is written without the comma ("£12 and £15
    a month"), and a comma before the last of three or more items is a list's."""
    if len(run) != 2:
        return False
    first, second = run[0].value_span, run[1].value_span
    assert first is not None and second is not None
    between = text[first.end : second.start]
    return "," in between and re.search(r"\b(?:and|or)\b", between, re.IGNORECASE) is not None


@lru_cache(maxsize=1)
def _comparison_phrases() -> dict[str, list[tuple[str, ...]]]:
    """The comparison idioms of ``data/comparisons.yaml`` by first word, longest first."""
    by_first: dict[str, list[tuple[str, ...]]] = {}
    for number, phrase in enumerate(read_yaml("comparisons.yaml")["phrases"], start=1):
        words = phrase if isinstance(phrase, list) else []
        if not words or not all(isinstance(w, str) for w in words):
            raise ValueError(
                f"comparisons.yaml: phrases[{number}] must be a list of lower-case words"
            )
        by_first.setdefault(phrase[0], []).append(tuple(phrase))
    for phrases in by_first.values():
        phrases.sort(key=len, reverse=True)
    return by_first


def _without_comparisons(roles: Roles, idxs: list[int], qi: int) -> list[int]:
    """A value's context without a comparison idiom after the value and its benchmark
    ("£1.2bn, in line with the plan": the plan is no scope of the revenue), up to the
    next separator; kept when another value follows first ("compared with £4m")."""
    by_first = _comparison_phrases()
    lower, role, info = roles.lower, roles.role, roles.info
    seen_value = False
    for k, i in enumerate(idxs):
        if role[i] == VALUE and info[i] == qi:
            seen_value = True
            continue
        if not seen_value or lower[i] not in by_first:
            continue
        for phrase in by_first[lower[i]]:
            n = len(phrase)
            if tuple(lower[j] for j in idxs[k : k + n]) != phrase or idxs[k + n - 1] != i + n - 1:
                continue
            end = k + n
            stops = (SEP, VALUE)
            while end < len(idxs) and role[idxs[end]] not in stops and lower[idxs[end]] != ";":
                end += 1
            if end < len(idxs) and role[idxs[end]] == VALUE:
                return idxs
            return idxs[:k] + idxs[end:]
    return idxs


def _fronted_place(role: list[int], lead: Sequence[int]) -> bool:
    """A lead-in that is one prepositional phrase naming a place or a source ("On Rotten
    Tomatoes", "In the United States"): no time, value or verb in it, a content word."""
    if not lead or role[lead[0]] != PREP:
        return False
    kinds = {role[i] for i in lead}
    return CONTENT in kinds and not kinds & {TIME, VALUE, VERB, PIVOT, MODAL, NEG}


def _has_subject(roles: Roles, own: Sequence[int]) -> bool:
    """Whether an item's own words before its value include a content word (a subject);
    a relative clause (", which assigns a rating out of 100") has none of its own."""
    role = roles.role
    if own and roles.lower[own[0]] in _trailing_openers():
        return False
    for i in own:
        if role[i] == VALUE:
            return False
        if role[i] == CONTENT:
            return True
    return False


def _basis_counts(
    roles: Roles, a: int, values: Sequence[int], mentions: Mentions, contexts: list[list[int]]
) -> dict[int, str]:
    """The values of a clause that count what another figure rests on ("a rating of 23%
    based on 123 reviews"), each with the noun it counts; the basis phrase ("based on",
    "based on reviews from") leaves every context, so it is in no value's key."""
    out: dict[int, str] = {}
    for qi in values:
        q = mentions.quantities[qi]
        at = bisect_left(roles.idx, q.cue_start)
        basis = basis_count(roles.lower, at, a)
        if basis is None or not (basis.counted or _counted_dimension(q)):
            continue  # "based on 2019 figures": a year, no count
        out[qi] = fold_word(basis.counted or cast(str, q.unit))
        phrase = range(basis.start, at)
        for idxs in contexts:
            idxs[:] = [i for i in idxs if i not in phrase]
    return out


def _key_basis_count(frame: Frame, counted: str, figure: Frame | None) -> None:
    """A basis count is keyed by what it counts, under the entity of the figure it rests
    on (the value before it), never as that figure ("123 reviews" is no rating)."""
    frame.attribute_words = [counted]
    # the words around it (the figure's verb, its site) qualify the figure, not the count
    frame.scope = {dim: v for dim, v in frame.scope.items() if dim == "period"}
    frame.residual = []
    if figure is not None and figure.entity_words:
        frame.entity_words = list(figure.entity_words)
        frame.entity_ref = figure.entity_ref
    frame.key_words = _joined(frame.entity_words, frame.attribute_words)


def _counted_dimension(q: QuantityMention) -> str | None:
    """``count:<noun>`` when a value counts a plain noun ("200 households"), else None."""
    if q.unit_key or not q.unit:
        return None
    entry = counted_unit(q.unit)
    return entry.dimension if entry is not None else None


def _claim(**fields: Any) -> Claim:
    """A ``Claim`` from every one of its fields (see ``claims.trusted``); a claim that names
    no entity or attribute (other scripts: the key is the folded text) states its key."""
    fields.setdefault("entity", None)
    fields.setdefault("attribute", fields["claim_key"])
    return trusted(Claim, fields)


_UNKNOWN_TIME = EffectiveTime()


def _copy_time(when: EffectiveTime) -> EffectiveTime:
    """A claim's own copy of its sentence's time (claims are mutable models)."""
    return trusted(
        EffectiveTime,
        {"start": when.start, "end": when.end, "granularity": when.granularity, "text": when.text},
    )


def _hyphen_compound(roles: Roles, i: int) -> bool:
    """Whether token ``i`` ends a hyphenated word ("Irish-born", "state-owned")."""
    return (
        i >= 2
        and roles.lower[i - 1] == "-"
        and roles.end[i - 1] == roles.idx[i]
        and roles.end[i - 2] == roles.idx[i - 1]
    )


def _name_ends(roles: Roles, previous: int, i: int) -> bool:
    """A lowercase word right after a capitalised one ends a name ("Choir gave")."""
    return roles.word(previous)[:1].isupper() and not roles.word(i)[:1].isupper()


def _month_day(words: Sequence[str], months: dict[str, int]) -> str:
    """ISO 8601 month-day ("--04-13") of a time expression naming a month and a day
    ("April 13", "13th April"), else ""."""
    month = next((months[w] for w in words if w in months), 0)
    days = [int(d) for w in words if (d := w.rstrip("stndrh")).isdigit() and 1 <= int(d) <= 31]
    if not month or len(days) != 1:
        return ""
    try:
        date(2000, month, days[0])  # a leap year: "February 29" is a day
    except ValueError:
        return ""
    return f"--{month:02d}-{days[0]:02d}"


def _after_name_bracket(roles: Roles, a: int, i: int) -> bool:
    """Whether token ``i`` sits in brackets opened right after a capitalised word ("Anna
    Pavlova (January 23, 1885)", "Kajol (born Kajol Mukerji; 5 August 1974)")."""
    for k in range(i - 1, max(a, i - 12) - 1, -1):
        if roles.lower[k] in (")", "]"):
            return False
        if roles.lower[k] in ("(", "["):
            return k > a and roles.word(k - 1)[:1].isupper()
    return False


def _first_pivot_acts(roles: Roles, a: int, b: int) -> bool:
    """Whether the clause's first pivot is a possession or action verb (not a copula)."""
    first = next(i for i in range(a, b) if roles.role[i] == PIVOT)
    return roles.info[first] != "copula"


def _label_shaped(roles: Roles, a: int, b: int, allow_time: bool = False) -> bool:
    """Whether a copula clause has the shape "X is <label>" (a short subject, a few
    content words after the verb, no value, time or comparison). ``allow_time``: a
    statement verb's clause may say when ("announced the fixtures in June 2014")."""
    role = roles.role
    late = (LABEL, VALUE) if allow_time else (LABEL, VALUE, TIME)
    pivot_at = _pivot_char(roles, a, b)
    before = [i for i in range(a, b) if roles.idx[i] < pivot_at]
    after = [i for i in range(a, b) if roles.idx[i] > pivot_at]
    return not (
        len(before) > 8
        or any(role[i] in (SEP, LABEL, VALUE) for i in before)
        or any(role[i] in late for i in after)
        or not 1 <= sum(role[i] in (CONTENT, VERB) for i in after) <= 5
        or any(
            roles.lower[i] in ("too", "very", "than")
            or (roles.lower[i] == "to" and role[i] != STOP)
            for i in after
        )
    )


_COPULAS = frozenset({"is", "are", "was", "were", "be", "been", "being"})
# "the 1994 Miss Universe pageant", "their 2019 acquisition": a year after these words
# begins a name or describes a noun; "in 2009 Smith joined" dates the act
_NAME_DETERMINERS = frozenset({"the", "a", "an", "its", "his", "her", "their", "our"})
_BREAKDOWN = frozenset({"whom", "which"})  # "of whom 2,500 were men"
_ITEM_LEADS = frozenset({"with", "including", "plus"})  # ", with a total of 24 million"
# "in May", "since May": the month, not the modal "may"
_MONTH_PREPOSITIONS = frozenset(
    {"in", "of", "since", "until", "from", "during", "by", "early", "late", "mid"}
)


def _event_value(t: TimeMention, month: int, day: int) -> str:
    """The ISO value of an event's date; "after 1987" is open-ended ("1988-01-01/")."""
    assert t.first is not None and t.last is not None
    first, last, granularity = t.first, t.last, t.granularity
    if month and granularity is TimeGranularity.YEAR:
        try:  # a month and day the time expression left out ("October 18 , 1984")
            first = last = date(first.year, month, day) if day else date(first.year, month, 1)
            granularity = TimeGranularity.DAY if day else TimeGranularity.MONTH
            if not day:
                last = date(first.year + month // 12, month % 12 + 1, 1) - timedelta(days=1)
        except ValueError:
            first, last = t.first, t.last
    if t.role == "after":
        return f"{(last + timedelta(days=1)).isoformat()}/"
    if t.role == "from":
        return f"{first.isoformat()}/"
    if t.role == "before":
        return f"/{(first - timedelta(days=1)).isoformat()}"
    if t.role == "until":
        return f"/{last.isoformat()}"
    return iso_value(first, last, granularity)


def _passive_action(roles: Roles, idxs: Sequence[int]) -> tuple[list[str], list[str]] | None:
    """(verb + object, agent words) of "X is [not] <participle> by Y", else None."""
    role, lower = roles.role, roles.lower
    for k, i in enumerate(idxs[:-1]):
        if lower[idxs[k + 1]] != "by" or not (
            role[i] == VERB or (role[i] == PIVOT and roles.info[i] == "action")
        ):
            continue
        before = [lower[j] for j in idxs[:k]]
        if not _COPULAS.intersection(before):
            return None  # "the council approved by a vote": no passive
        copula = next(j for j in idxs[:k] if lower[j] in _COPULAS)
        subject = [
            fold_word(lower[j]) for j in idxs[:k] if j < copula and role[j] in (CONTENT, VERB)
        ]
        agent = [
            fold_word(lower[j])
            for j in idxs[k + 2 :]
            if role[j] in (CONTENT, SCOPE) and lower[j] not in _COPULAS
        ]
        if not agent or not subject:
            return None
        return [fold_word(lower[i]), *subject], agent
    return None


_CONTRAST_WORDS = frozenset({"other", "remaining"})
_PARTICLE_WORDS = frozenset({"on", "off"})


def _with_particle(roles: Roles, idxs: Sequence[int], action: list[str]) -> list[str]:
    """ "switched off" keeps its particle when the pair is in the antonym lexicon, so it
    is "switch on" denied rather than "switch" affirmed."""
    if not action:
        return action
    for k, i in enumerate(idxs[:-1]):
        if fold_word(roles.lower[i]) == action[0] and roles.lower[idxs[k + 1]] in _PARTICLE_WORDS:
            phrase = f"{action[0]} {roles.lower[idxs[k + 1]]}"
            if phrase in lexicon().adjective_antonyms:
                return [*phrase.split(), *action[1:]]
            break
    return action


def _action_with_verb(roles: Roles, idxs: Sequence[int], frame: Frame) -> list[str]:
    """The action words of a polarity claim, led by its verb however the clause was split:
    "approved the extension", "did not approve the extension" and "rejected the
    extension" all become "approve extension" (the antonym's pole is applied later)."""
    words = list(frame.action_words)
    if not words:
        return words
    at = [k for k, i in enumerate(idxs) if fold_word(roles.lower[i]) == words[0]]
    for i in reversed(idxs[: at[-1] + 1] if at else ()):
        r = roles.role[i]
        if r == VERB or (r == PIVOT and roles.info[i] in ("action", "possession")):
            verb = fold_word(roles.lower[i])
            if verb not in words[:1]:
                words.insert(0, verb)
            break
        if r in (NEG, MODAL, PIVOT, SEP):
            break  # the verb is right before the action; the subject lies beyond these
    return words


def _predicate_shape(roles: Roles, a: int, b: int) -> str:
    """What a copula's predicate states: "property" (an adjective or participle: "is
    transferable", "is taught in English"), "class" (an indefinite noun: "is a
    prerequisite", both a label of the subject and a property) or "label" ("is German
    law": the subject names the attribute, the predicate its value)."""
    pivot_at = _pivot_char(roles, a, b)
    role, lower = roles.role, roles.lower
    after = [i for i in range(a, b) if roles.idx[i] > pivot_at]
    for k, i in enumerate(after):
        if role[i] not in (CONTENT, VERB):
            continue
        if k and lower[after[k - 1]] in ("a", "an"):
            return "class"
        if roles.word(i)[:1].isupper():
            return "label"  # a name ("English", "Delaware") after the copula
        return "property" if is_property_word(lower[i]) else "label"
    return "label"


def _pivot_char(roles: Roles, a: int, b: int) -> int:
    for i in range(a, b):
        if roles.role[i] in (PIVOT, MODAL):
            return roles.idx[i]
    return roles.idx[b - 1] + 1
