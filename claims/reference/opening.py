"""The opening sentence of a reference article: the document's subject and the labels it gives.

Reference articles (encyclopedia pages, catalogue entries) open by naming their subject and
saying what it is: "Paper Kites (2009 film) Paper Kites is a 2009 Irish
ensemble road comedy film directed by Nora Quill." The sentence parser reads claims from
values; this sentence states labels that no value cue marks, so it is read here as a whole:

* the **subject**: the title the page opens with (its bracketed disambiguation kept, so two
  films of one name stay two entities: "death at funeral (2007 film)"), else the name
  before the copula. A claim of the document that names no entity ("It has a population of
  4,411", "The film was shot in India") is about it (issue 12, design point 1);
* **dates in brackets** after a person's name: born and died ("(February 8, 1900 - March 2,
  1977)", "(born 4 December 1961)");
* the **noun phrase after the copula**: a work's medium ("film"), language ("Hindi"),
  genre ("black comedy film"); a person's occupation ("American jurist, lawyer, and
  politician") and sport ("former American football linebacker");
* **makers and places**: "directed by Nora Quill" (director), "the fifth studio album by Tin
  Herons" (artist), "based in Tampa, Florida" (location).

Only a document whose first sentence has this shape is read: a page cut from the middle of
an article opens with no subject and gets none. Words live in ``data/opening.yaml``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from spacy.tokens import Doc, Span

from claims.extraction.entity_refs import qualified
from claims.extraction.identity import fold_name, is_edition, is_name, lemma, name_tokens
from claims.extraction.mentions import Mentions, TimeMention
from claims.extraction.question_frames import name_suffixes
from claims.extraction.resources import resources
from claims.extraction.value_kinds import NO_QUANTITY, iso_value, plain_statement
from claims.ids import stable_id_maker
from claims.models import (
    Claim,
    EffectiveTime,
    Polarity,
    ValueKind,
)
from claims.models import (
    Span as CharSpan,
)
from claims.reference.affiliation import party_mentions
from claims.reference.disambiguation import entry_labels
from claims.reference.infobox import (
    Field,
    box_subject,
    furniture,
    header_subject,
    in_block,
    is_reference_date,
    read_fields,
)
from claims.reference.page_footer import (
    address_spans,
    description_labels,
    footer_labels,
    footer_title,
    wikidata_label,
)
from claims.reference.prose_relations import military_ranks
from claims.reference.resources import read_yaml
from claims.trusted import trusted

MAX_SUBJECT_TOKENS = 40  # a name before the copula longer than this is not a name
MAX_PHRASE_TOKENS = 14  # the noun phrase after the copula
MAX_NAME_TOKENS = 8  # a maker's or place's name
MAX_OPENING_CHARS = 600  # a first "sentence" longer than this is a run of page furniture
# how far down a page its opening may come after the page's furniture
MAX_LATE_SENTENCES = 12
MAX_LATE_CHARS = 2500
MAX_LATE_NAME_WORDS = 8  # a longer capitalised run before a late copula is page furniture
CONFIDENCE = 0.7
FIELD_CONFIDENCE = 0.75  # a box field names its attribute outright
_OPEN, _CLOSE = "([", ")]"
_DASHES = frozenset({"-", "\u2013", "\u2014"})
_ARTICLES = frozenset({"the", "a", "an"})
# rank words an occupation uses for a kind of officer, not a rank: "a German general", "the
# commanding general", "a sea captain", "a naval commander"
_GENERIC_RANKS = frozenset(
    {("general",), ("admiral",), ("marshal",), ("commander",), ("captain",), ("major",),
     ("private",)}
)  # fmt: skip
# what ends one part of an occupation ("a rear admiral and maritime lawyer")
_PART_ENDS = frozenset({"and", ",", "&", "/", ";"})
_SUBJECT_PRONOUNS = frozenset({"it", "he", "she", "they"})
_SPACE_BEFORE_MARK = re.compile(r"\s+([,.;:!?)\]])")
_SPACE_AFTER_BRACKET = re.compile(r"([(\[])\s+")
_QUOTES = frozenset({'"', "'", "`", "``", "''", "\u201c", "\u201d"})


@dataclass(frozen=True)
class _Words:
    copulas: frozenset[str]
    connectors: frozenset[str]
    phrase_ends: frozenset[str]
    not_genre: frozenset[str]
    genre_heads: frozenset[str]
    works: dict[str, tuple[str, str]]  # head lemma -> (medium, maker attribute)
    agents: dict[str, str]
    located: frozenset[str]
    sports: tuple[tuple[tuple[str, ...], str], ...]  # phrase -> sport, longest first
    instruments: tuple[tuple[tuple[str, ...], str], ...]  # phrase -> instrument, longest first
    languages: frozenset[str]
    nationalities: tuple[tuple[str, ...], ...]
    occupations: frozenset[str]
    parties: tuple[tuple[str, ...], ...]
    chrome_lines: tuple[str, ...] = ()


@lru_cache(maxsize=1)
def _words() -> _Words:
    data = read_yaml("opening.yaml")

    def words(name: str) -> frozenset[str]:
        return frozenset(str(w).casefold() for w in data.get(name) or ())

    sports: list[tuple[tuple[str, ...], str]] = []
    for sport, phrases in (data.get("sports") or {}).items():
        for phrase in [sport, *phrases]:
            sports.append((tuple(lemma(w) for w in str(phrase).split()), str(sport)))
    instruments: list[tuple[tuple[str, ...], str]] = []
    for instrument, agents in (data.get("instruments") or {}).items():
        # "a tabla player", "a pianist": the instrument is named with "player" or by its agent
        for phrase in [f"{instrument} player", *(agents or ())]:
            instruments.append((tuple(lemma(w) for w in str(phrase).split()), str(instrument)))
    try:
        works = {
            str(head): (str(entry["medium"]), str(entry["maker"]))
            for head, entry in (data.get("works") or {}).items()
        }
    except (KeyError, TypeError) as error:
        raise ValueError(
            f"opening.yaml: works: {error}; each work kind needs a medium and a maker"
        ) from error
    return _Words(
        copulas=words("copulas"),
        connectors=words("name_connectors"),
        phrase_ends=words("phrase_ends"),
        not_genre=words("not_genre"),
        genre_heads=words("genre_heads"),
        works=works,
        agents={str(k): str(v) for k, v in (data.get("agents") or {}).items()},
        located=words("located"),
        sports=tuple(sorted(set(sports), key=lambda s: len(s[0]), reverse=True)),
        instruments=tuple(sorted(set(instruments), key=lambda s: len(s[0]), reverse=True)),
        languages=words("languages"),
        nationalities=tuple(
            sorted(
                {tuple(str(n).split()) for n in data.get("nationalities") or ()},
                key=len,
                reverse=True,
            )
        ),
        occupations=words("occupations"),
        parties=tuple(
            sorted(
                {tuple(str(p).split()) for p in data.get("parties") or ()}, key=len, reverse=True
            )
        ),
        chrome_lines=tuple(str(c) for c in data.get("chrome_lines") or ()),
    )


@dataclass
class Label:
    """One label of the opening: attribute, value as written, the value's characters."""

    attribute: str
    value: str
    start: int
    end: int
    kind: ValueKind = ValueKind.CATEGORICAL


