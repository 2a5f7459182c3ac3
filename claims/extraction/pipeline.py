"""The spaCy pipeline, built in code from registered factories and cached per process.

    tokenizer (blank "en", plus CJK/Arabic punctuation as infixes)
    -> claim_sentences (full stops, blank lines, headings, list items; data/sentences.yaml)
    -> claim_cues   (PhraseMatcher: modal, negation, reported-speech, pivot, scope phrases)
    -> claim_mentions (numbers, units, dates and labels at the character level)
    -> claim_assembler (Doc._.claims; the token roles on Doc._.roles)
    -> the profile's claim components (claims.profiles: none for office)
    -> claim_abbreviations ("vibrational circular dichroism (VCD)")
    -> the profile's page components (readers of the document as a whole)

A trained English pipeline named by ``CLAIMS_SPACY_MODEL`` (an installed package or a path)
replaces the blank one; our components are added on top of it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy
import spacy
from spacy.attrs import IDX, IS_SPACE, ORTH, SENT_START
from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc
from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex

from claims.errors import InputError
from claims.extraction.abbreviations import abbreviation_claims
from claims.extraction.assembly import TEXT_KEY, ClaimAssembler
from claims.extraction.generation import current_generation
from claims.extraction.mentions import Mentions, MentionScanner
from claims.extraction.phrase_claims import in_document_order
from claims.extraction.resources import glued_opener_pattern, read_yaml, resources
from claims.models import Claim
from claims.profiles import DEFAULT_PROFILE, Profile, profile_named
from claims.units import lookup

SOURCE_ID = "claims.source_id"
SOURCE_VERSION_ID = "claims.source_version_id"
GENERATION = "claims.generation"  # doc.user_data: the generation the claims are made in
# character offsets where the structure reader's blocks start (claims.documents.structure):
# a label line, list item, heading or table row ends the unit before it, full stop or not
BLOCK_STARTS = "claims.block_starts"
MAX_TEXT_CHARS = 20_000_000

# Sentence-final marks of the scripts we read (Latin, CJK, Arabic, Devanagari, Telugu...).
PUNCT_CHARS = [".", "!", "?", "。", "！", "？", "؟", "۔", "।", "॥", "｡", "\n\n"]
# Split these off even when glued to letters ("です。通知"), which the English tokenizer won't.
# CJK and Arabic punctuation; a comma glued between a number and a year in scraped text
# ("born on December 12,1985", "two ( 1989,2013 )"): a thousands group has three digits, so
# a comma before four digits that read as a year separates two numbers
EXTRA_INFIXES = [r"[。！？、，；：｡؟،]", r"(?<=\d),(?=(?:1[5-9]|20)\d\d(?!\d))"]
TOKENIZER = "claims.tokenizer.v1"  # the blank pipeline's tokenizer (make_tokenizer)

if not Doc.has_extension("claims"):
    Doc.set_extension("claims", default=None)
if not Doc.has_extension("mentions"):
    Doc.set_extension("mentions", default=None)
if not Doc.has_extension("cues"):
    Doc.set_extension("cues", default=None)
if not Doc.has_extension("roles"):
    Doc.set_extension("roles", default=None)


@dataclass(frozen=True, slots=True)
class ClaimContext:
    """What every claim reader of one doc shares: the exact text and the claims' origin."""

    text: str
    source_id: str | None
    version_id: str | None
    generation: str


def claim_context(doc: Doc) -> ClaimContext:
    data = doc.user_data
    return ClaimContext(
        data.get(TEXT_KEY) or doc.text,
        data.get(SOURCE_ID),
        data.get(SOURCE_VERSION_ID),
        data.get(GENERATION) or current_generation()[0],
    )


def sentence_offsets(doc: Doc) -> list[tuple[int, int]]:
    """(start, end) character offsets of the doc's sentences."""
    return [(sent.start_char, sent.end_char) for sent in doc.sents]


# a number, a unit symbol, a full stop, then a line break or a capitalised word
_UNIT_STOP = re.compile(
    r"\d[ \u00a0]?(?P<unit>[A-Za-z\u00b5\u03bc\u00b0/]{1,6})\."
    r"(?:[ \t]*\n\s*|[ \t]+)(?=[A-Z0-9\"'(])"
)

