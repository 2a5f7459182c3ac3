"""The spaCy pipeline, built in code from registered factories and cached per process.

    tokenizer (blank "en", plus CJK/Arabic punctuation as infixes)
    -> sentencizer
    -> claim_cues   (PhraseMatcher: modal, negation, reported-speech, pivot, scope phrases)
    -> claim_mentions (numbers, units, dates and labels at the character level)
    -> claim_assembler (Doc._.claims)

A trained English pipeline named by ``CLAIMS_SPACY_MODEL`` (an installed package or a path)
replaces the blank one; our components are added on top of it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import spacy
from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc
from spacy.util import compile_infix_regex

from claims.errors import InputError
from claims.extraction.assembly import TEXT_KEY, ClaimAssembler
from claims.extraction.generation import current_generation
from claims.extraction.mentions import Mentions, MentionScanner
from claims.extraction.resources import read_yaml, resources

SOURCE_ID = "claims.source_id"
SOURCE_VERSION_ID = "claims.source_version_id"
MAX_TEXT_CHARS = 20_000_000

# Sentence-final marks of the scripts we read (Latin, CJK, Arabic, Devanagari, Telugu...).
PUNCT_CHARS = [".", "!", "?", "。", "！", "？", "؟", "۔", "।", "॥", "｡", "\n\n"]
# Split these off even when glued to letters ("です。通知"), which the English tokenizer won't.
EXTRA_INFIXES = [r"[。！？、，；：｡؟،]"]

if not Doc.has_extension("claims"):
    Doc.set_extension("claims", default=None)
if not Doc.has_extension("mentions"):
    Doc.set_extension("mentions", default=None)
if not Doc.has_extension("cues"):
    Doc.set_extension("cues", default=None)


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


@Language.factory("claim_assembler")
def make_claim_assembler(nlp: Language, name: str) -> AssemblerComponent:
    return AssemblerComponent()


class MentionComponent:
    """Puts quantities, time expressions and labels on ``Doc._.mentions``."""

    def __init__(self) -> None:
        self.scanner = MentionScanner(resources())

    def __call__(self, doc: Doc) -> Doc:
        doc._.mentions = self.scanner.scan(doc.user_data.get(TEXT_KEY) or doc.text)
        return doc


class AssemblerComponent:
    """Puts ``claims.models.Claim`` objects on ``Doc._.claims``.

    Source ids come from ``doc.user_data["claims.source_id"]`` and
    ``doc.user_data["claims.source_version_id"]`` (None for ad-hoc text).
    """

    def __init__(self) -> None:
        self.assembler = ClaimAssembler(resources(), current_generation()[0])

    def __call__(self, doc: Doc) -> Doc:
        mentions = doc._.mentions
        if mentions is None:
            mentions = Mentions()
        doc._.claims = self.assembler(
            doc, mentions, doc.user_data.get(SOURCE_ID), doc.user_data.get(SOURCE_VERSION_ID)
        )
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


def _load_base(model: str | None) -> Language:
    if not model:
        return spacy.blank("en")
    try:
        return spacy.load(model)
    except OSError as error:
        raise InputError(
            f"spaCy pipeline {model!r} is not installed or not a pipeline directory; "
            "install it or unset CLAIMS_SPACY_MODEL to use the built-in rules",
            location="CLAIMS_SPACY_MODEL",
        ) from error


def build_pipeline(model: str | None = None) -> Language:
    """A new pipeline (use ``get_pipeline`` for the cached one)."""
    nlp = _load_base(model)
    infixes = list(nlp.Defaults.infixes or []) + EXTRA_INFIXES
    tokenizer: Any = nlp.tokenizer
    tokenizer.infix_finditer = compile_infix_regex(infixes).finditer
    nlp.max_length = MAX_TEXT_CHARS
    if not ({"parser", "senter", "sentencizer"} & set(nlp.pipe_names)):
        nlp.add_pipe("sentencizer", config={"punct_chars": PUNCT_CHARS})
    nlp.add_pipe("claim_cues")
    nlp.add_pipe("claim_mentions")
    nlp.add_pipe("claim_assembler")
    return nlp


@lru_cache(maxsize=4)
def get_pipeline(model: str | None = None) -> Language:
    """The pipeline for ``model`` (None: blank English), built once per process."""
    return build_pipeline(model)
