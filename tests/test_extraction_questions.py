"""Questions, supersession mentions and the optional trained pipeline."""

from __future__ import annotations

from pathlib import Path

import pytest
import spacy

from claims.errors import InputError
from claims.extraction import (
    build_pipeline,
    extract,
    find_supersession_mentions,
    parse_question,
)
from claims.settings import get_settings


@pytest.mark.parametrize(
    ("question", "key", "scope"),
    [
        ("What is the interactive assistant's output limit?", "output limit",
         {"request_type": "interactive"}),
        ("What is the current interactive output limit?", "output limit",
         {"request_type": "interactive"}),
        ("What is the output limit for batch requests?", "output limit",
         {"request_type": "batch"}),
        ("What was the Q1 dividend per share?", "dividend", {"period": "q1"}),
        ("What was the dividend per share for the period?", "dividend", {}),
        ("How long is the notice period in the first year?", "notice period",
         {"period": "year 1"}),
        ("What is the p99 latency?", "latency", {"metric": "p99"}),
        ("What is the recommended dose for children?", "recommend dose",
         {"population": "child"}),
    ],
)  # fmt: skip
def test_question_key_and_scope_match_the_claims_they_ask_about(
    question: str, key: str, scope: dict[str, str]
) -> None:
    frame = parse_question(question)
    assert frame.claim_key == key
    assert frame.scope == scope


def test_question_keys_equal_claim_keys_for_the_seed_cases() -> None:
    pairs = [
        ("What is the interactive assistant's output limit?",
         "The interactive assistant has a 250-token output limit."),
        ("What was the dividend per share for the period?",
         "The dividend for the period was 30 cents per share."),
        ("What was the Q1 dividend per share?", "The Q1 dividend was 12 cents per share."),
        ("通知期間は何日ですか？", "通知期間は30日です。"),
    ]  # fmt: skip
    for question, sentence in pairs:
        (claim,) = extract(sentence)
        frame = parse_question(question)
        assert frame.claim_key == claim.claim_key, (question, frame, claim.claim_key)
        assert frame.scope == claim.scope


def test_question_time_is_read_like_a_claim_time() -> None:
    frame = parse_question("What was the uptime in March 2024?")
    assert frame.claim_key == "uptime"
    assert str(frame.time.start) == "2024-03-01" and str(frame.time.end) == "2024-03-31"


def test_supersession_mentions_name_their_target_and_quote_the_sentence() -> None:
    text = (
        "Travel policy 2026. This policy replaces the 2019 travel policy, effective "
        "March 1, 2026. The 2021 expense rules are superseded by this document. "
        "Nothing else changes."
    )
    found = find_supersession_mentions(text)
    assert [m.target_text for m in found] == ["the 2019 travel policy", "The 2021 expense rules"]
    for mention in found:
        assert text[mention.span.start : mention.span.end] == mention.quote
        assert text[mention.target_span.start : mention.target_span.end] == mention.target_text
    assert find_supersession_mentions("The notice period is 30 days.") == []


def test_a_configured_pipeline_directory_is_used_and_a_missing_one_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model_dir = tmp_path / "trained"
    spacy.blank("en").to_disk(model_dir)
    nlp = build_pipeline(str(model_dir))
    assert nlp.pipe_names[-3:] == ["claim_mentions", "claim_assembler", "claim_abbreviations"]
    assert nlp("The notice period is 30 days.")._.claims[0].claim_key == "notice period"
    with pytest.raises(InputError, match="CLAIMS_SPACY_MODEL"):
        build_pipeline(str(tmp_path / "missing"))
    monkeypatch.setenv("CLAIMS_SPACY_MODEL", str(model_dir))
    get_settings.cache_clear()
    try:
        assert extract("The fee is 5%.")[0].claim_key == "fee"
    finally:
        get_settings.cache_clear()


def test_question_unit_hint_names_a_dimension() -> None:
    assert parse_question("How long is the notice period in days?").unit_dimension == "time"
    assert parse_question("How many tokens can batch requests produce?").unit_dimension == "token"
    assert parse_question("What is the notice period?").unit_dimension is None


def test_a_configured_pipeline_with_part_of_speech_tags_improves_the_action(
    tmp_path: Path,
) -> None:
    # Stands in for a trained English pipeline: an attribute_ruler that tags "ships" as a verb.
    tagged = spacy.blank("en")
    ruler = tagged.add_pipe("attribute_ruler")
    ruler.add([[{"LOWER": "ships"}]], {"POS": "VERB"})  # type: ignore[attr-defined]
    tagged.to_disk(tmp_path / "tagged")
    text = "The warehouse ships orders to Canada."
    assert build_pipeline(None)(text)._.claims == []  # "ships" is in no lexicon
    (claim,) = build_pipeline(str(tmp_path / "tagged"))(text)._.claims
    assert claim.claim_key == "ship order"
    assert claim.subject == "warehouse"
    assert claim.scope == {"region": "canada"}