_OPENERS = frozenset("([{\"'\u201c\u2018\u00ab")


@Language.factory("claim_sentences", default_config={"profile": DEFAULT_PROFILE})
def make_claim_sentences(nlp: Language, name: str, profile: str) -> SentenceComponent:
    return SentenceComponent(profile_named(profile))


class SentenceComponent:
    """Sentence starts for prose as people type it, beside the full stops of every script:

    * a blank line, a Markdown heading ("## Leave") and the line after a heading, a bullet
      ("- ", "* ", "• ") and a numbered item ("1. ", "2) ") at a line start begin a sentence,
      so a heading never glues into the quote of the sentence under it;
    * "1." of a numbered item and the full stop of an abbreviation followed by a lowercase
      word, a digit or "(" ("approx. 10 days", "Fig. 3", "et al. (2009)") end nothing;
    * closing quotes and brackets after a full stop stay with the sentence they close.
    """

    def __init__(self, profile: Profile | None = None) -> None:
        self.profile = profile or profile_named()
        data = read_yaml("sentences.yaml")
        self.abbreviations = frozenset(str(w) for w in data["abbreviations"])
        self.titles = frozenset(str(w) for w in data["titles"])
        self.bullets = frozenset(str(w) for w in data["bullets"])
        self.stops = frozenset(c for c in PUNCT_CHARS if not c.isspace())
        self.glue = re.compile(glued_opener_pattern())
        self._ids: numpy.ndarray | None = None
        self._vocab: object = None

    def __call__(self, doc: Doc) -> Doc:
        # Only the starts are set: a per-token Python loop over the whole text cost a
        # quarter of the extraction time, so the loop visits full stops and newlines only.
        starts = self.starts(doc)
        if not len(doc):
            return doc
        # one bulk write: setting ``is_sent_start`` token by token re-checks the whole
        # document's annotation each time, which made long documents quadratic
        marks = numpy.full(len(doc), -1, dtype="int64")
        marks[0] = 1
        marks[[i for i in starts if i < len(doc)]] = 1
        doc.from_array([SENT_START], marks.astype("uint64").reshape(-1, 1))  # type: ignore[arg-type]
        return doc

    def _line_break(self, doc: Doc, i: int, heading: bool) -> bool:
        """Whether the line starting at token ``i`` (after a newline) starts a sentence."""
        text = doc[i].text
        if heading or text.startswith("#") or text in self.bullets:
            return True
        return self._item_number(doc, i)

    @staticmethod
    def _item_number(doc: Doc, i: int) -> bool:
        """Whether token ``i`` is the number of a "1. " or "2) " list marker."""
        text = doc[i].text
        return (
            text.isdigit()
            and len(text) <= 3
            and i + 1 < len(doc)
            and doc[i + 1].text in (".", ")")
            and bool(doc[i + 1].whitespace_)
        )

    def _abbreviation(self, doc: Doc, i: int) -> bool:
        """Whether the full stop at token ``i`` closes an abbreviation, not a sentence."""
        if i == 0 or doc[i - 1].whitespace_:
            return False
        if i + 1 >= len(doc):
            return False
        written = doc[i - 1].text
        word = written.lower()
        nxt = doc[i + 1].text
        if word in self.titles and written[:1].isupper() and nxt[:1].isupper():
            return True  # "Dr. Smith", but "200 ms." ends a sentence
        if word not in self.abbreviations:
            return False
        return nxt[:1].islower() or nxt[:1].isdigit() or nxt[:1] == "("

    def _after_stop(self, doc: Doc, i: int) -> int | None:
        """The token that starts the sentence after the full stop at ``i`` (closing quotes
        and brackets stay before it), or None at the end of the text."""
        n = len(doc)
        j = i + 1
        while j < n:
            token = doc[j]
            text = token.text
            if token.is_space:
                if "\n" in text:
                    return None  # the newline handler starts the next line
            elif text in self.stops:
                pass
            elif not token.is_punct or (text in _OPENERS and bool(doc[j - 1].whitespace_)):
                return j
            j += 1
        return None

    def starts(self, doc: Doc) -> list[int]:
        """Token indices that start a sentence, in order."""
        n = len(doc)
        if not n:
            return []
        found = {0, self._marker_end(doc, 0)} if n > 1 else {0}
        found.discard(n)
        arr = doc.to_array([ORTH, IS_SPACE])
        stop_ids = self._stop_ids(doc)
        events = numpy.nonzero(numpy.isin(arr[:, 0], stop_ids) | (arr[:, 1] == 1))[0].tolist()
        heading = doc[0].text.startswith("#")
        pending_stop = False  # a full stop before a newline: the next line starts a sentence
        for i in events:
            token = doc[i]
            text = token.text
            if token.is_space:
                if "\n" not in text:
                    continue
                j = i + 1
                while j < n and doc[j].is_space:
                    j += 1
                if j >= n:
                    break
                blank = text.count("\n") >= 2 or j > i + 1
                if blank or pending_stop or self._line_break(doc, j, heading):
                    found.add(j)
                    # a list marker is a sentence of its own, so no quote starts with "- "
                    marker = self._marker_end(doc, j)
                    if marker < n:
                        found.add(marker)
                pending_stop = False
                heading = doc[j].text.startswith("#")
                continue
            if text == "." and (self._abbreviation(doc, i) or self._list_stop(doc, i)):
                continue
            nxt = self._after_stop(doc, i)
            if nxt is None:
                pending_stop = True
            else:
                found.add(nxt)
                pending_stop = False
        found.update(self._glued_starts(doc))
        found.update(_tokens_starting_at(doc, list(doc.user_data.get(BLOCK_STARTS) or ())))
        found.update(self._unit_stop_starts(doc))
        found.update(self._profile_starts(doc))
        return sorted(found)

    def _unit_stop_starts(self, doc: Doc) -> list[int]:
        """A full stop after a unit symbol ends a sentence ("The timeout is 0.5 s." then a
        new line or a capital): the tokenizer keeps "s." as one token (an abbreviation of
        its exceptions), so no stop token marks it. A regular expression over the text
        finds the few candidates; the unit lexicon confirms the symbol."""
        text = doc.user_data.get(TEXT_KEY) or doc.text  # Doc.text joins every token
        if "." not in text:
            return []
        seams = [m.end() for m in _UNIT_STOP.finditer(text) if lookup(m.group("unit")) is not None]
        return _tokens_starting_at(doc, seams)

    def _profile_starts(self, doc: Doc) -> list[int]:
        """The sentence starts the profile knows (the reference profile's captions and
        section headings)."""
        return _tokens_starting_at(doc, self.profile.sentence_seams(doc.text))

    def _glued_starts(self, doc: Doc) -> list[int]:
        """Tokens that open a sentence glued to the number before it ("72,251The club
        moved", "7340-4In 2015"): page text that lost its full stop and space. The
        tokenizer splits at the same seam, so each match starts a token."""
        return _tokens_starting_at(doc, [m.start() for m in self.glue.finditer(doc.text)])

    def _marker_end(self, doc: Doc, i: int) -> int:
        """The token after a list marker starting at ``i`` ("-", "•", "1." or "2)"), or ``i``
        when the line starts with no marker."""
        if doc[i].text in self.bullets and doc[i].whitespace_:
            return i + 1
        if self._item_number(doc, i):
            return i + 2
        return i

    def _list_stop(self, doc: Doc, i: int) -> bool:
        """The "." of a "1. " list marker at a line start."""
        if i == 0 or not self._item_number(doc, i - 1):
            return False
        return i - 1 == 0 or "\n" in doc[i - 2].text

    def _stop_ids(self, doc: Doc) -> numpy.ndarray:
        strings = doc.vocab.strings
        if self._ids is None or self._vocab is not doc.vocab:
            self._ids = numpy.array([strings.add(stop) for stop in self.stops], dtype="uint64")
            self._vocab = doc.vocab
        return self._ids


