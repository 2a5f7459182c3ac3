"""Bad input never crashes extraction, and every quote is exactly its span (issue 3, point 10).

Speed on large inputs (roughly linear time) is measured by bench/bench_extraction.py, not here.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claims.extraction import extract, find_supersession_mentions, parse_question
from claims.models import Claim

PIECES = [
    "The notice period is",
    "30 days",
    "３０日",
    "٣٠ يوما",
    "1e400",
    "10^10^10",
    "1e-400",
    "$5.5M",
    "12 cents per share",
    "between 5 and",
    "10 mg/kg",
    "p99",
    "Q1 2024",
    "FY2024",
    "as of March 31, 2024",
    "shall not",
    "claimed that",
    "\u200b",
    "\u200f",
    "\u202e",
    "\u2066",
    "\x00",
    "\x07",
    "\r\n",
    "\t",
    ".",
    ",",
    ";",
    "?",
    "。",
    "-",
    "–",
    "~",
    "%",
    "€",
    "¥",
    "通知期間は",
    "அறிவிப்பு காலம்",
    "نోటీసు",
    "up to",
    "at least",
    "thirty",
    "a dozen",
    "Revision 2:",
    "Section 4.2",
    "ISO 9001",
    "IPv4",
    "2019-2021",
    "from",
    "until",
    "9" * 400,
    "0.000000001",
    "-",
    "+",
    "1,000,000,000,000,000,000",
    "1" * 30 + "e" + "9" * 30,
]


def _valid(text: str, claims: list[Claim]) -> None:
    for claim in claims:
        assert 0 <= claim.span.start <= claim.span.end <= len(text)
        assert text[claim.span.start : claim.span.end] == claim.quote
        if claim.value_span is not None:
            assert claim.span.start <= claim.value_span.start <= claim.value_span.end
            assert claim.value_span.end <= len(text)
        # every claim serialises to strict JSON (no inf / nan sneaks through) and is valid
        data = claim.model_dump(mode="json")
        json.dumps(data, allow_nan=False)
        Claim.model_validate(data)
        # claims are built without validation (claims.trusted.trusted): every field is set and
        # validating the claim's own values changes nothing
        assert set(claim.__dict__) == set(Claim.model_fields)
        assert Claim.model_validate(claim.model_dump()) == claim


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=300))
def test_arbitrary_text_never_raises_and_quotes_match_spans(text: str) -> None:
    _valid(text, extract(text))
    find_supersession_mentions(text)
    parse_question(text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), max_size=40), st.sampled_from(["", " ", "  "]))
def test_claim_shaped_noise_never_raises_and_quotes_match_spans(
    pieces: list[str], sep: str
) -> None:
    text = sep.join(pieces)
    _valid(text, extract(text))


def test_overflowing_numbers_yield_no_claim() -> None:
    assert extract("The limit is 1e400 tokens.") == []
    assert extract("The limit is 10^10^10 tokens.") == []


def test_long_text_without_sentence_breaks_keeps_quotes_short() -> None:
    text = " ".join(f"item {i} costs {i} dollars and" for i in range(3000))
    claims = extract(text)
    assert len(claims) >= 2900
    assert max(c.span.end - c.span.start for c in claims) < 2000
    _valid(text, claims[:50])


def test_thousands_of_numbers_in_one_sentence_each_become_a_claim() -> None:
    text = "The readings were " + ", ".join(f"{i} ms" for i in range(1, 2001)) + "."
    claims = extract(text)
    assert len(claims) == 2000
    assert {c.unit for c in claims} == {"ms"}
    assert claims[-1].canonical_value == 2.0


def test_binary_garbage_decoded_as_text_does_not_crash() -> None:
    rng = random.Random(7)
    blob = bytes(rng.randrange(256) for _ in range(20000)).decode("latin-1")
    _valid(blob, extract(blob))


def test_zero_width_and_bidi_marks_around_values_keep_offsets() -> None:
    text = "\u202bThe notice period is \u200b30 days\u200f.\u202c"
    (claim,) = extract(text)
    assert claim.value == 30
    assert text[claim.value_span.start : claim.value_span.end] == "30 days"


def test_concurrent_extraction_from_threads_matches_serial_extraction() -> None:
    from concurrent.futures import ThreadPoolExecutor

    texts = [
        "The notice period is 30 days.",
        "In staging, the request timeout is 120 s; in production it is 30 s.",
        "通知期間は６０日です。",
        "The supplier shall not disclose confidential information.",
    ] * 25
    serial = [[c.model_dump() for c in extract(t)] for t in texts]
    with ThreadPoolExecutor(max_workers=4) as pool:
        threaded = list(pool.map(lambda t: [c.model_dump() for c in extract(t)], texts))
    assert threaded == serial


def test_data_files_refuse_yaml_booleans(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import pytest

    from claims.extraction import resources as module

    (tmp_path / "words.yaml").write_text("stopwords: [the, on, of]\n", encoding="utf-8")
    monkeypatch.setattr(module, "DATA_DIR", tmp_path)
    with pytest.raises(ValueError, match=r"words.yaml: stopwords.1 is the boolean True"):
        module.read_yaml("words.yaml")


def test_claim_ids_are_stable_ids_of_source_version_generation_span_value_kind_key() -> None:
    from claims.ids import stable_id, stable_id_maker

    text = "The supplier shall not disclose personal data. The fee is 5 USD per month."
    claims = extract(text, source_id="src", source_version_id="sv-1")
    fee = next(c for c in claims if c.claim_key == "fee")
    assert fee.value_span is not None
    assert fee.id == stable_id(
        "cl", "sv-1", fee.generation, fee.span.start, fee.span.end,
        fee.value_span.start, fee.value_span.end, "quantity", "fee",
    )  # fmt: skip
    make = stable_id_maker("cl", None, "gen")
    for rest in [(), (None,), ("",), (1, 2, None, "quantity", "ü key"), (0.5,)]:
        assert make(*rest) == stable_id("cl", None, "gen", *rest)
