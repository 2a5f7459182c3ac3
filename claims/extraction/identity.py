"""Claim identity: the entity a claim is about and the attribute of it that the claim states.

"The P-9 router's battery lasts 11 hours" is about the entity ``p-9 router`` and states its
attribute ``battery life``; "It has a battery life of 9 hours" in the P-9 router's user guide
states the same attribute of the same entity. Everything here works on words the assembler
has already given roles to; this module only decides what those words normalise to:

* ``clean`` removes what must never split a key (NFKC forms, zero-width spaces, soft
  hyphens, bidi marks): "divi\\u00addend" keys like "dividend";
* ``lemma`` is spaCy's English lookup lemmatizer (``spacy-lookups-data``), so "grew" and
  "grows" fold to "grow", backed by suffix rules for words the table does not know;
* ``AttributeLexicon`` maps synonymous attribute phrases to one attribute (data file
  ``data/attributes.yaml``: "inhabitants" ~ "population", "vacation" ~ "leave");
* ``title_entity`` turns a document title ("P-9 Router User Guide") into the entity that
  "it", "the device" or "we" refer to.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from claims.extraction.person_names import name_words
from claims.extraction.resources import read_yaml

# Format characters (Unicode category Cf: soft hyphen, zero-width space/joiners, bidi marks,
# word joiner, BOM) are invisible in print and carry no meaning for a key.
_FORMAT = re.compile(
    "[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]"
)


def clean(text: str) -> str:
    """``text`` in the form keys and matching use: NFKC, without format characters.

    Quotes are never cleaned: they stay the exact characters of the source.
    """
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKC", _FORMAT.sub("", text))
    if any(unicodedata.category(ch) == "Cf" for ch in text):
        text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return text


@lru_cache(maxsize=1)
def _lemma_table() -> dict[str, str]:
    """spaCy's English lookup table (inflected form -> lemma, from WordNet), with the
    project's own exceptions from attributes.yaml applied on top."""
    import spacy_lookups_data
    from spacy.util import load_language_data  # reads the package's gzipped JSON

    table: dict[str, str] = dict(load_language_data(spacy_lookups_data.en["lemma_lookup"]))
    for word, lemma_form in (read_yaml("attributes.yaml").get("lemma_overrides") or {}).items():
        table[str(word)] = str(lemma_form)
    return table


@lru_cache(maxsize=1)
def _base_forms() -> frozenset[str]:
    """Words the table knows as lemmas: the suffix rules never touch them ("news", "staff")."""
    return frozenset(_lemma_table().values())


# After stripping -ed/-ing from a word the table does not know, these endings usually lost
# an "e" ("anonymis" -> "anonymise").
_RESTORE_E = ("at", "bl", "iz", "is", "os", "ir", "ur", "as", "uc", "iv", "ag", "rg", "dg", "ov")
_KEEP_DOUBLE = ("l", "s", "z")


def _suffix_lemma(w: str) -> str:
    """Plural and -ed/-ing rules for words the lookup table does not list."""
    if len(w) <= 3:
        return w
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("sses", "shes", "ches", "xes", "zes")):
        return w[:-2]
    if w.endswith("s") and not w.endswith(("ss", "us", "is", "ous", "ics")):
        return w[:-1]
    stem = None
    if w.endswith("ing") and len(w) > 5:
        stem = w[:-3]
    elif w.endswith("ed") and len(w) > 4 and not w.endswith("eed"):
        stem = w[:-2]
    if stem is None:
        return w
    if len(stem) >= 2 and stem[-1] == stem[-2] and stem[-1] not in _KEEP_DOUBLE:
        return stem[:-1]
    if stem.endswith(_RESTORE_E):
        return stem + "e"
    return stem


def lemma(word: str) -> str:
    """The key form of one English word: cleaned, lowercase, possessive dropped, lemmatised.

    Words with digits or symbols ("p-9", "x200") are only lowercased: they are names, and so
    are the words of the person names of the text being read (``person_names``: "Maria"
    stays ``maria``, never ``mare``).
    """
    names = name_words()
    if names:
        bare = _bare_word(word)
        if bare in names:
            return bare
    return _lemma(word)


@lru_cache(maxsize=65536)
def _bare_word(word: str) -> str:
    w = clean(word).lower().replace("\u2019", "'")
    if w.endswith("'s"):
        return w[:-2]
    return w[:-1] if w.endswith("'") else w


@lru_cache(maxsize=65536)
def _lemma(word: str) -> str:
    w = clean(word).lower().replace("\u2019", "'")
    if w.endswith("'s"):
        w = w[:-2]
    elif w.endswith("'"):
        w = w[:-1]
    if not w.isalpha():
        return w
    table = _lemma_table()
    found = table.get(w)
    if found is not None:
        return found
    if w in _base_forms():
        return w
    return _suffix_lemma(w)


