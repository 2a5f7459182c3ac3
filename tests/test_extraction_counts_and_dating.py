"""Counts, census dates, lone months and written numbers in the claim they belong to
(issue 12: sentences that gave no claim, dates or census words inside keys)."""

from __future__ import annotations

import pytest

from claims.extraction import extract
from claims.models import ValueKind


def _quantities(text: str) -> list:
    return [c for c in extract(text) if c.kind is ValueKind.QUANTITY]


@pytest.mark.parametrize(
    ("text", "entity", "value", "year"),
    [
        ("Millbrook had 3,292 residents at the 2010 census.", "millbrook", 3292, 2010),
        ("As of the 2010 census, the population of Millbrook was 3,292.", "millbrook", 3292, 2010),
        ("The population was 3,292 at the 2010 census.", None, 3292, 2010),
        ("The village had a population of 1,850 in the 2011 survey.", None, 1850, 2011),
    ],
)
def test_a_census_or_survey_dates_the_figure_and_the_counted_people_are_the_attribute(
    text: str, entity: str | None, value: int, year: int
) -> None:
    (claim,) = _quantities(text)
    assert claim.attribute == "population"
    assert claim.entity == entity
    assert claim.value == value
    assert claim.time.start is not None and claim.time.start.year == year
    assert "census" not in claim.claim_key and "survey" not in claim.claim_key
    assert "census" not in claim.scope_residual and "survey" not in claim.scope_residual


def test_the_census_of_a_year_opens_the_sentence_as_its_time() -> None:
    claims = _quantities(
        "As of the census of 2000, there were 533 people and 200 households in the town."
    )
    assert [c.value for c in claims] == [533, 200]
    for claim in claims:
        assert claim.time.text == "As of the census of 2000"
        assert claim.time.start is not None and claim.time.start.year == 2000
        assert "census" not in claim.claim_key


def test_two_censuses_of_one_town_share_a_key_and_differ_in_time() -> None:
    (older,) = _quantities("Millbrook had 2,950 inhabitants at the 2000 census.")
    (newer,) = _quantities("Millbrook had 3,292 residents at the 2010 census.")
    assert older.claim_key == newer.claim_key == "millbrook population"
    assert older.time.end is not None and newer.time.start is not None
    assert older.time.end < newer.time.start


def test_a_month_named_alone_after_a_time_word_is_time_not_the_entity() -> None:
    (claim,) = _quantities("In October, ticket sales rose to 5,000 a week.")
    assert claim.entity is None
    assert "october" not in claim.claim_key
    assert claim.time.text == "October"
    assert claim.time.start is None and claim.time.end is None  # no year: no dates


def test_a_month_word_that_is_the_modal_stays_a_modal() -> None:
    (claim,) = extract("The cafeteria may close early in May.")
    assert claim.modality is not None and claim.modality.value == "permission"
    assert claim.time.text == "May"


def test_a_hyphenated_born_is_an_adjective_not_a_birth_date() -> None:
    claims = extract("In the 1851 census, 15% of the parish's inhabitants were Irish-born.")
    assert all(c.kind is not ValueKind.DATE for c in claims)
    (share,) = _quantities("In the 1851 census, 15% of the parish's inhabitants were Irish-born.")
    assert share.value == 15
    assert share.time.start is not None and share.time.start.year == 1851


def test_a_metric_defined_in_words_is_no_claim_but_its_figure_is() -> None:
    assert extract("Median age is the middle age of the population.") == []
    (claim,) = extract("The median age in the town was 42 years.")
    assert claim.kind is ValueKind.QUANTITY and claim.value == 42
    assert claim.attribute == "age" and claim.scope == {"metric": "median"}


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("Nine African countries have yet to report a case.", 9, "countries"),
        ("The club has won two National Championships in hurling.", 2, "Championships"),
        ("The first fourteen home Premier League games will be played at Wembley.", 14, "games"),
        ("Arsenal played in eighteen successive UEFA Champions League seasons.", 18, "seasons"),
    ],
)
def test_a_written_number_counts_the_noun_after_its_describing_words(
    text: str, value: int, unit: str
) -> None:
    (claim,) = _quantities(text)
    assert claim.value == value
    assert claim.unit == unit


def test_written_and_digit_counts_of_one_slot_share_a_key() -> None:
    (words,) = _quantities("Nine African countries have yet to report a case.")
    (digits,) = _quantities("Ten countries have yet to report a case.")
    assert words.claim_key == digits.claim_key
    assert "yet" not in words.claim_key


@pytest.mark.parametrize(
    "text",
    [
        "The two of them met at the Lisbon office.",
        "Three died in the attack near the border.",
        "Two United Nations observers arrived on Monday and left.",
    ],
)
def test_a_written_number_without_a_counted_noun_is_no_count(text: str) -> None:
    for claim in _quantities(text):
        assert claim.unit not in ("them", "died", "United")


def test_there_were_n_things_in_a_named_place_is_keyed_like_the_place_having_them() -> None:
    (existential,) = _quantities("There were 1,245 households in Millbrook in 2019.")
    (possession,) = _quantities("Millbrook had 1,310 households.")
    assert existential.claim_key == possession.claim_key == "millbrook household"
    assert existential.entity == "millbrook"
    (common,) = _quantities("There were 40 people in the meeting room.")
    assert common.entity is None  # a common noun names no entity


