"""A question that names a table's row and column: the cell (issue 32, table questions).

"What was the revenue in 2019?" of a report whose table has a row ``Revenue`` and a column
``2019`` asks for one cell. The question's words are matched against what the table
itself says of each cell: its row header and its column header (the claim's locator), and
the words of its claim key (which hold a group row's words, "Net sales" over "Southern routes"):

- a cell is named when every content word of its row header is in the question (or a
  synonym of one, ``retrieval.glossary``; "total" may be left out);
- named cells are ranked by the question's content words they carry (row, column, key,
  qualifiers, headings), then by fewer row-header words the question left out;
- of the best, those at the asked time (a cell whose year column lies in the asked year)
  and, when the question asks for a percentage or not, of that kind;
- the cells answer when they state one value; several values the question cannot tell
  apart are left to the other readings (never a guess).

Candidates come from one bounded full-text read of the visible quotes (a table row's quote
is its line, so every cell of a matching row is found) and one read of their locators.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from claims.store.search import search_quotes
from retrieval.answer_type import AnswerType, dimension_of_unit, value_fits
from retrieval.evidence import ClaimFact
from retrieval.evidence_rank import _locators
from retrieval.finding import Ask, Found, best_named
from retrieval.glossary import expand, fold, words
from retrieval.question_reading import Reading, read_question

_DATA = Path(__file__).parent / "data" / "table_questions.yaml"
_BRACKETED = re.compile(r"\([^()]*\)")
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


@dataclass(frozen=True)
class Cell:
    claim: ClaimFact
    row: frozenset[str]  # the row header's content words (none for an unlabelled row)
    carried: frozenset[str]  # every word the cell carries
    column: frozenset[str]
    table: tuple[str, int]  # the version and the table's number in it


@dataclass(frozen=True)
class Words:
    function: frozenset[str]
    optional: frozenset[str]  # row-header words a question may leave out ("total")
    filler: frozenset[str]  # question words that name no row ("amount", "value")
    percent: frozenset[str]  # question words asking for a percentage
    time: frozenset[str]  # question words saying when ("December")
    same: dict[str, str]  # a word and the word it is read as ("monthly": "month")


@lru_cache(maxsize=1)
def _words() -> Words:
    data = yaml.safe_load(_DATA.read_text(encoding="utf-8"))

    def folded(name: str) -> frozenset[str]:
        return frozenset(fold(str(w)) for w in data[name])

    cues = yaml.safe_load((Path(__file__).parent / "data" / "value_cues.yaml").read_text())
    function = frozenset(fold(str(w)) for w in cues["function_words"])
    return Words(
        function | folded("function_words"),
        folded("optional_row_words"),
        folded("filler_words"),
        folded("percent_words"),
        folded("time_words"),
        {fold(str(k)): fold(str(v)) for k, v in data["same_words"].items()},
    )


def _content(text: str, vocabulary: Words) -> list[str]:
    """The content words of ``text``: folded, function words and years left out, a word
    of frequency written as its period ("monthly" -> "month"); numbers that are no year
    stay ("Priority 2", "Band 3")."""
    out = []
    for word in words(text):
        word = vocabulary.same.get(word, word)
        if word not in vocabulary.function and not _YEAR.fullmatch(word):
            out.append(word)
    return out


def _cell(claim: ClaimFact, locator: dict[str, Any], vocabulary: Words) -> Cell | None:
    header = str(locator.get("row_header") or "")
    if locator.get("table") is None:
        return None
    # what a header says in brackets qualifies it ("Freight costs (excluding fuel)"): a
    # question may leave it out, and it still counts when the question says it
    row = frozenset(_content(_BRACKETED.sub(" ", header), vocabulary))
    column_header = str(locator.get("column_header") or "")
    column = frozenset(_content(column_header, vocabulary)) | set(_YEAR.findall(column_header))
    carried = set(row) | set(column) | set(_content(header, vocabulary))
    carried |= set(words(claim.claim_key))
    carried |= {w for v in claim.scope.values() for w in words(str(v))}
    carried |= {w for r in claim.scope_residual for w in words(r)}
    carried |= {w for h in locator.get("heading_path") or [] for w in words(str(h))}
    return Cell(claim, row, frozenset(carried), column, (claim.version_id, locator["table"]))


def _is_percent(claim: ClaimFact) -> bool:
    return (claim.unit or "").strip() in ("%", "percent") or claim.canonical_unit == "percent"


def _in_asked_time(cell: Cell, ask: Ask, years: set[str]) -> bool:
    """The cell's time lies in the asked time; a year the question names without a
    preposition ("the 2022 gross profit") is asked of the cell's column."""
    claim = cell.claim
    if ask.start is None and ask.end is None:
        return (
            not years
            or bool(years & cell.column)
            or (claim.time_start is not None and str(claim.time_start.year) in years)
        )
    if claim.time_start is None or claim.time_end is None:
        return False
    return (ask.start is None or claim.time_end >= ask.start) and (
        ask.end is None or claim.time_start <= ask.end
    )