@dataclass
class Opening:
    """What a document's opening sentence says about its subject."""

    entity: str  # the subject in key form ("death at funeral (2007 film)")
    name: str  # the subject as written
    sentence: tuple[int, int]  # characters of the opening sentence
    labels: list[Label] = field(default_factory=list)
    aliases: frozenset[str] = frozenset()  # other key forms of the subject's names
    late: bool = False  # read further down a page: its labels, and the claims referring back
    kinds: frozenset[str] = frozenset()  # nouns that refer back to it ("the album")
    person: bool = False  # a life's dates or an occupation: "he"/"she" refer back to it


@dataclass(frozen=True)
class _Tok:
    text: str
    lower_: str
    idx: int

    @property
    def end(self) -> int:
        return self.idx + len(self.text)


def _tokens(sent: Span, text: str) -> list[_Tok]:
    """The sentence's words, a hyphen written without spaces joining its neighbours
    ("Assamese-language", "comedy-drama"), as the sentence writes them."""
    out: list[_Tok] = []
    for token in sent:
        start = token.idx
        glued = bool(out) and out[-1].end == start
        if (
            glued
            and (token.text == "-" or out[-1].text.endswith("-"))
            and out[-1].text[:1].isalpha()
        ):
            prev = out.pop()
            out.append(
                _Tok(
                    text[prev.idx : token.idx + len(token.text)],
                    text[prev.idx : token.idx + len(token.text)].lower(),
                    prev.idx,
                )
            )
            continue
        out.append(_Tok(token.text, token.text.lower(), start))
    return out


def _is_capitalised(word: str) -> bool:
    return word[:1].isupper() or word[:1].isdigit()


def _brackets(tokens: Sequence[str], start: int, stop: int) -> list[tuple[int, int]]:
    """Top-level bracketed stretches (open index, close index) among tokens[start:stop]."""
    found, depth, opened = [], 0, -1
    for i in range(start, stop):
        if tokens[i] in _OPEN:
            if depth == 0:
                opened = i
            depth += 1
        elif tokens[i] in _CLOSE and depth:
            depth -= 1
            if depth == 0:
                found.append((opened, i))
    return found


def _subject_words(
    tokens: Sequence[str], lower: Sequence[str], copula: int, words: _Words
) -> tuple[list[int], list[tuple[int, int]]] | None:
    """The name's token indices before the copula (brackets and "also known as ..." asides
    out) and the brackets; None when a word there is not part of a name (the text starts
    mid-sentence: "the field hockey team won ...")."""
    brackets = _brackets(tokens, 0, copula)
    inside = {i for a, b in brackets for i in range(a, b + 1)}
    kept: list[int] = []
    for i in range(copula):
        if i in inside:
            continue
        word = tokens[i]
        if word == "," and i + 1 < copula and tokens[i + 1][:1].islower():
            if lower[i + 1] in _SUBJECT_PRONOUNS:
                # "The Parish Ledger in 2011, it had ... of whom 2,300 were
                # men": the words before the comma are fronted before the sentence's own
                # subject, a pronoun, so the page names no subject here
                return None
            break  # ", also known as Hvolsfell," / ", popularly known as Bina Tal,"
        if word in (",", ".") or word in _QUOTES or word in _DASHES:
            kept.append(i)
            continue
        if not (_is_capitalised(word) or lower[i] in words.connectors):
            return None
        kept.append(i)
    while kept and (tokens[kept[-1]] in (",", ".") or tokens[kept[-1]] in _QUOTES):
        kept.pop()
    named = [i for i in kept if tokens[i][:1].isalnum()]
    if not named or not _is_capitalised(tokens[named[0]]):
        return None
    return kept, brackets


def _split_title(tokens: Sequence[str], kept: list[int]) -> int | None:
    """Where the page title ends and the sentence's own subject begins; None when the name
    is not repeated. In order: the name written twice ("Nick Ashford | Nick Ashford"), the
    sentence repeating the start of a longer title ("Ashby Township, Lorne County,
    Ohio | Ashby Township"), the two parts ending with the same word ("Corwin
    T. Hale | Major General Corwin Tobias Hale")."""
    words = [tokens[i].casefold() for i in kept if tokens[i][:1].isalnum()]
    positions = [i for i in kept if tokens[i][:1].isalnum()]
    splits = [k for k in range(1, len(words)) if _is_capitalised(tokens[positions[k]])]
    for k in splits:
        if words[:k] == words[k:]:
            return positions[k]
    for k in splits:
        if len(words) - k < k and words[k:] == words[: len(words) - k]:
            return positions[k]
    for k in splits:
        if words[k - 1] == words[-1]:
            return positions[k]
    return None


def _names_something(tokens: Sequence[str], kept: list[int]) -> bool:
    """Whether the words before the copula are a name, not a sentence's capitalised first
    word ("Contractors are paid ...", "There were 40 people ...", "Thanks, the notice period
    is ..."): a word no dictionary knows ("Lesko"), or a capital past the first word ("Nick
    Ashford", "The Girl Who Stayed")."""
    words = [tokens[i] for i in kept if tokens[i][:1].isalnum()]
    function_words = resources().stopwords
    if not words or (words[0].lower() in function_words and words[0].lower() not in _ARTICLES):
        return False  # "In the EU, the retention period is ...": a lead-in, not a name
    return any(is_name(w) and w.lower() not in function_words for w in words) or any(
        w[:1].isupper() for w in words[1:]
    )


def _title_repeated(tokens: Sequence[str], kept: list[int], split: int | None) -> bool:
    """Whether the words before the copula are a page title written again as the
    sentence's subject ("Down River (Mara Quill album) Down River is ...", "Both Banks
    (...) Both Banks is ..."): a title may start with a word that also opens lead-ins
    ("Down", "Both", "Without"), but a lead-in is never written twice around a bracket."""
    if split is None:
        return False
    title = [tokens[i].casefold() for i in kept if i < split and tokens[i][:1].isalnum()]
    own = [tokens[i].casefold() for i in kept if i >= split and tokens[i][:1].isalnum()]
    return bool(title) and title == own and _is_capitalised(tokens[kept[0]])


def _text_of(text: str, toks: Sequence[_Tok], a: int, b: int) -> str:
    """The characters of words a..b-1 as written."""
    return text[toks[a].idx : toks[b - 1].end]


def _copula_at(toks: Sequence[_Tok], words: _Words) -> int | None:
    """The copula after the subject, at the top level, near the start; written in lower
    case ("The Girl Who Stayed" is a title, not its verb)."""
    depth = 0
    for i, tok in enumerate(toks[: MAX_SUBJECT_TOKENS + 1]):
        if tok.text in _OPEN:
            depth += 1
        elif tok.text in _CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0 and i > 0 and tok.text in words.copulas:
            return i
    return None


def read_opening(doc: Doc, text: str, mentions: Mentions) -> Opening | None:
    """The subject and labels of ``doc``'s opening sentence, or None when it has none.

    The opening is the first sentence. A page that starts with its furniture (a navigation
    menu, an infobox dump, "From Wikipedia, the free encyclopedia") may open its article
    further down: the first stretch near the top made of a name, its brackets, the copula
    and a description ("... Next album = `` Tideline '' ( 1981 ) `` A Hold of Light `` is an
    album by The Tin Herons.") is read as a **late opening** (``Opening.late``). It must say
    what kind of thing its subject is (a label or dates of a life), and it only states its
    labels: whether the page's other sentences are about that name is not known (a page
    cut from an album's article may describe its band), so their claims keep no entity."""
    sents = list(doc.sents)
    if sents and sents[0].start_char <= 3:
        opening = _read_sentence(sents[0], text, mentions)
        if opening is not None:
            return opening
    for sent in sents[:MAX_LATE_SENTENCES]:
        if sent.start_char > MAX_LATE_CHARS:
            break
        for start in _late_subject_starts(doc, sent):
            late = _read_sentence(doc[start : sent.end], text, mentions)
            if late is not None and late.labels:
                late.late = True
                return late
    return None


