"""The one team a player is with, read from prose (claims/extraction/prose_relations.py,
``current_team``): "who currently plays for the Atlanta Hawks", "He last played for Leeds
United" are keyed ``team``, so a revision that moves the player to another team is one
slot with another value. A career's "played for" and a national side are not his team."""

from __future__ import annotations

from claims.check import check_texts
from claims.extraction import extract
from claims.models import Relation


def teams(text: str) -> dict[str | None, str]:
    return {
        c.entity: str(c.value)
        for c in extract(text, source_id="doc", source_version_id="doc@1")
        if c.attribute == "team"
    }


OPENING = "Dario Quinn (born March 3, 1987) is an American professional basketball player who "


def test_the_team_he_plays_for_now_is_read() -> None:
    text = OPENING + "currently plays for the Portland Trail Blazers of the league."
    assert teams(text) == {"dario quinn": "Portland Trail Blazers"}


def test_the_team_he_last_played_for_is_read_with_a_name_that_holds_digits() -> None:
    text = OPENING + "last played for the Philadelphia 76ers of the league."
    assert teams(text) == {"dario quinn": "Philadelphia 76ers"}


def test_a_pronoun_after_the_opening_is_the_player() -> None:
    text = "Marek Novak is a Czech footballer. He plays for Sparta Prague."
    assert teams(text) == {"marek novak": "Sparta Prague"}


def test_a_revision_that_moves_the_player_is_a_conflict() -> None:
    result = check_texts(
        OPENING + "last played for the Philadelphia 76ers of the league.",
        OPENING + "currently plays for the Atlanta Hawks of the league.",
    )
    assert result.relation is Relation.CONFLICT


def test_the_same_team_in_other_words_is_no_conflict() -> None:
    result = check_texts(
        OPENING + "currently plays for the Atlanta Hawks of the league.",
        "Dario Quinn is a basketball player. He plays for the Atlanta Hawks.",
    )
    assert result.relation is not Relation.CONFLICT


# ------------------------------------------------------------------ near misses


def test_a_career_team_is_not_his_team() -> None:
    assert teams("Marek Novak is a Czech footballer. He played for Sparta Prague.") == {}


def test_a_national_side_is_not_his_club() -> None:
    text = "Marek Novak is a Czech footballer. He plays for the Czech national team."
    assert teams(text) == {}


def test_a_relative_clause_on_another_noun_is_not_the_subject() -> None:
    text = "Marek Novak, whose brother plays for Sparta Prague, is a Czech footballer."
    assert "marek novak" not in teams(text)
