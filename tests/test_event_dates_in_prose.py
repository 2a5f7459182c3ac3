"""Event dates written with words between the event and its date (issue 13, session 13):
a place ("began performances at the Lyric Theatre, Hammersmith, London on 4 March 2019"),
a step in time ("opened eight months later in March 1931"), a run given as a range ("It
originally ran from 3 May 1980 to 2 June 1985"), and a section heading's "[edit]" glued to
the sentence under it ("Early life [edit] Smith was born ..."). Each shape found and a
near miss kept apart."""

from __future__ import annotations

from claims.extraction import extract
from claims.models import Claim, ValueKind


def _dates(text: str, attribute: str) -> list[tuple[str | None, str]]:
    claims: list[Claim] = extract(text, source_id="doc01")
    return [
        (c.entity, str(c.value))
        for c in claims
        if c.attribute == attribute and c.kind is ValueKind.DATE
    ]


def test_a_date_after_the_place_of_the_event_is_the_events_date() -> None:
    text = "The play began performances at the Lyric Theatre, Hammersmith, London on 4 March 2019."
    assert [v for _, v in _dates(text, "begin performance")] == ["2019-03-04"]
    text = "Mary Hale died at the Villa Rosa in Menton on 2 February 1911."
    assert _dates(text, "died") == [("mary hale", "1911-02-02")]


def test_a_date_after_other_words_than_a_place_is_not_the_events() -> None:
    # the date belongs to the city's sale of the hall, not to the choir's first concert
    text = "The choir began performances at the Grand Hall, a building the city sold in 1990."
    assert _dates(text, "begin performance") == []


def test_a_span_of_time_stepping_from_another_moment_is_no_value() -> None:
    text = "The library opened eight months later in March 1931."
    claims = extract(text, source_id="doc01")
    assert [(c.entity, str(c.value)) for c in claims if c.attribute == "opened"] == [
        ("library", "1931-03")
    ]
    assert not [c for c in claims if c.kind is ValueKind.QUANTITY]


def test_a_span_of_time_not_stepping_from_a_moment_stays_a_value() -> None:
    claims = extract("The library opened eight months after the fire.", source_id="doc01")
    assert [c.value for c in claims if c.kind is ValueKind.QUANTITY] == [8.0]
    assert not [c for c in claims if c.kind is ValueKind.DATE]


def test_a_run_given_as_a_range_is_dated_by_its_start() -> None:
    text = "It originally ran from 3 May 1980 to 2 June 1985 on BBC One."
    assert _dates(text, "launched") == [(None, "1980-05-03")]
    assert _dates("The show ran from 1990 to 1995.", "launched") == [("show", "1990")]


def test_a_body_that_existed_over_a_range_was_founded_at_its_start() -> None:
    # session 14: "existed from X until Y" states when a council or shire began
    assert _dates("The shire existed from 1879 to 2008.", "founded") == [("shire", "1879")]
    # no range, no founding: "it existed in 1900" only says it was there then
    assert _dates("The village existed in 1900.", "founded") == []
    # session 15: "from X until Y" is read as a start and an end, and the start dates it
    assert _dates("The club existed from 1861 until 2008.", "founded") == [("club", "1861")]
    assert _dates("The show ran from March 1981 until June 1992 on ITV.", "launched") == [
        ("show", "1981-03")
    ]


def test_an_event_joined_to_another_verb_phrase_keeps_the_first_ones_subject() -> None:
    # session 15: before, the subject was "city cover area" (every word before the event)
    text = (
        "The City covered an area of 1,234 square kilometres, and existed as a local "
        "government area from 1861 until 2008."
    )
    assert _dates(text, "founded") == [("city", "1861")]
    assert _dates("Smith moved to Leeds, and was elected mayor in 1921.", "appointed") == [
        ("smith", "1921")
    ]


def test_ran_from_a_place_is_no_run() -> None:
    assert _dates("The bus ran from Leeds to York in 1950.", "launched") == []


def test_an_adverb_before_the_event_leaves_a_pronoun_or_a_name() -> None:
    assert _dates("Night Owls originally ran from 1981 to 1992.", "launched") == [
        ("night owl", "1981")
    ]
    # a bare common noun would be every page's "station": the words stay as they were
    text = "The station formally opened to passengers on 27 April 2010."
    assert [e for e, _ in _dates(text, "opened")] != ["station"]


def test_a_section_headings_edit_link_ends_the_heading() -> None:
    text = "He now lives in Bath. Early life [edit] Smith was born on 2 May 1950 in Leeds."
    assert _dates(text, "born") == [("smith", "1950-05-02")]
    text = "He now lives in Bath. Early life [ edit ] Smith was born on 2 May 1950 in Leeds."
    assert _dates(text, "born") == [("smith", "1950-05-02")]


def test_brackets_with_other_words_end_no_sentence() -> None:
    text = "The editor [of the Gazette] Smith was born on 2 May 1950 in Leeds."
    assert [e for e, _ in _dates(text, "born")] != ["smith"]


def _founded(text: str) -> list[tuple[str | None, str]]:
    return _dates(text, "founded")


def test_a_thing_that_became_a_named_institution_dates_the_institution() -> None:
    text = "The mill was restored and became the Museum of Rural Life in 1974, and reopened later."
    assert _founded(text) == [("museum rural life", "1974")]
    text = "The old house was converted into the Hartley Folk Museum on 4 May 1990."
    assert _founded(text) == [("hartley folk museum", "1990-05-04")]
    assert _founded("In 1920 the academy became the Leeds School of Art in 1921.") == [
        ("leed school art", "1921")
    ]


def test_becoming_a_post_or_an_undated_institution_dates_nothing() -> None:
    # a post at an institution is no institution
    assert _founded("He became the Director of the British Museum in 1990.") == []
    # a date not right after the name is another act's
    text = "The mill became the Museum of Rural Life, which the county bought in 1974."
    assert _founded(text) == []
    # a person becoming something is no founding either
    assert _founded("She became a teacher at the Museum of Rural Life in 1974.") == []