def _at_asked_time(cells: list[Cell], ask: Ask, tables: list[Cell]) -> list[Cell]:
    """The cells at the asked time. A cell of unknown time is read as of the asked time when
    its table's dated cells span it (a roll-forward from 31 December 2018 to 31 December
    2019 has undated rows "Awarded", "Lapsed" for 2019), or its table has no dated cell."""
    years = set(_YEAR.findall(ask.text))
    timed = [c for c in cells if _in_asked_time(c, ask, years)]
    if timed or not (ask.start or ask.end):
        return timed
    assert ask.start is not None or ask.end is not None
    asked_start, asked_end = ask.start or ask.end, ask.end or ask.start
    kept = []
    for cell in cells:
        if cell.claim.time_start is not None or cell.claim.time_end is not None:
            continue
        dated = [
            t
            for c in tables
            if c.table == cell.table
            for t in (c.claim.time_start, c.claim.time_end)
            if t is not None
        ]
        if not dated or (min(dated) <= asked_end and asked_start <= max(dated)):  # type: ignore[operator]
            kept.append(cell)
    return kept


def _row_named(cell: Cell, said: set[str], vocabulary: Words) -> bool:
    """Every content word of the cell's row header is in the question; a row with no label
    (the total under a group row) is named by its key's words, which hold the group's."""
    row = cell.row or frozenset(_content(cell.claim.claim_key, vocabulary))
    needed = row - vocabulary.optional
    return bool(needed) and needed <= said


def _bracketed(question: str, vocabulary: Words) -> set[str]:
    inside = " ".join(m.group()[1:-1] for m in _BRACKETED.finditer(question))
    return set(_content(inside, vocabulary)) - vocabulary.percent


def _raw_words(cell: Cell, locators: dict[str, dict[str, Any]], vocabulary: Words) -> set[str]:
    """The words of the cell's row line and headers as written (unit brackets included)."""
    locator = locators.get(cell.claim.id, {})
    said = " ".join(
        [
            cell.claim.quote,
            str(locator.get("row_header") or ""),
            str(locator.get("column_header") or ""),
        ]
    )
    return set(_content(said, vocabulary)) | set(cell.carried)


def _names(question: str, vocabulary: Words) -> list[str]:
    """Words the question writes as a name: capitalised after its first word, neither an
    acronym ("EMEA") nor a word that also starts a sentence of report prose ("Total")."""
    said = re.findall(r"[^\W_]+(?:[-'][^\W_]+)*", question)[1:]
    named = [w for w in said if w[0].isupper() and not w.isupper() and not w.isdigit()]
    return [w for w in words(" ".join(named)) if w not in vocabulary.function]


def _kind_fits(claim: ClaimFact, reading: Reading) -> bool:
    """A question asking for a kind of value ("how many years") is not answered by a cell
    of another dimension (an amount of money)."""
    if not reading.dimensions or claim.kind != "quantity":
        return True
    dimension = dimension_of_unit(claim.canonical_unit)
    if dimension is None:
        return claim.unit is None or not claim.canonical_unit
    if "currency" in reading.dimensions:
        return len(dimension) == 3 and dimension.isupper()
    return dimension in reading.dimensions


def _value(claim: ClaimFact) -> object:
    return (claim.canonical_value, claim.canonical_unit, claim.value_number, claim.value_text)


@dataclass(frozen=True)
class CellReading:
    """What the table reading found: the cells that answer and the keys read."""

    cells: list[ClaimFact]
    keys: list[str]
    why: str = ""  # what decided it, for ``claims ask --explain``


