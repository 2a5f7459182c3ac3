"""The table reader: a TABLE block of a ``claims.documents.Document`` -> one claim per figure.

Each figure cell becomes a quantity claim whose attribute comes from its row header (with
the group row above it) and its column header, whose time is a year or date column (or a
dated row header), whose entity is a row that names a thing (a plan, a model) or else the
document's subject (its nearest heading or title), and whose scale, unit and currency come
from the cell, its headers, the table's caption and the paragraph above it. Headers are
read by the sentence reader's frame machinery (``table_phrases``), so a cell and a prose
sentence stating one fact get one claim key. The claim quotes the table row; its value
span is the cell; ``TableClaim.locator`` says table, row and column with both headers.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace

from claims.documents.model import Block, BlockKind, Document, Locator, TableCell
from claims.extraction.identity import title_entity
from claims.extraction.readers.table_cells import (
    CellValue,
    currency_in,
    names_money,
    not_money,
    per_item,
    percent_in,
    read_cell,
    scale_in,
    table_words,
)
from claims.extraction.readers.table_layout import TableLayout, lay_out
from claims.extraction.readers.table_phrases import (
    PhraseReading,
    clean_header,
    named_part,
    raw_words,
    read_phrase,
)
from claims.extraction.resources import resources
from claims.ids import stable_id_maker
from claims.models import Bound, Claim, EffectiveTime, EntityRef, Polarity, Span, ValueKind
from claims.trusted import trusted
from claims.units.normalize import conversion

CONFIDENCE = 0.85


@dataclass(frozen=True)
class TableClaim:
    """A claim read from a table cell, and where the cell stands."""

    claim: Claim
    locator: Locator


@dataclass(frozen=True)
class TableContext:
    """What the text around a table says of all its figures."""

    entity: str | None  # the document's subject: nearest heading, else title
    scale: float | None  # "in millions" -> 1e6
    currency: str | None  # "USD"
    financial: bool  # bracketed figures are negative
    statement: bool  # a financial statement (scaled or by year): plain numbers are money


def read_table(
    document: Document,
    block: Block,
    *,
    table_number: int = 1,
    source_id: str | None = None,
    source_version_id: str | None = None,
    generation: str = "",
) -> list[TableClaim]:
    """The claims of one TABLE block of ``document``, in row then column order."""
    if block.kind != BlockKind.TABLE or block.table is None:
        return []
    table = block.table
    layout = lay_out(table)
    context = _context(document, block, layout)
    claim_id = stable_id_maker("cl", source_version_id, generation)
    cells = {(c.row, c.column): c for c in table.cells}
    out: list[TableClaim] = []
    for row in layout.body_rows():
        for column in layout.value_columns():
            cell = cells.get((row, column))
            if cell is None:
                continue
            value = read_cell(cell.text)
            if value is None:
                continue
            locator = Locator(
                page=_page(document.text, block, cell.start),
                heading_path=block.locator.heading_path,
                table=table_number,
                row=row,
                column=column,
                row_header=layout.label(row) or None,
                column_header=layout.column_headers[column] or None,
            )
            fields = _claim_fields(document.text, layout, context, cell, value, locator)
            claim = _build(fields, claim_id, source_id, source_version_id, generation)
            out.append(TableClaim(claim, locator))
    return _told_apart(out, layout)


def _page(text: str, block: Block, offset: int) -> int | None:
    """The page a cell stands on: the table's first page, plus the page breaks between its
    start and the cell (a PDF table that runs onto the next page)."""
    page = block.locator.page
    if page is None:
        return None
    return page + text.count("\f", block.start, offset)


# ----------------------------------------------------------------------------- context


def _context(document: Document, block: Block, layout: TableLayout) -> TableContext:
    above = _text_above(document, block)
    caption = block.table.caption if block.table is not None else None
    headers = [caption or "", layout.corner] + [
        layout.grid[r][c] for r in range(layout.header_rows) for c in range(layout.columns)
    ]
    scale = next((s for s in (scale_in(h, header=True) for h in headers if h) if s), None)
    if scale is None and above:
        scale = scale_in(above, header=False)
    currency = currency_in(caption or "") or currency_in(layout.corner)
    if currency is None and above:
        currency = currency_in(above)
    in_cells = _cells_currency(layout)
    currency = currency or in_cells
    timed = any(t is not None for t in layout.column_times) or layout.rows_are_time
    entity = None
    for heading in reversed(block.locator.heading_path):
        entity = title_entity(heading, resources().stopwords)
        if entity:
            break
    if entity is None and document.title:
        entity = title_entity(document.title, resources().stopwords)
    statement = bool(scale or timed)
    return TableContext(entity, scale, currency, statement or bool(in_cells), statement)


def _text_above(document: Document, block: Block) -> str:
    """The paragraph or caption right before the table, if any."""
    previous: Block | None = None
    for candidate in document.blocks:
        if candidate is block or candidate.start >= block.start:
            break
        previous = candidate
    if previous is None or previous.kind not in (
        BlockKind.PARAGRAPH,
        BlockKind.CAPTION,
        BlockKind.LABEL_LINE,
    ):
        return ""
    return document.block_text(previous)


def _cells_currency(layout: TableLayout) -> str | None:
    """The currency most figure cells of the table are written in, if any is."""
    counts: dict[str, int] = defaultdict(int)
    for row in layout.body_rows():
        for column in layout.value_columns():
            value = read_cell(layout.grid[row][column])
            if value is not None and value.unit_key and conversion(value.unit_key):
                entry = conversion(value.unit_key)
                if entry is not None and entry.dimension == entry.canonical_unit != "%":
                    counts[value.unit_key] += 1
    return max(counts, key=lambda k: counts[k]) if counts else None


# ------------------------------------------------------------------------------- a cell


@dataclass
class _Fields:
    entity: str | None
    attribute: list[str]
    scope: dict[str, str]
    time: EffectiveTime
    value: CellValue
    unit: str | None
    unit_key: str | None
    scale: float
    span: tuple[int, int]
    value_span: tuple[int, int]
    quote: str
    subject: str | None
    predicate: str | None
    residual: list[str]
    locator: Locator


def _claim_fields(
    text: str,
    layout: TableLayout,
    context: TableContext,
    cell: TableCell,
    value: CellValue,
    locator: Locator,
) -> _Fields:
    row, column = cell.row, cell.column
    row_label = layout.label(row)
    column_header = layout.column_headers[column]
    column_reading = read_phrase(named_part(column_header))
    row_reading = read_phrase(named_part(row_label))
    group = layout.groups[row]
    entity = context.entity
    scope: dict[str, str] = {}
    time = layout.column_times[column]
    stated_by = f"column {clean_header(column_header)}"
    if layout.rows_are_time:
        time = read_phrase(row_label).time
        stated_by = f"row {clean_header(row_label)}"
        attribute = list(_column_words(column_reading))
        scope.update(column_reading.scope)
    elif layout.entity_rows:
        # the row names the thing: an entity ("P-200"), or a scope ("Pro" plan), as the
        # same words in a sentence would ("The Pro plan costs $29": no entity, tier pro)
        named = read_phrase(named_part(f"{row_label} {layout.corner}".strip()))
        if named.entity_words:
            entity = " ".join(named.entity_words)
        elif named.scope:
            entity = None
        else:
            entity = " ".join(raw_words(row_label)) or entity
        scope.update(named.scope)
        attribute = _corner_words(layout) + [
            w for w in _column_words(column_reading) if w not in _corner_words(layout)
        ]
        scope.update(column_reading.scope)
        if time is None:
            time, stated_by = row_reading.time, f"row {clean_header(row_label)}"
    else:
        attribute = list(row_reading.words)
        if not attribute and row_reading.scope and not _ranked(row_reading):
            # a row naming only a scope ("Canada" under "Americas"): its words stay in the
            # attribute too, or it would share the group's total row's key ("Total Americas")
            attribute = list(raw_words(named_part(row_label)))
        if group:
            attribute += [w for w in read_phrase(named_part(group)).words if w not in attribute]
        attribute += [w for w in _column_words(column_reading) if w not in attribute]
        if not attribute:
            # a row that names only a scope ("UK" -> region uk): the corner says what the
            # rows' figures are ("Revenue by country"), else the row's own words do
            attribute = _corner_words(layout) or list(raw_words(row_label))
        if not row_label.strip():
            attribute.append("total")  # a row without a label under figures sums them
        scope.update(row_reading.scope)
        scope.update(column_reading.scope)
        if time is None:
            time, stated_by = row_reading.time, f"row {clean_header(row_label)}"
    if value.negative_brackets and not context.financial:
        value = replace(
            value, value=-value.value, low=value.high and -value.high, high=value.low and -value.low
        )
    unit, unit_key = _unit(layout, context, value, row_label, column_header, group)
    scale = _scale(context, value, unit_key, row_label, column_header)
    start, end = _row_span(text, cell)
    return _Fields(
        entity=entity,
        attribute=attribute,
        scope=scope,
        time=_stated_time(time, stated_by),
        value=value,
        unit=unit,
        unit_key=unit_key,
        scale=scale,
        span=(start, end),
        value_span=(cell.start, cell.end),
        quote=text[start:end],
        subject=row_label or None,
        predicate=column_header or None,
        residual=[],
        locator=locator,
    )


def _ranked(reading: PhraseReading) -> bool:
    """Whether a row names a ranked level ("Priority 1", "Tier 2"): a scope of its own,
    whose figures are the column's attribute at that level, as in a sentence ("Priority 1
    tickets get a first response within 4 hours")."""
    return any(dim in resources().ranked_levels for dim in reading.scope)


