"""Numbers the extractor used to misread in real prose (issue 12 point 5, session 10).

Each test is a class of misread, written the way news, encyclopaedia and office text write
it: a range with one scale word, a count read as a year, a match result read as a range or
a negative number, page text glued without a space, days of a month written as a range,
section numbers, names that open a sentence, a citation's year, "m" as a million. Every
sentence is our own.
"""

from __future__ import annotations

import pytest

from claims.check import check_texts
from claims.edges.builder import build_edges
from claims.edges.facts import facts_from_claim
from claims.extraction import extract
from claims.extraction.mentions import MentionScanner
from claims.models import Claim, Relation


def _quantities(text: str) -> list[Claim]:
    return [c for c in extract(text) if c.kind.value == "quantity"]


def _spans(text: str) -> list[str]:
    return [
        text[c.value_span.start : c.value_span.end]
        for c in _quantities(text)
        if c.value_span is not None
    ]


# ------------------------------------------------------------ one scale word, two ends


@pytest.mark.parametrize(
    "text",
    [
        "The band has sold an estimated 24 to 32 million records worldwide.",
        "The band has sold between 24 and 32 million records worldwide.",
        "The band has sold 24-32 million records worldwide.",
    ],
)
def test_a_scale_word_after_a_range_scales_both_ends(text: str) -> None:
    (claim,) = _quantities(text)
    assert (claim.canonical_low, claim.canonical_high) == (24_000_000, 32_000_000)


def test_a_scale_word_after_a_range_in_a_currency_scales_both_ends() -> None:
    (claim,) = _quantities("The buyout is valued at $5 to $10 billion.")
    assert (claim.canonical_low, claim.canonical_high, claim.canonical_unit) == (5e9, 1e10, "USD")


def test_a_lower_end_larger_than_the_upper_figure_keeps_its_own_size() -> None:
    # "500 to 2 million": 500 is no smaller end of "2", so it is not scaled
    (claim,) = _quantities("Estimates of the crowd run from 500 to 2 million visitors.")
    assert (claim.canonical_low, claim.canonical_high) == (500, 2_000_000)


def test_a_figure_revised_into_a_range_with_one_scale_word_is_one_slot() -> None:
    result = check_texts(
        "The band has sold an estimated 18 million records worldwide.",
        "The band has sold an estimated 24 to 32 million records worldwide.",
    )
    assert result.relation in (Relation.CONFLICT, Relation.AMBIGUOUS)


# ------------------------------------------------------------ a count that looks like a year


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("By Friday the confirmed cases had reached 1888, and 217 patients had recovered.", 1888),
        ("Membership of the choir rose to 2017.", 2017),
        ("Last season the ground drew a crowd of 1950.", 1950),
        ("Applications totalled 1920, a record for the programme.", 1920),
    ],
)
def test_a_year_like_number_after_a_verb_of_amount_is_a_count(text: str, value: int) -> None:
    claims = _quantities(text)
    assert value in [c.value for c in claims]
    assert all(str(value) not in (c.time.text or "") for c in extract(text))


@pytest.mark.parametrize(
    "text",
    [
        "The rowing club was founded in 1888 and now has 217 members.",
        "The bridge was finished in 1931, two years late.",
    ],
)
def test_a_year_after_a_time_word_stays_a_year(text: str) -> None:
    assert all(c.value not in (1888.0, 1931.0) for c in _quantities(text))


def test_two_counts_revised_in_place_are_compared_not_dated() -> None:
    result = check_texts(
        "By Friday the confirmed cases had reached 1888, and recoveries reached 217.",
        "By Friday the confirmed cases had reached 1988, and recoveries reached 217.",
    )
    assert result.relation is Relation.CONFLICT


# ------------------------------------------------------------ match results


@pytest.mark.parametrize(
    "text",
    [
        "The visitors suffered a 0–3 home defeat in the rain.",
        "The hosts won the final 2-1 after extra time.",
        "Both sides settled for a 1-1 draw at the weekend.",
        "The motion passed 52-48 on the second reading.",
        "The team closed the season with a 10–6 record.",
    ],
)
def test_a_match_or_vote_result_is_no_value(text: str) -> None:
    assert _quantities(text) == []


