"""The words and shapes the prose relation reader shares (``claims.reference.prose_relations``):
the vocabulary of ``data/prose_relations.yaml``, a sentence's bounds, a relation read, and the
limits of what is read as a name."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from claims.extraction.identity import phrase_tokens
from claims.reference.resources import read_yaml

CONFIDENCE = 0.65  # read from a phrase in passing, below an opening's labels (0.7)


MAX_NAME_TOKENS = 8


PAGE_TOKENS = 30  # the page's title and the start of its first sentence (no further)


OPENING_CHARS = 400  # where an opening states a person's sport


_PRONOUNS = frozenset({"he", "she", "it"})


_POSSESSIVE = frozenset({"'s", "\u2019s", "'"})


_RELATIVES = frozenset({"who", "whom", "whose", "which", "that", ";", "where", "when"})


_CLOSE = {"(": ")", "[": "]"}


_WORDS = re.compile(r"[\w'-]+")


@dataclass(frozen=True)
class _Words:
    family: dict[str, str]  # noun -> attribute
    family_lead: frozenset[str]
    copulas: frozenset[str]
    hedges: frozenset[str]
    spouse_verbs: frozenset[str]
    verb_adverbs: frozenset[str]
    name_joins: frozenset[str]
    name_connectors: frozenset[str]
    birth_verbs: frozenset[str]
    birth_prepositions: frozenset[str]
    skip_before_place: frozenset[str]
    skip_before_preposition: frozenset[str]
    natives: tuple[tuple[str, ...], ...]
    sport_verbs: frozenset[str]
    sport_modifiers: frozenset[str]
    sport_joins: tuple[tuple[str, ...], ...]
    teams: frozenset[str]
    team_window: int
    sports: tuple[tuple[str, ...], ...]  # longest first
    sport_words: frozenset[str]  # every word an opening uses for a sport or position
    makers: tuple[tuple[tuple[str, ...], str], ...]
    positions: tuple[tuple[str, ...], ...]  # longest first
    position_verbs: frozenset[str]
    format_verbs: frozenset[str]
    rank_verbs: tuple[tuple[str, ...], ...]  # longest first
    position_firsts: frozenset[str]  # read only after "a"/"an" ("A defender, he ...")
    sport_firsts: frozenset[str]  # first words of the team joins ("member of")
    ranks: tuple[tuple[str, ...], ...]  # longest first
    format_words: int
    descriptors_max: int
    nationalities: frozenset[str]
    titles: frozenset[str]
    suffixes: frozenset[str]
    triggers: frozenset[str]
    roles: dict[str, str]  # role noun -> attribute
    role_leads: frozenset[str]
    role_possessors: frozenset[str]
    located_verbs: frozenset[str]
    located_prepositions: frozenset[str]
    career_verbs: frozenset[str]
    career_words: int
    occupations: frozenset[str]
    team_phrases: tuple[tuple[str, ...], ...]
    team_not_after: frozenset[str]


def _phrases(entries: Any, where: str) -> tuple[tuple[str, ...], ...]:
    try:
        return tuple(tuple(str(w) for w in entry) for entry in entries)
    except TypeError as error:
        raise ValueError(
            f"prose_relations.yaml: {where}: each entry is a list of words ({error})"
        ) from error


@lru_cache(maxsize=1)
def _words() -> _Words:
    data = read_yaml("prose_relations.yaml")
    opening = read_yaml("opening.yaml")
    frames = read_yaml("question_frames.yaml")

    def words(entries: Any) -> frozenset[str]:
        return frozenset(str(w) for w in entries)

    family = {str(noun): str(attr) for attr, nouns in data["family"].items() for noun in nouns}
    birth, sport = data["birth"], data["sport"]
    makers = tuple(
        (phrase, str(attribute))
        for attribute, entries in data["makers"].items()
        if isinstance(entries, list)
        for phrase in _phrases(entries, f"makers.{attribute}")
    )
    sports = sorted((tuple(str(s).split()) for s in opening["sports"]), key=len, reverse=True)
    sport_words = {str(s) for s in opening["sports"]} | {
        str(w) for names in opening["sports"].values() for w in names
    }
    natives = _phrases(data["natives"], "natives")
    rank_verbs = sorted(_phrases(data["ranks"]["verbs"], "ranks.verbs"), key=len, reverse=True)
    ranks = sorted(
        (phrase_tokens(str(r)) for r in data["ranks"]["names"]),
        key=len,
        reverse=True,
    )
    positions = sorted(
        (phrase_tokens(str(p)) for p in data["positions"]),
        key=len,
        reverse=True,
    )
    joins = _phrases(sport["joins"], "sport.joins")
    triggers = (
        set(family)
        | words(data["spouse_verbs"])
        | words(birth["verbs"])
        | {"native"}
        | words(sport["verbs"])
        | {p[0] for p in joins}
        | {p[0] for p, _ in makers}
        | {p[0] for p in rank_verbs}
        | words(data["formats"]["verbs"])
        | {str(n) for nouns in data["roles"]["nouns"].values() for n in nouns}
        | words(data["located"]["verbs"])
        | words(data["career"]["verbs"])
        | {p[0] for p in _phrases(data["current_team"]["phrases"], "current_team.phrases")}
    )
    return _Words(
        family=family,
        family_lead=words(data["family_lead"]),
        copulas=words(data["copulas"]),
        hedges=words(data["hedges"]),
        spouse_verbs=words(data["spouse_verbs"]),
        verb_adverbs=words(data["verb_adverbs"]),
        name_joins=words(data["name_joins"]),
        name_connectors=words(data["name_connectors"]),
        birth_verbs=words(birth["verbs"]),
        birth_prepositions=words(birth["prepositions"]),
        skip_before_place=words(birth["skip_before_place"]),
        skip_before_preposition=words(birth["skip_before_preposition"]),
        natives=natives,
        sport_verbs=words(sport["verbs"]),
        sport_modifiers=words(sport["modifiers"]),
        sport_joins=joins,
        teams=words(sport["teams"]),
        team_window=int(sport["team_window"]),
        sports=tuple(sports),
        sport_words=frozenset(sport_words),
        makers=makers,
        positions=tuple(positions),
        position_verbs=words(data["position_verbs"]),
        format_verbs=words(data["formats"]["verbs"]),
        format_words=int(data["formats"]["max_words"]),
        rank_verbs=tuple(rank_verbs),
        position_firsts=frozenset(p[0] for p in positions),
        sport_firsts=frozenset(p[0] for p in joins),
        ranks=tuple(ranks),
        descriptors_max=int(data["makers"]["descriptors_max"]),
        nationalities=words(opening["nationalities"]),
        titles=words(frames["honorifics"]),
        suffixes=words(frames["name_suffixes"]),
        triggers=frozenset(triggers),
        roles={
            str(noun): str(attribute)
            for attribute, nouns in data["roles"]["nouns"].items()
            for noun in nouns
        },
        role_leads=words(data["roles"]["leads"]),
        role_possessors=words(data["roles"]["possessors"]),
        located_verbs=words(data["located"]["verbs"]),
        located_prepositions=words(data["located"]["prepositions"]),
        career_verbs=words(data["career"]["verbs"]),
        career_words=int(data["career"]["max_words"]),
        occupations=words(opening["occupations"]),
        team_phrases=tuple(
            sorted(
                _phrases(data["current_team"]["phrases"], "current_team.phrases"),
                key=len,
                reverse=True,
            )
        ),
        team_not_after=words(data["current_team"]["not_after"]),
    )


@dataclass(frozen=True, slots=True)
class _Sent:
    """A sentence's tokens (start..end) and characters."""

    start: int
    end: int
    start_char: int
    end_char: int


@dataclass(frozen=True)
class Relation:
    """One sentence's statement of a tie of its subject."""

    subject: str | None  # the subject's name as written; None for the page's subject
    attribute: str
    value: str
    start: int  # the value's characters
    end: int
    sentence: tuple[int, int]