def named_cells(ask: Ask) -> CellReading:
    """The visible table cells the question names by row and column, and the keys they
    were read at; no cells when none is named or the named ones disagree."""
    generation = ask.loader.generation()
    vocabulary = _words()
    terms = list(dict.fromkeys(_content(ask.text, vocabulary)))
    if generation is None or not terms:
        return CellReading([], [], "the question has no content words")
    expanded = expand(terms)  # every word (and synonym) -> the question term it stands for
    matches = search_quotes(
        ask.conn, sorted(expanded), generation=generation, groups=ask.requester.groups
    )
    keys = sorted({m.claim_key for m in matches})
    if not keys:
        return CellReading([], [], "no visible quote holds the question's words")
    matched = {m.claim_id for m in matches}
    group = ask.visible(keys)
    claims = [c for c in group.claims.values() if c.id in matched and ask.holds(c)]
    locators = _locators(ask.conn, [c.id for c in claims])
    said = set(expanded)
    reading = read_question(ask.text, ask.frame)
    tables = [
        cell
        for cell in (_cell(c, locators.get(c.id, {}), vocabulary) for c in claims)
        if cell is not None
    ]
    # a question asking for a percentage is answered by a percent cell ("the percentage
    # change in revenue" is no amount of money); one that does not ask for one, by an
    # amount when its row has one
    wants_percent = bool(set(words(ask.text)) & vocabulary.percent)
    cells = [
        cell
        for cell in tables
        if _row_named(cell, said, vocabulary) and (wants_percent or _kind_fits(cell.claim, reading))
    ]
    of_kind = [c for c in cells if _is_percent(c.claim) == wants_percent]
    cells = of_kind if of_kind or wants_percent else cells
    if not cells:
        return CellReading([], keys, "no table row is named by every word of its header")

    def covered(cell: Cell) -> set[str]:
        return {expanded[w] for w in cell.carried if w in expanded}

    def rank(cell: Cell) -> tuple[int, int, int]:
        # most asked words carried; then the header the question says most fully (the
        # plain "Change" column over "Change at constant currency" when neither word is asked)
        return (len(covered(cell)), -len(cell.row - said), -len(cell.column - said))

    best = max(rank(c) for c in cells)
    chosen = [c for c in cells if rank(c) == best]
    asked = set(terms) - vocabulary.filler - vocabulary.optional - vocabulary.time
    hit = covered(chosen[0])
    # the row, column and key must carry most of what is asked: a row merely named in
    # passing does not answer a question about something else
    if len(hit & asked) * 2 < len(asked):
        return CellReading([], keys, "the named row carries fewer than half of the asked words")
    # a name the question gives ("the Kestrel division's gross profit") that the cell's
    # table never says: the question is about a part of the figures' subject the table
    # does not break out
    table_words = set().union(*(c.carried for c in tables if c.table == chosen[0].table))
    if any(n not in table_words for n in _names(ask.text, vocabulary)):
        return CellReading([], keys, "the question names something the row's table never says")
    # what the question says in brackets ("the margin (after freight)") names
    # which of several like rows it means: a cell whose row line and headers do not say it
    # is not that row
    bracketed = _bracketed(ask.text, vocabulary)
    chosen = [c for c in chosen if bracketed <= _raw_words(c, locators, vocabulary)]
    if not chosen:
        return CellReading([], keys, "the question's bracketed words are not in the named row")
    chosen = _at_asked_time(chosen, ask, tables)
    if not chosen:
        return CellReading([], keys, "no named cell is at the asked time")
    values = {_value(c.claim) for c in chosen}
    if len(values) != 1 and not _one_value_per_time(chosen, ask):
        return CellReading(
            [], keys, "the named cells state several values the question does not tell apart"
        )
    where = _locators(ask.conn, [chosen[0].claim.id]).get(chosen[0].claim.id, {})
    rivals = _prose_rivals(claims, locators, chosen, asked, expanded)
    if rivals:
        return CellReading(
            [*(c.claim for c in chosen), *rivals],
            keys,
            "a sentence of the report carries every asked word with another figure: both are sides",
        )
    return CellReading(
        [c.claim for c in chosen],
        keys,
        f"row {where.get('row_header')!r}, column {where.get('column_header')!r}: "
        f"{len(chosen)} cell(s) of one value",
    )


def _same_kind(one: str | None, other: str | None) -> bool:
    """Two figures of one kind: one dimension, or a bare number and a count ("1,240" in a
    row of stores, "310 stores" in a sentence)."""
    if one == other:
        return True
    if one is not None and other is not None:
        return False
    return value_fits(AnswerType.COUNT, kind="quantity", dimension=one or other)


