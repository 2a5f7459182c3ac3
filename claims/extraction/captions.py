"""Pictures' captions in square brackets, as scraped pages keep them before a sentence:
"[Side view of the Alder House, May 2016] The house was built in 1895".

A caption says when and how a picture was taken, never a fact of its subject, and it is no
part of the sentence after it: left there, the sentence's subject becomes "close up view"
and the house's year belongs to a photograph. So a caption is a sentence of its own
(``pipeline.SentenceComponent``) and page furniture no claim is read from
(``infobox.furniture``)."""

from __future__ import annotations

import re

# a bracket that opens the text, a line or a sentence, holds words (not a reference mark
# "[12]", "[ edit ]", "[a]"), and is followed by a capitalised word
_CAPTION = re.compile(
    r"(?:(?<=\A)|(?<=\n)|(?<=[.!?] ))\[(?=[^\[\]]*[A-Za-z]{3})([^\[\]\n]{12,300})\]\s+(?=[A-Z])"
)
MIN_CAPTION_WORDS = 3


def caption_spans(text: str) -> list[tuple[int, int]]:
    """Where each caption stands: from its "[" to the end of the blanks after its "]"."""
    if "[" not in text:
        return []
    return [
        (m.start(), m.end())
        for m in _CAPTION.finditer(text)
        if len(m.group(1).split()) >= MIN_CAPTION_WORDS
    ]