def _tokens_starting_at(doc: Doc, seams: list[int]) -> list[int]:
    """The tokens that start exactly at one of the character offsets ``seams`` (ascending);
    a seam inside a token starts none."""
    if not seams:
        return []
    offsets = doc.to_array(IDX).reshape(-1)
    at = numpy.searchsorted(offsets, seams)
    n = len(doc)
    return [int(i) for i, seam in zip(at, seams, strict=True) if i < n and offsets[i] == seam]


@Language.factory("claim_cues")
def make_claim_cues(nlp: Language, name: str) -> CueComponent:
    return CueComponent(nlp)


class CueComponent:
    """Puts ``(start, end, label, id)`` cue matches on ``Doc._.cues``.

    A PhraseMatcher over the phrases of data/cues.yaml and data/scope.yaml, matched on
    lowercase. Matches stay plain tuples: building a ``Span`` per match (as span_ruler
    does) cost a third of the whole run, and nothing downstream needs the objects.
    """

    def __init__(self, nlp: Language) -> None:
        self.matcher = PhraseMatcher(nlp.vocab, attr="LOWER")
        self.labels: dict[int, tuple[str, str]] = {}
        grouped: dict[str, list[str]] = {}
        for pattern in cue_patterns():
            key = f"{pattern['label']}|{pattern['id']}"
            grouped.setdefault(key, []).append(pattern["pattern"])
        for key, phrases in grouped.items():
            label, _, ident = key.partition("|")
            self.labels[nlp.vocab.strings.add(key)] = (label, ident)
            self.matcher.add(key, [nlp.make_doc(phrase) for phrase in phrases])

    def __call__(self, doc: Doc) -> Doc:
        labels = self.labels
        doc._.cues = [(start, end, *labels[match_id]) for match_id, start, end in self.matcher(doc)]
        return doc