def _late_subject_starts(doc: Doc, sent: Span) -> list[int]:
    """Token indices where a name ends right before a copula and a description ("`` A Hold
    of Light `` is an album", "Arthur Penrose, 3rd Baron Wexcombe ( 2 May 1871 - 9 June
    1940 ) was a British ... politician"): walking back from the copula over brackets and
    then capitalised words, name connectors, quotes and commas before a capital. A number
    ends the walk (a date of the furniture), and so does a run too long to be one name."""
    words = _words()
    starts: list[int] = []
    for c in range(sent.start + 1, sent.end - 1):
        if doc[c].text not in words.copulas or doc[c + 1].lower_ not in _ARTICLES:
            continue
        i = c - 1
        if doc[i].text in _CLOSE:
            depth = 0
            while i >= sent.start:
                depth += doc[i].text in _CLOSE
                depth -= doc[i].text in _OPEN
                if depth == 0:
                    break
                i -= 1
            i -= 1
        name_end = i + 1
        while i >= sent.start and c - i <= MAX_SUBJECT_TOKENS:
            word = doc[i].text
            if word.rstrip(",").isdigit():
                break  # "Released : May 4, 2012 Lamps Out is ...": a date ends furniture
            if (
                _is_capitalised(word)
                or doc[i].lower_ in words.connectors
                or word in _QUOTES
                or (word == "," and _is_capitalised(doc[i + 1].text))
            ):
                i -= 1
                continue
            break
        start = i + 1
        while start < c and (
            doc[start].text in _QUOTES
            or doc[start].text == ","
            or (doc[start].lower_ in words.connectors and not _is_capitalised(doc[start].text))
        ):
            start += 1
        # "Certifications References A Hold of Light is ...": section headings run into the
        # name; a capitalised article inside the run starts the name
        start = next((k for k in range(start + 1, c) if doc[k].text in ("A", "An", "The")), start)
        named = [t for t in doc[start:name_end] if t.text[:1].isalnum()]
        if named and len(named) <= MAX_LATE_NAME_WORDS:
            starts.append(start)
    return starts


def _read_sentence(sent: Span, text: str, mentions: Mentions) -> Opening | None:
    """The subject and labels of one sentence read as an article's opening, or None."""
    if sent.end_char - sent.start_char > MAX_OPENING_CHARS:
        return None
    words = _words()
    toks = _tokens(sent, text)
    tokens = [t.text for t in toks]
    lower = [t.lower_ for t in toks]
    copula = _copula_at(toks, words)
    if copula is None:
        return None
    subject = _subject_words(tokens, lower, copula, words)
    if subject is None:
        return None
    kept, brackets = subject
    disambiguation = ""
    first = brackets[0] if brackets else None
    if (
        first is not None
        and first[0] > 0
        and first[1] + 1 < copula
        and _is_capitalised(tokens[first[1] + 1])
    ):
        # "Chandni Raaste (1979 film) Chandni Raaste is": the title, its disambiguation
        split: int | None = first[1] + 1
    else:
        split = _split_title(tokens, kept)
    if split is not None:
        title = [i for i in kept if i < split]
        opener = [b for b in brackets if title and title[-1] < b[0] < split]
        if opener and opener[0][1] > opener[0][0] + 1:
            disambiguation = _text_of(text, toks, opener[0][0] + 1, opener[0][1])
    else:
        title = kept
    if not title or not (_names_something(tokens, kept) or _title_repeated(tokens, kept, split)):
        return None
    name = _text_of(text, toks, title[0], title[-1] + 1)
    stopwords = resources().stopwords
    entity = fold_name(name_tokens(name), stopwords)
    if not entity:
        return None
    if disambiguation and not is_edition(disambiguation):
        # kept as written (lowercase): it tells two things of one name apart (an edition's
        # date or number does not: "Travel Policy (2023)" is the travel policy again)
        inner = " ".join(name_tokens(disambiguation)).replace(" ,", ",")
        entity = qualified(entity, inner) if inner else entity
    aliases = {entity.split(" (")[0]}
    own = [i for i in kept if split is not None and i >= split]
    if own:
        aliases.add(fold_name(name_tokens(_text_of(text, toks, own[0], own[-1] + 1)), stopwords))
    aliases.add(entity.split(" (")[0].split(",")[0])
    opening = Opening(
        entity=entity,
        name=name,
        sentence=(sent.start_char, sent.end_char),
        aliases=frozenset(a for a in aliases if a),
    )
    person = _life_dates(opening, toks, brackets, copula, mentions)
    phrase = _phrase(toks, copula, words)
    _phrase_labels(opening, text, toks, phrase, person, disambiguation, words)
    opening.person = person or any(label.attribute == "occupation" for label in opening.labels)
    if opening.person and not any(label.attribute == "rank" for label in opening.labels):
        _title_rank(opening, toks, copula)
    opening.kinds = _kinds(toks[phrase[-1]].lower_ if phrase else "", words)
    _agent_labels(opening, text, toks, copula, phrase, words)
    return opening


def _kinds(head: str, words: _Words) -> frozenset[str]:
    """The nouns a page uses for its subject after naming it: the head of the description
    ("an airline": "the airline") and, for a work, the other nouns of its medium ("an
    album": "the album", "the record")."""
    if not head.isalpha():
        return frozenset()
    noun = lemma(head)
    work = words.works.get(noun)
    same = {k for k, (medium, _) in words.works.items() if work and medium == work[0]}
    return frozenset({noun, *same})


def _refers_back(claim: Claim, text: str, opening: Opening) -> bool:
    """Whether a claim of a sentence after a late opening is about its subject: the
    sentence's subject is a pronoun that fits it ("It was released in 1976"; "He" or "She"
    for a person, "It" for a thing) or a noun the page uses for it ("The album reached ...");
    another subject ("The band toured ...", "Smith was born ...") is not."""
    if claim.entity is not None or not claim.attribute or claim.claim_key != claim.attribute:
        return False
    first = text[claim.span.start : claim.span.end].split(maxsplit=1)[:1]
    pronoun = first[0].casefold() if first else ""
    if pronoun in _PERSONAL:
        return opening.person
    if pronoun in _IMPERSONAL:
        return not opening.person
    if claim.subject is None:
        return False
    return lemma(claim.subject.casefold()) in opening.kinds


_PERSONAL = frozenset({"he", "she", "his", "her"})
_IMPERSONAL = frozenset({"it", "its"})


def _times_in(mentions: Mentions, start: int, end: int) -> list[TimeMention]:
    return [t for t in mentions.times if start <= t.start and t.end <= end]


def _date_value(first: Any, granularity: Any) -> str:
    return iso_value(first, first, granularity) if granularity else first.isoformat()


