"""The one point table blocks are read at.

The sentence reader never reads a table: its rows are no sentences, and read as one they
gave a key made of pipes and header words for every cell. A table reader (orientation,
header rows, group rows, scale and unit from captions) plugs in here as a function over
``(ReadContext, Block)`` returning claims with exact cell offsets and a cell locator: the
table reader of ``readers.tables`` unless ``use_table_reader`` sets another.
"""

from __future__ import annotations

from collections.abc import Callable

from claims.documents.model import Block
from claims.extraction.readers.context import ReadContext
from claims.models import Claim

TableReader = Callable[[ReadContext, Block], list[Claim]]

_TABLE_READER: list[TableReader] = []


def use_table_reader(reader: TableReader | None) -> None:
    """Sets (or with None, removes) the table reader every table block goes to."""
    _TABLE_READER[:] = [reader] if reader is not None else []


def table_claims(context: ReadContext, block: Block) -> list[Claim]:
    """The claims of one table block: the table reader's (``readers.tables``) unless
    another reader is set."""
    if block.table is None:
        return []
    if _TABLE_READER:
        return _TABLE_READER[0](context, block)
    return read_table_claims(context, block)


def read_table_claims(context: ReadContext, block: Block) -> list[Claim]:
    """The table reader (``claims.extraction.readers.tables``) on one block, each claim
    with its cell's locator."""
    from claims.extraction.readers.tables import read_table

    return [
        item.claim
        for item in read_table(
            context.document,
            block,
            table_number=block.locator.table or 1,
            source_id=context.source_id,
            source_version_id=context.source_version_id,
            generation=context.generation,
        )
    ]
