"""Infobox and data-sheet fields: "Born 3 May 1970", "Population ( 2006 ) • Total 17,289".

A reference page states many of its facts in a box of "Name value" fields rather than in
sentences. Scraped into text the box is one run of fields ("Date of birth 2 May 1871
Hexley Date of death 9 June 1940 England"); in an intranet page it is one field a line
("Spouse: Anna Smith"). The sentence parser reads such a run as one long sentence whose
"subject" is the run of field names, so its claims come out under furniture ("county dębica
seat pilzno area sq mi"). This module reads the fields instead:

* a **field** is a name of ``data/infobox.yaml`` written as the box writes it (capitalised;
  "Position ( s )"), standing in a run of field names (another name within a short stretch)
  or alone on its line before a colon; a name inside prose ("the Director of the museum") is
  no field;
* its **value** is read by the field's kind and nothing else is taken for it: a date right
  after the name (a "Born" field may name the person first), a count after an optional
  "( 2006 )" (the count's year) and "• Total", capitalised words up to the next field name,
  bracket or mark. A reference number, a year inside a title, a coordinate is never a field's
  value: the value must stand where the field puts it;
* the **block**: the characters from the first to the last field of a run. The sentence
  parser's claims whose value sits in a block are replaced by the fields (page furniture
  never becomes an entity or a value).

The field claims are about the page's subject (``claims.extraction.opening`` places them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from claims.extraction.captions import caption_spans
from claims.extraction.mentions import Mentions
from claims.extraction.resources import read_yaml
from claims.extraction.value_kinds import iso_value
from claims.models import EffectiveTime, TimeGranularity, ValueKind

# two field names further apart than this are not one box
MAX_FIELD_GAP = 150
# a box has at least this many different field names (two capitalised words of a title
# that happen to be field names, "Harbour Songs", are no box)
MIN_BOX_NAMES = 3
# the longest name a box's naming field gives its subject, in words
MAX_NAME_WORDS = 8
# a label value ends at these (a bracket, an "=" of the next field, a list mark)
_LABEL_END = frozenset('([{=|•·^*"“”')
_SENTENCE_END = re.compile(r"\n|[a-z]{2}\. (?=[A-Z])")
_YEAR = re.compile(r"\d{4}")
_FIELD_YEAR = re.compile(
    r"\s*[:=]?\s*(?:(?:about|around|c\.|ca\.|circa|in)\s+)?(?P<year>\d{4})(?![\d.,:/]\d|\s*(?:km|m|ft)\b)"
)
_COUNT = re.compile(
    r"\s*[:=]?\s*"
    r"(?:\(\s*(?P<year>\d{4})\s*(?:census|estimate|est\.?)?\s*\)\s*)?"
    r"(?:[•·]\s*)?(?:(?:Total|Estimate|Census)\s*)?(?:\(\s*(?P<year2>\d{4})\s*\)\s*)?[:=]?\s*"
    r"(?P<number>\d{1,3}(?:,\d{3})+|\d+)(?![\d.,]\d)"
)
# after a count: a unit, a share or a range makes it another figure (an area, a density)
_NOT_COUNT_AFTER = re.compile(r"\s*(?:km|mi|sq|m\b|ha|acre|%|/|[-–]\s*\d|\.\d)")


@dataclass(frozen=True)
class Field:
    """One field read from a box: its attribute, value, and where name and value stand."""

    attribute: str
    value: str | float
    kind: ValueKind
    name_start: int
    start: int  # the value's characters
    end: int
    time: EffectiveTime | None = None  # the year a count is of ("Population ( 2006 )")


@dataclass(frozen=True)
class _Lexicon:
    pattern: re.Pattern[str]
    fields: dict[str, tuple[str, str]]  # name -> (attribute, value kind)
    connectors: frozenset[str]
    end_matter: tuple[str, ...]
    furniture_lines: tuple[str, ...]
    reference_words: frozenset[str]
    date_lead: frozenset[str]
    max_label_words: int
    max_date_gap: int
    subject_fields: frozenset[str]
    headers: re.Pattern[str] | None = None


@lru_cache(maxsize=1)
def _lexicon() -> _Lexicon:
    data = read_yaml("infobox.yaml")
    fields = {
        str(name): (str(spec["attribute"]), str(spec["value"]))
        for name, spec in data["fields"].items()
    }
    subject_fields = frozenset(str(n) for n in data["subject_fields"])
    names = set(fields) | {str(n) for n in data["stops"]} | subject_fields
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    # a name stands alone (no letter glued before or after); "(s)" may follow it
    pattern = re.compile(rf"(?<![\w'’-])(?P<name>{alternatives})(?:\s*\(\s*s\s*\))?(?![\w'’-])")
    return _Lexicon(
        pattern=pattern,
        fields=fields,
        connectors=frozenset(str(w) for w in data["connectors"]),
        end_matter=tuple(str(w) for w in data["end_matter"]),
        furniture_lines=tuple(str(w) for w in data["furniture_lines"]),
        reference_words=frozenset(str(w) for w in data["reference_words"]),
        date_lead=frozenset(str(w) for w in data["date_lead"]),
        max_label_words=int(data["max_label_words"]),
        max_date_gap=int(data["max_date_gap"]),
        subject_fields=subject_fields,
        headers=re.compile(
            r"(?<![\w-])(?:"
            + "|".join(re.escape(str(h)) for h in data.get("box_headers") or ())
            + r") by "
        )
        if data.get("box_headers")
        else None,
    )


# a sentence's verb right after a box's last value: the words before it are its subject
_PROSE_VERBS = frozenset({"is", "was", "are", "were", "has", "had", "have"})
# a field name right after these words is a word of a sentence ("the Director of")
# or of a longer name ("country for sport United States" is another Wikidata statement's name)
_PROSE_BEFORE = frozenset(
    {"the", "a", "an", "his", "her", "its", "their", "of", "'s", "’s", "for", "in", "by", "to"}
    | {"and", "with", "on", "at", "as"}
)


def read_fields(text: str, mentions: Mentions) -> tuple[list[Field], list[tuple[int, int]]]:
    """The fields of ``text``'s boxes, and the boxes' character ranges: runs of at least
    three different field names each within a short stretch of the last ("Every Mother
    Songs ... Harbour Songs" is a title twice, not a box), and lone "Name: value"
    lines."""
    lex = _lexicon()
    names = _field_names(text, lex)
    fields: list[Field] = []
    blocks: list[tuple[int, int]] = []
    boxed: set[int] = set()
    for run in _runs(names):
        if len({names[k].group("name") for k in run}) >= MIN_BOX_NAMES:
            boxed.update(run)
    for k, match in enumerate(names):
        own_line = _own_line(text, match)
        spec = lex.fields.get(match.group("name"))
        if spec is None or not (k in boxed or own_line):
            continue
        nxt = names[k + 1].start() if k + 1 < len(names) else len(text)
        line_end = _line_end(text, match)
        ends_at_name = k + 1 < len(names) and nxt <= line_end
        field = _value(text, match, min(nxt, line_end), ends_at_name, spec, mentions, lex)
        if field is not None:
            fields.append(field)
            if own_line and k not in boxed:
                blocks.append((match.start(), field.end))
    for run in _runs(names):
        if run[0] in boxed:
            blocks.append(_block(names, run, fields))
    return fields, blocks


def box_subject(text: str) -> tuple[str, int, int] | None:
    """The name a box gives its subject in a naming field ("Name in native language Arthur
    Penrose, 3rd Baron Wexcombe Date of birth ...", "Full name Lin Daiwei"), and where it
    stands; None when no box of ``text`` has one. Only a field of a box (a run of field
    names) counts: "his full name was ..." in prose names nothing."""
    lex = _lexicon()
    names = _field_names(text, lex)
    for run in _runs(names):
        if len({names[k].group("name") for k in run}) < MIN_BOX_NAMES:
            continue
        for k in run:
            match = names[k]
            if match.group("name") not in lex.subject_fields:
                continue
            nxt = names[k + 1].start() if k + 1 < len(names) else len(text)
            # the name ends at a bracket ("Arthur Penrose (English)": its language)
            bracket = text.find("(", match.end())
            stop = min(nxt, _line_end(text, match), len(text) if bracket < 0 else bracket)
            # the whole stretch up to the next field name: a title or an ordinal may
            # follow the name ("Arthur Penrose, 3rd Baron Wexcombe Date of birth ...")
            lead = re.match(r"\s*[:=]?\s*", text[match.end() : stop])
            start = match.end() + (lead.end() if lead else 0)
            name = text[start:stop].rstrip(" ,;:=|\t")
            words = name.split()
            if 1 <= len(words) <= MAX_NAME_WORDS and name[:1].isupper():
                return name, start, start + len(name)
    return None


def header_subject(text: str) -> tuple[str, int, int, str, int, int] | None:
    """The title a music box's header names after the page's short description ("1984
    studio album by Ansel Ware Night Ferry Studio album by Ansel Ware Released 1984"),
    where it stands, and the maker the header names (and where): the title lies between
    the description's "by <maker>" and the header, the maker between the header and the
    box's first field. None when the two makers differ or no field follows."""
    lex = _lexicon()
    if lex.headers is None:
        return None
    for header in lex.headers.finditer(text):
        after = header.end()
        field = lex.pattern.search(text, after, after + 80)
        if field is None:
            continue
        maker = text[after : field.start()].strip()
        if not maker[:1].isupper() or not 1 <= len(maker.split()) <= MAX_NAME_WORDS:
            continue
        lead = f" by {maker} "
        k = text.rfind(lead, max(0, header.start() - 200), header.start())
        if k < 0:
            continue
        raw = text[k + len(lead) : header.start()]
        title = raw.strip()
        shaped = title[:1].isupper() or title[:1].isdigit()
        if title and shaped and len(title.split()) <= 2 * MAX_NAME_WORDS:
            t0 = k + len(lead) + (len(raw) - len(raw.lstrip()))
            return title, t0, t0 + len(title), maker, after, after + len(maker)
    return None


def _runs(names: list[re.Match[str]]) -> list[list[int]]:
    """The names in runs, each within MAX_FIELD_GAP characters of the one before."""
    runs: list[list[int]] = []
    for k, match in enumerate(names):
        if runs and match.start() - names[runs[-1][-1]].end() <= MAX_FIELD_GAP:
            runs[-1].append(k)
        else:
            runs.append([k])
    return runs


def in_block(start: int, end: int, blocks: list[tuple[int, int]]) -> bool:
    """Whether characters start..end meet a box."""
    return any(a < end and start < b for a, b in blocks)


def furniture(text: str) -> list[tuple[int, int]]:
    """Stretches of page furniture no claim is read from: a category line, a navigation box
    (from its marker to the end of the line or of the sentence it runs into), a picture's
    caption in square brackets (``captions.caption_spans``)."""
    lex = _lexicon()
    found = []
    for marker in lex.furniture_lines:
        at = text.find(marker)
        while at >= 0:
            # to the line's end, or the first full stop that ends a sentence: a sidebar box
            # at the top of a page runs into the article's prose
            end = _SENTENCE_END.search(text, at + len(marker))
            found.append((at, len(text) if end is None else end.start()))
            at = text.find(marker, found[-1][1])
    return found + caption_spans(text)


def is_reference_date(quote: str) -> bool:
    """Whether a claim's quote is a reference's access or archive line ("Retrieved 29
    January 2012."): its date is when someone read a source, not a fact of the page."""
    first = quote.lstrip("^ *-").split(maxsplit=1)
    return bool(first) and first[0] in _lexicon().reference_words


def _field_names(text: str, lex: _Lexicon) -> list[re.Match[str]]:
    """The field names of ``text``, in order. A name right after a label field's name is
    that field's value ("Architect (s) Father Anselm Brook": a priest, not a "Father"
    field); a name after an article or a possessive is a word of a sentence."""
    names: list[re.Match[str]] = []
    ends = [at for at in (text.find(marker) for marker in lex.end_matter) if at >= 0]
    for match in lex.pattern.finditer(text, 0, min(ends, default=len(text))):
        if _after_prose_word(text, match.start()):
            continue
        if names:
            last = names[-1]
            spec = lex.fields.get(last.group("name"))
            between = text[last.end() : match.start()]
            if spec is not None and spec[1] == "label" and not between.strip(" :=\t"):
                continue
        names.append(match)
    return names


def _block(names: list[re.Match[str]], run: list[int], fields: list[Field]) -> tuple[int, int]:
    start, end = names[run[0]].start(), names[run[-1]].end()
    for field in fields:
        if start <= field.name_start <= end:
            end = max(end, field.end)
    return start, end


def _after_prose_word(text: str, at: int) -> bool:
    before = text[max(0, at - 12) : at].split()
    return bool(before) and before[-1].casefold() in _PROSE_BEFORE


def _own_line(text: str, match: re.Match[str]) -> bool:
    """ "Spouse: Anna Smith" on its own line (a list mark may lead it)."""
    line_start = text.rfind("\n", 0, match.start()) + 1
    lead = text[line_start : match.start()].strip()
    return lead in ("", "-", "*", "•") and text[match.end() : match.end() + 2].lstrip()[:1] == ":"


def _line_end(text: str, match: re.Match[str]) -> int:
    end = text.find("\n", match.end())
    return len(text) if end < 0 else end


def _value(
    text: str,
    match: re.Match[str],
    stop: int,
    ends_at_name: bool,
    spec: tuple[str, str],
    mentions: Mentions,
    lex: _Lexicon,
) -> Field | None:
    attribute, kind = spec
    if kind == "date":
        return _date_field(text, match, stop, attribute, mentions, lex)
    if kind == "count":
        return _count_field(text, match, stop, attribute)
    if ends_at_name:
        whole = _whole_value(text, match, stop, lex)
        if whole is not None:
            return Field(attribute, text[whole[0] : whole[1]], ValueKind.CATEGORICAL,
                         match.start(), *whole)  # fmt: skip
    return _label_field(text, match, stop, ends_at_name, attribute, lex)


def _whole_value(
    text: str, match: re.Match[str], stop: int, lex: _Lexicon
) -> tuple[int, int] | None:
    """A few words between a field's name and the next name are its value, lower-case words
    too ("Genre = Folk rock Length = 41:12"): characters, or None."""
    lead = re.match(r"\s*[:=]?\s*", text[match.end() : stop])
    start = match.end() + (lead.end() if lead else 0)
    value = text[start:stop].rstrip(" ,;=|\t")
    words = value.split()
    if not 1 <= len(words) <= lex.max_label_words - 2 or any(ch in _LABEL_END for ch in value):
        return None
    if not (words[0][:1].isupper() or match.group("name")[:1].islower()):
        return None
    if any(w in _PROSE_VERBS for w in words) or not any(ch.isalpha() for ch in value):
        return None
    return start, start + len(value)


def _date_field(
    text: str, match: re.Match[str], stop: int, attribute: str, mentions: Mentions, lex: _Lexicon
) -> Field | None:
    """The first date after the name, with only a name, brackets or "about" between."""
    for time in mentions.times:
        if time.start < match.end():
            continue
        if time.start - match.end() > lex.max_date_gap or time.end > stop:
            return None
        if time.first is None or time.granularity is None:
            continue
        gap = text[match.end() : time.start]
        for word in re.findall(r"[^\W\d_][\w.]*", gap):
            if not (word[:1].isupper() or word.casefold() in lex.date_lead):
                return None  # a sentence, not a field ("Born in a village near ...")
        value = iso_value(time.first, time.first, time.granularity)
        return Field(attribute, value, ValueKind.DATE, match.start(), time.start, time.end)
    # a year alone is no time expression of the scanner: "Built about 1935", "Founded 1979"
    year = _FIELD_YEAR.match(text, match.end(), stop)
    if year is None or not 1000 <= int(year.group("year")) <= 2100:
        return None
    return Field(
        attribute, year.group("year"), ValueKind.DATE, match.start(), year.start("year"),
        year.end("year"),
    )  # fmt: skip


def _count_field(text: str, match: re.Match[str], stop: int, attribute: str) -> Field | None:
    """A count right after the name: "Population ( 2006 ) • Total 17,289"."""
    found = _COUNT.match(text, match.end(), stop)
    if found is None or _NOT_COUNT_AFTER.match(text, found.end()):
        return None
    number = found.group("number")
    if "," not in number and _YEAR.fullmatch(number) and 1500 <= int(number) <= 2100:
        return None  # a year ("Population 2010 census"), not a count
    year = found.group("year") or found.group("year2")
    time = None
    if year:
        y = int(year)
        time = EffectiveTime(
            start=date(y, 1, 1), end=date(y, 12, 31), granularity=TimeGranularity.YEAR, text=year
        )
    value = float(number.replace(",", ""))
    start = found.start("number")
    return Field(attribute, value, ValueKind.QUANTITY, match.start(), start, found.end(), time)


def _label_field(
    text: str, match: re.Match[str], stop: int, ends_at_name: bool, attribute: str, lex: _Lexicon
) -> Field | None:
    """Capitalised words after the name, up to the next field name, a bracket or a mark
    ("Style Modernist Completed 1776": "Modernist"). The box's last field, which no next
    name ends, runs into what follows the box ("Language Marathi Nadi Kinara ( transl.
    River Bank ) is a 2003 film"): its value is its first word, or the words up to its
    first comma, unless it fills its line."""
    lead = re.match(r"\s*[:=]?\s*", text[match.end() : stop])
    at = match.end() + (lead.end() if lead else 0)
    lower_name = match.group("name")[:1].islower()  # a Wikidata statement: "genre pop music"
    words: list[tuple[int, int]] = []
    commas: list[int] = []  # how many words stood before each comma of the value
    cut = False
    for token in re.finditer(r"\S+", text[at:stop]):
        word = token.group()
        if word[:1] in _LABEL_END or len(words) >= lex.max_label_words:
            cut = not ends_at_name
            break
        bare = word.rstrip(",.;:")
        if not bare:
            if word.startswith(","):
                commas.append(len(words))
                continue
            break
        capital = bare[:1].isupper() or (lower_name and bare[:1].isalpha())
        if not (capital or (words and bare.casefold() in lex.connectors)):
            if words and bare in _PROSE_VERBS:
                # the page's prose starts right after the box with a name and its verb
                # ("Political party Liberal Hester Vane was known ..."): the value is the
                # first word, or the words up to its first comma
                cut = True
            break
        if word.endswith(","):
            commas.append(len(words) + 1)
        words.append((at + token.start(), at + token.start() + len(bare)))
        if word not in (bare, bare + ",") and not (word.endswith(".") and len(bare) <= 3):
            cut = not ends_at_name and len(words) > 1
            break  # "Jr." and "St." go on; another full stop ends the value
    if cut:
        words = words[: commas[0] if commas else 1]
    while words and text[words[-1][0] : words[-1][1]].casefold() in lex.connectors:
        words.pop()
    if not words:
        return None
    start, end = words[0][0], words[-1][1]
    value = text[start:end]
    if not any(ch.isalpha() for ch in value):
        return None
    return Field(attribute, value, ValueKind.CATEGORICAL, match.start(), start, end)