def _life_dates(
    opening: Opening,
    toks: Sequence[_Tok],
    brackets: list[tuple[int, int]],
    copula: int,
    mentions: Mentions,
) -> bool:
    """Born and died from the brackets right before the copula; True when the subject has
    dates of a life (it is a person)."""
    for a, b in brackets:
        if b + 1 < copula and toks[b + 1].text != ",":
            continue  # brackets followed by more name: a disambiguation, not dates
        inner = [t.lower_ for t in toks[a + 1 : b]]
        times = [t for t in _times_in(mentions, toks[a].idx, toks[b].idx) if t.first and t.last]
        if _bare_year_span(opening, toks[a + 1 : b], times):
            return True
        if not times:
            continue
        if "born" in inner[:2] or inner[:1] == ["b."]:
            t = times[0]
            opening.labels.append(
                Label("born", _date_value(t.first, t.granularity), t.start, t.end, ValueKind.DATE)
            )
            return True
        t = times[0]
        if (
            t.role == "range"
            and t.granularity is not None
            and t.first is not None
            and t.last is not None
            and t.first.year != t.last.year
        ):
            # "(September 1888 - March 1947)": one range, the life's first and last day
            opening.labels.append(
                Label("born", _date_value(t.first, t.granularity), t.start, t.end, ValueKind.DATE)
            )
            opening.labels.append(
                Label("died", _date_value(t.last, t.granularity), t.start, t.end, ValueKind.DATE)
            )
            return True
        if len(times) == 2 and any(w in _DASHES for w in inner):
            born, died = times
            opening.labels.append(
                Label(
                    "born",
                    _date_value(born.first, born.granularity),
                    born.start,
                    born.end,
                    ValueKind.DATE,
                )
            )
            opening.labels.append(
                Label(
                    "died",
                    _date_value(died.first, died.granularity),
                    died.start,
                    died.end,
                    ValueKind.DATE,
                )
            )
            return True
    return False


_CIRCA = frozenset({"c.", "c", "ca.", "ca", "circa"})
_YEAR_DIGITS = re.compile(r"^[12][0-9]{3}$")


def _year_side(side: Sequence[_Tok]) -> _Tok | None:
    """The one year a side of a life's dates states alone ("1577", "c. 1627"), else None."""
    words = [t for t in side if t.lower_ not in _CIRCA]
    if len(words) == 1 and _YEAR_DIGITS.match(words[0].text) and len(side) - 1 <= 1:
        return words[0]
    return None


def _bare_year_span(opening: Opening, inner: Sequence[_Tok], times: list[Any]) -> bool:
    """Born and died from a span of a life whose one side is a year alone, which the time
    scanner leaves a number before 1800: "(1577 - 18 April 1653)", "(c. 1627 - 31 December
    1700)", "(1577 - 1653)". A side with a day and a month is the time scanner's date; a
    circa year is read as that year (the page states no better one)."""
    dashes = [i for i, t in enumerate(inner) if t.lower_ in _DASHES]
    if len(dashes) != 1:
        return False
    cut = dashes[0]
    sides: list[tuple[str, int, int] | None] = []
    for part in (inner[:cut], inner[cut + 1 :]):
        if not part:
            return False
        year = _year_side(part)
        if year is not None:
            sides.append((year.text, year.idx, year.end))
            continue
        dated = [t for t in times if part[0].idx <= t.start and t.end <= part[-1].end]
        if len(dated) != 1 or dated[0].granularity is None:
            return False
        t = dated[0]
        sides.append((_date_value(t.first, t.granularity), t.start, t.end))
    if not any(_year_side(part) for part in (inner[:cut], inner[cut + 1 :])):
        return False  # two dates the scanner read: the callers' own cases
    for attribute, side in zip(("born", "died"), sides, strict=True):
        assert side is not None
        value, start, end = side
        opening.labels.append(Label(attribute, value, start, end, ValueKind.DATE))
    return True


def _phrase(toks: Sequence[_Tok], copula: int, words: _Words) -> list[int]:
    """Word indices of the noun phrase after the copula: "a former American football
    linebacker", "an American jurist, lawyer, and politician"."""
    lower = [t.lower_ for t in toks]
    i = copula + 1
    while i < len(toks) and lower[i] in ("also", "once", "formerly"):
        i += 1
    if i >= len(toks) or lower[i] not in ("a", "an", "the"):
        return []
    i += 1
    out: list[int] = []
    while i < len(toks) and len(out) < MAX_PHRASE_TOKENS:
        word = lower[i]
        if word in (".", ";", ":", "(", ")", "[", '"', "``", "''") or word in words.phrase_ends:
            break
        if word == ",":
            after = lower[i + 1] if i + 1 < len(toks) else ""
            if (
                not after
                or after in words.phrase_ends
                or after.endswith(("ed", "ing"))
                or after in ("a", "an", "the")
                or not after.replace("-", "").isalpha()
                or toks[i + 1].text[:1].isupper()
            ):
                break  # ", produced by", ", Texas", ", a ..."
        out.append(i)
        i += 1
    while out and lower[out[-1]] in (",", "and", "-", "\u2013"):
        out.pop()
    return out


def _strip_nationality(words_: list[str], words: _Words) -> list[str]:
    """The phrase without its opening demonyms, years and "former" ("a 2007 British ..."),
    keeping a demonym that is the sport's own word ("American football")."""
    out = list(words_)
    changed = True
    while out and changed:
        changed = False
        if out[0] in ("former", "retired") or out[0].isdigit() or out[0] in _DASHES:
            out.pop(0)
            changed = True
            continue
        for nation in words.nationalities:
            if tuple(out[: len(nation)]) == nation and len(out) > len(nation):
                if nation == ("american",) and out[1:2] == ["football"]:
                    return out
                del out[: len(nation)]
                changed = True
                break
    return out


def _sport(words_: Sequence[str], words: _Words) -> str | None:
    lemmas = [lemma(w) for w in words_ if any(ch.isalpha() for ch in w)]
    found = _phrases_in(lemmas, words.sports)
    return found[0][2] if found else None


def _is_language(word: str, words: _Words) -> bool:
    return word in words.languages or (
        word.endswith("-language") and word[: -len("-language")] in words.languages
    )


def _phrase_labels(
    opening: Opening,
    text: str,
    toks: Sequence[_Tok],
    phrase: list[int],
    person: bool,
    disambiguation: str,
    words: _Words,
) -> None:
    sport = None
    if disambiguation:
        sport = _sport(name_tokens(disambiguation), words)
        if sport:
            at = opening.sentence[0]
            opening.labels.append(Label("sport", sport, at, at))
    if not phrase:
        return
    lower = [toks[i].lower_ for i in phrase]
    start, end = toks[phrase[0]].idx, toks[phrase[-1]].end
    head = lemma(lower[-1])
    work = words.works.get(head)
    by_genre = False
    if work is None and not person and head in words.genre_heads and disambiguation:
        # "Paper Kites (2009 film) ... is a 2009 Irish romantic comedy": the title's
        # disambiguation names the medium, the description ends with the genre's noun
        work = words.works.get(lemma(name_tokens(disambiguation)[-1].casefold()))
        by_genre = work is not None
    described = _strip_nationality(lower, words)
    if work is not None and not person:
        medium = work[0]
        if lower[-2:] in (["tv", "series"], ["television", "series"]):
            medium = "television series"
        opening.labels.append(Label("medium", medium, start, end))
        for k, w in enumerate(lower):
            if _is_language(w, words):
                tok = toks[phrase[k]]
                opening.labels.append(Label("language", tok.text, tok.idx, tok.end))
                break
        genre = [
            w
            for w in described
            if w not in words.not_genre and not _is_language(w, words) and not w.isdigit()
        ]
        if (len(genre) > 1 or by_genre) and genre and lemma(genre[-1]) == head:
            opening.labels.append(Label("genre", " ".join(genre), start, end))
    elif person or head in words.occupations:
        if not any(w.isalpha() for w in described):
            return
        first = len(lower) - len(described)
        occ_start = toks[phrase[first]].idx if first < len(phrase) else start
        opening.labels.append(Label("occupation", text[occ_start:end], occ_start, end))
        _party(opening, toks, phrase, words)
        _rank_and_instruments(opening, toks, phrase[first:], lower[first:], words)
    if sport is None:
        sport = _sport(lower, words)
        if sport:
            opening.labels.append(Label("sport", sport, start, end))