@Language.factory("claim_mentions")
def make_claim_mentions(nlp: Language, name: str) -> MentionComponent:
    return MentionComponent()


@Language.factory("claim_assembler", default_config={"profile": DEFAULT_PROFILE})
def make_claim_assembler(nlp: Language, name: str, profile: str) -> AssemblerComponent:
    return AssemblerComponent(profile_named(profile))


@Language.factory("claim_abbreviations")
def make_claim_abbreviations(nlp: Language, name: str) -> AbbreviationComponent:
    return AbbreviationComponent()


class MentionComponent:
    """Puts quantities, time expressions and labels on ``Doc._.mentions``."""

    def __init__(self) -> None:
        self.scanner = MentionScanner(resources())

    def __call__(self, doc: Doc) -> Doc:
        doc._.mentions = self.scanner.scan(doc.user_data.get(TEXT_KEY) or doc.text)
        return doc


class AssemblerComponent:
    """Puts ``claims.models.Claim`` objects on ``Doc._.claims`` and the token roles they were
    read from on ``Doc._.roles`` (for the profile's readers).

    Source ids come from ``doc.user_data["claims.source_id"]`` and
    ``doc.user_data["claims.source_version_id"]`` (None for ad-hoc text).
    """

    def __init__(self, profile: Profile | None = None) -> None:
        profile = profile or profile_named()
        self.assembler = ClaimAssembler(resources(), current_generation()[0], profile.stance)

    def __call__(self, doc: Doc) -> Doc:
        mentions = doc._.mentions
        if mentions is None:
            mentions = Mentions()
        source_id, version_id = doc.user_data.get(SOURCE_ID), doc.user_data.get(SOURCE_VERSION_ID)
        generation = doc.user_data.setdefault(GENERATION, self.assembler.generation)
        doc._.claims, doc._.roles = self.assembler.read(
            doc, mentions, source_id, version_id, generation
        )
        return doc


class AbbreviationComponent:
    """ "vibrational circular dichroism (VCD)": what an abbreviation stands for."""

    def __call__(self, doc: Doc) -> Doc:
        at = claim_context(doc)
        defined = abbreviation_claims(
            at.text, sentence_offsets(doc), at.source_id, at.version_id, at.generation
        )
        claims: list[Claim] = doc._.claims or []
        doc._.claims = in_document_order(claims, defined) if defined else claims
        return doc


