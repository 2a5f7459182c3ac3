"""Relations an article states in running prose (claims.extraction.prose_relations): family
ties, birthplaces, a sport, a designer and a cast, and the career events a biography dates;
read by the real extraction and asked through ``answer``. Each class is checked both ways:
the tie stated of the page's subject answers, the same words about another person do not."""

from __future__ import annotations

import sys
from pathlib import Path

from sqlalchemy import Engine

from claims.extraction import extract, parse_question
from claims.models import Requester
from retrieval.answer import answer
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents as _load  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])


def _ties(text: str, attribute: str) -> list[tuple[str | None, object]]:
    return [(c.entity, c.value) for c in extract(text, source_id="doc") if c.attribute == attribute]


# ---------------------------------------------------------------- family ties


def test_the_son_of_after_a_birthplace_is_the_subjects_parent() -> None:
    text = (
        "Osman Beyzade Osman Beyzade (4 May 1702 \u2013 9 June 1760) was an Ottoman "
        "governor. He was born at Topkapi Palace, the son of Ahmed Pasha (1671\u20131730); "
        "his tutor was a scholar from Bursa."
    )
    assert _ties(text, "parent") == [("osman beyzade", "Ahmed Pasha")]
    assert _ties(text, "birthplace") == [("osman beyzade", "Topkapi Palace")]


def test_a_list_of_ties_after_the_copula() -> None:
    text = (
        "Eudora Vance Eudora Vance was a Welsh noblewoman, daughter of Rhys Vance, wife of "
        "Gwilym Harte and mother of Owen Harte. She lived at Caerleon."
    )
    assert _ties(text, "parent") == [("eudora vance", "Rhys Vance")]
    assert _ties(text, "spouse") == [("eudora vance", "Gwilym Harte")]


def test_descriptors_and_a_title_before_the_name_are_dropped() -> None:
    text = (
        "Tomas Reyes III Tomas Reyes III (born 1960) is a Filipino lawyer. He is the son "
        "of retired Chief Justice, Tomas Reyes Jr. His firm is in Manila."
    )
    assert _ties(text, "parent") == [("toma reye iii", "Tomas Reyes Jr.")]
    text = "Nefret Nefret was a queen of Egypt. She was the wife of both kings Sneferu and Djedef."
    assert _ties(text, "spouse") == [("nefret", "Sneferu and Djedef")]


def test_a_tie_of_another_name_or_an_office_without_a_name_is_not_the_subjects() -> None:
    # the appositive after another name is that name's tie; "the king of France" names
    # an office, not a person; "his brother" is not the page's subject
    text = (
        "Ysolde Mar Ysolde Mar was a countess. She was unfaithful to him with Aubert, son "
        "of the knight Renaud Belle. She was the wife of the king of France. His brother "
        "was the husband of Clarisse Noe."
    )
    assert _ties(text, "parent") == []
    assert _ties(text, "spouse") == []


def test_married_names_the_spouse_not_the_spouses_parent() -> None:
    text = (
        "Hollis Crane Hollis Crane (1890\u20131960) was a farmer. In 1915 he married Ada "
        "Lowe, the daughter of Samuel Lowe."
    )
    assert _ties(text, "spouse") == [("hollis crane", "Ada Lowe")]
    assert _ties(text, "parent") == []


def test_a_father_question_is_answered_by_the_parent_tie(engine: Engine) -> None:
    _load(
        engine,
        {
            "page": "Osman Beyzade Osman Beyzade (4 May 1702 \u2013 9 June 1760) was an "
            "Ottoman governor. He was born at Topkapi Palace, the son of Ahmed Pasha.",
            "other": "Selim Arda Selim Arda (1700\u20131750) was a poet. He was the son of "
            "Kemal Arda.",
        },
    )
    result = answer(engine, "Who was Osman Beyzade's father?", ANYONE)
    assert (result.status, str(result.value)) == (AnswerStatus.ANSWERED, "Ahmed Pasha")
    result = answer(engine, "Who was the husband of Osman Beyzade?", ANYONE)
    assert result.status is AnswerStatus.NOT_FOUND, (result.value, result.reason)


# ---------------------------------------------------------------- birthplaces


