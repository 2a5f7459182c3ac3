"""The one point table blocks are read at.

The sentence reader never reads a table: its rows are no sentences, and read as one they
gave a key made of pipes and header words for every cell. A table reader (orientation,
header rows, group rows, scale and unit from captions) plugs in here as a function over
``(ReadContext, Block)`` returning claims with exact cell offsets and a cell locator; until
one is wired in, a table gives no claims.
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
    """The claims of one table block (none while no table reader is set)."""
    if not _TABLE_READER or block.table is None:
        return []
    return _TABLE_READER[0](context, block)