def _rank_and_instruments(
    opening: Opening, toks: Sequence[_Tok], phrase: list[int], lower: list[str], words: _Words
) -> None:
    """What an occupation says beside the occupation: a military rank ending one of its
    parts ("a United States Coast Guard rear admiral and shipping lawyer", "a retired Vice Admiral":
    a rank inside a part, "a major league pitcher", "a general manager", is none, and "a
    German general" names a kind of officer, not the rank), and the
    instruments its players' nouns name ("a tabla player", "a singer, pianist and
    organist")."""
    ends = [k for k in range(len(lower)) if k + 1 == len(lower) or lower[k + 1] in _PART_ENDS]
    for k in ends:
        n = _rank_ending_at(lower, k)
        if n:
            first = k + 1 - n
            value = " ".join(toks[phrase[j]].text for j in range(first, k + 1))
            opening.labels.append(
                Label("rank", value, toks[phrase[first]].idx, toks[phrase[k]].end)
            )
            break
    named: set[str] = set()
    for k, n, instrument in _phrases_in([lemma(w) for w in lower], words.instruments):
        if instrument not in named:
            named.add(instrument)
            start, end = toks[phrase[k]].idx, toks[phrase[k + n - 1]].end
            opening.labels.append(Label("instrument", instrument, start, end))


def _rank_ending_at(lower: Sequence[str], k: int) -> int:
    """How many words the longest rank ending at word ``k`` has (0: none); a rank word that
    names a kind of officer ("general") is none."""
    for rank in military_ranks():
        n = len(rank)
        if rank not in _GENERIC_RANKS and k + 1 >= n and tuple(lower[k + 1 - n : k + 1]) == rank:
            return n
    return 0


def _phrases_in(
    lemmas: Sequence[str], table: Sequence[tuple[tuple[str, ...], str]]
) -> list[tuple[int, int, str]]:
    """Where the phrases of ``table`` (lemma tuples -> label, longest first) stand in
    ``lemmas``: (first word, length, label), in the table's order."""
    found = []
    for phrase, label in table:
        n = len(phrase)
        found += [
            (k, n, label) for k in range(len(lemmas) - n + 1) if tuple(lemmas[k : k + n]) == phrase
        ]
    return found


def _title_rank(opening: Opening, toks: Sequence[_Tok], copula: int) -> None:
    """A person's rank written as the title before their name in the opening ("Brigadier
    General John Andrew Seitz (1908 - 1987) was the commanding general of ..."): capitalised
    rank words before a capitalised name, among the subject's words. Only of a person: "General
    Motors" is a company."""
    lower = [t.lower_ for t in toks[:copula]]
    for k in range(copula - 1):
        if not toks[k].text[:1].isupper():
            continue
        opens_run = not (k and toks[k - 1].text[:1].isupper())
        for rank in military_ranks():
            n = len(rank)
            if (
                (opens_run or n > 1)  # inside a run of names only a rank of two words or more
                and k + n < copula
                and tuple(lower[k : k + n]) == rank
                and all(toks[k + j].text[:1].isupper() for j in range(n))
                and toks[k + n].text[:1].isupper()
            ):
                value = " ".join(toks[k + j].text for j in range(n))
                opening.labels.append(Label("rank", value, toks[k].idx, toks[k + n - 1].end))
                return


def _party(opening: Opening, toks: Sequence[_Tok], phrase: list[int], words: _Words) -> None:
    """ "a Republican member", "a British Conservative Party politician": the party, as
    written (capitalised: "a liberal thinker" names none)."""
    for k, i in enumerate(phrase):
        if not toks[i].text[:1].isupper():
            continue
        for party in words.parties:
            n = len(party)
            if tuple(toks[j].lower_ for j in phrase[k : k + n]) == party:
                last = phrase[min(k + n, len(phrase) - 1)]
                end = phrase[k + n - 1]
                if toks[last].lower_ == "party" and last > end:
                    end = last  # "Conservative Party"
                value = (
                    toks[i].text
                    if end == i
                    else " ".join(toks[j].text for j in phrase[k : phrase.index(end) + 1])
                )
                opening.labels.append(Label("political party", value, toks[i].idx, toks[end].end))
                return


_NAME_ENDS = frozenset({"and", "released", "is", "was", "as"})


def _name_after(toks: Sequence[_Tok], i: int, words: _Words) -> tuple[int, int] | None:
    """The capitalised name starting at or after word ``i`` (descriptive words before it
    skipped: "by American rapper Slim the Mobster"); a word range."""
    tokens = [t.text for t in toks]
    limit = min(len(tokens), i + MAX_NAME_TOKENS + 6)
    runs: list[tuple[int, int]] = []
    k = i
    while k < limit:
        word = tokens[k]
        if word[:1].isupper():
            a = k
            while k < limit and (
                tokens[k][:1].isupper()
                or (
                    tokens[k].lower() in words.connectors
                    and tokens[k].lower() not in ("and", "in", "at", "on", "for")
                    and k + 1 < limit
                    and tokens[k + 1][:1].isupper()
                )
                or (tokens[k] in ("&",) and k + 1 < limit and tokens[k + 1][:1].isupper())
            ):
                k += 1
            runs.append((a, k))
            if (
                k >= len(tokens)
                or not tokens[k][:1].isalpha()
                or tokens[k].lower() in words.phrase_ends
                or tokens[k].lower() in _NAME_ENDS
            ):
                break  # a name ends at punctuation, a verb or a preposition
            continue
        if word in (",", ".", ";", "(", ")") or word.lower() in words.phrase_ends:
            break
        k += 1
    if not runs:
        return None
    a, b = runs[-1]
    # "by American popular music duo Carpenters": the last run is the name, not a demonym
    if b - a == 1 and (tokens[a].lower(),) in words.nationalities:
        if len(runs) == 1:
            return None  # "by Australian singer-songwriter, ...": no name yet
        a, b = runs[-2]
    return a, b


MAX_PLACE_GAP = 8  # words between "located" and its "in" ("along the coast of X in")


def _place_preposition(lower: Sequence[str], i: int) -> int | None:
    """The index of the first "in" or "at" from ``i`` on, within MAX_PLACE_GAP words and
    before any punctuation; None when the clause has none."""
    for j in range(i, min(len(lower), i + MAX_PLACE_GAP + 1)):
        if lower[j] in ("in", "at"):
            return j
        if not lower[j][:1].isalnum():
            return None
    return None


