"""Which different claim keys are worth comparing at all: the index over attribute words."""

from __future__ import annotations

from itertools import combinations

from claims.edges.similarity import DIFFERENT, inflections, match_attributes, similar_key_pairs


def test_an_omitted_qualifier_is_worth_a_look() -> None:
    assert match_attributes("limit", "output limit").band != DIFFERENT
    assert match_attributes("dividend|per share", "dividend|per ordinary share").band != DIFFERENT


def test_different_subjects_under_one_head_noun_are_not() -> None:
    assert match_attributes("notice period", "probation period").band == DIFFERENT
    assert match_attributes("output limit", "upload limit").band == DIFFERENT


def test_inflected_words_count_as_one_only_with_a_real_stem() -> None:
    assert match_attributes("accept siz", "accept size").score == 1.0
    assert match_attributes("sublet flat", "subletting flat").score == 1.0
    assert not inflections("at", "attic")  # stem too short
    assert match_attributes("rate limit", "rating limitless").band == DIFFERENT


def test_pairs_from_the_index_match_the_pairwise_score() -> None:
    keys = [
        "period",
        "notice period",
        "notice period extension",
        "probation period",
        "probation periods",
        "retention period",
        "accept siz",
        "accept size",
    ]
    expected = {
        (a, b) for a, b in combinations(sorted(keys), 2) if match_attributes(a, b).band != DIFFERENT
    }
    found = {(a, b) for a, b, _ in similar_key_pairs({k: ("", k) for k in keys})}
    assert found == expected
    assert ("notice period", "probation period") not in found
    assert ("probation period", "probation periods") in found
