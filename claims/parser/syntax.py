"""Structural readers over a dependency parse by the parser shipped in ``model/pipeline``.

The extraction rules find numbers, units and dates on characters; these readers answer what
the rules cannot see: the grammatical subject and its head noun, the predicate, whether a word
is under a negation, which number is the asserted value of the clause, coordinated lists,
comparisons and changes ("climbed 7%"). Relations are UD English, as in the treebanks the parser
was trained on (docs/MODEL.md).

Public surface:

- ``load_parser()``: the shipped pipeline, loaded once per process;
- ``parse_sentences(texts)``: one parsed ``Doc`` per sentence, in order;
- readers over a parsed sentence (a ``Doc`` or a sentence ``Span``): ``subject``, ``predicate``,
  ``negations``, ``is_negated`` (a token), ``number_roles``, ``asserted_value``,
  ``coordinations``, ``comparisons``, ``changes``. They return frozen dataclasses holding text
  and character offsets into the parsed text, never spaCy objects.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from spacy.language import Language
from spacy.tokens import Doc, Span, Token

from claims.errors import InputError
from claims.extraction.resources import read_yaml

MODEL_PATH = Path(__file__).parent / "model" / "pipeline"
DATA_DIR = Path(__file__).parent / "data"

SUBJECT_DEPS = frozenset({"nsubj", "nsubj:pass", "csubj", "csubj:pass", "nsubjpass", "csubjpass"})
CORE_ARGS = SUBJECT_DEPS | {"obj", "iobj", "dobj", "expl", "attr"}
NAME_PARTS = frozenset({"compound", "flat", "flat:name", "goeswith"})
OWNER_DEPS = frozenset({"nmod:poss", "poss"})
CLAUSE_DEPS = frozenset(
    {"ROOT", "ccomp", "xcomp", "advcl", "acl", "acl:relcl", "parataxis", "csubj", "csubj:pass"}
)
NOMINAL = frozenset({"NOUN", "PROPN", "NUM", "PRON"})
# A conjunct's own words: not the next conjuncts, nor the clause around a first conjunct that
# is the predicate ("The fees are 10, 20 and 30 euros").
CONJUNCT_SKIP = frozenset(
    {"conj", "cc", "punct", "nsubj", "nsubj:pass", "cop", "aux", "aux:pass", "expl", "mark", "list"}
)
# An amount phrase without its preposition or a nested "to"/"from" amount.
AMOUNT_SKIP = frozenset({"case", "punct", "nmod"})
NUMBER_PARTS = frozenset({"compound", "nummod", "flat", "fixed"})  # "three hundred", "1.5 million"
# Relations by which a value phrase hangs off the clause's predicate.
VALUE_DEPS = frozenset(
    {
        "obj",
        "dobj",
        "iobj",
        "obl",
        "obl:npmod",
        "obl:tmod",
        "obl:unmarked",
        "nmod:npmod",
        "nmod:tmod",
        "nmod:unmarked",
        "npadvmod",
        "advmod",
        "xcomp",
        "attr",
        "nsubj",
        "nsubj:pass",
    }
)
# Verbs sharing the clause: "was approved in May and costs 40 euros", "is expected to reach".
SPINE_DEPS = frozenset({"conj", "xcomp"})
YEAR = re.compile(r"^(1[0-9]|20|21)[0-9]{2}$")

NumberRole = Literal["asserted", "modifier", "name", "date", "list_marker", "parenthetical"]


@dataclass(frozen=True)
class Phrase:
    """A contiguous stretch of the parsed text and its syntactic head word."""

    text: str
    start: int  # character offsets into the parsed text
    end: int
    head: str
    head_lemma: str
    head_index: int  # token index of the head in the parsed Doc


@dataclass(frozen=True)
class Subject:
    phrase: Phrase  # the whole subject: "The P-9 router's battery"
    head: Phrase  # head noun with its compounds: "battery"
    owner: Phrase | None  # possessor or "of" noun: "P-9 router"
    passive: bool
    pronoun: bool


@dataclass(frozen=True)
class Predicate:
    word: Phrase  # the clause root: a verb, or the adjective/noun after a copula
    pos: str
    copula: str | None
    particle: str | None  # "up" in "went up"
    negated: bool


@dataclass(frozen=True)
class Negation:
    cue: Phrase  # "not", "never", "no"
    scope: Phrase  # the words it negates


@dataclass(frozen=True)
class NumberReading:
    number: Phrase  # the whole number: "45", "three hundred"
    role: NumberRole
    attached_to: Phrase | None  # the noun or verb the number measures: "days", "lasts"
    depth: int  # arcs from the clause root to the number's value phrase


@dataclass(frozen=True)
class Coordination:
    items: tuple[Phrase, ...]
    conjunction: str | None  # "and", "or"


@dataclass(frozen=True)
class Comparison:
    word: Phrase  # "more", "lighter"
    than: Phrase | None  # what is compared against, when a "than" says it
    value: Phrase | None  # a number the comparison bounds: "5" in "more than 5 days"


@dataclass(frozen=True)
class Change:
    verb: Phrase
    direction: Literal["up", "down"]
    by: Phrase | None  # "7%" in "climbed 7%" or "rose by 7%"
    to: Phrase | None  # "5%" in "rose to 5%"
    source: Phrase | None  # "3%" in "from 3%"


# --- loading and parsing --------------------------------------------------------------------


@lru_cache(maxsize=1)
def load_parser() -> Language:
    """The shipped tagger + parser (+ rule lemmatizer), loaded once per process."""
    import spacy

    if not (MODEL_PATH / "config.cfg").is_file():
        raise InputError(
            f"the parser model is missing at {MODEL_PATH}; run `make model` "
            "(it needs the UD treebanks, see docs/MODEL.md) or reinstall claimledger"
        )
    try:
        return spacy.load(MODEL_PATH)
    except (OSError, ValueError) as exc:
        raise InputError(
            f"the parser model at {MODEL_PATH} cannot be loaded ({exc}); run `make model`"
        ) from exc


def parse_sentences(
    texts: Iterable[str], *, lemmas: bool = True, batch_size: int = 128
) -> list[Doc]:
    """One parsed ``Doc`` per input sentence, in order.

    Each text is parsed as one sentence (the parser may not split it), since callers pass
    sentences the extractor has already cut. ``lemmas=False`` skips the lemmatizer.
    """
    nlp = load_parser()
    disable = [] if lemmas else [n for n in nlp.pipe_names if n == "lemmatizer"]
    with nlp.select_pipes(disable=disable):
        return list(nlp.pipe(_one_sentence_docs(nlp, texts), batch_size=batch_size))


def _one_sentence_docs(nlp: Language, texts: Iterable[str]) -> Iterator[Doc]:
    for text in texts:
        doc = nlp.make_doc(text)
        for token in doc[1:]:
            token.is_sent_start = False
        yield doc


# --- word classes ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Words:
    negators: frozenset[str]
    comparatives: frozenset[str]
    up_verbs: frozenset[str]
    down_verbs: frozenset[str]
    up_particles: frozenset[str]
    down_particles: frozenset[str]
    months: frozenset[str]
    year_prepositions: frozenset[str]


@lru_cache(maxsize=1)
def _words() -> _Words:
    data = read_yaml("syntax.yaml", DATA_DIR)

    def words(*keys: str) -> frozenset[str]:
        node = data
        for key in keys:
            node = node[key]
        return frozenset(str(w).lower() for w in node)

    return _Words(
        negators=words("negators"),
        comparatives=words("comparative_words"),
        up_verbs=words("direction_verbs", "up"),
        down_verbs=words("direction_verbs", "down"),
        up_particles=words("direction_particles", "up"),
        down_particles=words("direction_particles", "down"),
        months=words("month_names"),
        year_prepositions=words("year_prepositions"),
    )


# --- small helpers --------------------------------------------------------------------------


def _span(sent: Doc | Span) -> Span:
    return sent[:] if isinstance(sent, Doc) else sent


def _root(sent: Doc | Span) -> Token:
    return _span(sent).root


def _lemma(token: Token) -> str:
    return (token.lemma_ or token.text).lower()


def _phrase(head: Token, tokens: Iterable[Token]) -> Phrase:
    toks = list(tokens) or [head]
    first = min(toks, key=lambda t: t.i)
    last = max(toks, key=lambda t: t.i)
    # Edge punctuation belongs to the sentence, not to the phrase.
    while first.i < last.i and first.is_punct and first != head:
        first = first.doc[first.i + 1]
    while last.i > first.i and last.is_punct and last != head:
        last = last.doc[last.i - 1]
    doc = head.doc
    start, end = first.idx, last.idx + len(last.text)
    return Phrase(doc.text[start:end], start, end, head.text, _lemma(head), head.i)


def _subtree_phrase(
    head: Token, *, skip: frozenset[str] = frozenset(), leave_out: int = -1
) -> Phrase:
    """``head`` and its dependents, leaving out the branches whose relation is in ``skip``
    and the branch rooted at token index ``leave_out``."""
    tokens = [head]
    stack = [c for c in head.children if c.dep_ not in skip and c.i != leave_out]
    while stack:
        token = stack.pop()
        tokens.append(token)
        stack.extend(token.children)
    return _phrase(head, tokens)


def _name_phrase(head: Token) -> Phrase:
    """The head word with its compounds and flat name parts: "battery life", "P-9 router"."""
    tokens = [head]
    stack = [c for c in head.children if c.dep_ in NAME_PARTS]
    while stack:
        token = stack.pop()
        tokens.append(token)
        stack.extend(c for c in token.children if c.dep_ in NAME_PARTS)
    return _phrase(head, tokens)


def _child(token: Token, deps: frozenset[str]) -> Token | None:
    return next((c for c in token.children if c.dep_ in deps), None)


def _depth(token: Token, root: Token) -> int:
    depth = 0
    while token != root and token.head != token:
        token = token.head
        depth += 1
    return depth


# --- subject and predicate ------------------------------------------------------------------


def subject(sent: Doc | Span) -> Subject | None:
    """The grammatical subject of the sentence's main clause, or None (imperatives, fragments).

    A conjoined verb without its own subject shares the first verb's ("... and lasts 11 hours").
    """
    head = _root(sent)
    subj = _child(head, SUBJECT_DEPS)
    while subj is None and head.dep_ == "conj" and head.head != head:
        head = head.head
        subj = _child(head, SUBJECT_DEPS)
    misread = _misread_verb_subject(_root(sent)) if subj is None else None
    if misread is not None:
        subj = misread
    if subj is None:
        return None
    owner_token = _child(subj, OWNER_DEPS)
    if owner_token is None and misread is not None:
        owner_token = _child(_root(sent), OWNER_DEPS)
    if owner_token is None:
        owner_token = next(
            (
                c
                for c in subj.children
                if c.dep_.startswith("nmod") and any(g.lower_ == "of" for g in c.children)
            ),
            None,
        )
    if misread is not None:
        root = _root(sent)
        phrase = _phrase(subj, [t for c in root.children if c.i < root.i for t in c.subtree])
    else:
        phrase = _subtree_phrase(subj)
    return Subject(
        phrase=phrase,
        head=_name_phrase(subj),
        owner=_name_phrase(owner_token) if owner_token is not None else None,
        passive=subj.dep_.endswith("pass"),
        pronoun=subj.pos_ == "PRON",
    )


def _misread_verb_subject(root: Token) -> Token | None:
    """The subject of a verb the parser took for a plural noun, or None.

    A small parser sometimes reads "lasts", "costs", "ships" as a noun heading the sentence,
    with the real subject as its compound ("The router's battery lasts 11 hours"). A noun root
    with an object or oblique after it (relations only verbs take in UD) and a compound noun
    right before it is such a verb; that compound is its subject.
    """
    if root.pos_ not in {"NOUN", "PROPN"} or not root.lower_.endswith("s"):
        return None
    if _child(root, frozenset({"cop"})) is not None:
        return None
    verb_only = {"obj", "obl", "xcomp", "ccomp"}
    if not any(c.i > root.i and c.dep_.split(":")[0] in verb_only for c in root.children):
        return None
    before = root.doc[root.i - 1] if root.i > 0 else None
    if before is None or before.head != root or before.dep_ != "compound":
        return None
    return before if before.pos_ in {"NOUN", "PROPN"} else None


def predicate(sent: Doc | Span) -> Predicate:
    """The root of the main clause: its word, copula ("is"), particle ("up") and polarity."""
    root = _root(sent)
    copula = _child(root, frozenset({"cop"}))
    particle = _child(root, frozenset({"compound:prt", "prt"}))
    return Predicate(
        word=_phrase(root, [root]),
        pos="VERB" if _misread_verb_subject(root) is not None else root.pos_,
        copula=copula.text if copula is not None else None,
        particle=particle.lower_ if particle is not None else None,
        negated=is_negated(root),
    )


# --- negation -------------------------------------------------------------------------------


def _is_cue(token: Token) -> bool:
    if token.dep_ == "neg":
        return True
    return token.lower_ in _words().negators and token.dep_ != "ROOT"


def _scope_head(cue: Token) -> Token:
    """The word whose subtree a negation cue negates.

    "not"/"never" negate the clause they modify (climbing over "no longer"); "no"/"nothing" on a
    subject or object negate its clause ("No refunds are given"); elsewhere just the phrase.
    """
    following = cue.doc[cue.i + 1] if cue.i + 1 < len(cue.doc) else None
    if cue.lower_ == "no" and following is not None and following.lower_ == "longer":
        return _clause_head(cue)  # "no longer ships": the whole clause, however it is parsed
    if cue.pos_ == "PRON" or cue.dep_ in CORE_ARGS:
        return cue.head if cue.dep_ in CORE_ARGS else cue
    if cue.dep_ == "det":
        noun = cue.head
        return noun.head if noun.dep_ in CORE_ARGS else noun
    head = cue.head
    while head.dep_ in {"advmod", "fixed", "amod"} and head.pos_ in {"ADV", "ADJ", "PART"}:
        if head.head == head:
            break
        head = head.head
    return head


def _clause_head(token: Token) -> Token:
    """The head of the clause ``token`` is in: the nearest ancestor heading a clause."""
    while token.dep_ not in CLAUSE_DEPS and token.head != token:
        token = token.head
    return token


def negations(sent: Doc | Span) -> list[Negation]:
    """Every negation cue of the sentence with the words in its scope."""
    found = []
    for token in _span(sent):
        if _is_cue(token):
            scope = _scope_head(token)
            found.append(Negation(cue=_phrase(token, [token]), scope=_subtree_phrase(scope)))
    return found


def is_negated(token: Token) -> bool:
    """True when ``token`` lies in the scope of a negation cue of its sentence."""
    sent = token.sent if token.doc.has_annotation("SENT_START") else token.doc[:]
    for cue in sent:
        if _is_cue(cue):
            scope = _scope_head(cue)
            if token == scope or scope.is_ancestor(token):
                return True
    return False


# --- numbers --------------------------------------------------------------------------------


def _is_number(token: Token) -> bool:
    if any(ch.isdigit() for ch in token.text):
        return token.like_num or token.pos_ == "NUM"
    # Number words only when tagged so: "the old one" is not a quantity.
    return token.like_num and token.pos_ == "NUM"


def _number_top(token: Token) -> Token:
    """The head of a multi-word number ("three hundred", "1.5 million")."""
    while (
        token.head != token
        and _is_number(token.head)
        and token.dep_ in NUMBER_PARTS
        and abs(token.i - token.head.i) == 1
    ):
        token = token.head
    return token


def _number_tokens(top: Token) -> list[Token]:
    """``top`` and the number words joined to it without a gap: "three hundred"."""
    tokens = [top]
    grown = True
    while grown:
        grown = False
        for token in list(tokens):
            for child in token.children:
                near = any(abs(child.i - t.i) == 1 for t in tokens)
                if (
                    near
                    and child not in tokens
                    and _is_number(child)
                    and child.dep_ in NUMBER_PARTS
                ):
                    tokens.append(child)
                    grown = True
    return tokens


def _in_parentheses(token: Token, sent: Span) -> bool:
    depth = 0
    for other in sent:
        if other.i >= token.i:
            break
        if other.text in {"(", "["}:
            depth += 1
        elif other.text in {")", "]"} and depth:
            depth -= 1
    return depth > 0


def _is_list_marker(token: Token, sent: Span) -> bool:
    before = [t for t in sent if t.i < token.i and not (t.is_punct or t.is_space)]
    after = token.nbor(1) if token.i + 1 < len(token.doc) else None
    return not before and after is not None and after.text in {")", ".", ":"}


def _is_date_part(token: Token, words: _Words) -> bool:
    doc = token.doc
    neighbours = [doc[i] for i in (token.i - 2, token.i - 1, token.i + 1) if 0 <= i < len(doc)]
    if any(n.lower_.rstrip(".") in words.months for n in neighbours):
        return True
    if token.head.lower_ in words.months:
        return True
    if YEAR.match(token.text):
        holder = token.head if token.dep_ == "nummod" else token
        cases = [c.lower_ for c in holder.children if c.dep_ == "case"]
        if any(c in words.year_prepositions for c in cases) or token.dep_.endswith("tmod"):
            return True
    return False


def _is_in_name(token: Token) -> bool:
    """True for a number right after a capitalised word it is joined to ("Route 66")."""
    if token.i == 0:
        return False
    before = token.doc[token.i - 1]
    joined = token.head == before or before.head == token
    # A capitalised first word says nothing; elsewhere it marks a name like "Route".
    named = before.pos_ == "PROPN" or ((before.is_title or before.is_upper) and before.i > 0)
    return joined and named and before.is_alpha


def _value_holder(top: Token) -> Token:
    """The phrase head a number measures: "hours" in "11 hours", the number itself when bare."""
    if top.dep_ in {"nummod", "nmod:npmod", "compound"} and top.head != top:
        return top.head
    return top


def _spine(root: Token) -> set[int]:
    """Token indices of the root and the verbs sharing its clause by conjunction or open
    complement."""
    spine = {root.i}
    stack = [root]
    while stack:
        token = stack.pop()
        for child in token.children:
            if child.dep_ in SPINE_DEPS and child.i not in spine:
                spine.add(child.i)
                stack.append(child)
    return spine


def number_roles(sent: Doc | Span) -> list[NumberReading]:
    """Every number of the sentence, in order, with what it is doing there.

    ``asserted``: the value the clause states (attached to the root or one of its arguments);
    ``modifier``: a number deeper in the sentence (in a relative clause, a modifier);
    ``name``, ``date``, ``list_marker``, ``parenthetical``: not a value of the clause.
    """
    span = _span(sent)
    root = span.root
    spine = _spine(root)
    subj = subject(span)
    words = _words()
    readings = []
    seen: set[int] = set()
    for token in span:
        if not _is_number(token):
            continue
        top = _number_top(token)
        if top.i in seen:
            continue
        seen.add(top.i)
        parts = _number_tokens(top)
        holder = _value_holder(top)
        role: NumberRole
        if _in_parentheses(top, span):
            role = "parenthetical"
        elif _is_list_marker(min(parts, key=lambda t: t.i), span):
            role = "list_marker"
        elif any(_is_date_part(t, words) for t in parts):
            role = "date"
        elif _is_in_name(min(parts, key=lambda t: t.i)):
            role = "name"
        elif _is_asserted(holder, spine, subj):
            role = "asserted"
        else:
            role = "modifier"
        attached = holder if holder != top else (top.head if top.head != top else None)
        readings.append(
            NumberReading(
                number=_phrase(top, parts),
                role=role,
                attached_to=_name_phrase(attached) if attached is not None else None,
                depth=_depth(holder, root),
            )
        )
    return readings


def _is_asserted(holder: Token, spine: set[int], subj: Subject | None) -> bool:
    if holder.i in spine:
        return True  # "The fee is 40 euros": the number's noun is the root
    if holder.dep_ in VALUE_DEPS and holder.head.i in spine:
        return True
    # "a battery life of 11 hours": attached to the attribute noun the clause is about.
    attribute = holder.head
    if holder.dep_.startswith("nmod") and attribute != holder:
        if subj is not None and attribute.i == subj.head.head_index:
            return True
        return attribute.dep_ in VALUE_DEPS and attribute.head.i in spine
    return False


def asserted_value(sent: Doc | Span) -> NumberReading | None:
    """The number the main clause asserts (closest to the root, then first), or None."""
    asserted = [r for r in number_roles(sent) if r.role == "asserted"]
    return min(asserted, key=lambda r: (r.depth, r.number.start)) if asserted else None


# --- lists, comparisons, changes ------------------------------------------------------------


def _first_conjunct(head: Token, second: Token) -> Token:
    """The real first item when a noun list hangs off the verb: a small parser often attaches
    "a kettle" in "has a desk, a kettle and a safe" to "has". A verb is not coordinated with a
    noun, so the first item is the verb's last nominal argument before the second item."""
    if head.pos_ not in {"VERB", "AUX"} or second.pos_ not in NOMINAL:
        return head
    before = [
        c for c in head.children if c.i < second.i and c.pos_ in NOMINAL and c.dep_ in VALUE_DEPS
    ]
    return max(before, key=lambda t: t.i) if before else head


