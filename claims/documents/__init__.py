"""Documents read by their structure: one model for every format, and its converters.

Public surface: ``Document``, ``Block``, ``BlockKind``, ``Locator``, ``Table``, ``TableCell``.
"""

from claims.documents.model import Block, BlockKind, Document, Locator, Table, TableCell

__all__ = ["Block", "BlockKind", "Document", "Locator", "Table", "TableCell"]