def _agent_labels(
    opening: Opening,
    text: str,
    toks: Sequence[_Tok],
    copula: int,
    phrase: list[int],
    words: _Words,
) -> None:
    lower = [t.lower_ for t in toks]
    work = words.works.get(lemma(lower[phrase[-1]])) if phrase else None
    seen: set[str] = set()
    for i in range(copula + 1, len(toks)):
        attribute = None
        by = None
        if lower[i] in words.agents:
            for j in range(i + 1, min(len(toks), i + 5)):
                if lower[j] == "by":
                    attribute, by = words.agents[lower[i]], j
                    break
                if lower[j] != "and" and lower[j] not in words.agents and "-" not in lower[j]:
                    break  # "directed and co-written by", "designed and built by"
        elif lower[i] in ("by", "from") and phrase and i == phrase[-1] + 1 and work:
            attribute, by = work[1], i
        elif lower[i] in words.located:
            # "located in Tampa", "located along the shore of Old Tampa Bay in Tampa": the
            # first "in"/"at" of the clause
            at = _place_preposition(lower, i + 1)
            if at is not None:
                attribute, by = "location", at
        elif phrase and i == phrase[-1] + 1 and lower[i] == "in" and not opening.person:
            # "a private secondary school in Barrie, Ontario": where the thing is
            attribute, by = "location", i
        if attribute is None or by is None or attribute in seen:
            continue
        found = _name_after(toks, by + 1, words)
        if found is None:
            continue
        a, b = found
        if attribute == "location":
            # "located in Brighton, Boston": the place with the wider places after commas
            while b + 1 < len(toks) and toks[b].text == "," and toks[b + 1].text[:1].isupper():
                more = _name_after(toks, b + 1, words)
                if more is None or more[0] != b + 1:
                    break
                b = more[1]
        seen.add(attribute)
        opening.labels.append(
            Label(attribute, _text_of(text, toks, a, b), toks[a].idx, toks[b - 1].end)
        )


def opening_claims(
    doc: Doc,
    text: str,
    mentions: Mentions,
    claims: list[Claim],
    source_id: str | None,
    source_version_id: str | None,
    generation: str,
    page: Opening | None = None,
) -> list[Claim]:
    """``claims`` with the opening's subject placed on the claims that name no entity, and
    the opening's labels added as claims (replacing the sentence parser's reading of the same
    attribute in the opening sentence). ``page`` is the subject the register's title names
    (``page_title.py``): it serves when the text has no opening and no title of its own."""
    if not text.strip() or _is_not_english(text[:200]):
        return claims
    opening = _with_page(read_opening(doc, text, mentions), page)
    made = _ClaimMaker(
        text, stable_id_maker("cl", source_version_id, generation), source_id,
        source_version_id, generation,
    )  # fmt: skip
    fields, blocks = read_fields(text, mentions)
    item = _wikidata_subject(text, source_id) if fields else None
    if item is not None:
        # a Wikidata page's chrome ("Language Label Description Also known as") is no field
        fields = [f for f in fields if f.name_start >= item.sentence[1]]
    boxed_subject = (
        (
            item
            or _heading_subject(text, source_id)
            or _named_in_box(text, source_id)
            or _headed_box(text, source_id)
        )
        if fields
        else None
    )
    subject = opening or _title_subject(text) or boxed_subject
    if blocks and fields and subject is not None:
        # the fields state what sits in a box: the sentence parser's reading of the run of
        # fields (its "subject" a run of field names) is replaced by them. A box of no known
        # subject gives no field claim (see _field_claims), and the parser's reading stays.
        claims = [c for c in claims if not in_block(*_value_at(c), blocks)]
    furnished = furniture(text) + address_spans(text)
    # a category line, a navigation box, a reference's access date: never a claim
    claims = [
        c
        for c in claims
        if not is_reference_date(c.quote) and not in_block(*_value_at(c), furnished)
    ]
    if opening is None:
        opening = _title_subject(text) or page
    parties = _party_claims(doc, text, opening, made)
    # a cut page's own title in its footer or its Wikidata label (page_footer.py)
    parties = _inserted(parties, _footer_claims(text, source_id, made))
    if opening is None:
        boxed = _field_claims(fields, boxed_subject, made)
        header = header_subject(text) if boxed_subject is not None else None
        if (
            header is not None
            and boxed_subject is not None
            and header[1] == boxed_subject.sentence[0]
        ):
            # the maker a music box's header names is its subject's artist
            label = Label("artist", header[3], header[4], header[5])
            boxed.append(
                made.label(boxed_subject.entity, boxed_subject.name, label, header[1], header[5])
            )
        return _inserted(_inserted(claims, parties), boxed)
    if opening.late and source_id and opening.entity != (page.entity if page else None):
        # no title tells this subject from its namesakes: it is known as named in this page
        # only (two pages' "Frederick Dunmore" may be a footballer and a politician), so its
        # claims conflict with no other page's; a question naming it finds it beside the
        # titled articles of that name, and names both when they disagree
        opening.entity = qualified(opening.entity, local_to=source_id)
    boxed = _field_claims(fields, opening, made)
    s0, s1 = opening.sentence
    labelled = {label.attribute for label in opening.labels}
    dated = [(lab.start, lab.end) for lab in opening.labels if lab.kind is ValueKind.DATE]
    kept: list[Claim] = []
    added: list[Claim] = []
    for claim in claims:
        in_opening = s0 <= claim.span.start < s1
        if in_opening and claim.attribute in labelled:
            continue  # the opening reader states this attribute of the subject
        if in_opening and claim.value_span is not None and in_block(*_value_at(claim), dated):
            continue  # "(1577 - 1653) was a politician": the year is the life's, no figure
        if opening.late and not in_opening:
            if claim.span.start >= s1 and _refers_back(claim, text, opening):
                # after the opening, "It was released in 1976" is about its subject; a
                # sentence about another subject, and the furniture before it, are not
                claim = claim.model_copy(
                    update={
                        "entity": opening.entity,
                        "claim_key": f"{opening.entity} {claim.attribute}",
                    }
                )
        elif claim.entity is None and claim.attribute and claim.claim_key == claim.attribute:
            claim = claim.model_copy(
                update={
                    "entity": opening.entity,
                    "claim_key": f"{opening.entity} {claim.attribute}",
                }
            )
        elif claim.entity and _names_the_subject(claim, claim.entity, opening, in_opening):
            claim = claim.model_copy(
                update={
                    "entity": opening.entity,
                    "claim_key": opening.entity + claim.claim_key[len(claim.entity) :],
                }
            )
        kept.append(claim)
    for label in opening.labels:
        added.append(made.label(opening.entity, opening.name, label, s0, s1))
    # in document order: the labels after the other claims of the opening sentence
    at = next((k for k, c in enumerate(kept) if c.span.start >= s1), len(kept))
    ordered = [*kept[:at], *added, *kept[at:]]
    if "political party" in labelled:
        parties = [c for c in parties if not s0 <= c.span.start < s1]
    return _inserted(_inserted(ordered, parties), boxed)


def _with_page(opening: Opening | None, page: Opening | None) -> Opening | None:
    """The text's opening as the page's title names its subject, when the opening names it
    (by an alias, or a person by the surname: "Okafor was born in ..." on the page of
    "Ada Okafor"): the title tells it from its namesakes."""
    if opening is None or page is None:
        return opening
    if opening.entity not in page.aliases and not (
        page.person and _ends_the_name(opening.entity, page.entity)
    ):
        return opening
    return replace(
        opening,
        entity=page.entity,
        aliases=opening.aliases | page.aliases | {opening.entity},
        kinds=opening.kinds | page.kinds,
        person=opening.person or page.person,
    )


def _names_the_subject(claim: Claim, entity: str, opening: Opening, in_opening: bool) -> bool:
    """Whether ``claim``'s entity (``entity``, another name than the subject's key) names
    the opening's subject, so the claim is keyed by the subject:

    * "Harbour Songs (album) Harbour Songs (sometimes subtitled "Tunes Gathered
      from ...") is a compilation album, released ... on 1 March 2011": in the opening, the
      sentence parser read the title and its brackets as one long name ("harbour song album
      sometime subtitle tune gather") (``_extends_a_name``; "X X is a Y" read whole, with
      no attribute, is not);
    * "Ashby Township" in an article titled "Ashby Township, Lorne County,
      Michigan" is that township: the title tells it from its namesakes (an alias);
    * "Ashby made his first-class debut ... in 1911" on the page of "Tom Ashby
      (cricketer, born 1807)": a biography names its subject by the surname after the first
      mention (``_ends_the_name``), and the title tells this Ashby from his namesakes."""
    if entity == opening.entity or not claim.claim_key.startswith(entity):
        return False
    if (
        in_opening
        and claim.claim_key != entity
        and claim.attribute != entity
        and _extends_a_name(entity, opening)
    ):
        return True
    if entity in opening.aliases:
        return True
    return (
        opening.person
        and not opening.late
        and claim.claim_key.startswith(entity + " ")
        and _ends_the_name(entity, opening.entity)
    )