@dataclass(frozen=True)
class AttributeLexicon:
    """Synonymous attribute phrases (as lemma tuples) and the attribute each one names."""

    phrases: dict[tuple[str, ...], str]
    longest: int
    measure_heads: frozenset[str]  # "the *number* of employees": the of-phrase is the attribute
    reference_points: frozenset[str]  # "within 45 days *of the invoice date*": not measured

    def canonical(self, words: Sequence[str]) -> list[str]:
        """The attribute ``words`` (lemmas) name: a known phrase as a whole, else its longest
        known ending ("annual leave allowance" keeps no unknown word it can explain). A
        manner adverb closing the words is said as the adjective before them ("work
        remotely" -> "remote work"), as a label names the same thing ("Remote working")."""
        if not words:
            return []
        words = adjective_first(words)
        whole = self.phrases.get(tuple(words))
        if whole is not None:
            return whole.split(" ")
        for size in range(min(self.longest, len(words) - 1), 0, -1):
            tail = self.phrases.get(tuple(words[-size:]))
            if tail is not None:
                return _dedupe([*words[:-size], *tail.split(" ")])
        return list(words)

    def known_suffix(self, words: Sequence[str]) -> int:
        """Length of the longest known attribute phrase ``words`` end with (0: none)."""
        for size in range(min(self.longest, len(words)), 0, -1):
            if tuple(words[-size:]) in self.phrases:
                return size
        return 0


# shortest adjective an adverb of manner is read back to ("only" -> "on" is no adjective)
_MIN_ADJECTIVE = 4


def manner_adjective(word: str) -> str | None:
    """The adjective a manner adverb is made from ("remotely" -> "remote", "publicly" ->
    "public", "easily" -> "easy", "fully" -> "full"), or None. Only a word the dictionary
    does not know as a word of its own: "daily", "family", "supply" and "early" are listed
    words, and stay what they are."""
    if len(word) < _MIN_ADJECTIVE + 1 or not word.endswith("ly") or is_dictionary_word(word):
        return None
    stem = word[:-2]
    candidates = (stem, stem[:-1] + "y", word[:-1] + "e", word[:-1] if stem.endswith("l") else "")
    for adjective in candidates:
        if len(adjective) >= _MIN_ADJECTIVE and is_dictionary_word(adjective):
            return adjective
    return None


def adjective_first(words: Sequence[str]) -> list[str]:
    """Attribute words ending with a manner adverb, the adverb said as the adjective before
    the word it qualifies: "work remotely" -> "remote work", "travel internationally" ->
    "international travel"; other words as they are."""
    if len(words) < 2:
        return list(words)
    adjective = manner_adjective(words[-1])
    if adjective is None:
        return list(words)
    return [*words[:-2], adjective, words[-2]]


def _dedupe(words: Iterable[str]) -> list[str]:
    out: list[str] = []
    for w in words:
        if w not in out:
            out.append(w)
    return out


@lru_cache(maxsize=1)
def attribute_lexicon() -> AttributeLexicon:
    """attributes.yaml compiled: every synonym phrase lemmatised word by word."""
    data = read_yaml("attributes.yaml")
    phrases: dict[tuple[str, ...], str] = {}
    for attribute, synonyms in data["synonyms"].items():
        canonical = " ".join(str(attribute).lower().split())  # as written: "founded", "born"
        for phrase in [attribute, *synonyms]:
            words = tuple(lemma(w) for w in str(phrase).replace("-", " ").split())
            if words in phrases and phrases[words] != canonical:
                raise ValueError(
                    f"attributes.yaml: {phrase!r} is listed under both {phrases[words]!r} "
                    f"and {canonical!r}; keep it under one attribute"
                )
            phrases[words] = canonical
    return AttributeLexicon(
        phrases=phrases,
        longest=max((len(p) for p in phrases), default=1),
        measure_heads=frozenset(lemma(str(w)) for w in data.get("measure_heads") or ()),
        reference_points=frozenset(lemma(str(w)) for w in data.get("reference_points") or ()),
    )


@lru_cache(maxsize=1)
def named_attributes() -> frozenset[str]:
    """The attributes the lexicon names (its canonical phrases: "notice period", "revenue")."""
    return frozenset(attribute_lexicon().phrases.values())


@dataclass(frozen=True)
class IdentityWords:
    """Word lists of words.yaml that decide what a subject names."""

    document_types: frozenset[str]  # "guide", "handbook": a title's kind, not its subject
    references: frozenset[str]  # "it", "we", "the company": the document's own subject
    entity_suffixes: frozenset[str]  # "corp", "ltd": not part of an entity's name
    model_editions: frozenset[str]  # "pro", "ultra": after a model code, part of the name
    salutations: dict[str, tuple[tuple[str, ...], ...]]  # first word -> phrases (lowercase)