def _column_words(reading: PhraseReading) -> tuple[str, ...]:
    """A column header's words that name what its figures are (not "Value", not "Year")."""
    words = table_words()
    kept = [w for w in reading.words if w not in words.value_headers]
    if reading.time is not None:
        stated = set(raw_words(reading.time.text or ""))
        kept = [w for w in kept if w not in words.time_words and w not in stated]
    return tuple(kept)


def _stated_time(time: EffectiveTime | None, header: str) -> EffectiveTime:
    """The claim's time, its words naming the header that states it ("column 2019", "row
    Balance as of December 31, 2019"): a table's dated rows or columns are a series laid out
    side by side, never one running figure updated "as of" a later date."""
    if time is None:
        return EffectiveTime()
    return time.model_copy(update={"text": header})


def _corner_words(layout: TableLayout) -> list[str]:
    """What the corner header says beside the kind of thing its rows name: "Revenue by
    country" over rows of countries is revenue."""
    kinds = table_words().entity_kinds
    words = read_phrase(named_part(layout.corner)).words if layout.corner else ()
    return [w for w in words if w not in kinds and w not in ("by", "per")]


def _unit(
    layout: TableLayout,
    context: TableContext,
    value: CellValue,
    row_label: str,
    column_header: str,
    group: str | None,
) -> tuple[str | None, str | None]:
    """The cell's own unit, else a header's ("%", "(kg)", "€"), else the table's currency."""
    if value.unit_key:
        return value.unit, value.unit_key
    headers = [column_header, row_label, group or ""]
    if any(percent_in(h) for h in headers[:2]):
        return "%", "%"
    for header in headers[:2]:
        for bracket in re.findall(r"\(([^()]+)\)", header):
            entry = conversion(bracket.strip())
            if entry is not None:
                return bracket.strip(), bracket.strip()
        currency = currency_in(header)
        if currency:
            return currency, currency
    if any(not_money(h) for h in headers):
        return None, None
    if context.currency and (context.statement or any(names_money(h) for h in headers)):
        return context.currency, context.currency
    return None, None


