"""Office rules that hold whatever the number of disagreements (issue 29, point 4).

Documents of our own writing, through the real pipeline: ``claims run`` on a folder of two
files (the multi-figure disagreements), and ``claims check``, which is the store's engine on
two one-document corpora (tests/test_check_is_the_store.py), for the families of pairs.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import aliased
from typer.testing import CliRunner

from claimledger.cli import app
from claims.check import check_texts
from claims.extraction import extract
from claims.models import Relation
from claims.settings import get_settings
from claims.tables import ClaimRow, EdgeRow

# (label, sentence, value in the first document, value in the second, unit)
FIGURES = [
    ("Notice period", "The notice period is {} days.", 30, 60, "days"),
    ("Probation period", "The probation period lasts {} months.", 6, 3, "months"),
    ("Annual leave", "Each employee receives {} days of annual leave.", 25, 22, "days"),
    ("Meal allowance", "The meal allowance is {} EUR per day.", 12, 15, "EUR per day"),
    ("Travel budget", "The travel budget is capped at {} EUR per trip.", 800, 950, "EUR"),
    ("Training budget", "The training budget is {} EUR per year.", 1500, 1200, "EUR per year"),
]


def handbook(differing: int, second: bool, form: str) -> str:
    """A handbook stating the six figures; the second one differs on the first ``differing``."""
    lines = []
    for index, (label, sentence, first, other, unit) in enumerate(FIGURES):
        value = other if second and index < differing else first
        if form == "label lines":
            lines.append(f"{label}: {value} {unit}")
        elif form == "bullet list":
            lines.append("- " + sentence.format(value))
        else:
            lines.append(sentence.format(value))
    body = " ".join(lines) if form == "prose" else "\n".join(lines)
    return f"# Staff Handbook\n\nThese are the terms for every employee.\n\n{body}\n"


def run_conflicts(folder: Path) -> list[tuple[str, str]]:
    """``claims run`` on ``folder``; the (left quote, right quote) of each live conflict."""
    result = CliRunner().invoke(app, ["run", str(folder)])
    assert result.exit_code == 0, result.output
    engine = create_engine(get_settings().resolved_database_url)
    left, right = aliased(ClaimRow), aliased(ClaimRow)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                select(left.quote, right.quote)
                .select_from(EdgeRow)
                .join(left, left.id == EdgeRow.left_claim_id)
                .join(right, right.id == EdgeRow.right_claim_id)
                .where(EdgeRow.retired_at.is_(None), EdgeRow.kind == "conflicts")
            ).all()
    finally:
        engine.dispose()
    return [(a, b) for a, b in rows]


@pytest.mark.parametrize("form", ["prose", "bullet list", "label lines"])
@pytest.mark.parametrize("differing", [1, 2, 3, 4, 5, 6])
def test_two_handbooks_disagreeing_on_k_of_six_figures_give_k_conflicts(
    cli_env: Path, tmp_path: Path, differing: int, form: str
) -> None:
    folder = tmp_path / "handbooks"
    folder.mkdir()
    (folder / "handbook-a.md").write_text(handbook(differing, False, form), encoding="utf-8")
    (folder / "handbook-b.md").write_text(handbook(differing, True, form), encoding="utf-8")
    conflicts = run_conflicts(folder)
    assert len(conflicts) == differing, conflicts
    # each conflict is one changed figure, stated on both sides
    for label, sentence, first, other, unit in FIGURES[:differing]:
        if form == "label lines":
            stated = {f"{label}: {first} {unit}", f"{label}: {other} {unit}"}
        else:
            stated = {sentence.format(first), sentence.format(other)}
        assert any({a.lstrip("- "), b.lstrip("- ")} == stated for a, b in conflicts), (
            label,
            conflicts,
        )


def test_the_namesake_judge_is_not_applied_to_office_documents() -> None:
    # five of six figures differ: a reference-page judge would call the pages namesakes
    result = check_texts(handbook(5, False, "prose"), handbook(5, True, "prose"))
    assert sum(p.relation is Relation.CONFLICT for p in result.pairs) == 5
    assert all(p.rule != "namesakes" for p in result.pairs)


# -- an edition or a date in a title ------------------------------------------------------


@pytest.mark.parametrize("edition", ["({year})", "({year} edition)", "(revised {year})"])
def test_a_dated_title_running_into_the_first_sentence_makes_no_second_entity(
    edition: str,
) -> None:
    def policy(year: int, allowance: int) -> str:
        title = "Expense Policy " + edition.format(year=year, rev=year - 2020)
        return (
            f"{title} The Expense Policy is owned by the finance team. "
            f"The daily meal allowance is {allowance} EUR."
        )

    for profile, entity in (("office", None), ("reference", "expense policy")):
        # office: the claims name no entity on either side (no opening reader places the
        # title); reference: the opening reader names the title without its edition
        result = check_texts(policy(2023, 40), policy(2024, 45), profile)
        conflicts = [p for p in result.pairs if p.relation is Relation.CONFLICT]
        assert len(conflicts) == 1, result.reason
        assert conflicts[0].left.entity == conflicts[0].right.entity == entity


def test_a_bracket_that_tells_two_things_apart_still_does() -> None:
    text = "Harbour Mill (1904 building) Harbour Mill is a flour mill in Leith."
    claims = extract(text, profile="reference")  # an opening names the page's subject
    assert {c.entity for c in claims} == {"harbour mill (1904 building)"}


@pytest.mark.parametrize("span", ["1861\u20131930", "1861 \u2013 1930", "1861-1930"])
def test_a_span_of_two_years_in_a_title_tells_two_people_apart(span: str) -> None:
    # a life (or a term) is no edition: two pages of one name are two people
    text = f"Edwin Larsen Holm ({span}) Edwin Larsen Holm was a Danish harbour engineer."
    claims = extract(text, profile="reference")
    (entity,) = {c.entity for c in claims}
    assert entity.startswith("edwin larsen holm (1861") and entity.endswith("1930)"), entity


# -- person names are never lemmatised ----------------------------------------------------

# given names the lookup table or the suffix rules would fold into other words
GIVEN = ["Maria", "James", "Thomas", "Charles", "Agnes", "Lucas", "Silas", "Nicholas"]
SURNAMES = ["Costa", "Hughes", "Williams", "Matthews", "Reyes", "Banks"]


@pytest.mark.parametrize(("given", "surname"), list(zip(GIVEN, SURNAMES * 2, strict=False)))
def test_a_person_name_keys_as_written(given: str, surname: str) -> None:
    text = f"{given} {surname} leads a team of 12 engineers in the Leeds office."
    keys = [c.claim_key for c in extract(text)]
    assert keys and all(f"{given} {surname}".lower() in k for k in keys), keys


def test_a_person_name_keys_alike_in_a_question_and_a_document() -> None:
    from claims.extraction import parse_question

    stated = {c.entity for c in extract("James Hughes joined the company in 2015.")}
    asked = parse_question("When did James Hughes join the company?")
    assert "james hughes" in (asked.entity or asked.claim_key)
    assert any(e and "james hughes" in e for e in stated), stated


def test_a_person_name_with_initials_keys_its_surname_as_written() -> None:
    from claims.extraction import parse_question

    # the initials stand between given name and surname: the surname is still a name
    assert parse_question("What is the job of Lucas H. Banks?").entity == "lucas h banks"
    assert parse_question("Where was Agnes J. K. Hughes born?").entity == "agnes j k hughes"
    stated = {c.entity for c in extract("Thomas R. Matthews joined the firm in 2011.")}
    assert "thomas r. matthews" in stated, stated  # the entity keeps its full stop


def test_words_that_are_no_names_still_fold() -> None:
    (claim,) = [c for c in extract("The policies cover 40 sites.") if c.value == 40]
    assert claim.claim_key == "policy"


# -- job titles are not ranks -------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Alice Moore was promoted to general manager in 2021.",
        "Omar Haddad was promoted to major accounts director.",
        "Lena Park was promoted to general counsel last year.",
    ],
)
def test_a_job_title_opening_with_a_rank_word_is_no_rank(text: str) -> None:
    assert not [c for c in extract(text) if c.attribute == "rank"]


def test_a_rank_reached_is_still_read() -> None:
    text = "Karl Weber was promoted to colonel in 1939."
    ranks = [c.value for c in extract(text, profile="reference")]  # ranks: reference pages
    assert "colonel" in ranks


# -- a near copy with one figure changed is a conflict on that figure, never a clone --------

DOCUMENTS = [
    "# Kestrel K2 data sheet\n\nThe Kestrel K2 weighs 1.2 kg. Its battery lasts 10 hours. "
    "The Kestrel K2 costs 349 EUR. It ships with a warranty of 24 months.",
    "# Harbor Lane depot\n\nThe Harbor Lane depot stores 340 pallets. The depot employs 25 "
    "drivers. The depot opened in 2009.",
    "# Board minutes\n\nThe board approved a dividend of 4 cents per share. The buyback totals "
    "2 million EUR. The board meets 6 times a year.",
]


def near_copies() -> list[tuple[str, str, str, str]]:
    """(document, copy, old figure, new figure) for every figure of every document."""
    out = []
    for document in DOCUMENTS:
        body_at = document.index("\n\n")
        for word in document[body_at:].split():
            figure = word.rstrip(".")
            if not figure.replace(".", "").isdigit():
                continue
            new = str(int(float(figure) * 10 + 3)) if "." not in figure else f"{figure}5"
            if figure.isdigit() and len(figure) == 4:
                new = str(int(figure) + 2)  # a year moves to another year
            at = document.index(figure, body_at)
            out.append((document, document[:at] + new + document[at + len(figure) :], figure, new))
    return out


@pytest.mark.parametrize(("document", "copy", "old", "new"), near_copies())
def test_a_near_copy_with_one_figure_changed_conflicts_on_that_figure(
    document: str, copy: str, old: str, new: str
) -> None:
    result = check_texts(document, copy)
    changed = [p for p in result.pairs if new in p.right.quote and old in p.left.quote]
    assert changed, (old, new, result.reason)
    assert all(p.relation is Relation.CONFLICT for p in changed), [p.reason for p in changed]
    assert not any(p.rule == "clone" for p in changed)


# -- sentences that share only a value kind are never a conflict ---------------------------

THINGS = ["The pump", "The crate", "The trailer", "The printer", "The anvil", "The suitcase"]
MEASURED = [
    "{t} weighs {n} kg.",
    "{t} holds {n} kg of flour.",
    "{t} can carry {n} kg.",
    "{t} is rated for loads of {n} kg.",
    "{t} was shipped with {n} kg of spare parts.",
    "{t} is {n} m long.",
    "{t} stands {n} m from the gate.",
    "{t} has a cable of {n} m.",
]


def one_unit_pairs(count: int) -> list[tuple[str, str]]:
    """Two sentences measuring different things with one unit (generated, seeded)."""
    rng = random.Random(29)
    pairs = []
    by_unit = {
        unit: [f for f in MEASURED if f.endswith(unit + ".") or f" {unit} " in f]
        for unit in ("kg", "m")
    }
    while len(pairs) < count:
        forms = by_unit[rng.choice(["kg", "m"])]
        one, other = rng.sample(forms, 2)
        left = one.format(t=rng.choice(THINGS), n=rng.choice([4, 9, 14, 20]))
        right = other.format(t=rng.choice(THINGS), n=rng.choice([4, 9, 14, 20]))
        pairs.append((left, right))
    return pairs


# the reference profile's judges (counterparts, namesake pages) must not make them conflicts
# either: the office default and the reference profile are both held to it
PROFILES = [None, "reference"]


@pytest.mark.parametrize("profile", PROFILES)
def test_different_measured_things_with_one_unit_stay_below_one_percent_conflicts(
    profile: str | None,
) -> None:
    pairs = one_unit_pairs(200)
    conflicts = [p for p in pairs if check_texts(*p, profile).relation is Relation.CONFLICT]
    assert len(conflicts) / len(pairs) < 0.01, conflicts[:5]


NAMES = ["Tom", "Ana", "Priya", "Lukas", "Mei", "Omar"]
ITEMS = ["marbles", "apples", "stickers", "coins", "pencils"]


def story_pairs(count: int) -> list[tuple[str, str]]:
    """Two sentences of one arithmetic story ("had 9, gave 7, has 2"), generated, seeded."""
    rng = random.Random(31)
    pairs = []
    while len(pairs) < count:
        a, b = rng.sample(NAMES, 2)
        item = rng.choice(ITEMS)
        had = rng.randint(5, 20)
        gave = rng.randint(1, had - 1)
        story = [
            f"{a} had {had} {item}.",
            f"{a} gave {gave} {item} to {b}.",
            f"{a} has {had - gave} {item} now.",
        ]
        pairs += list(itertools.combinations(story, 2))
    return pairs[:count]


@pytest.mark.parametrize("profile", PROFILES)
def test_sentences_of_one_arithmetic_story_stay_below_one_percent_conflicts(
    profile: str | None,
) -> None:
    pairs = story_pairs(150)
    conflicts = [p for p in pairs if check_texts(*p, profile).relation is Relation.CONFLICT]
    assert len(conflicts) / len(pairs) < 0.01, (len(conflicts), conflicts[:5])


def test_a_near_copy_that_changes_a_bound_is_never_an_agreement() -> None:
    # both hold by logic, but one sentence copied with its figure changed states another one
    result = check_texts(
        "# Retail update\n\nThe chain operates more than 40 stores in Portugal.",
        "# Retail update\n\nThe chain operates more than 55 stores in Portugal.",
    )
    (pair,) = result.pairs
    assert (pair.relation, pair.rule) == (Relation.AMBIGUOUS, "revision"), pair.reason
    # the same two bounds worded apart are two sources describing: both hold
    apart = check_texts(
        "The chain operates more than 40 stores in Portugal.",
        "In Portugal the chain now runs more than 55 stores, most of them in Lisbon.",
    )
    assert all(p.relation is not Relation.CONFLICT for p in apart.pairs)


def test_two_past_states_or_two_tenses_without_now_still_conflict() -> None:
    # the story rules are narrow: a move is keyed by its verb, and only a stated "now"
    # against a past state is two times
    assert check_texts("Ana had 9 apples.", "Ana had 12 apples.").relation is Relation.CONFLICT
    assert check_texts("Ana gave 7 apples to Tom.", "Ana gave 5 apples to Tom.").relation is (
        Relation.CONFLICT
    )
    moved = check_texts("Ana had 9 apples.", "Ana has 2 apples now.")
    assert (moved.relation, moved.rule) == (Relation.AMBIGUOUS, "time")