def _ends_the_name(entity: str, subject: str) -> bool:
    """Whether ``entity`` is the last words of the person ``subject``'s name, fewer than all
    ("oscroft" of "john oscroft (cricketer, born 1807)", "thomas oscroft" of "john thomas
    oscroft"; a "jr" or "iii" after the name aside), or a middle name the person is known
    by ("reinhold" of "carl reinhold roth"). The first name alone is not: a family's pages
    name a son or a father by it."""
    name = subject.split(" (")[0].split(",")[0].split()
    while len(name) > 1 and name[-1] in name_suffixes():
        name.pop()
    words = entity.split()
    if len(words) == 1 and len(name) > 2 and words[0] in name[1:-1] and len(words[0]) > 2:
        return True
    return 0 < len(words) < len(name) and name[-len(words) :] == words


def _extends_a_name(entity: str, opening: Opening) -> bool:
    """Whether an entity read in the opening sentence is the subject's name with more words
    after it (the title's bracket and an aside read into the name: every word of the
    subject's name first, then at least one more), or its name cut short before a number
    the sentence parser took for a time ("Harbour Songs 2013 is the second album,
    released on May 1, 2013": "harbour song" for "harbour song 2013")."""
    words = entity.split()
    for alias in opening.aliases:
        name = alias.split()
        if len(name) < len(words) and words[: len(name)] == name:
            return True
        if len(words) < len(name) and name[: len(words)] == words and name[len(words)].isdigit():
            return True
    return False


def _value_at(claim: Claim) -> tuple[int, int]:
    """Where a claim's value stands (its whole quote when no value span is kept)."""
    where = claim.value_span if claim.value_span is not None else claim.span
    return where.start, where.end


# the first line of a page written as a title: a few capitalised words, no full stop
_HEADING = re.compile(r"\s*#*\s*(?P<title>[^\n.:]{2,80})\n")


def _heading_subject(text: str, source_id: str | None = None) -> Opening | None:
    """The subject a page's fields are about when it has no opening and no saved-page
    title: its first line, when that is a heading ("Anna Smith", "# Riverside Depot")
    followed by more lines. Used for the box's fields only: a heading of an intranet
    page ("Board update: third quarter 2025") is no entity its sentences are about.
    A saved page's chrome lines before it ("From Wikipedia, the free encyclopedia",
    "(Redirected from ...)") are skipped; a heading under them is known as named in that
    page only (``source_id``), like a box's naming field: no title tells it from its
    namesakes."""
    at, chrome = 0, False
    while True:
        end = text.find("\n", at)
        line = text[at : len(text) if end < 0 else end].strip()
        if end < 0 or not any(line.startswith(c) for c in _words().chrome_lines):
            break
        at, chrome = end + 1, True
    match = _HEADING.match(text, at)
    if match is None:
        return None
    name = match.group("title").strip()
    words = name.split()
    if not 1 <= len(words) <= 8 or not all(
        _is_capitalised(w) or w in _words().connectors for w in words
    ):
        return None
    entity = fold_name(name_tokens(name), resources().stopwords)
    if not entity:
        return None
    aliases = frozenset({entity})
    if chrome and source_id:
        entity = qualified(entity, local_to=source_id)
    return Opening(
        entity=entity,
        name=name,
        sentence=(match.start("title"), match.end("title")),
        aliases=aliases,
    )


def _named_in_box(text: str, source_id: str | None) -> Opening | None:
    """The subject of a box on a page with no opening, no title and no heading, as the box
    names it ("Name in native language Arthur Penrose", "Full name Lin Daiwei"). Known as
    named in this page only, like a late opening's subject: no title tells it from its
    namesakes (two footballers named Lin Daiwei), so its fields conflict with no other
    page's, and a question naming it finds it beside the titled articles of that name."""
    found = box_subject(text)
    if found is None:
        return None
    name, start, end = found
    entity = fold_name(name_tokens(name), resources().stopwords)
    if not entity or not _is_capitalised(name):
        return None
    aliases = frozenset({entity, entity.split(",")[0]})
    if source_id:
        entity = qualified(entity, local_to=source_id)
    return Opening(entity=entity, name=name, sentence=(start, end), aliases=aliases)


# "A Hold of Light ( album ) - Wikipedia": a saved page's title names its subject
_PAGE_TITLE = re.compile(
    r"\s*(?P<title>[^\n]{2,120}?)\s+[-\u2013|]\s+(?:Simple English )?"
    r"(?:Wikipedia|Wikiwand|Wikidata|Wikimedia Commons)\b"
)


def _title_subject(text: str) -> Opening | None:
    """The subject of a page with no opening sentence, from its title line ("Arthur
    Penrose, 3rd Baron Wexcombe - Wikipedia"), else from the saved address in its footer
    ("index.php?title=Paper_Kites_(2009_film)&oldid=... Categories: ..."): the
    title as the key, its bracketed disambiguation kept ("hold light (album)"), like an
    opening's title."""
    match = _PAGE_TITLE.match(text)
    if match is None:
        footer = footer_title(text)
        if footer is None:
            return None
        return _titled(footer.title, footer.start, footer.end)
    return _titled(match.group("title").strip(), match.start("title"), match.end("title"))


def _titled(title: str, start: int, end: int) -> Opening | None:
    """A page title ("Hold of Light (album)") as the page's subject."""
    name, _, rest = title.partition("(")
    stopwords = resources().stopwords
    entity = fold_name(name_tokens(name.strip()), stopwords)
    if not entity or not _is_capitalised(name.strip()):
        return None
    aliases = {entity, entity.split(",")[0]}
    inner = " ".join(name_tokens(rest.rsplit(")", 1)[0])).replace(" ,", ",") if rest else ""
    if inner:
        entity = qualified(entity, inner)
    return Opening(
        entity=entity,
        name=name.strip(),
        sentence=(start, end),
        aliases=frozenset(a for a in aliases if a),
    )


def _headed_box(text: str, source_id: str | None) -> Opening | None:
    """The title a music box's header names ("... by Ansel Ware Night Ferry Studio album by
    Ansel Ware Released ..."), known as named in that page only: a bare title of a work
    is no article's title (three things are called "Night Ferry")."""
    found = header_subject(text)
    if found is None:
        return None
    name, start, end = found[:3]
    entity = fold_name(name_tokens(name), resources().stopwords)
    if not entity:
        return None
    aliases = frozenset({entity})
    if source_id:
        entity = qualified(entity, local_to=source_id)
    return Opening(entity=entity, name=name, sentence=(start, end), aliases=aliases)