def _scale(
    context: TableContext, value: CellValue, unit_key: str | None, row: str, column: str
) -> float:
    """The factor a figure is stated in: its own headers' scale, else the table's, for
    money and plain counts (never a percentage or a per-share figure)."""
    if unit_key == "%" or per_item(row) or per_item(column):
        return 1.0
    if value.unit_key and value.unit_key not in ("USD", "EUR", "GBP", "JPY", "CNY", "CHF"):
        entry = conversion(value.unit_key)
        if entry is not None and entry.dimension != entry.canonical_unit:
            return 1.0  # "1.2 kg": a physical unit is never in thousands
    for header in (column, row):
        own = scale_in(header, header=True)
        if own:
            return own
    if not_money(row) or not_money(column):
        return 1.0
    return context.scale or 1.0


def _row_span(text: str, cell: TableCell) -> tuple[int, int]:
    """The line of the table row that holds ``cell``."""
    start = text.rfind("\n", 0, cell.start) + 1
    end = text.find("\n", cell.end)
    return start, len(text) if end < 0 else end


# ------------------------------------------------------------------------------ a claim


def _build(
    fields: _Fields,
    claim_id: Callable[..., str],
    source_id: str | None,
    source_version_id: str | None,
    generation: str,
) -> Claim:
    value = fields.value
    entry = conversion(fields.unit_key) if fields.unit_key else None
    scale = fields.scale
    number = value.value * scale
    low = value.low * scale if value.low is not None else None
    high = value.high * scale if value.high is not None else None
    attribute_words = fields.attribute
    if attribute_words:
        attribute = " ".join(attribute_words)
        entity_words = fields.entity.split() if fields.entity else []
        key = " ".join(entity_words + [w for w in attribute_words if w not in entity_words])
    else:
        dimension = entry.dimension if entry else "number"
        attribute = key = f"unknown:{dimension}"
    canonical = low_c = high_c = None
    if entry is not None:
        canonical = number * entry.factor + entry.offset
        if low is not None and high is not None:
            low_c = low * entry.factor + entry.offset
            high_c = high * entry.factor + entry.offset
    start, end = fields.span
    v_start, v_end = fields.value_span
    ident = claim_id(start, end, v_start, v_end, ValueKind.QUANTITY.value, key)
    return trusted(
        Claim,
        {
            "id": ident,
            "source_version_id": source_version_id,
            "source_id": source_id,
            "generation": generation,
            "subject": fields.subject,
            "predicate": fields.predicate,
            "claim_key": key,
            # the attribute class is the whole attribute: the rows of a table are different
            # attributes by its layout ("Deferred tax assets" and "Net deferred tax assets"),
            # never near misses of one another; the same attribute still meets its sentences
            "coarse_key": attribute,
            "entity": fields.entity if attribute_words else None,
            "entity_ref": EntityRef(name=fields.entity)
            if attribute_words and fields.entity
            else None,
            "attribute": attribute,
            "kind": ValueKind.QUANTITY,
            "value": number,
            "low": low,
            "high": high,
            "bound": value.bound if value.bound != Bound.EXACT or low is None else Bound.RANGE,
            "approximate": False,
            "precision": None,
            "unit": fields.unit,
            "canonical_value": canonical,
            "canonical_low": low_c,
            "canonical_high": high_c,
            "canonical_unit": entry.canonical_unit if entry else None,
            "dimension": entry.dimension if entry else None,
            "polarity": Polarity.POSITIVE,
            "modality": None,
            "scope": dict(fields.scope),
            "scope_residual": list(fields.residual),
            "time": fields.time,
            "reported_speech": False,
            "span": trusted(Span, {"start": start, "end": end}),
            "value_span": trusted(Span, {"start": v_start, "end": v_end}),
            "quote": fields.quote,
            "confidence": CONFIDENCE if attribute_words else 0.3,
            "locator": fields.locator,
            "created_at": None,
        },
    )


