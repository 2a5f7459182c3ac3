"""A descriptor or a title before a name is not part of the entity: "the American folk band
Larkspur" is Larkspur, "review aggregator Rotten Tomatoes" is Rotten Tomatoes, "Mayor Ellen
Okafor" is Ellen Okafor (claims/extraction/keys.py, ``named_after_descriptor``). Two
wordings of one fact that differ only by such a descriptor key one slot; names with words
of their own before them stay whole."""

from __future__ import annotations

import pytest

from claims.check import check_texts
from claims.extraction import extract
from claims.extraction.keys import named_after_descriptor
from claims.models import Relation


def entities(text: str) -> set[str | None]:
    return {c.entity for c in extract(text, source_id="doc", source_version_id="doc@1")}


# ------------------------------------------------------------------ the rule on words


@pytest.mark.parametrize(
    ("written", "cut"),
    [
        (["review", "aggregator", "Rotten", "Tomatoes"], 2),
        (["American", "folk", "band", "Larkspur"], 3),
        (["Aggregate", "site", "Metacritic"], 2),
        (["Governor", "Hutchinson"], 1),
        (["Ensign", "Richard", "Marcinko"], 1),
        (["Congregational", "preacher", "Jonathan", "Edwards"], 2),
        (["second-team", "Dana", "Whitfield"], 1),
        (["city", "of", "Lakeview"], 2),
    ],
)
def test_a_descriptor_before_a_name_is_cut(written: list[str], cut: int) -> None:
    assert named_after_descriptor(written) == cut


@pytest.mark.parametrize(
    "written",
    [
        ["Jason", "Richardson"],
        ["Ludwig", "van", "Beethoven"],
        ["Catherine", "of", "Aragon"],
        ["Acme", "board"],
        ["P-9", "router"],
        ["General", "Motors"],
        ["Brightwater", "water", "utility"],
        ["Rotten", "Tomatoes"],
        # a page heading glued before the first sentence repeats the name: no descriptor
        ["Harlow", "Courthouse", "Nebraska", "present", "Harlow", "Courthouse"],
    ],
)
def test_a_name_with_nothing_describing_it_stays_whole(written: list[str]) -> None:
    assert named_after_descriptor(written) == 0


# ------------------------------------------------------------------ through extraction


def test_a_band_described_before_its_name_is_the_band() -> None:
    assert entities("The American folk band Larkspur sold 40,000 tickets for the tour.") == {
        "larkspur"
    }


def test_a_review_site_described_before_its_name_is_the_site() -> None:
    described = entities("The review site Metacritic gives the album a score of 71 out of 100.")
    plain = entities("Metacritic gives the album a score of 64 out of 100.")
    assert described == plain == {"metacritic"}


def test_a_title_before_a_name_is_not_the_person() -> None:
    assert entities("Mayor Ellen Okafor opened 12 new libraries in 2019.") == entities(
        "Ellen Okafor opened 15 new libraries in 2019."
    )


def test_words_of_the_thing_before_a_common_noun_stay() -> None:
    assert entities("The Acme board declared a dividend of 5 cents.") == {"acme board"}


def test_a_name_with_a_joining_word_stays_whole() -> None:
    assert entities("Ludwig van Beethoven wrote 9 symphonies.") == {"ludwig van beethoven"}


# ------------------------------------------------------------------ two wordings, one slot


def test_a_rewrite_that_drops_the_descriptor_is_one_slot() -> None:
    result = check_texts(
        "The American folk band Larkspur sold 40,000 tickets for the tour.",
        "Larkspur sold 52,000 tickets for its spring tour, the promoter said.",
    )
    assert result.relation in (Relation.CONFLICT, Relation.AMBIGUOUS)


def test_a_descriptor_does_not_join_two_different_names() -> None:
    result = check_texts(
        "The American folk band Larkspur sold 40,000 tickets for the tour.",
        "The American folk band Thornfield sold 52,000 tickets for the tour.",
    )
    assert result.relation not in (Relation.CONFLICT, Relation.AMBIGUOUS)
