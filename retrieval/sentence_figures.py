"""Figures of one sentence that the question cannot tell apart (issue 32, wrong figures).

"The gain on disposal in the first half and the second half was $6.0 million and $4.5
million, respectively" pairs each figure with one of as many things: together they are no
list of one slot's values (a list answer such as "16, 32 and 64 GB" is one slot's), and a
question that does not say which thing it asks gets no figure (a wrong figure is worse than
no answer).
"""

from __future__ import annotations

import re

from retrieval.evidence import ClaimFact

_RESPECTIVELY = re.compile(r"\brespectively\b", re.I)


def paired_by_respectively(claims: list[ClaimFact]) -> bool:
    """Figures of a sentence that pairs them with as many things ("... $6.0 million and
    $4.5 million, respectively"): each figure is one thing's, never a list of the slot."""
    quantities = [c for c in claims if c.kind == "quantity"]
    return bool(quantities) and any(_RESPECTIVELY.search(c.quote) for c in quantities)