def test_each_counted_item_of_a_list_is_keyed_by_what_it_counts() -> None:
    claims = _quantities(
        "As of the census of 2000, there were 533 people, 200 households, and 150 "
        "families in Millbrook."
    )
    assert [c.value for c in claims] == [533, 200, 150]
    assert [c.attribute for c in claims] == ["population", "household", "family"]
    # a list of one measure still shares the first item's key
    first, second = _quantities("The notice period is 30 days, and 60 days in the first year.")
    assert first.claim_key == second.claim_key == "notice period"


@pytest.mark.parametrize(
    ("left", "right", "values"),
    [
        (
            "Lisbon is the fourth most visited city in Europe.",
            "Lisbon is the 6th most visited city in Europe.",
            (4, 6),
        ),
        (
            "The novel is the author's second book about the harbour.",
            "The novel is the author's third book about the harbour.",
            (2, 3),
        ),
        (
            "The team finished third in the regional league.",
            "The team finished fifth in the regional league.",
            (3, 5),
        ),
    ],
)
def test_a_rank_stated_as_the_predicate_is_a_value_of_one_key(
    left: str, right: str, values: tuple[int, int]
) -> None:
    (a,) = _quantities(left)
    (b,) = _quantities(right)
    assert (a.value, b.value) == values
    assert a.claim_key == b.claim_key


def test_an_ordinal_outside_the_predicate_is_no_value() -> None:
    assert _quantities("The first delivery arrived at the depot on Monday.") == []
    assert _quantities("Our office is on the third floor of the tower.") == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("The film has grossed $ 100.9million in North America.", 100_900_000),
        ("The film grossed around 450crores in its theatrical run.", 4_500_000_000),
        ("The film grossed 62.06 crore worldwide.", 620_600_000),
        ("The bridge cost 3.5 lakh rupees to repair.", 350_000),
    ],
)
def test_a_magnitude_word_glued_or_indian_scales_the_number(text: str, value: int) -> None:
    (claim,) = _quantities(text)
    assert claim.value == pytest.approx(value)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("The revival received mixed reviews from critics.", "mixed"),
        ("The revival has received generally favourable reviews.", "positive"),
        ("The revival got mostly negative reviews from the press.", "negative"),
        ("Critics gave the revival mixed reviews.", "mixed"),
    ],
)
def test_how_a_work_was_received_is_one_attribute_with_a_pole_as_value(
    text: str, value: str
) -> None:
    (claim,) = extract(text)
    assert claim.kind is ValueKind.CATEGORICAL
    assert claim.attribute == "reception"
    assert claim.value == value
    assert "critic" not in claim.scope_residual


def test_opposite_receptions_conflict_and_synonyms_agree() -> None:
    from claims.check import check_texts
    from claims.models import Relation

    opposite = check_texts(
        "The revival received positive reviews from critics.",
        "The revival received mixed reviews from critics.",
    )
    assert [p.relation for p in opposite.pairs] == [Relation.CONFLICT]
    same = check_texts(
        "The revival received positive reviews.",
        "The revival received generally favourable reviews from critics.",
    )
    assert all(p.relation is not Relation.CONFLICT for p in same.pairs)


def test_a_reception_between_two_poles_is_no_single_value() -> None:
    for claim in extract("The revival received mixed to positive reviews from critics."):
        assert claim.attribute != "reception"


def test_a_rating_on_a_scale_is_read_with_its_scale() -> None:
    (tens,) = _quantities("The guidebook holds an average rating of 6.3/10 on the site.")
    (hundreds,) = _quantities("The guidebook holds an average rating of 63 out of 100 on the site.")
    assert tens.value == pytest.approx(6.3) and tens.unit == "/10"
    assert tens.canonical_value == pytest.approx(63) == hundreds.canonical_value
    assert tens.canonical_unit == hundreds.canonical_unit == "/100"
    # a fraction or a version stays no rating
    assert _quantities("Release 4.2/5 is out.") == []


def test_a_list_item_led_by_with_is_keyed_by_what_it_states() -> None:
    claims = _quantities(
        "The guidebook has 23 reviews on the site, with an average rating of 6.3/10."
    )
    rating = next(c for c in claims if c.unit == "/10")
    assert rating.attribute == "rate"
    assert rating.scope == {"metric": "mean"}


def test_how_often_after_a_name_is_a_count() -> None:
    (claim,) = _quantities("Bayern Munich has won the Bundesliga 28 times.")
    assert claim.value == 28 and claim.unit == "times"
    assert _quantities("We drove along Route 66 last summer.") == []


def test_a_rank_is_read_in_a_sentence_with_other_scripts_dashes() -> None:
    (claim,) = _quantities("The university was ranked 122nd in the world in the 2015–16 tables.")
    assert claim.value == 122


@pytest.mark.parametrize(
    ("text", "event", "value"),
    [
        ("The pilot episode aired on 2 February 2009.", "launched", "2009-02-02"),
        ("The poet was found dead on 14 November 1931.", "died", "1931-11-14"),
    ],
)
def test_more_event_verbs_date_their_event(text: str, event: str, value: str) -> None:
    (claim,) = [c for c in extract(text) if c.kind is ValueKind.DATE]
    assert claim.attribute == event and claim.value == value
