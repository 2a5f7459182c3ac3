"""Infobox and data-sheet fields (claims.extraction.infobox): a field is read as a claim of
the page's subject, and page furniture around it never becomes an entity or a value. Read
by the real extraction and asked through ``answer``."""

from __future__ import annotations

import sys
from pathlib import Path

from sqlalchemy import Engine, text

from claims.extraction import extract
from claims.models import Claim, Requester
from retrieval.answer import answer
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents as _load  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])


def _claims(page: str) -> list[Claim]:
    return extract(page, source_id="page", source_version_id="page-v1")


def _facts(page: str) -> set[tuple[str | None, str, str]]:
    return {(c.entity, c.attribute, str(c.value)) for c in _claims(page)}


# a saved person page: title, then the infobox run together on one line, then prose
PERSON_PAGE = (
    "Hester Vane, Lady Marlow - Wikipedia Jump to navigation Main menu Personal details "
    "Born Hester Anne Vane ( 1871-04-12 ) 12 April 1871 Bath, Somerset Died 3 November 1948 "
    "( aged 77 ) London Spouse ( s ) Edmund Marlow ( m. 1899 ) Occupation Botanist "
    "Political party Liberal Hester Vane was known for her work on ferns."
)


def test_a_run_of_infobox_fields_is_read_as_claims_of_the_page_title() -> None:
    facts = _facts(PERSON_PAGE)
    entity = "hester vane, lady marlow"
    assert (entity, "born", "1871-04-12") in facts
    assert (entity, "died", "1948-11-03") in facts
    assert (entity, "spouse", "Edmund Marlow") in facts
    assert (entity, "occupation", "Botanist") in facts
    assert (entity, "political party", "Liberal") in facts


def test_the_box_run_gives_no_furniture_entity_and_no_stray_number() -> None:
    claims = _claims(PERSON_PAGE)
    for claim in claims:
        assert "menu" not in (claim.entity or "") and "navigation" not in (claim.entity or "")
    # the age in brackets and the marriage year are no values of the page
    assert not [c for c in claims if str(c.value) in ("77", "77.0", "1899")]


def test_a_settlement_box_gives_the_count_with_its_year_not_the_area_or_density() -> None:
    page = (
        "Dolna Wieś - Wikipedia Country Poland Voivodeship Lesser Poland Area • Total "
        "42.5 km 2 ( 16.4 sq mi ) Population ( 2011 ) • Total 3,214 • Density 76/km 2 "
        "Time zone UTC+1 Website dolnawies.example"
    )
    population = [c for c in _claims(page) if c.attribute == "population"]
    found = [(c.entity, c.value, c.time.start.year if c.time.start else 0) for c in population]
    assert found == [("dolna wieś", 3214.0, 2011)]
    assert not [c for c in _claims(page) if c.value in (42.5, 16.4, 76.0)]


def test_field_lines_of_an_intranet_page_are_about_its_heading() -> None:
    page = (
        "Shannon Freight\n\n"
        "Headquarters: Ennis, County Clare\n"
        "Founded: 1962\n"
        "Owner: Brennan Holdings\n\n"
        "The company carries parcels for the west of the county.\n"
    )
    facts = _facts(page)
    assert ("shannon freight", "location", "Ennis, County Clare") in facts
    assert ("shannon freight", "founded", "1962") in facts
    assert ("shannon freight", "owner", "Brennan Holdings") in facts


def test_a_box_glued_to_a_sentence_states_its_value_once_of_the_subject() -> None:
    page = (
        "Harrow Depot Harrow Depot is a former railway station in Harrow, Kansas. "
        "Location Mill Street Country United States Built in 1914, the depot is the last "
        "standing building of the railroad in the town."
    )
    built = [c for c in _claims(page) if c.attribute == "built"]
    assert [(c.entity, c.value) for c in built] == [("harrow depot", "1914")]


def test_a_field_word_inside_a_sentence_is_no_field() -> None:
    page = (
        "The Director of the museum said the Location of the new wing was chosen in 2019. "
        "Genre painting was popular in the town, whose Population grew quickly."
    )
    attributes = {c.attribute for c in _claims(page)}
    assert not attributes & {"director", "location", "genre", "population"}