def _told_apart(claims: list[TableClaim], layout: TableLayout) -> list[TableClaim]:
    """Cells of one table that the headers do not tell apart (same key, scope and time)
    are different facts all the same ("Total sales" and "Sales" both read as revenue;
    "Percentage of revenue" under each product; "Change" over an amount and a percent):
    each gets qualifier words from its row label (and the label of the row it details when
    the labels are equal), or from its column header, then the kind of figure (its
    dimension), and its row or column number when words still nest. Decided
    from the layout alone, never from values, so a copy with a changed figure keys alike."""
    for axis in ("row", "column"):
        slots: dict[tuple[object, ...], list[TableClaim]] = defaultdict(list)
        for item in claims:
            slots[_slot(item.claim)].append(item)
        for members in slots.values():
            places = {_place(m.locator, axis) for m in members}
            if len(places) < 2:
                continue
            words = {place: _qualifiers(layout, place, axis, members) for place in places}
            if _nested(list(words.values())):
                # "Change" over an amount and a percent column: the kind of figure tells them
                kinds = {_place(m.locator, axis): m.claim.dimension or "number" for m in members}
                words = {p: w + (kinds[p],) for p, w in words.items()}
            if _nested(list(words.values())):
                words = {p: w + (f"{axis} {p}",) for p, w in words.items()}
            for item in members:
                extra = [w for w in words[_place(item.locator, axis)]]
                item.claim.scope_residual = item.claim.scope_residual + [
                    w for w in extra if w not in item.claim.scope_residual
                ]
    return claims


def _place(locator: Locator, axis: str) -> int:
    return (locator.row if axis == "row" else locator.column) or 0


def _qualifiers(
    layout: TableLayout, place: int, axis: str, members: list[TableClaim]
) -> tuple[str, ...]:
    if axis == "column":
        return raw_words(layout.column_headers[place])
    labels = {layout.label(_place(m.locator, "row")).strip() for m in members}
    own = raw_words(layout.label(place))
    if len(labels) == 1:
        return own + tuple(w for w in _parent_words(layout, place) if w not in own)
    return own


def _nested(word_sets: list[tuple[str, ...]]) -> bool:
    """Whether some two of the qualifier word lists are equal or one holds the other."""
    sets = [set(w) for w in word_sets]
    return any(a <= b or b <= a for i, a in enumerate(sets) for b in sets[i + 1 :])


def _slot(claim: Claim) -> tuple[object, ...]:
    return (
        claim.claim_key,
        tuple(sorted(claim.scope.items())),
        tuple(claim.scope_residual),
        claim.time.start,
        claim.time.end,
    )


def _parent_words(layout: TableLayout, row: int) -> tuple[str, ...]:
    """The label of the nearest row above ``row`` with another label (the row it details)."""
    own = layout.label(row).strip()
    for r in range(row - 1, layout.header_rows - 1, -1):
        label = layout.label(r).strip()
        if label and label != own:
            return raw_words(label)
    return ()
