"""The one point table blocks are read at.

The sentence reader never reads a table: its rows are no sentences, and read as one they
gave a key made of pipes and header words for every cell. A table reader (orientation,
header rows, group rows, scale and unit from captions) plugs in here as a function over
``(ReadContext, Block)`` returning claims with exact cell offsets and a cell locator; until
another is set, ``readers.tables`` (the table reader) reads every table.
"""

from __future__ import annotations

from collections.abc import Callable

from claims.documents.model import Block
from claims.extraction.readers.context import ReadContext
from claims.models import Claim

TableReader = Callable[[ReadContext, Block], list[Claim]]

_TABLE_READER: list[TableReader] = []


def use_table_reader(reader: TableReader | None) -> None:
    """Sets the table reader every table block goes to (None: back to ``readers.tables``)."""
    _TABLE_READER[:] = [reader] if reader is not None else []


def table_claims(context: ReadContext, block: Block) -> list[Claim]:
    """The claims of one table block."""
    if block.table is None:
        return []
    if _TABLE_READER:
        return _TABLE_READER[0](context, block)
    from claims.extraction.readers.tables import table_block_claims  # the default, loaded late

    return table_block_claims(context, block)
