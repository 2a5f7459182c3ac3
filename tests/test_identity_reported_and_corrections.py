"""Two wordings the office corpus showed (issue 12): a speaker before "said the" is reported
speech, never part of the key, and "..., not the figure we quoted" corrects another figure
without negating the value before it. Sentences are our own."""

from __future__ import annotations

from claims.check import check_texts
from claims.extraction import extract
from claims.models import Polarity, Relation


def test_a_speaker_who_said_the_figure_is_reported_speech_not_the_key() -> None:
    (said,) = extract("The head of estates said the roof repair would cost £82,000.")
    (plain,) = extract("The roof repair will cost £82,000.")
    assert said.reported_speech
    assert said.claim_key == plain.claim_key


def test_said_as_an_adjective_is_no_report() -> None:
    (claim,) = extract("The said premises measure 40 square metres.")
    assert not claim.reported_speech


def test_two_reports_with_changed_numbers_conflict() -> None:
    result = check_texts(
        "According to the estates team, the roof repair will cost £82,000.",
        "The head of estates said the roof repair would cost £95,000.",
    )
    assert result.relation is Relation.CONFLICT, result.reason


def test_a_correction_after_a_comma_keeps_the_value_affirmed() -> None:
    (claim,) = extract(
        "In our tests the scanner battery lasts 6 hours, not the figure printed on the box."
    )
    assert claim.value == 6
    assert claim.polarity is Polarity.POSITIVE


def test_a_negated_value_after_a_comma_stays_negated() -> None:
    first, second = extract("The deposit is 300 EUR, not 500 EUR.")
    assert first.polarity is Polarity.POSITIVE
    assert second.polarity is Polarity.NEGATIVE
