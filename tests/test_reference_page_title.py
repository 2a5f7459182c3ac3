"""Sentences cut from one reference page, its title given by the register: the page's title
says what each sentence is about (claims/reference/page_title.py, issue 29).

Every pair below is two sentences of one page, checked the way the store reads two files
of that page (``claims check --subject TITLE --profile reference`` = ``claims run`` with a
register giving both files that title and the reference profile).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, select
from sqlalchemy.orm import aliased
from typer.testing import CliRunner

from claimledger.cli import app
from claims.check import LEFT_SOURCE, RIGHT_SOURCE, check_texts
from claims.extraction import extract
from claims.settings import get_settings
from claims.tables import ClaimRow, EdgeRow
from tests.test_check_is_the_store import kind_of

# (kind, rule, left claim's key and quote, right claim's key and quote): the register's
# profile choices are part of the run's generation, so ids differ from the check's
Linked = tuple[str, str, tuple[str, str], tuple[str, str]]


def stored_links(engine: Engine) -> set[Linked]:
    left, right = aliased(ClaimRow), aliased(ClaimRow)
    with engine.connect() as conn:
        rows = conn.execute(
            select(
                EdgeRow.kind,
                EdgeRow.rule,
                left.source_id,
                left.claim_key,
                left.quote,
                right.claim_key,
                right.quote,
            )  # fmt: skip
            .join(left, left.id == EdgeRow.left_claim_id)
            .join(right, right.id == EdgeRow.right_claim_id)
            .where(EdgeRow.retired_at.is_(None), left.source_id != right.source_id)
        ).all()
    out: set[Linked] = set()
    for kind, rule, source, key_a, quote_a, key_b, quote_b in rows:
        a, b = (key_a, quote_a), (key_b, quote_b)
        out.add((kind, rule, a, b) if source == LEFT_SOURCE else (kind, rule, b, a))
    return out


FILM = "Harbour Lights (2011 film)"
PERSON = "Ada Okafor"
OUTBREAK = "2020 measles outbreak in Portugal"
KNOWN_PLACE = "2020 measles outbreak in Germany"


def relation(left: str, right: str, subject: str | None, profile: str = "reference") -> str:
    return check_texts(left, right, profile, subject).relation.value


# -- a noun of the page's kind ("the film") or a pronoun names the page's subject ----------


@pytest.mark.parametrize(
    "named,described",
    [
        (
            "Harbour Lights has a rating of 64% on Screen Digest.",
            "On Screen Digest the film has a rating of 71%, based on 40 reviews.",
        ),
        (
            "Harbour Lights has a budget of 12 million dollars.",
            "The film has a budget of 9 million dollars.",
        ),
        ("The film's running time is 104 minutes.", "Its running time is 96 minutes."),
    ],
)
def test_a_changed_figure_about_the_film_named_or_described_is_a_conflict(
    named: str, described: str
) -> None:
    assert relation(named, described, FILM) == "conflict"
    assert relation(described, named, FILM) == "conflict"


def test_a_noun_of_the_films_kind_before_its_name_qualifies_nothing() -> None:
    # "movie" is a noun of the kind "film" names: it restricts no claim of the film's page
    left = "The movie Harbour Lights has a budget of 12 million dollars."
    assert relation(left, "Its budget is 9 million dollars.", FILM) == "conflict"


def test_the_films_name_in_quote_marks_is_the_page_subject() -> None:
    left = "On Screen Digest , `` Harbour Lights '' has a rating of 64 % ."
    right = "On Screen Digest the film has a rating of 71 % ."
    assert relation(left, right, FILM) == "conflict"
    assert relation(left, right, None) != "conflict"


def test_without_the_page_title_the_described_film_is_no_conflict() -> None:
    named = "Harbour Lights has a rating of 64% on Screen Digest."
    described = "On Screen Digest the film has a rating of 71%, based on 40 reviews."
    assert relation(named, described, None) != "conflict"


def test_the_office_profile_does_not_read_a_page_title() -> None:
    named = "Harbour Lights has a rating of 64% on Screen Digest."
    described = "On Screen Digest the film has a rating of 71%, based on 40 reviews."
    assert relation(named, described, FILM, profile="office") != "conflict"


def test_equal_figures_about_the_described_film_are_no_conflict() -> None:
    named = "Harbour Lights has a rating of 71% on Screen Digest."
    described = "On Screen Digest the film has a rating of 71%, based on 40 reviews."
    assert relation(named, described, FILM) == "corroboration"


def test_the_site_a_rating_is_on_stays_a_qualifier_of_it() -> None:
    claims = extract(
        "On Screen Digest the film has a rating of 71%.", profile="reference",
        document_subject=FILM,
    )  # fmt: skip
    rating = next(c for c in claims if c.unit == "%")
    assert rating.claim_key == "harbour light (2011 film) rate"
    assert {"screen", "digest"} <= set(rating.scope_residual)
    assert "film" not in rating.scope_residual  # the noun of the page's kind qualifies nothing


def test_a_rating_on_another_site_is_no_conflict() -> None:
    assert (
        relation(
            "On Screen Digest the film has a rating of 71%.",
            "On Reel Tally the film has a rating of 64%.",
            FILM,
        )
        != "conflict"
    )


def test_a_person_named_by_surname_or_pronoun_is_the_page_subject() -> None:
    assert relation("Okafor was born in 1961.", "She was born in 1958.", PERSON) == "conflict"
    assert relation("Ada Okafor was born in 1961.", "Okafor was born in 1958.", PERSON) == (
        "conflict"
    )


def test_a_surname_on_another_persons_page_is_not_that_person() -> None:
    # the page of "Ada Okafor" does not make every "Moreau" her
    assert relation("Moreau was born in 1961.", "She was born in 1958.", PERSON) != "conflict"


# -- a topic page's place and topic words hold for each of its sentences ----------------------


@pytest.mark.parametrize(
    "stated,bare",
    [
        ("Portugal has more than 150 confirmed cases of measles.", "There are 88 confirmed cases."),
        ("In Portugal, fewer than 60 deaths were reported.", "There have been 71 deaths."),
        ("Germany has more than 150 confirmed cases of measles.", "There are 88 confirmed cases."),
    ],
)
def test_a_figure_stated_with_the_pages_place_and_topic_conflicts_with_a_bare_one(
    stated: str, bare: str
) -> None:
    page = KNOWN_PLACE if "Germany" in stated else OUTBREAK
    assert relation(stated, bare, page) == "conflict"
    assert relation(bare, stated, page) == "conflict"
    assert relation(stated, bare, None) != "conflict"  # the title is what tells


def test_a_sentence_naming_another_place_keeps_its_own_place() -> None:
    assert relation("Spain has 40 confirmed cases.", "There are 88 confirmed cases.", OUTBREAK) != (
        "conflict"
    )
    assert (
        relation("London has 40 confirmed cases.", "There are 88 confirmed cases.", KNOWN_PLACE)
        != "conflict"
    )


def test_a_page_title_changes_nothing_when_no_title_is_given() -> None:
    text = "There are 88 confirmed cases."
    plain = extract(text, profile="reference")
    assert all("measles" not in c.scope_residual for c in plain)


# -- one engine: the check with a subject is the store with a register title ------------------


@pytest.mark.parametrize(
    "left,right,title",
    [
        (
            "Harbour Lights has a rating of 64% on Screen Digest.",
            "On Screen Digest the film has a rating of 71%, based on 40 reviews.",
            FILM,
        ),
        ("Portugal has more than 150 confirmed cases.", "There are 88 confirmed cases.", OUTBREAK),
        # counterparts (one attribute, a modifier on one side only): the builder's judge
        ("The ridge rises to 2,100 m.", "Its summit elevation is 2,350 m.", "Kestrel Ridge"),
    ],
)
def test_check_with_a_subject_reports_what_claims_run_stores_with_a_register_title(
    cli_env: Path, tmp_path: Path, left: str, right: str, title: str
) -> None:
    folder = tmp_path / "page"
    folder.mkdir()
    (folder / f"{LEFT_SOURCE}.txt").write_bytes(left.encode("utf-8"))
    (folder / f"{RIGHT_SOURCE}.txt").write_bytes(right.encode("utf-8"))
    register = tmp_path / "register.yaml"
    register.write_text(
        "tiers: [reference]\ndefault_profile: reference\nsources:\n"
        + "".join(f"  {s}:\n    title: '{title}'\n" for s in (LEFT_SOURCE, RIGHT_SOURCE)),
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["run", str(folder), "--register", str(register)])
    assert result.exit_code == 0, result.output
    engine = create_engine(get_settings().resolved_database_url)
    try:
        store = stored_links(engine)
    finally:
        engine.dispose()
    checked = check_texts(left, right, "reference", title)
    assert checked.relation.value == "conflict"
    assert {
        (
            kind_of(p.relation.value),
            p.rule,
            (p.left.claim_key, p.left.quote),
            (p.right.claim_key, p.right.quote),
        )
        for p in checked.pairs
    } == store