@lru_cache(maxsize=1)
def identity_words() -> IdentityWords:
    data = read_yaml("words.yaml")
    salutations: dict[str, list[tuple[str, ...]]] = {}
    for phrase in data.get("salutations") or ():
        words = tuple(str(phrase).lower().replace("'", " '").split())
        salutations.setdefault(words[0], []).append(words)
    return IdentityWords(
        document_types=frozenset(lemma(str(w)) for w in data.get("document_types") or ()),
        references=frozenset(str(w) for w in data.get("document_references") or ()),
        entity_suffixes=frozenset(str(w) for w in data.get("entity_suffixes") or ()),
        model_editions=frozenset(str(w) for w in data.get("model_editions") or ()),
        salutations={
            first: tuple(sorted(phrases, key=len, reverse=True))
            for first, phrases in salutations.items()
        },
    )


_NAME_TOKEN = re.compile(r"\w+(?:[-.'][\w]+)*\.?|,")


def phrase_tokens(phrase: str) -> tuple[str, ...]:
    """A lexicon phrase as the tokenizer splits text: at spaces, and around a hyphen, which
    is a token of its own ("first-class debut" -> ("first", "-", "class", "debut"))."""
    return tuple(phrase.replace("-", " - ").split())


def name_tokens(text: str) -> list[str]:
    """The words of a name as written, lowercase, the way the tokenizer splits claim text:
    "P-9" stays one word, "Winston-Salem" is two; commas are kept as words ("Springfield,
    Illinois") and quotes, brackets and other marks are dropped."""
    raw = clean(text).casefold().replace("\u2019", "'").replace(",", " , ")
    words = [w.strip(".'") or w for w in _NAME_TOKEN.findall(raw)]
    return [
        part
        for w in words
        for part in (w.split("-") if "-" in w and not any(ch.isdigit() for ch in w) else [w])
        if part
    ]


def fold_name(words: Sequence[str], stopwords: frozenset[str]) -> str:
    """An entity name in key form, the same for a question and a document: lemmas,
    function words dropped ("a kind of hush" names "kind hush"), the commas of
    "Springfield, Illinois" kept; "" when no word is left."""
    kept = [
        w for k, w in enumerate(words) if w not in stopwords or _opens_name(words, k, stopwords)
    ] or list(words)
    # an initial or a two-letter name part is no inflected word ("M." is not "am")
    folded = [w if w == "," or len(w) <= 2 else lemma(w) for w in kept]
    if not [w for w in folded if w != ","]:
        return ""
    return " ".join(folded).replace(" ,", ",").strip(", ")


# stopwords that open a name before another word of it: "New Mexico" is not Mexico, "New
# Hampshire" not Hampshire, "Old Trafford" not Trafford
NAME_OPENERS = frozenset({"new", "old"})


def _opens_name(words: Sequence[str], k: int, stopwords: frozenset[str]) -> bool:
    """Whether ``words[k]`` is a "new" or "old" that opens the name (first, or after an
    article) before a word that is no function word."""
    if words[k] not in NAME_OPENERS or k + 1 >= len(words):
        return False
    before = [w for w in words[:k] if w not in ("the", "a", "an")]
    return not before and words[k + 1] not in stopwords and words[k + 1] != ","


def entity_name(words: Sequence[str]) -> str | None:
    """An entity from its key words, legal-form suffixes dropped ("acme corp" -> "acme")."""
    kept = list(words)
    while len(kept) > 1 and kept[-1] in identity_words().entity_suffixes:
        kept.pop()
    return " ".join(kept) or None


# a model code: a short letter prefix and a number ("P-300", "K2", "X200", "A320neo"), not a
# longer word with a number ("COVID-19") nor a quarter, half or fiscal year ("Q3", "FY2024")
_MODEL_CODE = re.compile(r"^[a-z]{1,4}-?\d{1,5}[a-z]{0,3}$")
_NOT_A_MODEL = re.compile(r"^(?:q[1-4]|h[12]|fy\d+|p\d{2,3})$")


def is_model_code(word: str) -> bool:
    """Whether a key word (lowercase) is a model code such as "p-300" or "k2"."""
    return _MODEL_CODE.match(word) is not None and _NOT_A_MODEL.match(word) is None