def _prose_rivals(
    claims: list[ClaimFact],
    locators: dict[str, dict[str, Any]],
    chosen: list[Cell],
    asked: set[str],
    expanded: dict[str, str],
) -> list[ClaimFact]:
    """Sentences of the cells' document that carry every asked word, which the cells do
    not, with a figure of the cells' kind and another value: the question may ask the
    sentence's figure ("the number of stores in the region" of a paragraph beside a table of
    all stores), so the answer names both instead of the cell alone."""
    cell_words = {expanded[w] for c in chosen for w in c.carried if w in expanded}
    if asked <= cell_words:
        return []
    versions = {c.claim.version_id for c in chosen}
    values = {_value(c.claim) for c in chosen}
    dimensions = {dimension_of_unit(c.claim.canonical_unit) for c in chosen}
    rivals = []
    for claim in claims:
        if (
            claim.version_id not in versions
            or claim.kind != "quantity"
            or locators.get(claim.id, {}).get("table") is not None
            or not any(_same_kind(dimension_of_unit(claim.canonical_unit), d) for d in dimensions)
            or _value(claim) in values
        ):
            continue
        said = {expanded[w] for w in words(f"{claim.quote} {claim.claim_key}") if w in expanded}
        if asked <= said:
            rivals.append(claim)
    return rivals


def _one_value_per_time(cells: list[Cell], ask: Ask) -> bool:
    """A question naming no time, of cells that differ only by their known times (a row
    across quarter columns of two years): the answer takes the latest (``_latest``)."""
    if ask.start or ask.end:
        return False
    times: dict[object, set[object]] = {}
    for cell in cells:
        if cell.claim.time_start is None and cell.claim.time_end is None:
            return False
        times.setdefault((cell.claim.time_start, cell.claim.time_end), set()).add(
            _value(cell.claim)
        )
    return len(times) == len(cells) and all(len(v) == 1 for v in times.values())


def found_in_table(ask: Ask) -> Found | None:
    """The cell a question names by its table's row and column, as a finding."""
    return as_found(ask, named_cells(ask))


def as_found(ask: Ask, reading: CellReading) -> Found | None:
    """The named cells as a finding, with what other documents state for the same slot:
    a cell answers for its document, and another document's value at the cell's key, in
    the asked time, of the cell's dimension and stating no other value of the cell's
    qualifiers (a board summary's revenue for the year beside the annual report's) stays
    a side; the answer's own rules then weigh them together."""
    if not reading.cells:
        return None
    cells = reading.cells
    keys = sorted({c.claim_key for c in cells})
    versions = {c.version_id for c in cells}
    elsewhere = [
        c
        for c in ask.visible(keys).claims.values()
        if c.claim_key in keys
        and c.version_id not in versions
        and ask.holds(c)
        and any(_same_slot(c, cell) for cell in cells)
    ]
    stated = {w for c in cells for w in c.scope_residual}
    return Found(sorted({*reading.keys, *keys}), [*cells, *elsewhere], stated, cells[0].claim_key)


def _same_slot(claim: ClaimFact, cell: ClaimFact) -> bool:
    if claim.claim_key != cell.claim_key or claim.kind != cell.kind:
        return False
    if dimension_of_unit(claim.canonical_unit) != dimension_of_unit(cell.canonical_unit):
        return False
    return all(claim.scope.get(k, v) == v for k, v in cell.scope.items())


def with_other_documents(
    ask: Ask, table: Found, own: Found, matching: list[ClaimFact], ranked: Found | None
) -> Found:
    """The named cell with the claims of other documents that the question's own key
    (``own``, of which ``matching`` fit the asked kind) and the evidence ranker (``ranked``)
    found for the same slot: the answer weighs them together."""
    return _beside_own_key(ask, _beside(table, ranked), own, matching)


def _beside(table: Found, ranked: Found | None) -> Found:
    """The cell with what the evidence ranker found of the asked kind in other documents
    ("How heavy is the P-300?": a datasheet table's cell and a catalogue's label line)."""
    if ranked is None:
        return table
    versions = {c.version_id for c in table.claims}
    units = {dimension_of_unit(c.canonical_unit) for c in table.claims}
    others = [
        c
        for c in ranked.claims
        if c.version_id not in versions and dimension_of_unit(c.canonical_unit) in units
    ]
    if not others:
        return table
    ids = {c.id for c in table.claims}
    return Found(
        sorted({*table.keys, *ranked.keys}),
        [*table.claims, *(c for c in others if c.id not in ids)],
        table.extra,
        table.key,
    )


def _beside_own_key(ask: Ask, table: Found, own: Found, matching: list[ClaimFact]) -> Found:
    """The table cell the question names, with what other documents state at the question's
    own key: a cell answers for its document, and another document's value for the same
    slot and time stays a side (a board summary's revenue beside the annual report's)."""
    if not matching:
        return table
    kept, _ = best_named(ask, matching)
    versions = {c.version_id for c in table.claims}
    beside = [c for c in kept if c.version_id not in versions]
    if not beside:
        return table
    return Found(
        sorted({*table.keys, *own.keys}),
        [*table.claims, *beside],
        table.extra | own.extra,
        table.key,
    )
