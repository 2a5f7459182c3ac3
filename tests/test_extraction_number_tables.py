"""A table of bare numbers: the contexts of different numbers share one kept frame (a value
written without letters is not part of the frame's key), the claims are the ones reading
every context gives, and a number with words around it is still read in full."""

from __future__ import annotations

import random

import pytest

from claims.extraction import claims_with, frames, get_pipeline
from claims.settings import get_settings


def _table(rows: int, seed: int = 14) -> str:
    """Rows of ten numbers as an export writes them: counts, amounts, small figures."""
    rng = random.Random(seed)
    draws = (
        lambda: str(rng.randint(0, 999_999)),
        lambda: f"{rng.uniform(0, 1000):.2f}",
        lambda: str(rng.randint(0, 99)),
    )
    return "".join(" ".join(rng.choice(draws)() for _ in range(10)) + "\n" for _ in range(rows))


def _claims(text: str) -> list[str]:
    nlp = get_pipeline(get_settings().spacy_model)
    cache = nlp.get_pipe("claim_assembler").assembler.sentences
    if cache is not None:
        cache.clear()  # every sentence read anew, not replayed
    return [c.model_dump_json() for c in claims_with(nlp, text, "src", "ver", None)]


def test_different_numbers_share_a_frame_and_give_the_claims_of_a_full_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = _table(60)
    frames._WORDLESS_FRAMES.clear()
    kept = _claims(text)
    assert len(kept) >= 590  # the numbers are claims (a figure like 1987 may read as a year)
    # 600 different numbers, a handful of context shapes (where the window starts and
    # ends in the rows): the numbers' digits do not make contexts different
    assert 0 < len(frames._WORDLESS_FRAMES) <= 20
    monkeypatch.setattr(frames, "_WORDLESS_KEPT", 0)
    frames._WORDLESS_FRAMES.clear()
    assert _claims(text) == kept


def test_values_written_with_letters_and_reference_words_keep_their_own_frames(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = "4 5 6 7\none, two, 3, 4\ntwelve | 12 | 7.5 | 1,200\n(5) [6] 7 - 8\n"
    frames._WORDLESS_FRAMES.clear()
    kept = _claims(text)
    assert kept
    monkeypatch.setattr(frames, "_WORDLESS_KEPT", 0)
    frames._WORDLESS_FRAMES.clear()
    assert _claims(text) == kept


def test_a_number_with_words_is_read_in_full() -> None:
    frames._WORDLESS_FRAMES.clear()
    nlp = get_pipeline(get_settings().spacy_model)
    found = claims_with(
        nlp, "The visitor pass costs 40 EUR. Refunds take 14 days.", "src", "ver", None
    )
    assert not frames._WORDLESS_FRAMES  # no context was wordless
    keys = [c.claim_key for c in found]
    assert len(keys) == 2 and not any(k.startswith("unknown:") for k in keys)