def model_name(words: Sequence[str]) -> int:
    """How many of the words a title or heading names its subject with (lowercase) name
    it: all of them, or up to the last model code when only words of what kind of thing the
    model is follow it ("P-300 Centrifugal Pump", "Kestrel K2 data logger", "P-9 Router" ->
    2 of 3 ... "P-300", "Kestrel K2", "P-9"). So a datasheet titled "P-300 Centrifugal Pump"
    and a catalogue section headed "P-300" name one thing. An edition word ("Galaxy S24
    Ultra": ``model_editions``) is part of the name, and keeps all. Only titles and headings
    are read so: in a sentence, the words after a code may name a part of the model ("the
    K2 mounting bracket weighs 80 g"), never the model."""
    last = max((k for k, w in enumerate(words) if is_model_code(w.lower())), default=-1)
    if last < 0 or last == len(words) - 1:
        return len(words)
    editions = identity_words().model_editions
    if all(w.isalpha() and w.lower() not in editions for w in words[last + 1 :]):
        return last + 1
    return len(words)


def is_name(word: str) -> bool:
    """Whether a word as written names one thing: an identifier with digits ("P-9",
    "X200"), a capitalised word no dictionary knows ("Lakeview", "Acme"), an acronym."""
    if any(ch.isdigit() for ch in word):
        return any(ch.isalpha() for ch in word)
    low = word.lower()
    if word.isupper() and len(word) >= 2:
        return low not in GENERIC_ACRONYMS
    return any(ch.isupper() for ch in word) and not is_dictionary_word(low)


@lru_cache(maxsize=65536)
def is_dictionary_word(word: str) -> bool:
    """Whether the lookup table knows ``word`` (lowercase) as an English word form."""
    return word in _lemma_table() or word in _base_forms()


_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_TITLE_WORD = re.compile(r"[^\W_][\w'\u2019.-]*", re.UNICODE)
# years, versions, quarters, halves, fiscal years and months: when a title was written
_YEARISH = re.compile(
    r"^(?:(?:19|20)\d\d|v?\d+(?:\.\d+)*|q[1-4]|h[12]|fy\d{2,4}|jan(?:uary)?|feb(?:ruary)?"
    r"|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t|tember)?|oct(?:ober)?"
    r"|nov(?:ember)?|dec(?:ember)?)$"
)
# acronyms that name a kind of thing, not one thing
GENERIC_ACRONYMS = frozenset({"api", "faq", "ceo", "cfo", "hr", "it", "pto", "hq", "sla", "fte"})
_TITLE_PARTS = re.compile(r"\s[-\u2013\u2014|:]\s|[(,;:\[]")  # a title's subtitle or aside
MAX_TITLE_WORDS = 12
TITLE_LINES = 5  # a title is one of the first non-empty lines, or it is not a title


def document_title(text: str) -> str | None:
    """The title a text gives itself: its first Markdown heading, or its first line when
    that line reads like a title (short, no sentence or header punctuation, more text after).
    """
    lines = [line for line in text[:4000].splitlines() if line.strip()]
    for line in lines[:TITLE_LINES]:
        heading = _HEADING.match(line)
        if heading:
            return heading.group(1).strip()
    if len(lines) < 2:
        return None
    first = lines[0].strip()
    if (
        len(first.split()) > MAX_TITLE_WORDS
        or first[-1] in ".!?:;,"
        or ":" in first
        or not any(ch.isalpha() for ch in first)
    ):
        return None
    return first


def title_entity(title: str | None, stopwords: frozenset[str]) -> str | None:
    """The entity a document title names: "P-9 Router User Guide" -> "p-9" (a model
    code without its kind words, ``model_name``), "Acme Employee Handbook" -> "acme".

    Document-type words, years, version numbers and function words are dropped; a title
    that names no thing by name ("Leave policy", "Interim report Q1") names no entity.
    """
    kept = title_entity_words(title, stopwords)
    if kept is None:
        return None
    return entity_name(kept[: model_name(kept)])


def title_entity_words(title: str | None, stopwords: frozenset[str]) -> list[str] | None:
    """The key words of the thing a title names, kind words and all ("p-9", "router"), or
    None (``title_entity``)."""
    if not title:
        return None
    kept: list[str] = []
    named = False
    head = _TITLE_PARTS.split(clean(title))[0]  # "Examplamine dosing (fictional)"
    for raw in _TITLE_WORD.findall(head):
        raw = raw.strip(".'\u2019")
        word = lemma(raw)
        if (
            not word
            or word in stopwords
            or word in identity_words().document_types
            or _YEARISH.match(word)
        ):
            if kept:
                break  # "Acme Employee Handbook 2026 for managers": the subject came first
            continue
        kept.append(word)
        named = named or is_name(raw)
    if not kept or not named or attribute_lexicon().known_suffix(kept) == len(kept):
        return None
    return kept
