"""A time phrase fronted without a comma ("From next week the ... is ...") says when a
figure holds, not what it is about: the subject after it keeps its key, so the sentence meets
the same fact stated elsewhere."""

from __future__ import annotations

from claims.check import Relation, check_texts
from claims.extraction import extract


def _keys(text: str) -> set[str]:
    return {c.claim_key for c in extract(text, source_id="memo", source_version_id=None)}


def test_a_fronted_time_phrase_leaves_the_subject_its_key() -> None:
    for fronted, plain in (
        ("From next week the late checkout fee is 15 euros.", "The late checkout fee is 15 euros."),
        (
            "Starting in June the parking permit costs 40 pounds.",
            "The parking permit costs 40 pounds.",
        ),
    ):
        assert _keys(fronted + "\n") == _keys(plain + "\n") != {"unknown:money"}


def test_after_a_colon_lead_in_the_fronted_time_phrase_goes_too() -> None:
    text = "Quick update from ops: from Monday the nightly report window is 2 hours.\n"
    assert _keys(text) == {"nightly report window"}


def test_the_same_figure_in_other_units_corroborates_across_the_two_wordings() -> None:
    result = check_texts(
        "The nightly report window is 120 minutes.\n",
        "Quick update from ops: from next week the nightly report window is 2 hours, as before.\n",
    )
    assert result.relation is Relation.CORROBORATION, result.reason


def test_a_plain_prepositional_subject_keeps_its_words() -> None:
    # "From the start" has no time word: nothing is dropped
    assert _keys("From the start the notice period is 60 days.\n") != {"notice period"}
