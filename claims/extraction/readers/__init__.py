"""Readers per block kind of a ``claims.documents.Document``.

Public surface: ``read_table(document, block, ...) -> list[TableClaim]`` (the table reader),
``TableClaim`` (a claim and its ``Locator``), ``table_document(text)`` and ``blank_tables``
(pipe tables found in plain text, for ``claims.extraction.extract``).
"""

from claims.extraction.readers.table_text import blank_tables, table_document
from claims.extraction.readers.tables import TableClaim, read_table

__all__ = ["TableClaim", "blank_tables", "read_table", "table_document"]