def test_an_album_box_value_ends_at_the_next_field_name() -> None:
    page = (
        "Harbour Songs (album) - Wikiwand Studio album by The Lowland Reeds Released 2004 "
        "Genre = Folk rock Length = 41:12 Label = Tidewater Producer = Ian Moss"
    )
    facts = _facts(page)
    assert ("harbour song (album)", "genre", "Folk rock") in facts
    assert ("harbour song (album)", "launched", "2004") in facts
    assert not [f for f in facts if f[1] == "genre" and "Length" in f[2]]


def test_a_swapped_field_value_in_a_copy_of_the_page_is_a_conflict(engine: Engine) -> None:
    _load(
        engine,
        {
            "article": "Brendan Hartigan - Wikipedia Personal details Born 4 May 1902 Cork "
            "Died 1 June 1979 Dublin Allegiance Ireland",
            "copy": "Brendan Hartigan - Wikipedia Personal details Born 4 May 1912 Cork "
            "Died 1 June 1979 Dublin Allegiance Ireland",
        },
    )
    with engine.connect() as conn:
        conflicts = conn.execute(
            text("SELECT count(*) FROM edges WHERE kind = 'conflicts'")
        ).scalar_one()
    assert conflicts == 1
    result = answer(engine, "When was Brendan Hartigan born?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT, result.reason
    assert sorted(str(side.value) for side in result.sides) == ["1902-05-04", "1912-05-04"]


def test_a_field_answers_a_question_worded_otherwise(engine: Engine) -> None:
    _load(
        engine,
        {
            "church": "San Telmo Church - Wikipedia Location Calle Mayor, Ourense Country "
            "Spain Architectural style Romanesque Completed 1188 Materials Granite",
        },
    )
    result = answer(engine, "What is the style of San Telmo Church?", ANYONE)
    assert (result.status, result.value) == (AnswerStatus.ANSWERED, "Romanesque"), result.reason


def test_category_lines_navigation_boxes_and_reference_dates_give_no_claim() -> None:
    page = (
        "Harbour Lights (1998 film) Harbour Lights is a 1998 Welsh drama film directed by "
        'Gwen Rees. References ^ "Harbour Lights". Western Mail. Archived from the '
        "original on 3 March 2009. Retrieved 14 June 2011. External links [ edit ] v t e "
        "Films directed by Owen Pryce Director Cold Tide ( 2001 ) Long Shore ( 2005 ) "
        "Categories: 1998 films Welsh-language films Films directed by Owen Pryce"
    )
    claims = _claims(page)
    assert {(c.attribute, str(c.value)) for c in claims if c.attribute == "director"} == {
        ("director", "Gwen Rees")
    }
    assert not [c for c in claims if str(c.value).startswith(("2009", "2011", "2001", "2005"))]


def test_a_page_whose_box_is_the_only_statement_answers_and_is_cited(engine: Engine) -> None:
    _load(
        engine,
        {
            "box": "Dolna Wieś - Wikipedia Country Poland Voivodeship Lesser Poland "
            "Population ( 2011 ) • Total 3,214 • Density 76/km 2 Time zone UTC+1",
        },
    )
    result = answer(engine, "What is the population of Dolna Wieś?", ANYONE)
    assert (result.status, result.value, result.citations) == (
        AnswerStatus.ANSWERED,
        3214.0,
        ["box"],
    ), result.reason


def test_a_spouse_field_answers_husband_and_married_to_questions(engine: Engine) -> None:
    _load(
        engine,
        {
            "queen": "Queen Maelis - Wikipedia Royal details Born 2 June 1310 Rouen Died 9 "
            "May 1361 Place of birth Rouen Spouse Charles of Anjou Issue Louis of Anjou "
            "House Valois",
        },
    )
    for question in ("Who was the husband of Queen Maelis?", "Who was Queen Maelis married to?"):
        result = answer(engine, question, ANYONE)
        assert (result.status, result.value) == (
            AnswerStatus.ANSWERED,
            "Charles of Anjou",
        ), result.reason
    result = answer(engine, "Where was Queen Maelis born?", ANYONE)
    assert (result.status, result.value) == (AnswerStatus.ANSWERED, "Rouen"), result.reason