def test_a_dash_between_two_amounts_with_a_unit_is_still_a_range() -> None:
    (claim,) = _quantities("Adults take 2-3 tablets after a game, with water.")
    assert (claim.low, claim.high) == (2, 3)
    (claim,) = _quantities("The dose is 5–10 mg before the match.")
    assert (claim.low, claim.high, claim.unit) == (5, 10, "mg")


# ------------------------------------------------------------ text glued without a space


def test_a_year_glued_to_the_next_sentence_is_still_a_year() -> None:
    text = "The shop opened in 2017On 5 May it raised $40 million."
    found = MentionScanner().scan(text)
    assert [text[t.start : t.end] for t in found.times][:1] == ["2017"]
    assert found.labels == []
    (claim,) = _quantities(text)
    assert claim.value == 40_000_000


def test_a_figure_glued_to_the_next_sentence_keeps_no_unit_from_it() -> None:
    claims = _quantities("The final attendance was 72,251The hosts kept 5 clean sheets.")
    assert [c.value for c in claims][:1] == [72251]
    assert claims[0].unit is None


def test_a_footnote_number_glued_between_sentences_is_no_value() -> None:
    text = "The single was a hit.4In 2015 it sold 3 million copies."
    assert _spans(text) == ["3 million copies"]


def test_names_and_units_written_flush_to_a_digit_stay_what_they_were() -> None:
    assert _spans("The router streams at 100Mb per second.")[0].startswith("100Mb")
    assert _spans("The rapper 2Pac sold 75 million records.") == ["75 million records"]


# ------------------------------------------------------------ days of a month


@pytest.mark.parametrize(
    "text",
    [
        "The fair runs from 3 to 7 May and sold 12,000 tickets.",
        "The fair runs 3–7 May and sold 12,000 tickets.",
        "The fair runs May 3-7 and sold 12,000 tickets.",
        "The fair runs between 10 and 14 June and sold 12,000 tickets.",
    ],
)
def test_a_range_of_days_of_a_month_is_a_time_not_a_value(text: str) -> None:
    (claim,) = _quantities(text)
    assert claim.value == 12_000
    assert claim.time.text is not None and claim.time.text[-1].isalnum()


def test_a_range_of_days_before_a_dated_day_is_one_dated_range() -> None:
    text = "The final rounds are played on 7 and 8 May 2019, and 14 to 20 May 2019."
    times = MentionScanner().scan(text).times
    assert [(t.first.isoformat(), t.last.isoformat()) for t in times if t.first and t.last] == [
        ("2019-05-07", "2019-05-08"),
        ("2019-05-14", "2019-05-20"),
    ]


def test_ordinal_days_of_a_month_and_a_clock_time_are_no_values() -> None:
    text = "The second legs are on 7th and 8th May at 8 pm, and 12,000 fans came."
    assert _spans(text) == ["12,000 fans"]
    assert _spans("Doors open at 7.30pm and the hall seats 900 people.") == ["900 people"]


def test_a_frequency_before_am_is_no_clock_time() -> None:
    text = "WXYZ (1450 AM) is a radio station that plays jazz to 30,000 listeners."
    assert [text[t.start : t.end] for t in MentionScanner().scan(text).times] == []


def test_a_clock_time_revised_with_its_count_leaves_the_counts_comparable() -> None:
    result = check_texts(
        "As of 4 P.M. EST, there have been 325 confirmed cases in the state.",
        "As of 3 P.M. EST, there have been 421 confirmed cases in the state.",
    )
    assert result.relation is Relation.CONFLICT


def test_a_season_written_with_two_years_covers_both() -> None:
    text = "Over the 2018–19 season the club sold 40,000 season tickets."
    (season,) = [t for t in MentionScanner().scan(text).times if t.first]
    assert (season.first.year, season.last.year) == (2018, 2019)
    assert text[season.start : season.end] == "2018–19"


# ------------------------------------------------------------ section numbers, headings


def test_a_numbered_heading_and_a_section_number_are_no_values() -> None:
    assert _spans("## 2. Annual leave\nStaff receive 25 days of annual leave.") == ["25 days"]
    assert _spans("2.1 Leave: staff receive 25 days of annual leave.") == ["25 days"]
    assert _spans("4.10 Expenses\nMeals are repaid up to £30 a day.") == ["up to £30"]


