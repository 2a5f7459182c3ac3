"""A context of only values and punctuation (a table of bare numbers) is read once and its
frame kept: the claims are the ones reading every context gives, and a caller changing a
frame it got changes nothing for the next one."""

from __future__ import annotations

import pytest

from claims.extraction import claims_with, frames, get_pipeline
from claims.extraction import roles as token_roles
from claims.extraction.frames import read_frame
from claims.extraction.mentions import MentionScanner
from claims.extraction.resources import resources
from claims.settings import get_settings

# Numbers as exports and pasted tables hold them: newlines, commas, pipes, semicolons,
# brackets and dashes between them, a few words in some rows.
TABLE = """\
57279 1 917.68 233.48 671.4
82165, 5, 441.2, 936.28, 277.08
| 799.92 | 73019 | 853.58 | 22343 |
8; 581; 29358; 7; 156.26
(830.04) [12] - 44 - 0.5
There were 12 rows in the export, 40 of them empty.
3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
"""


def _nlp():  # type: ignore[no-untyped-def]
    nlp = get_pipeline(get_settings().spacy_model)
    cache = nlp.get_pipe("claim_assembler").assembler.sentences
    if cache is not None:
        cache.clear()  # every sentence read anew, not replayed
    return nlp


def _claims(text: str) -> list[str]:
    found = claims_with(_nlp(), text, "src", "ver", None)
    return [c.model_dump_json() for c in found]


def test_kept_frames_give_the_claims_reading_every_context_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    frames._WORDLESS_FRAMES.clear()
    kept = _claims(TABLE)
    assert frames._WORDLESS_FRAMES  # the table's contexts were kept
    assert len(kept) >= 40  # the numbers of every row are claims
    again = _claims(TABLE)  # read now from the kept frames
    monkeypatch.setattr(frames, "_WORDLESS_KEPT", 0)
    frames._WORDLESS_FRAMES.clear()
    read_each_time = _claims(TABLE)
    assert not frames._WORDLESS_FRAMES
    assert kept == again == read_each_time


def test_a_changed_frame_does_not_reach_the_next_reader() -> None:
    text = "4, 5\n6"
    res = resources()
    doc = _nlp().make_doc(text)
    roles = token_roles.assign_roles(doc, MentionScanner(res).scan(text), res, text)
    idxs = list(range(len(doc)))
    roles_read = {roles.role[i] for i in idxs}
    assert roles_read == {token_roles.VALUE, token_roles.PUNCT, token_roles.SEP}
    frames._WORDLESS_FRAMES.clear()
    first = read_frame(doc, roles, idxs, res, [])
    first.key_words.append("changed")
    first.scope["period"] = "changed"
    first.residual.append("changed")
    second = read_frame(doc, roles, idxs, res, [])
    assert second == frames._read_frame(doc, roles, idxs, res, [])
    assert "changed" not in second.key_words and "period" not in second.scope
