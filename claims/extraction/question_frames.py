"""Question frames: the common shapes of a question about one attribute of one named thing.

"When was Bryan born?", "What is the population of Larwice?", "How many people live in
Lakeview?", "Who directed Death at a Funeral?": the parser reads such questions word by word
and often takes the name for the attribute ("general bryan born") or loses it. A frame reads
the whole shape at once: the entity (the name between the pattern's words), the attribute
(named by the pattern, or the words of its ``{attribute}`` slot folded like claim attributes)
and the answer type the shape asks for. The patterns live in ``data/question_frames.yaml``;
``parse_question`` uses a frame when one matches and the parser's reading otherwise.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from claims.extraction.identity import attribute_lexicon, fold_name, lemma, phrase_tokens
from claims.extraction.resources import read_yaml, resources
from claims.extraction.value_kinds import lexicon as value_kinds

_SLOTS = {
    "{entity}": r"(?P<entity>.+?)",
    "{attribute}": r"(?P<attribute>[\w'-]+(?: [\w'-]+){0,3}?)",
}
_QUOTE = '"\u201c\u201d\u00ab\u00bb'
_QUOTED = re.compile(f"[{_QUOTE}]([^{_QUOTE}]+)[{_QUOTE}]")
_DROPPED = re.compile(r"[^\w'\u2019,.\- ]+")
_NAME_WORD = re.compile(r"\w+(?:[-.'][\w]+)*\.?|,")


@dataclass(frozen=True)
class FrameMatch:
    """What a question frame read: the entity, the attribute and the answer type."""

    entity: str  # the entity's words folded like claim entities ("fort kent")
    entity_words: tuple[str, ...]  # the same words, for matching qualifiers and titles
    attribute: str  # the attribute folded like claim attributes ("population", "born")
    answer_type: str | None  # an AnswerType value, or None: the attribute decides
    scope: dict[str, str] = field(default_factory=dict)
    pattern: str = ""


@dataclass(frozen=True)
class _Frame:
    pattern: str
    regex: re.Pattern[str]
    attribute: str | None
    answer_type: str | None
    scope: dict[str, str]


def _compile(pattern: str, events: str) -> re.Pattern[str]:
    body = pattern.replace("(", "(?:")
    for slot, regex in _SLOTS.items():
        body = body.replace(slot, regex)
    body = body.replace("{event}", f"(?P<event>{events})")
    # a space in the pattern is one or more spaces in the question; an optional group
    # written "(the )?" keeps its own trailing space
    body = body.replace(" ", r"\s+")
    return re.compile(f"^{body}$")


@lru_cache(maxsize=1)
def _frames() -> tuple[tuple[_Frame, ...], frozenset[str]]:
    data = read_yaml("question_frames.yaml")
    phrases = sorted(
        (" ".join(p).replace(" - ", "-") for p in value_kinds().events), key=len, reverse=True
    )
    # re.escape puts a backslash before a space, which the spaces-to-\\s+ step below would
    # break: multi-word events ("confirmed by the senate", "first aired") never matched
    events = "|".join(re.escape(p).replace("\\ ", " ") for p in phrases)
    frames = []
    for number, entry in enumerate(data["frames"], start=1):
        try:
            pattern = str(entry["pattern"])
            frames.append(
                _Frame(
                    pattern=pattern,
                    regex=_compile(pattern, events),
                    attribute=entry.get("attribute"),
                    answer_type=entry.get("answer"),
                    scope={str(k): str(v) for k, v in (entry.get("scope") or {}).items()},
                )
            )
        except (KeyError, TypeError, re.error) as error:
            raise ValueError(
                f"question_frames.yaml: frames[{number}]: {error}; each frame needs a "
                "pattern (words, (a|b) groups, {entity}, {attribute}, {event})"
            ) from error
    return tuple(frames), frozenset(str(w) for w in data.get("kind_words") or ())


def _normalised(question: str) -> tuple[str, list[str]]:
    """The question as the patterns read it, and the titles it quotes."""
    text = unicodedata.normalize("NFKC", question).replace("\u2019", "'")
    quoted = [m.group(1).strip() for m in _QUOTED.finditer(text)]
    text = _DROPPED.sub(" ", text.casefold())
    return " ".join(text.split()).rstrip(".,"), quoted


def _entity_words(raw: str, quoted: list[str], kind_words: frozenset[str]) -> list[str]:
    """The words naming the entity: a quoted title when the question quotes one inside the
    entity, else the captured words without the kind words in front ("the film")."""
    inside = [q for q in quoted if _normalised(q)[0] and _normalised(q)[0] in raw]
    if inside:
        raw = _normalised(inside[0])[0]
    else:
        words = raw.split()
        while len(words) > 1 and words[0] in kind_words:
            words.pop(0)
        raw = " ".join(words)
    raw = raw.replace(",", " , ")
    words = [w.strip(".'") or w for w in _NAME_WORD.findall(raw)]
    # as the tokenizer splits claim text: "P-9" stays one word, "Winston-Salem" is two
    return [part for w in words for part in (w.split("-") if _splits_at_hyphen(w) else [w])]


def _splits_at_hyphen(word: str) -> bool:
    return "-" in word and not any(ch.isdigit() for ch in word)


def _attribute(words: list[str]) -> str:
    lemmas = [lemma(w) for w in words if w not in ("the", "a", "an")]
    return " ".join(attribute_lexicon().canonical(lemmas))


def match_frame(question: str) -> FrameMatch | None:
    """The frame of ``question``, or None when no pattern matches it as a whole."""
    frames, kind_words = _frames()
    stopwords = resources().stopwords
    text, quoted = _normalised(question)
    events = value_kinds().events
    event_names = frozenset(events.values())
    for frame in frames:
        match = frame.regex.match(text)
        if match is None:
            continue
        words = _entity_words(match.group("entity"), quoted, kind_words)
        if not words:
            continue
        groups = match.groupdict()
        if frame.attribute in event_names:
            attribute = frame.attribute  # event names are attributes as written ("held")
        elif frame.attribute:
            attribute = _attribute(frame.attribute.split())
        elif groups.get("event"):
            attribute = events[phrase_tokens(groups["event"])]
        elif groups.get("attribute"):
            attribute = _attribute(groups["attribute"].split())
        else:
            continue
        if not attribute:
            continue
        # folded as claim entities are: lemmas, function words dropped ("a kind of hush"
        # names the entity "kind hush"), the comma of "Springfield, Illinois" kept
        entity = fold_name(words, stopwords)
        named = [w for w in entity.replace(",", " ").split()]
        if not named:
            continue
        return FrameMatch(
            entity=entity,
            entity_words=tuple(named),
            attribute=attribute,
            answer_type=frame.answer_type,
            scope=dict(frame.scope),
            pattern=frame.pattern,
        )
    return None


@lru_cache(maxsize=1)
def honorifics() -> frozenset[str]:
    """Titles and ranks put before a name ("general", "justice"), lowercase."""
    data = read_yaml("question_frames.yaml")
    return frozenset(str(w).casefold() for w in data.get("honorifics") or ())


@lru_cache(maxsize=1)
def name_suffixes() -> frozenset[str]:
    """Words after a name that tell a father from a son ("jr", "iii"), lowercase."""
    data = read_yaml("question_frames.yaml")
    return frozenset(str(w).casefold() for w in data.get("name_suffixes") or ())


def kind_words() -> frozenset[str]:
    """Words that say what kind of thing a name is ("city", "film", "of"), not which."""
    return _frames()[1]
