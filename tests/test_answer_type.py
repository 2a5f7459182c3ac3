"""A question's expected kind of value, and which claim values can answer it."""

from __future__ import annotations

import pytest

from retrieval.answer_type import AnswerType, expected_answer_type, value_fits


@pytest.mark.parametrize(
    ("question", "attribute", "expected"),
    [
        ("How many people live in Lakeview?", None, AnswerType.COUNT),
        ("How many days of annual leave do new starters get?", None, AnswerType.DURATION),
        ("How much does the Pro plan cost per month?", None, AnswerType.MONEY),
        ("How much did the migration cost?", None, AnswerType.MONEY),
        ("How much does the P-9 router weigh?", "weight", AnswerType.QUANTITY),
        ("When did the travel policy come into force?", None, AnswerType.DATE),
        ("In which year was the rowing club founded?", None, AnswerType.DATE),
        ("How long does the P-9 router's battery last?", None, AnswerType.DURATION),
        ("What percentage of staff left in May?", None, AnswerType.PERCENT),
        ("Is the licence transferable?", None, AnswerType.STANCE),
        ("Does the room rate include breakfast?", None, AnswerType.STANCE),
        ("Who chairs the audit committee?", None, AnswerType.LABEL),
        ("Could you tell me how many seats the hall has?", None, AnswerType.COUNT),
        # a label question takes its attribute's type; the head word speaks first
        ("What is the P-9 router's battery life?", "battery life", AnswerType.DURATION),
        ("What was the Q1 dividend per share?", "dividend per share", AnswerType.MONEY),
        ("What is the population of Lakeview?", "population", AnswerType.COUNT),
        ("What is the governing law?", "governing law", AnswerType.ANY),
        ("What is the interactive assistant's output limit?", "output limit", AnswerType.ANY),
        # a question word, a noun and a verb ask for a named thing of that kind
        ("What war did the peace agreement end?", "agreement", AnswerType.LABEL),
        ("Which city is the Harbour Street station in?", None, AnswerType.LABEL),
        ("What price did the board approve?", None, AnswerType.MONEY),
    ],
)
def test_question_words_and_attributes_set_the_expected_type(
    question: str, attribute: str | None, expected: AnswerType
) -> None:
    assert expected_answer_type(question, attribute) is expected


def test_counts_are_not_money_percent_or_measures() -> None:
    assert value_fits(AnswerType.COUNT, kind="quantity", dimension=None, unit="residents")
    assert value_fits(AnswerType.COUNT, kind="quantity", dimension="seat")
    assert not value_fits(AnswerType.COUNT, kind="quantity", dimension="USD")
    assert not value_fits(AnswerType.COUNT, kind="quantity", dimension="percent")
    assert not value_fits(AnswerType.COUNT, kind="quantity", dimension="length")


def test_each_type_takes_only_its_values() -> None:
    assert value_fits(AnswerType.MONEY, kind="quantity", dimension="GBP")
    assert not value_fits(AnswerType.MONEY, kind="quantity", dimension="share")
    assert value_fits(AnswerType.DURATION, kind="quantity", dimension="time")
    assert not value_fits(AnswerType.DURATION, kind="quantity", dimension=None)
    assert value_fits(AnswerType.PERCENT, kind="quantity", dimension="percent")
    assert value_fits(AnswerType.DATE, kind="date", dimension=None)
    assert not value_fits(AnswerType.DATE, kind="quantity", dimension=None)
    assert value_fits(AnswerType.STANCE, kind="polarity", dimension=None)
    assert not value_fits(AnswerType.STANCE, kind="quantity", dimension="time")
    assert value_fits(AnswerType.LABEL, kind="categorical", dimension=None)
    assert value_fits(AnswerType.QUANTITY, kind="quantity", dimension="mass")
    assert value_fits(AnswerType.ANY, kind="quantity", dimension="token")
    assert value_fits(AnswerType.ANY, kind="categorical", dimension=None)
    # the numerator of a compound unit decides: cents per share are money
    assert value_fits(AnswerType.MONEY, kind="quantity", dimension="USD/share")


def test_a_label_is_a_name_not_a_stance_or_a_date() -> None:
    # "The republics agreed to ..." states a stance; it names no war
    assert not value_fits(AnswerType.LABEL, kind="polarity", dimension=None)
    assert not value_fits(AnswerType.LABEL, kind="date", dimension=None)
