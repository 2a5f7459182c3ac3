"""What an abbreviation stands for (session 14): a text that spells a term out before its
abbreviation in brackets ("vocal cord dysfunction (VCD)") defines it, and "What does VCD
refer to?" asks for that definition (claims/extraction/abbreviations.py). One abbreviation
stands for several things in several fields, so two expansions are no conflict: the answer
lists them, each with its sources."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from sqlalchemy import Engine

from claims.check import check_texts
from claims.extraction import extract, parse_question
from claims.extraction.abbreviations import long_form
from claims.models import Relation, Requester
from retrieval.answer import answer
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])
SPECTRA = (
    "The bands were assigned with a harmonic model, and vibrational circular dichroism (VCD) "
    "spectra were recorded for both enantiomers."
)
CLINIC = (
    "Vocal cord dysfunction (VCD), also known as inducible laryngeal obstruction, is often "
    "mistaken for asthma."
)


@pytest.mark.parametrize(
    ("before", "abbreviation", "expected"),
    [
        (
            "were recorded with vibrational circular dichroism",
            "VCD",
            "vibrational circular dichroism",
        ),
        ("The sapheno-femoral junction", "SFJ", "sapheno-femoral junction"),
        ("proposed an International Geophysical Year", "IGY", "International Geophysical Year"),
        ("the Bank of England", "BE", "Bank of England"),
    ],
)
def test_the_long_form_is_the_run_of_words_spelling_the_letters(
    before: str, abbreviation: str, expected: str
) -> None:
    found = long_form(before, abbreviation)
    assert found is not None and found[1] == expected


@pytest.mark.parametrize(
    ("before", "abbreviation"), [("the paper size", "A4"), ("joined the club", "FC")]
)
def test_near_miss_a_code_or_letters_no_words_spell_are_no_abbreviation(
    before: str, abbreviation: str
) -> None:
    assert long_form(before, abbreviation) is None


def test_a_defined_abbreviation_is_a_claim_of_what_it_stands_for() -> None:
    claims = [c for c in extract(CLINIC, source_id="doc01") if c.attribute == "expansion"]
    assert [(c.claim_key, c.value) for c in claims] == [("vcd expansion", "Vocal cord dysfunction")]
    assert not [
        c for c in extract("The VCD player was cheap.", source_id="d") if c.attribute == "expansion"
    ]


def test_two_expansions_of_one_abbreviation_are_no_conflict() -> None:
    assert check_texts(SPECTRA, CLINIC).relation is not Relation.CONFLICT


@pytest.mark.parametrize(
    "question",
    [
        "What does VCD refer to?",
        "What does the abbreviation VCD stand for?",
        "What is VCD short for?",
    ],
)
def test_the_ways_people_ask_are_one_frame(question: str) -> None:
    frame = parse_question(question)
    assert (frame.entity, frame.attribute) == ("vcd", "expansion")


def test_the_answer_lists_every_expansion_with_its_sources(engine: Engine) -> None:
    load_documents(
        engine, {"doc01": SPECTRA, "doc02": CLINIC, "doc03": "The VCD player was cheap."}
    )
    result = answer(engine, "What does VCD refer to?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.values == ["vibrational circular dichroism", "Vocal cord dysfunction"]
    assert {str(s.value): s.source_ids for s in result.sides or []} == {
        "vibrational circular dichroism": ["doc01"],
        "Vocal cord dysfunction": ["doc02"],
    }


def test_an_abbreviation_defined_twice_in_one_sentence_is_one_claim(engine: Engine) -> None:
    # page furniture repeats itself: two equal claims of one sentence would share an id, and
    # the store refused the whole batch (a dev-set page did exactly this)
    menu = (
        "Data Finder International Database ( IDB ) American Community Survey ( ACS ) "
        "Data Finder International Database ( IDB ) American Community Survey ( ACS )"
    )
    claims = [c for c in extract(menu, source_id="doc01") if c.attribute == "expansion"]
    # "IDB" is no initials of "International Database": no claim
    assert [c.claim_key for c in claims] == ["acs expansion"]
    load_documents(engine, {"doc01": menu})
    result = answer(engine, "What does ACS stand for?", ANYONE)
    assert (result.status, result.value) == (AnswerStatus.ANSWERED, "American Community Survey")