# ------------------------------------------------------------ names that open a sentence


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("Apollo 11 carried 3 astronauts to the Moon.", "3 astronauts"),
        ("Area 51 covers 2,900 acres of desert.", "2,900 acres"),
        ("Formula 1 teams may spend up to $135 million a year.", "up to $135 million"),
        ("Channel 4 reached 2 million viewers on Sunday.", "2 million viewers"),
        ("Windows 11 requires 4 GB of memory.", "4 GB"),
    ],
)
def test_a_name_with_a_number_that_opens_a_sentence_is_no_value(text: str, span: str) -> None:
    assert _spans(text) == [span]


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("Allow 30 working days for delivery.", "30 working days"),
        ("Expect 40 guests at the dinner.", "40 guests"),
    ],
)
def test_an_opening_verb_before_a_count_keeps_the_count(text: str, span: str) -> None:
    assert _spans(text) == [span]


# ------------------------------------------------------------ citations


def test_the_year_of_a_citation_is_not_the_claims_time() -> None:
    for text in (
        "Remote work raised output by 12% (Okafor, 2019).",
        "Remote work raised output by 12% (Okafor et al., 2019; Lind 2021).",
    ):
        (claim,) = _quantities(text)
        assert claim.value == 12
        assert claim.time.text is None


# ------------------------------------------------------------ "m" as a million


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("The bank now has 1.2m customers.", 1_200_000),
        ("Some 3m people watched the final.", 3_000_000),
    ],
)
def test_m_before_a_plural_noun_is_a_million(text: str, value: int) -> None:
    (claim,) = _quantities(text)
    assert claim.canonical_value == pytest.approx(value)


def test_m_before_anything_else_stays_metres() -> None:
    claims = _quantities("The wall is 5m high and the pool is 25m long.")
    assert [(c.canonical_value, c.canonical_unit) for c in claims] == [(5, "m"), (25, "m")]


# ------------------------------------------------------------ numbers listed in one sentence


@pytest.mark.parametrize(
    "text",
    [
        "Tickets cost £25 for adults, £15 for students and £10 for children.",
        "The index fell 120 points to 7,450 on Friday.",
        "Unemployment was 4.1% in March, 4.3% in April and 4.0% in May.",
    ],
)
def test_numbers_listed_in_one_sentence_never_conflict(text: str) -> None:
    claims = extract(text, source_id="notes", source_version_id="notes-v1")
    assert len(claims) >= 2
    build = build_edges([facts_from_claim(c) for c in claims], generation="g1")
    assert all(str(edge.kind) != "conflicts" for edge in build.edges)


# ------------------------------------------------------------ news amounts


@pytest.mark.parametrize(
    ("text", "canonical", "unit"),
    [
        ("The engine produces 600 Nm of torque.", 600, "Nm"),
        ("The new model makes 320Nm at 2,000 rpm.", 320, "Nm"),
        ("The pickup delivers 295 lb-ft of torque.", 295 * 1.3558179483314006, "Nm"),
        ("The pension gap has grown to $1.5trn.", 1.5e12, "USD"),
        ("Two and a half million viewers watched the final.", 2.5e6, "viewer"),
        ("One and a half million people live in the region.", 1.5e6, "people"),
    ],
)
def test_news_amounts_read_with_their_unit(text: str, canonical: float, unit: str) -> None:
    (claim,) = [c for c in _quantities(text) if c.canonical_unit == unit]
    assert claim.canonical_value == pytest.approx(canonical)


def test_a_nanometre_is_still_written_nm() -> None:
    (claim,) = _quantities("The 5 nm chips reach shops in May.")
    assert claim.canonical_unit == "m"


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("Several hundred people joined the march.", 300, 900),
        ("A few thousand fans waited outside the stadium.", 2000, 9000),
        ("A couple of hundred staff lost their jobs.", 200, 300),
    ],
)
def test_a_few_or_several_of_a_scale_word_is_an_approximate_range(
    text: str, low: float, high: float
) -> None:
    (claim,) = _quantities(text)
    assert (claim.canonical_low, claim.canonical_high) == (low, high)
    assert claim.approximate