def test_born_in_as_a_lead_in_and_after_the_copula() -> None:
    text = (
        "Edwin P. Hale Edwin P. Hale (March 3, 1870 \u2013 May 9, 1931) was an American "
        "judge. Born in Marquette County, Michigan, Hale studied law in Bangor."
    )
    assert _ties(text, "birthplace") == [("edwin p hale", "Marquette County, Michigan")]
    text = (
        "Ruth Okafor Ruth Okafor is a Nigerian chemist. She was born on 4 June 1961 in "
        "Enugu, Nigeria, and studied at Ibadan."
    )
    assert _ties(text, "birthplace") == [("ruth okafor", "Enugu, Nigeria")]
    text = "Liam Duggan Liam Duggan is an Irish poet. A native of Tralee, he taught in Cork."
    assert _ties(text, "birthplace") == [("liam duggan", "Tralee")]


def test_a_birth_year_or_another_persons_birthplace_is_no_birthplace() -> None:
    text = (
        "Edwin P. Hale Edwin P. Hale was an American judge. He was born in 1870. His wife "
        "was born in Ohio. Born in Dayton, Ohio, Mary Lamb was his law partner."
    )
    assert _ties(text, "birthplace") == [("mary lamb", "Dayton, Ohio")]


def test_a_birthplace_question_by_the_state(engine: Engine) -> None:
    _load(
        engine,
        {
            "page": "Edwin P. Hale Edwin P. Hale (March 3, 1870 \u2013 May 9, 1931) was an "
            "American judge. Born in Marquette County, Michigan, Hale studied law in Bangor.",
        },
    )
    frame = parse_question("What is the state where Judge Hale was born?")
    assert frame.attribute == "birthplace"
    result = answer(engine, "Where was Justice Hale born?", ANYONE)
    assert (result.status, str(result.value)) == (
        AnswerStatus.ANSWERED,
        "Marquette County, Michigan",
    ), result.reason


# ---------------------------------------------------------------- sport


def test_a_sport_played_in_passing_and_a_teams_sport() -> None:
    text = (
        "Stockport Harriers Stockport Harriers is a club in Cheshire. In the one season in "
        "which Stockport Harriers played semi-professional rugby league, few records were kept."
    )
    assert _ties(text, "sport") == [("stockport harrier", "rugby league")]
    text = (
        "Darnell Voss Darnell Voss (born 1990) is an American coach. Voss attended the "
        "University of Iowa, where he was a member of coach Kirk Ames's Iowa Hawkeyes "
        "football teams from 2009 to 2012."
    )
    assert _ties(text, "sport") == [("darnell voss", "football")]
    # a page cut from the middle of an article: "he" is the name the sentence opens with
    text = (
        "a top recruit by Rivals. Voss accepted a scholarship to attend the University of "
        "Iowa, where he was a member of the Iowa Hawkeyes football teams. Later he played "
        "professional tennis."
    )
    assert _ties(text, "sport") == [("voss", "football")]


def test_no_sport_when_the_opening_states_it_or_another_plays_it() -> None:
    # the opening says it better; "his brother played tennis" is not the subject's
    text = (
        "Darnell Voss Darnell Voss (born 1990) is a former American football linebacker. "
        "He played college football at Iowa."
    )
    assert [v for _, v in _ties(text, "sport")] == ["american football"]
    text = "Marta Olin Marta Olin is a Swedish painter. Her brother played professional tennis."
    assert _ties(text, "sport") == []


# ---------------------------------------------------------------- designer, cast


def test_designed_by_an_architect_answers_who_the_architect_is(engine: Engine) -> None:
    _load(
        engine,
        {
            "page": "Pruitt House (Elberton, Georgia) The Pruitt House in Elberton, Georgia "
            "was built in 1921. It was designed by architect Nell Ashford Crane.",
            "other": "Greer House The Greer House is a house in Elberton, Georgia. It was "
            "built in 1925 by a contractor whose office was designed by architect Paul Dane.",
        },
    )
    result = answer(engine, "Who is the architect of the Pruitt House?", ANYONE)
    assert (result.status, str(result.value)) == (
        AnswerStatus.ANSWERED,
        "Nell Ashford Crane",
    ), result.reason
    result = answer(engine, "Who is the architect of the Greer House?", ANYONE)
    assert result.status is AnswerStatus.NOT_FOUND, (result.value, result.reason)


