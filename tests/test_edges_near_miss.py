"""Near misses: which different claim keys are worth comparing at all."""

from __future__ import annotations

from claims.edges.near_miss import inflections, near_key_pairs, near_keys


def test_an_omitted_qualifier_is_a_near_miss() -> None:
    assert near_keys("limit", "output limit")
    assert near_keys("dividend|per share", "dividend|per ordinary share")


def test_different_subjects_under_one_head_noun_are_not() -> None:
    assert not near_keys("notice period", "probation period")
    assert not near_keys("output limit", "upload limit")


def test_inflected_words_are_a_near_miss_only_with_a_real_stem() -> None:
    assert near_keys("accept siz", "accept size")
    assert near_keys("sublet flat", "subletting flat")
    assert not inflections("at", "attic")  # stem too short
    assert not near_keys("rate limit", "rating limitless")  # two words differ


def test_pairs_from_the_index_match_the_pairwise_test() -> None:
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
    expected = {(min(a, b), max(a, b)) for a in keys for b in keys if a < b and near_keys(a, b)}
    assert near_key_pairs(keys) == expected
    assert ("notice period", "probation period") not in expected
    assert ("period", "retention period") in expected