def coordinations(sent: Doc | Span) -> list[Coordination]:
    """Coordinated lists ("a desk, a kettle and a safe"), each conjunct as its own phrase."""
    found = []
    for token in _span(sent):
        if token.dep_ == "conj" or not any(c.dep_ == "conj" for c in token.children):
            continue
        items = [token]
        stack = [c for c in token.children if c.dep_ == "conj"]
        while stack:
            item = stack.pop()
            items.append(item)
            stack.extend(c for c in item.children if c.dep_ == "conj")
        items.sort(key=lambda t: t.i)
        items[0] = _first_conjunct(items[0], items[1])
        conjunction = next(
            (c.lower_ for item in items for c in item.children if c.dep_ in {"cc", "cc:preconj"}),
            None,
        )
        phrases = tuple(_subtree_phrase(item, skip=CONJUNCT_SKIP) for item in items)
        found.append(Coordination(items=phrases, conjunction=conjunction))
    return found


def comparisons(sent: Doc | Span) -> list[Comparison]:
    """Comparative words ("more", "fewer", "-er" adjectives) with their "than" and number."""
    words = _words()
    found = []
    for token in _span(sent):
        than_word = next(
            (t for t in token.doc[token.i + 1 : token.i + 4] if t.lower_ == "than"), None
        )
        degree = "Degree=Cmp" in str(token.morph) or (
            than_word is not None and token.pos_ in {"ADJ", "ADV"}  # "lighter than"
        )
        if not (degree or token.lower_ in words.comparatives):
            continue
        if than_word is None and not degree:
            continue  # "more" without "than" is usually "more of", "once more"
        than = None
        value = None
        if than_word is not None:
            following = token.doc[than_word.i + 1] if than_word.i + 1 < len(token.doc) else None
            number: Token | None = None
            target: Token | None = None
            if following is not None and _is_number(following):
                # "more than 10 working days": the bound is the number right after "than".
                number = _number_top(following)
                target = _value_holder(number)
            elif than_word.dep_ != "fixed" and than_word.head != token:
                target = than_word.head  # "lighter than the old one"
                number = target if _is_number(target) else _child_number(target)
            if target is not None and target != token:
                than = _subtree_phrase(target, skip=frozenset({"case", "punct"}), leave_out=token.i)
            if number is not None:
                value = _phrase(number, _number_tokens(number))
        found.append(Comparison(word=_phrase(token, [token]), than=than, value=value))
    return found


