"""A saved wiki page's section heading and its edit link: "Early life [edit] Ritchie was
born ...", "Career [ edit ] He joined ...". The bracketed link closes the heading and the
word after it starts a sentence, so the heading's words are no part of the next
sentence's subject (a sentence seam the profile lends ``pipeline.SentenceComponent``).
The link's words are ``section_marks`` of ``data/page_footer.yaml``."""

from __future__ import annotations

import re
from functools import lru_cache

from claims.reference.resources import read_yaml


@lru_cache(maxsize=1)
def _marks() -> tuple[tuple[str, ...], re.Pattern[str]]:
    marks = [str(m).lower() for m in read_yaml("page_footer.yaml")["section_marks"]]
    joined = "|".join(r"\s+".join(re.escape(w) for w in m.split()) for m in marks)
    # the word after the bracket (zero-width: where it starts)
    pattern = re.compile(rf"\[\s*(?:{joined})\s*\]\s*(?=\w)", re.IGNORECASE)
    return tuple({m.split()[0] for m in marks}), pattern


def section_starts(text: str) -> list[int]:
    """Where a sentence starts after a section heading's edit link. A substring test
    first: most texts have none."""
    first_words, pattern = _marks()
    lowered = text.lower() if "[" in text else ""
    if not any(word in lowered for word in first_words):
        return []
    return [m.end() for m in pattern.finditer(text)]