def cue_patterns() -> list[dict[str, Any]]:
    """Cue phrases (label, pattern, id) from data/cues.yaml and data/scope.yaml."""
    patterns: list[dict[str, Any]] = []
    for label, groups in read_yaml("cues.yaml").items():
        if not isinstance(groups, dict) or label.startswith("NON_LATIN"):
            continue  # other scripts' markers are matched on text by the assembler
        for ident, phrases in groups.items():
            for phrase in phrases:
                patterns.append({"label": label, "pattern": str(phrase), "id": str(ident)})
    scope = read_yaml("scope.yaml")
    for dim, values in scope["dimensions"].items():
        for value, phrases in values.items():
            for phrase in phrases:
                patterns.append({"label": "SCOPE", "pattern": str(phrase), "id": f"{dim}={value}"})
    # scope.yaml's token_patterns (p95, Q3, FY2024) are read by the mention scanner, which
    # sees those labels anyway; as REGEX token patterns they would cost 15% of the run time.
    return patterns


@spacy.registry.tokenizers("claims.tokenizer.v1")
def make_tokenizer() -> Callable[[Language], Tokenizer]:
    """spaCy's tokenizer for the language's defaults with EXTRA_INFIXES, built in one go:
    setting ``infix_finditer`` on a built tokenizer loads its special cases again (2,694
    for English, a fifth of building the pipeline)."""

    def build(nlp: Language) -> Tokenizer:
        defaults = nlp.Defaults
        prefixes, suffixes = defaults.prefixes, defaults.suffixes
        return Tokenizer(
            nlp.vocab,
            rules=defaults.tokenizer_exceptions,
            prefix_search=compile_prefix_regex(prefixes).search if prefixes else None,
            suffix_search=compile_suffix_regex(suffixes).search if suffixes else None,
            infix_finditer=compile_infix_regex(_infixes(nlp)).finditer,
            token_match=defaults.token_match,
            url_match=defaults.url_match,
        )

    return build


def _infixes(nlp: Language) -> list[Any]:
    # the glued-opener seam splits "72,251The" into a number and the next sentence's word
    return list(nlp.Defaults.infixes or []) + EXTRA_INFIXES + [glued_opener_pattern()]


def _load_base(model: str | None) -> Language:
    if not model:
        return spacy.blank("en", config={"nlp": {"tokenizer": {"@tokenizers": TOKENIZER}}})
    try:
        return spacy.load(model)
    except OSError as error:
        raise InputError(
            f"spaCy pipeline {model!r} is not installed or not a pipeline directory; "
            "install it or unset CLAIMS_SPACY_MODEL to use the built-in rules",
            location="CLAIMS_SPACY_MODEL",
        ) from error


def build_pipeline(model: str | None = None, profile: str = DEFAULT_PROFILE) -> Language:
    """A new pipeline reading as ``profile`` does (use ``get_pipeline`` for the cached one)."""
    chosen = profile_named(profile)  # imports the profile's package: registers its factories
    config = {"profile": chosen.name}
    nlp = _load_base(model)
    if model:  # a trained pipeline brings its own tokenizer: our infixes go on top
        tokenizer: Any = nlp.tokenizer
        tokenizer.infix_finditer = compile_infix_regex(_infixes(nlp)).finditer
    nlp.max_length = MAX_TEXT_CHARS
    if not ({"parser", "senter", "sentencizer"} & set(nlp.pipe_names)):
        nlp.add_pipe("claim_sentences", config=config)
    nlp.add_pipe("claim_cues")
    nlp.add_pipe("claim_mentions")
    nlp.add_pipe("claim_assembler", config=config)
    for name in chosen.claim_components:
        nlp.add_pipe(name)
    nlp.add_pipe("claim_abbreviations")
    for name in chosen.page_components:
        nlp.add_pipe(name)
    return nlp


@lru_cache(maxsize=4)
def get_pipeline(model: str | None = None, profile: str = DEFAULT_PROFILE) -> Language:
    """The pipeline for ``model`` (None: blank English) and ``profile``, built once per
    process."""
    return build_pipeline(model, profile or DEFAULT_PROFILE)
