"""The side of a question that a copied page rewrote: the claims its page states, and the
answer that names both sides (issue 13, session 11).

Each class is checked both ways: the shape that now gives a claim or names both sides, and a
near miss that must stay apart (a lead-in sentence, a namesake told apart by the question)."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

from sqlalchemy import Engine

from claims.extraction import extract as extract_any
from claims.models import Claim, Requester
from retrieval.answer import answer
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents as load_any  # noqa: E402

# reference articles (encyclopedia pages): read and judged with the reference profile
extract = partial(extract_any, profile="reference")
_load = partial(load_any, profile="reference")

ANYONE = Requester(principal="anyone", groups=[])


def _claims(text: str, source_id: str = "doc") -> list[Claim]:
    return extract(text, source_id=source_id)


def _label(claims: list[Claim], attribute: str) -> list[tuple[str | None, str]]:
    return [(c.entity, str(c.value)) for c in claims if c.attribute == attribute]


# --- a page title that starts with a word lead-ins also start with ("Down", "Both", "Every")


def test_a_title_starting_with_a_function_word_and_written_twice_is_the_subject() -> None:
    claims = _claims(
        "Down Home (Maple Ridge Trio album) Down Home is the fourteenth studio album by "
        "Canadian bluegrass group Maple Ridge Trio. It was recorded in a barn near Guelph."
    )
    assert ("home (maple ridge trio album)", "Maple Ridge Trio") in _label(claims, "artist")
    assert ("home (maple ridge trio album)", "album") in _label(claims, "medium")
    # the ordinal says which album, not what kind: no genre "fourteenth album"
    assert not any("fourteenth" in value for _, value in _label(claims, "genre"))


def test_a_sentence_opening_with_such_a_word_is_still_no_title() -> None:
    claims = _claims(
        "Down by the harbour the old mill is a museum now. Both halls were rebuilt in 1921 "
        "after the fire."
    )
    assert not _label(claims, "medium")
    assert all(c.entity is None or "harbour" not in c.entity for c in claims)


def test_two_albums_of_one_title_by_different_artists_are_both_named(engine: Engine) -> None:
    _load(
        engine,
        {
            "first": "Paper Lanterns (Willa Hart album) Paper Lanterns is the third studio "
            "album by American songwriter Willa Hart. It was released in 2003.",
            "second": "Paper Lanterns (Tom Eddery album) Paper Lanterns is the second studio "
            "album by British singer Tom Eddery. It was released in 2011.",
        },
    )
    result = answer(engine, 'Who is the artist of the album "Paper Lanterns"?', ANYONE)
    # two albums of one title are two scopes: each is answered on its own side
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value is None
    sides = {str(side.value): side.source_ids for side in result.sides}
    assert sides == {"Willa Hart": ["first"], "Tom Eddery": ["second"]}
    # each side names the album it is about, by the title that tells the two apart
    assert all(str(side.value).lower() in str(side.entity) for side in result.sides)


# --- a box that names its subject ("Full name", "Name in native language") on a page cut
# before its title and opening


BOXED_PLAYER = (
    "Personal information Full name Harald Vinter Date of birth ( 1988-03-14 ) 14 March 1988 "
    "Place of birth Tromsø, Norway Position ( s ) Goalkeeper Senior career * Years Team Apps"
)


def test_a_box_that_names_its_subject_states_its_fields_of_it() -> None:
    claims = _claims(BOXED_PLAYER)
    assert ("harald vinter (in doc)", "1988-03-14") in _label(claims, "born")
    assert ("harald vinter (in doc)", "Goalkeeper") in _label(claims, "position")


def test_a_statement_dump_names_its_subject_before_the_language_bracket() -> None:
    claims = _claims(
        "Wikimedia import URL Name in native language Halvard Brekke (English) 0 references "
        "Given name Halvard 0 references Family name Brekke 0 references Date of birth "
        "2 May 1841 Gregorian 1 reference"
    )
    assert ("halvard brekke (in doc)", "1841-05-02") in _label(claims, "born")
    titled = _claims(
        "Upload media Wikipedia Name in native language Edwin Hale, 2nd Baron Kestle Date of "
        "birth 9 April 1871 Ludlow Date of death 2 May 1930 Occupation politician"
    )
    assert ("edwin hale, 2nd baron kestle (in doc)", "1871-04-09") in _label(titled, "born")


def test_a_full_name_in_prose_or_a_box_without_one_names_no_subject() -> None:
    prose = _claims(
        "His full name was Harald Vinter, and his brother was born on 14 March 1988 in Tromsø."
    )
    assert all(c.entity is None or "vinter" not in c.entity for c in prose)
    unnamed = _claims(
        "Personal information Date of birth ( 1988-03-14 ) 14 March 1988 Place of birth "
        "Tromsø, Norway Position ( s ) Goalkeeper Senior career * Years Team Apps"
    )
    assert not _label(unnamed, "born")  # a box of no known subject gives no field claim


def test_a_box_named_page_and_a_titled_namesake_are_both_named(engine: Engine) -> None:
    _load(
        engine,
        {
            "article": "Harald Vinter (footballer) Harald Vinter (born 14 March 1988) is a "
            "Norwegian footballer who plays as a goalkeeper.",
            "box": BOXED_PLAYER.replace("14 March 1988", "2 June 1991").replace(
                "1988-03-14", "1991-06-02"
            ),
        },
    )
    result = answer(engine, "When was Harald Vinter born?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT
    sides = {str(side.value): side.source_ids for side in result.sides}
    assert sides == {"1988-03-14": ["article"], "1991-06-02": ["box"]}


# --- a work described by its genre's noun ("a 1948 American romantic comedy"), its medium
# in the title's disambiguation


def test_a_film_described_by_a_genre_noun_states_the_genre_and_the_medium() -> None:
    claims = _claims(
        "Quiet Harbour (1951 film) Quiet Harbour is a 1951 British romantic comedy directed "
        "by Ellen Marsh. It was shot in Falmouth."
    )
    entity = "quiet harbour (1951 film)"
    assert (entity, "romantic comedy") in _label(claims, "genre")
    assert (entity, "film") in _label(claims, "medium")
    assert (entity, "Ellen Marsh") in _label(claims, "director")


def test_a_genre_noun_without_a_medium_in_the_title_or_of_a_person_is_no_genre() -> None:
    untitled = _claims(
        "Quiet Harbour Quiet Harbour is a 1951 British romantic comedy directed by Ellen Marsh."
    )
    assert not _label(untitled, "genre")
    assert not _label(untitled, "medium")
    person = _claims(
        "Ellen Marsh (director) Ellen Marsh (3 May 1910 \u2013 8 June 1988) was a British "
        "director of romantic comedy."
    )
    assert not _label(person, "genre")


# --- where a thing is: "a school in Barrie, Ontario", "located along the coast ... in Miami"


def test_a_place_after_the_description_or_later_in_a_located_clause_is_the_location() -> None:
    school = _claims(
        "Cedar Vale Academy (Oshawa) Cedar Vale Academy is a private secondary school in "
        "Oshawa, Ontario, Canada, teaching pupils in grades 9-12."
    )
    assert ("cedar vale academy (oshawa)", "Oshawa, Ontario, Canada") in _label(school, "location")
    resort = _claims(
        "Cedar Vale Academy (Tampa) Cedar Vale Academy is a private school located along the "
        "shore of Old Tampa Bay in Tampa, Florida. It has 80 students."
    )
    assert ("cedar vale academy (tampa)", "Tampa, Florida") in _label(resort, "location")


def test_a_person_in_a_place_or_a_located_clause_without_a_place_is_no_location() -> None:
    person = _claims(
        "Moira Kells (politician) Moira Kells (3 May 1910 \u2013 8 June 1988) was a Canadian "
        "politician in Ontario."
    )
    assert not _label(person, "location")
    unplaced = _claims(
        "Cedar Vale Academy (Tampa) Cedar Vale Academy is a private school located near the "
        "shore, and it moved to Tampa, Florida in 1990."
    )
    assert not _label(unplaced, "location")


# --- a titled page the question's words point to, beside a page of the bare name


VOSS_PAGES = {
    "article": "Harlan Voss (Vermont representative) Harlan Voss (June 12, 1914 \u2013 October 9, "
    "1997) was a Democratic member of the Vermont House of Representatives. He was elected to "
    "the Vermont House of Representatives in 1954.",
    "copy": "Harlan Voss was elected to the Vermont House of Representatives in 1972.",
}


def test_a_disambiguation_the_question_states_names_the_titled_page_beside_the_bare_one(
    engine: Engine,
) -> None:
    _load(engine, VOSS_PAGES)
    result = answer(
        engine, "When was Harlan Voss elected to the Vermont House of Representatives?", ANYONE
    )
    assert result.status is AnswerStatus.CONFLICT
    sides = {str(side.value): side.source_ids for side in result.sides}
    assert sides == {"1954": ["article"], "1972": ["copy"]}


def test_a_disambiguation_the_question_does_not_state_keeps_the_bare_name_first() -> None:
    from claims.models import EntityRef
    from claims.store.search import search_words
    from retrieval.candidates import EXACT_ENTITY, PARTIAL_ENTITY, question_fit

    titled = EntityRef(name="harlan voss", qualifier="vermont representative")
    asked = search_words("When was Harlan Voss elected to the Vermont House of Representatives?")
    assert question_fit("harlan voss", titled, asked) == EXACT_ENTITY
    other = search_words("When was Harlan Voss elected to the Senate?")
    assert question_fit("harlan voss", titled, other) == PARTIAL_ENTITY
    # a namesake's longer name is no disambiguation, whatever the question says
    namesake = EntityRef(name="harlan voss jr", qualifier="ohio")
    assert question_fit("harlan voss", namesake, ["Ohio"]) < EXACT_ENTITY
