"""Label lines: ``Notice period: 30 days``, ``Weight: 21 kg`` under ``## P-200``.

The label is the attribute and the heading path may name the entity. Each line is
rewritten as the sentence a person would say ("The P-200 weight is 21 kg."), all the lines
of a document in one text read once by the sentence reader, and every claim read from a
line's value is moved back onto the line: its evidence is the line, its value span the
value's own characters. So a label line and a prose sentence stating one fact get one
claim key by construction ("Annual leave: 25 days" and "Employees get 25 days of annual
leave." both key ``leave``, period annual).

A line whose value is a clause of its own ("Note: the office is closed on Mondays") is
prose: the sentence reader reads it as it stands.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from claims.documents.model import Block, BlockKind
from claims.extraction.identity import model_name
from claims.extraction.readers.context import ReadContext
from claims.extraction.readers.relocate import moved_claim
from claims.extraction.resources import read_yaml
from claims.models import Claim

_MAX_VALUE_WORDS = 8
# a value that opens a clause of its own is prose, not a label's value
_CLAUSE_OPENERS = frozenset(
    (  # noqa: SIM905
        "the a an this that these those it we you they he she i our your their there if when"
    ).split()
)
_SEPARATOR = re.compile(r"\s*(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*")
# a heading that names a thing: a model code, a name with digits or capitals inside a word
_NAMED = re.compile(r"\d|[a-z][A-Z]|\b[A-Z]{2,}\b")


@dataclass(frozen=True)
class _Line:
    block: Block
    value_start: int  # offset of the value in the document text
    value_end: int
    at: int  # offset of the value in the rewritten text


def label_value(text: str, block: Block) -> tuple[int, int] | None:
    """(start, end) of the value of a label line, or None when its value is prose."""
    line = text[block.start : block.end]
    label = block.label or ""
    at = line.find(label)
    if not label or at < 0 or label.lower() in _field_names():
        return None  # no label line, or a page's field ("Born: 3 March 1841"): infobox.py
    after = at + len(label)
    sep = (
        _SEPARATOR.match(line, after)
        if line[after : after + 3].strip("*_ ").startswith(":")
        else None
    )
    if sep is None:
        return None
    start = block.start + sep.end()
    end = block.end
    while end > start and text[end - 1] in ". \t":
        end -= 1  # the line's own full stop: the rewritten sentence brings one
    value = text[start:end]
    words = value.split()
    if not words or len(words) > _MAX_VALUE_WORDS or words[0].lower() in _CLAUSE_OPENERS:
        return None
    return start, end


def heading_entity(path: tuple[str, ...]) -> str | None:
    """The innermost heading that names a thing ("P-200", "Aero X2", "SKU 4411"), or None:
    topic headings ("Leave", "Technical data") name no entity. A model code's kind words
    are no part of its name ("P-300 Centrifugal Pump" -> "P-300", ``model_name``), as in
    the table reader's and the title's entity."""
    for title in reversed(path):
        if title.endswith("?"):
            continue
        name = _without_document_kind(title)
        words = name.split()
        if 0 < len(words) <= 4 and _NAMED.search(name):
            return " ".join(words[: model_name(words)])
    return None


@lru_cache(maxsize=1)
def _field_names() -> frozenset[str]:
    """Field names the field-line reader (the reference profile's claims/reference/infobox.py)
    reads with the page's subject and its own value kinds: a label line of one of them stays
    with it. (Read from that profile's data file by path, importing nothing of it; to come
    from the profile itself, as its other readers do.)"""
    fields = read_yaml("infobox.yaml", Path(__file__).parents[2] / "reference" / "data")
    return frozenset(str(name).lower() for name in fields["fields"])


@lru_cache(maxsize=1)
def _document_kinds() -> re.Pattern[str]:
    kinds = sorted((str(k) for k in read_yaml("office_prose.yaml")["document_kinds"]), key=len)
    alternatives = "|".join(re.escape(k) for k in reversed(kinds))
    return re.compile(rf"[\s:,-]+(?:{alternatives})\s*$", re.IGNORECASE)


def _without_document_kind(title: str) -> str:
    """ "Aero X2 datasheet" -> "Aero X2": the kind of document is no part of the thing."""
    return _document_kinds().sub("", title).strip()


def _spoken_label(label: str) -> str:
    """The label as it would stand in a sentence: common words lowercase, codes and
    acronyms ("API", "PoE") as written."""
    return " ".join(w if _NAMED.search(w) else w.lower() for w in label.split())


@dataclass(frozen=True)
class Rewritten:
    """The label lines of a document rewritten as sentences, one text, and where each
    line's value stands in it (offsets counted from ``offset``, where the text is read)."""

    text: str
    lines: tuple[_Line, ...]
    offset: int = 0

    @property
    def starts(self) -> set[int]:
        """The starts of the blocks read here (their prose claims are replaced)."""
        return {line.block.start for line in self.lines}


def rewrite_label_lines(text: str, blocks: Sequence[Block], offset: int = 0) -> Rewritten:
    """Every label line among ``blocks`` whose value is no clause, as the sentence a person
    would say; the text is meant to be read at ``offset`` (after the document's own)."""
    parts: list[str] = []
    lines: list[_Line] = []
    length = offset
    for block in blocks:
        if block.label is None or block.kind not in (BlockKind.LABEL_LINE, BlockKind.LIST_ITEM):
            continue
        value = label_value(text, block)
        if value is None:
            continue
        entity = heading_entity(block.locator.heading_path)
        label = _spoken_label(block.label)
        prefix = f"The {entity} {label} is " if entity else f"The {label} is "
        sentence = prefix + text[value[0] : value[1]] + ".\n\n"
        lines.append(_Line(block, value[0], value[1], length + len(prefix)))
        parts.append(sentence)
        length += len(sentence)
    return Rewritten("".join(parts), tuple(lines), offset)


def label_line_claims(context: ReadContext, rewritten: Rewritten, read: list[Claim]) -> list[Claim]:
    """The claims ``read`` from the rewritten lines, moved back onto the document's lines:
    evidence the line, value span the value's own characters."""
    if not rewritten.lines:
        return []
    starts = [line.at for line in rewritten.lines]
    claims: list[Claim] = []
    for claim in read:
        vs = claim.value_span
        k = bisect_right(starts, (vs.start if vs is not None else claim.span.start)) - 1
        if k < 0:
            continue
        line = rewritten.lines[k]
        shift = line.value_start - line.at
        if vs is not None and not (
            line.at <= vs.start and vs.end <= line.at + line.value_end - line.value_start
        ):
            continue  # read from the label words, not from the value
        claims.append(moved_claim(context, claim, line.block, shift))
    return claims