def _child_number(token: Token) -> Token | None:
    return next((c for c in token.children if _is_number(c) and c.dep_ == "nummod"), None)


def _case(token: Token, default: str) -> str:
    return next((c.lower_ for c in token.children if c.dep_ == "case"), default)


def _amount_holders(verb: Token) -> Iterator[tuple[Token, str]]:
    """(number phrase head, preposition) for the amounts of a change verb. "from 5% to 3%" is
    also read when "to 3%" hangs off "5%" rather than off the verb."""
    for child in verb.children:
        if child.dep_ not in VALUE_DEPS or child.dep_.startswith("nsubj"):
            continue
        if _is_number(child) or _child_number(child) is not None:
            yield child, _case(child, "by")
            for inner in child.children:
                nested = inner.dep_.startswith("nmod") and _case(inner, "") in {"to", "from"}
                if nested and (_is_number(inner) or _child_number(inner) is not None):
                    yield inner, _case(inner, "")


def changes(sent: Doc | Span) -> list[Change]:
    """Verbs of change with their direction and amounts: "climbed 7%", "fell from 5% to 3%",
    "went up"."""
    words = _words()
    found = []
    for token in _span(sent):
        if token.pos_ not in {"VERB", "AUX"}:
            continue
        lemma = _lemma(token)
        particles = {
            c.lower_ for c in token.children if c.dep_ in {"compound:prt", "prt", "advmod"}
        }
        direction: Literal["up", "down"] | None = None
        if lemma in words.up_verbs or particles & words.up_particles:
            direction = "up"
        elif lemma in words.down_verbs or particles & words.down_particles:
            direction = "down"
        if direction is None:
            continue
        amounts: dict[str, Phrase] = {}
        for holder, case in _amount_holders(token):
            slot = {"to": "to", "from": "source", "by": "by"}.get(case)
            if slot and slot not in amounts:
                amounts[slot] = _subtree_phrase(holder, skip=AMOUNT_SKIP)
        found.append(
            Change(
                verb=_phrase(token, [token]),
                direction=direction,
                by=amounts.get("by"),
                to=amounts.get("to"),
                source=amounts.get("source"),
            )
        )
    return found
