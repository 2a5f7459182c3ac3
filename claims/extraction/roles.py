"""Token roles: every token of a sentence gets one role (value, time, label, scope, modal,
negation, pivot...), read once per doc (``assign_roles``)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import spacy.symbols
from spacy.tokens import Doc
from spacy.vocab import Vocab

from claims.extraction.identity import (
    NAME_OPENERS,
    clean,
)
from claims.extraction.mentions import Mentions
from claims.extraction.resources import Resources
from claims.extraction.value_kinds import (
    lexicon,
)
from claims.models import (
    Modality,
)
from claims.profiles import StanceReading

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


def assign_roles(
    doc: Doc,
    mentions: Mentions,
    res: Resources,
    text: str,
    stance: StanceReading | None = None,
) -> Roles:
    """Every token's role, in passes: mentions (values, times, labels), cue phrases, the
    words' own roles, then the readings that look at neighbours."""
    n = len(doc)
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
    roles = Roles([-1] * n, [None] * n, starts, ends, lower, text)
    _mark_mentions(roles, mentions)
    _mark_cues(roles, doc._.cues or [])
    _mark_words(roles, rows, res)  # type: ignore[arg-type]
    _mark_in_context(roles, stance)
    if n and doc.has_annotation("POS"):
        # A trained pipeline (CLAIMS_SPACY_MODEL) tags verbs the lexicons do not know:
        # they split subject from action like the statement verbs of cues.yaml.
        pos = doc.to_array(["POS"]).tolist()
        role = roles.role
        for i in range(n):
            if role[i] == CONTENT and pos[i] == _POS_VERB:
                role[i] = VERB
    return roles


def _mark(roles: Roles, start: int, end: int, r: int, data: object) -> None:
    """Give the tokens of characters ``start:end`` that have no role yet role ``r``."""
    starts, ends, role, info = roles.idx, roles.end, roles.role, roles.info
    n = len(role)
    i = max(0, bisect_left(starts, start) - 1)
    while i < n and starts[i] < end:
        if ends[i] > start and role[i] == -1:
            role[i] = r
            info[i] = data
        i += 1


def _mark_mentions(roles: Roles, mentions: Mentions) -> None:
    starts, role, info = roles.idx, roles.role, roles.info
    n = len(role)
    for qi, q in enumerate(mentions.quantities):
        _mark(roles, q.cue_start, q.end, VALUE, qi)
        if q.modifier is not None:  # the describing word stays content ("vacation")
            i = bisect_left(starts, q.modifier[0])
            while i < n and starts[i] < q.modifier[1]:
                role[i], info[i] = -1, None
                i += 1
    for ti, tm in enumerate(mentions.times):
        _mark(roles, tm.start, tm.end, TIME, ti)
    for lab in mentions.labels:
        _mark(roles, lab.start, lab.end, LABEL, lab.scope)


def _mark_cues(roles: Roles, cues: list[tuple[int, int, str, str]]) -> None:
    role, info, lower = roles.role, roles.info, roles.lower
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
            written = roles.text[roles.idx[start] : roles.end[end - 1]].lower()
            r, data = SCOPE, (dim, value or written)
        elif label in _CUE_ROLES:
            r, data = _CUE_ROLES[label], ident
        else:
            continue
        for i in range(start, end):
            role[i] = r
            info[i] = data
    n = len(role)
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


def _mark_words(roles: Roles, rows: list[tuple[str, int]], res: Resources) -> None:
    """The tokens no mention or cue took get their word's own role."""
    role, lower = roles.role, roles.lower
    n = len(role)
    units = res.unit_words
    for i, row in enumerate(rows):
        if role[i] != -1:
            continue
        r = role[i] = row[1]
        # "per share", "in days": a unit named after a preposition is a unit hint
        if r == PREP and i + 1 < n and lower[i] in _UNIT_HINTS and lower[i + 1] in units:
            role[i + 1] = UNIT


def _mark_in_context(roles: Roles, stance: StanceReading | None) -> None:
    """Roles read from the neighbours: a name opened by "New", a breakdown after "of
    whom", "to" between two stance poles, an antonym lexicon verb."""
    role, info, lower, starts, text = roles.role, roles.info, roles.lower, roles.idx, roles.text
    n = len(role)
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
        # "a total population of 18,412 of whom 9,307 are men and 9,105 are women": the
        # breakdown after "of whom" / "of which" is a list of its own, each item counting
        # its own part, not more of the total
        if lower[i] == "of" and lower[i + 1] in _BREAKDOWN and role[i + 2] == VALUE:
            role[i] = SEP
            for k in range(i + 3, n - 1):
                if lower[k] in (".", ";"):
                    break
                if lower[k] == "and" and role[k + 1] == VALUE:
                    # "... 9,307 are men and 9,105 are women": each part is an item
                    role[k] = SEP
    poles = stance.poles() if stance is not None else {}
    if n > 2 and poles and not poles.keys().isdisjoint(lower):
        for i in range(1, n - 1):
            # "mixed to positive reviews": one stance between two poles, no preposition
            if lower[i] == "to" and role[i] == PREP and _between_poles(lower, i, poles):
                role[i] = STOP
    verb_forms = lexicon().verb_forms
    for i in range(n):
        # "The museum declines card payments": an antonym lexicon verb states like "accepts"
        if role[i] == CONTENT and lower[i] in verb_forms:
            role[i] = VERB


def _between_poles(lower: list[str], i: int, poles: Mapping[str, str]) -> bool:
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


_BREAKDOWN = frozenset({"whom", "which"})  # "of whom 2,500 were men"
# "in May", "since May": the month, not the modal "may"
_MONTH_PREPOSITIONS = frozenset(
    {"in", "of", "since", "until", "from", "during", "by", "early", "late", "mid"}
)
