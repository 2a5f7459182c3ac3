"""Documents read by their structure: one model for every format, and its converters.

Public surface: ``Document``, ``Block``, ``BlockKind``, ``Locator``, ``Table``, ``TableCell``,
and ``read_structure(text, media_type)`` (the structure reader: text -> ``Document``).
"""

from claims.documents.model import Block, BlockKind, Document, Locator, Table, TableCell
from claims.documents.structure import read_structure

__all__ = ["Block", "BlockKind", "Document", "Locator", "Table", "TableCell", "read_structure"]
