"""Readers per block kind: the structure reader's blocks (claims.documents.structure) decide
how the claims of each part of a document are read.

- prose (paragraphs, FAQ answers, list items): today's sentence reader (the spaCy pipeline);
- label lines ("Notice period: 30 days"): ``label_lines`` (the label is the attribute, the
  heading path may name the entity);
- list items: ``lists`` (the lead-in before a list lends its scope to every item);
- FAQ answers: ``faq`` (an answer that names no attribute takes its question's);
- tables: ``table_dispatch`` (the one point a table reader plugs into), read by ``tables``
  (orientation, group rows, years as time, scale/unit/currency, bracketed negatives).

Public surface: ``read_blocks`` (every claim of a document, with its locator), ``prose_text``
(the text the sentence reader reads: other readers' blocks blanked), ``ReadContext``;
``read_table(document, block, ...) -> list[TableClaim]`` (a claim and its ``Locator`` per
figure cell).
"""

from claims.extraction.readers.context import ReadContext
from claims.extraction.readers.dispatch import prose_text, read_blocks
from claims.extraction.readers.tables import TableClaim, read_table

__all__ = [
    "ReadContext",
    "TableClaim",
    "prose_text",
    "read_blocks",
    "read_table",
]