def test_starring_names_the_films_star() -> None:
    text = (
        "Mind the Gap (1938 film) Mind the Gap is a 1938 British comedy film directed by "
        "Walter Hale and starring Jessie Marsh. It was made at Ealing."
    )
    assert _ties(text, "star") == [("mind gap (1938 film)", "Jessie Marsh")]
    frame = parse_question('Who is the main actor in the film "Mind the Gap"?')
    assert frame.attribute == "star"
    # a person who starred in something: what they played in is no star of theirs
    text = "Jessie Marsh Jessie Marsh was an actress. She starred in Hay Fever."
    assert _ties(text, "star") == []


# ---------------------------------------------------------------- career events


def test_a_senate_confirmation_and_a_call_to_the_bar_are_dated_events(engine: Engine) -> None:
    _load(
        engine,
        {
            "page": "Walter Penn Walter Penn (1916\u20131999) was a United States judge. He "
            "was confirmed by the Senate of the United States on March 8, 1971, and received his "
            "commission on March 9, 1971. He had been called to the Bar in 1941.",
        },
    )
    result = answer(engine, "When was Judge Penn confirmed by the Senate?", ANYONE)
    assert (result.status, str(result.value)) == (AnswerStatus.ANSWERED, "1971-03-08")
    result = answer(engine, "When was Walter Penn called to the Bar?", ANYONE)
    assert (result.status, str(result.value)) == (AnswerStatus.ANSWERED, "1941")
    # a confirmation of something else is no senate confirmation
    assert parse_question("When was the order confirmed?").attribute != "confirmed"


# ---------------------------------------------------------------- position, format


def test_a_position_as_an_appositive_or_after_played_as(engine: Engine) -> None:
    _load(
        engine,
        {
            "page": "Dale Pruitt (footballer, born 1962) Dale Owen Pruitt (born 3 May 1962) is "
            "an English retired professional footballer. A defender, he started out with "
            "Stoke City before moving on to Walsall in 1986.",
        },
    )
    question = "What position did Dale Pruitt play in during his professional football career?"
    result = answer(engine, question, ANYONE)
    assert (result.status, str(result.value)) == (AnswerStatus.ANSWERED, "defender")
    text = "Joe Marr Joe Marr is a footballer. He played as a goalkeeper for Leeds United."
    assert [v for _, v in _ties(text, "position")] == ["goalkeeper"]
    # the appositive of another name is that name's position; a guard who played as a
    # boy has none
    text = (
        "Joe Marr Joe Marr is a footballer. A defender, Tom Hale, was sent off. The guard "
        "at the gate played as a boy."
    )
    assert _ties(text, "position") == [("tom hale", "defender")]


def test_a_stations_format() -> None:
    text = (
        "WQRB (AM) WQRB (1550 AM) is a daytime station broadcasting a Caribbean Gospel format. "
        "Licensed to Ponce, Puerto Rico, it serves the south coast."
    )
    assert [v for _, v in _ties(text, "format")] == ["Caribbean Gospel"]
    assert parse_question("What is the broadcast format of WQRB?").attribute == "broadcast format"
    # a format named in a relative clause is another station's
    text = "KXLO KXLO is a station. It is owned by a firm which airs a talk format in Reno."
    assert _ties(text, "format") == []


def test_a_title_taken_by_succession_answers_when_the_subject_became_it(engine: Engine) -> None:
    _load(
        engine,
        {
            "page": "Henry Dalby Henry Dalby (1760\u20131808) was an English politician. He "
            "succeeded to the baronetcy in 1784. He was succeeded by his son in 1808.",
        },
    )
    result = answer(engine, "When did Henry Dalby become the Baronet?", ANYONE)
    assert (result.status, str(result.value)) == (AnswerStatus.ANSWERED, "1784"), result.reason
    # an office is no title taken by succession
    assert parse_question("When did Henry Dalby become president of the club?").attribute != (
        "succeeded"
    )


def test_a_rank_reached_by_promotion(engine: Engine) -> None:
    _load(
        engine,
        {
            "page": "Karl Ebner Karl Ebner (1890\u20131961) was a German officer. On 1 May 1943 "
            "Karl Ebner was promoted to Generalmajor. His brother was promoted to colonel.",
        },
    )
    result = answer(engine, "What is the military rank of General Ebner?", ANYONE)
    assert (result.status, str(result.value)) == (AnswerStatus.ANSWERED, "Generalmajor")
    # promoted to a post, not a rank; a brother's promotion
    text = "Ada Moss Ada Moss is a manager. She was promoted to head of sales in 2010."
    assert _ties(text, "rank") == []