def _wikidata_subject(text: str, source_id: str | None) -> Opening | None:
    """The item a Wikidata page's statements are about, by its label ("English Quiet
    Water album by Harbour Lights Statements ..."). Known as named in that page only, as a
    box's naming field: a label carries no disambiguation (three albums are called
    "Quiet Water"), so its statements conflict with no titled page's."""
    found = wikidata_label(text)
    if found is None:
        return None
    label = found[0]
    entity = fold_name(name_tokens(label.title), resources().stopwords)
    if not entity:
        return None
    aliases = frozenset({entity})
    if source_id:
        entity = qualified(entity, local_to=source_id)
    return Opening(
        entity=entity, name=label.title, sentence=(label.start, label.end), aliases=aliases
    )


def _footer_claims(text: str, source_id: str | None, made: _ClaimMaker) -> list[Claim]:
    """The facts a cut page's footer states of its saved title ("Films directed by Sunil
    Mehra", "(chef)"), a disambiguation list's entries of their titled articles
    (``disambiguation``), and a Wikidata item's description's maker ("album by
    Harbour Lights"), each of the subject that title, entry or label names."""
    found: list[Claim] = []
    footer = footer_title(text)
    titled = _titled(footer.title, footer.start, footer.end) if footer is not None else None
    if footer is not None and titled is not None:
        for fl in footer_labels(text, footer):
            label = Label(fl.attribute, fl.value, fl.start, fl.end)
            found.append(
                made.label(titled.entity, titled.name, label, fl.quote_start, fl.quote_end)
            )
    for entry in entry_labels(text):
        titled = _titled(entry.title, entry.line_start, entry.line_end)
        if titled is not None:
            label = Label(entry.attribute, entry.value, entry.start, entry.end)
            found.append(
                made.label(titled.entity, titled.name, label, entry.line_start, entry.line_end)
            )
    item = _wikidata_subject(text, source_id)
    described = wikidata_label(text)
    if item is not None and described is not None:
        description = described[1]
        for attribute, value, a, b in description_labels(description.title):
            label = Label(attribute, value, description.start + a, description.start + b)
            found.append(
                made.label(item.entity, item.name, label, description.start, description.end)
            )
    return found


def _field_claims(fields: list[Field], opening: Opening | None, made: _ClaimMaker) -> list[Claim]:
    """The box's fields as claims of the page's subject. With no subject known, none: a
    box of a page cut from its article may be of another thing than the one asked about
    (a district's box in a page on its town), and its fields would answer for it."""
    if opening is None:
        return []
    return [made.field(opening.entity, opening.name, field) for field in fields]


def _inserted(claims: list[Claim], extra: list[Claim]) -> list[Claim]:
    """``claims`` with each of ``extra`` placed after the claims that start no later (the
    order of ``claims`` itself is kept)."""
    out = list(claims)
    for claim in extra:
        at = next((k for k, c in enumerate(out) if c.span.start > claim.span.start), len(out))
        out.insert(at, claim)
    return out


@dataclass(frozen=True)
class _ClaimMaker:
    """Builds a label claim of one document (ids stable across runs)."""

    text: str
    make_id: Any
    source_id: str | None
    source_version_id: str | None
    generation: str

    def label(self, entity: str, subject: str, label: Label, s0: int, s1: int) -> Claim:
        """A categorical (or date) claim: ``entity`` has ``label``, quoted from s0..s1."""
        text = self.text
        start = s0
        while start < s1 and text[start].isspace():
            start += 1
        end = s1
        while end > start and text[end - 1].isspace():
            end -= 1
        span = trusted(CharSpan, {"start": start, "end": end})
        key = f"{entity} {label.attribute}"
        value: str = label.value
        if label.kind is ValueKind.CATEGORICAL:
            # a page tokenised with spaces around its marks: "Marston , Vermont" is
            # "Marston, Vermont"
            value = _SPACE_BEFORE_MARK.sub(r"\1", _SPACE_AFTER_BRACKET.sub(r"\1", value))
        value_span = (
            trusted(CharSpan, {"start": label.start, "end": label.end})
            if label.end > label.start
            else None
        )
        fields: dict[str, Any] = {
            "id": self.make_id(
                span.start, span.end, label.start, label.kind.value, key, label.value
            ),
            "source_version_id": self.source_version_id,
            "source_id": self.source_id,
            "generation": self.generation,
            "subject": subject,
            "predicate": label.attribute,
            "claim_key": key,
            "coarse_key": label.attribute.split()[-1],
            "entity": entity,
            "attribute": label.attribute,
            "kind": label.kind,
            "value": value,
            **NO_QUANTITY,
            **plain_statement(),
            "span": span,
            "value_span": value_span,
            "quote": text[span.start : span.end],
            "confidence": CONFIDENCE,
            "created_at": None,
        }
        return trusted(Claim, fields)

    def field(self, entity: str | None, subject: str | None, field: Field) -> Claim:
        """A claim of one box field ("Born 3 May 1970"), quoted from the field's name to
        the end of its value; a count keeps its year ("Population ( 2006 )")."""
        span = trusted(CharSpan, {"start": field.name_start, "end": field.end})
        value_span = trusted(CharSpan, {"start": field.start, "end": field.end})
        key = f"{entity} {field.attribute}" if entity else field.attribute
        value: Any = field.value
        if field.kind is ValueKind.CATEGORICAL:
            value = _SPACE_BEFORE_MARK.sub(r"\1", _SPACE_AFTER_BRACKET.sub(r"\1", str(value)))
        fields: dict[str, Any] = {
            "id": self.make_id(
                span.start, span.end, field.start, field.kind.value, key, str(field.value)
            ),
            "source_version_id": self.source_version_id,
            "source_id": self.source_id,
            "generation": self.generation,
            "subject": subject,
            "predicate": field.attribute,
            "claim_key": key,
            "coarse_key": field.attribute.split()[-1],
            "entity": entity,
            "attribute": field.attribute,
            "kind": field.kind,
            "value": value,
            **NO_QUANTITY,
            "polarity": Polarity.POSITIVE,
            "modality": None,
            "scope": {},
            "scope_residual": [],
            "time": field.time or EffectiveTime(),
            "reported_speech": False,
            "span": span,
            "value_span": value_span,
            "quote": self.text[span.start : span.end],
            "confidence": FIELD_CONFIDENCE,
            "created_at": None,
        }
        return trusted(Claim, fields)


def _party_claims(doc: Doc, text: str, opening: Opening | None, made: _ClaimMaker) -> list[Claim]:
    """``political party`` claims of the sentences that state their subject's party
    (``affiliation``): "he"/"she" and the subject's own name or surname are the article's
    subject (an opening read at the top of the page); another name is its own entity."""
    found: list[Claim] = []
    own = opening if opening is not None and not opening.late else None
    for mention in party_mentions(doc, text, _words().parties):
        entity, subject = mention.entity, mention.subject
        if own is not None and (entity is None or _names_subject(entity, own)):
            entity, subject = own.entity, own.name
        if entity is None or subject is None:
            continue  # "he" with no subject known
        label = Label("political party", mention.party, mention.start, mention.end)
        found.append(made.label(entity, subject, label, *mention.sentence))
    return found


def _names_subject(entity: str, opening: Opening) -> bool:
    """Whether a name in key form is the article's subject: one of its names, or a part of
    its head ending with the same word ("humphrey" for "james humphrey (new york
    politician)")."""
    if entity in opening.aliases:
        return True
    words = entity.split()
    head = opening.entity.split(" (")[0].split(",")[0].split()
    return bool(words) and bool(head) and words[-1] == head[-1] and set(words) <= set(head)


def _is_not_english(head: str) -> bool:
    latin = sum(1 for ch in head if ch.isascii() and ch.isalpha())
    other = sum(1 for ch in head if ch.isalpha() and ord(ch) > 0x24F)
    return other > latin
