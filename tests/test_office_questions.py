"""Office questions answered from the asked thing's claims by the kind of value asked and
the words of the whole evidence (issue 32 points 1 and 2), from real extraction of
documents written here: prose, bullet label lines and tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from retrieval_cases import load_case
from sqlalchemy import Engine

from claims.extraction import parse_question
from claims.models import Requester
from claims.store import make_engine
from retrieval.answer import answer
from retrieval.question_reading import read_question
from tests.store_template import upgrade

ANYONE = Requester(principal="anyone", groups=[])
SALES = Requester(principal="sam", groups=["sales"])

GAZETTEER = "Quillby is a hamlet in Oregon with a population of 640 (2020)."
TOWN_NOTE = "Around 3,150 people live in Ostrava Creek, the council says."
TOWN_SITE = "Ostrava Creek is home to 3,900 people."
HANDBOOK = (
    "# Employee handbook\n\n## Time off\n\n"
    "Each full-time employee is entitled to 24 days of paid vacation per year.\n\n"
    "Employees may take up to 8 days of sick leave per year.\n"
)
CATALOGUE = (
    "# Equipment catalogue\n\n## Z-70 blower\n\n"
    "The Z-70 blower weighs 11 kg. It moves 60 litres per minute.\n\n"
    "## R-12 mixer\n\n"
    "- Weight: 23 kg\n"
    "- Warranty: 2 years\n"
)
REPORT = (
    "# Results\n\n"
    "| Line | 2021 | 2022 |\n|---|---|---|\n"
    "| Revenue | 8,200 | 9,050 |\n| Operating costs | 5,100 | 5,600 |\n"
)


def _case(*documents: tuple[str, str]) -> dict[str, Any]:
    return {"documents": [{"id": i, "text": t} for i, t in documents], "supersedes": {}}


def _ask(engine: Engine, question: str, requester: Requester = ANYONE) -> dict[str, Any]:
    return answer(engine, question, requester).model_dump(mode="json")


def _short(result: dict[str, Any]) -> tuple[Any, ...]:
    return result["status"], result["value"], result["unit"], sorted(result["citations"])


ALL = (
    ("gazetteer", GAZETTEER),
    ("town-note", TOWN_NOTE),
    ("town-site", TOWN_SITE),
    ("handbook", HANDBOOK),
    ("catalogue", CATALOGUE),
    ("report", REPORT),
)


@pytest.fixture
def office(engine: Engine) -> Engine:
    load_case(engine, _case(*ALL))
    return engine


def test_the_question_names_the_kind_and_dimension_of_value_it_expects() -> None:
    def read(question: str) -> tuple[str | None, tuple[str, ...]]:
        reading = read_question(question, parse_question(question))
        return reading.kind, reading.dimensions

    assert read("How heavy is the crate?") == ("quantity", ("mass",))
    assert read("How many people work in the depot?") == ("count", ("people",))
    assert read("How many sick days do interns get?") == ("quantity", ("time",))
    assert read("How much does the service plan cost?") == ("money", ("currency",))
    assert read("What is the flow rate of the main valve?") == ("quantity", ("volume/time",))
    assert read("When does the lease end?") == ("date", ("date",))


def test_the_question_reading_keeps_entity_time_and_scope() -> None:
    question = "How many vacation days did full-time staff at Brellan get in 2023?"
    reading = read_question(question, parse_question(question))
    assert reading.time == "2023"
    assert reading.scope.get("employment") == "full-time"
    assert {"vacation", "staff"} <= set(reading.terms)


def test_a_population_stated_as_a_bare_number_answers_the_population(office: Engine) -> None:
    assert _short(_ask(office, "What is the population of Quillby?")) == (
        "answered",
        640,
        None,
        ["gazetteer"],
    )


def test_two_documents_counting_the_people_of_one_town_differently_are_a_conflict(
    office: Engine,
) -> None:
    result = _ask(office, "How many people live in Ostrava Creek?")
    assert result["status"] == "conflict"
    assert sorted(side["value"] for side in result["sides"]) == [3150, 3900]
    assert sorted(result["citations"]) == ["town-note", "town-site"]


def test_vacation_days_of_full_time_staff_are_not_the_sick_days(office: Engine) -> None:
    assert _short(_ask(office, "How many vacation days do full-time staff get?")) == (
        "answered",
        24,
        "days",
        ["handbook"],
    )


def test_how_heavy_finds_the_one_mass_of_the_named_thing(office: Engine) -> None:
    assert _short(_ask(office, "How heavy is the Z-70 blower?")) == (
        "answered",
        11,
        "kg",
        ["catalogue"],
    )
    # a bullet label line under the thing's heading
    assert _short(_ask(office, "How heavy is the R-12 mixer?")) == (
        "answered",
        23,
        "kg",
        ["catalogue"],
    )


def test_a_flow_rate_is_the_volume_per_time_of_the_named_thing(office: Engine) -> None:
    assert _short(_ask(office, "What is the flow rate of the Z-70 blower?")) == (
        "answered",
        60,
        "litres per minute",
        ["catalogue"],
    )


def test_a_table_row_and_year_column_answer_the_figure_of_that_year(office: Engine) -> None:
    assert _short(_ask(office, "What was the revenue in 2021?"))[:2] == ("answered", 8200)
    assert _short(_ask(office, "What was the revenue in 2022?"))[:2] == ("answered", 9050)
    assert _short(_ask(office, "What were the operating costs in 2022?"))[:2] == (
        "answered",
        5600,
    )


def test_nothing_of_the_asked_kind_is_not_found(office: Engine) -> None:
    assert _ask(office, "How heavy is the Q-99 compressor?")["status"] == "not_found"
    assert _ask(office, "What is the flow rate of the R-12 mixer?")["status"] == "not_found"


def test_hidden_documents_are_left_out_before_anything_is_ranked(
    engine: Engine, tmp_path: Path
) -> None:
    load_case(engine, _case(*ALL), groups={"town-site": ["sales"]})
    url = f"sqlite:///{tmp_path / 'visible.db'}"
    upgrade(url)
    visible = make_engine(url)
    load_case(visible, _case(*(d for d in ALL if d[0] != "town-site")))
    for question in (
        "How many people live in Ostrava Creek?",
        "How heavy is the Z-70 blower?",
        "What was the revenue in 2021?",
    ):
        assert _ask(engine, question) == _ask(visible, question), question
    hidden = _ask(engine, "How many people live in Ostrava Creek?")
    assert _short(hidden) == ("answered", 3150, None, ["town-note"])
    assert _ask(engine, "How many people live in Ostrava Creek?", SALES)["status"] == "conflict"


POLICY = (
    "# Working here\n\n"
    "Every full-time employee is entitled to 27 days of annual leave.\n\n"
    "Full-time employees receive 12 days of paid time off for volunteering.\n"
)


@pytest.fixture
def glossary_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from claims.settings import get_settings

    path = tmp_path / "glossary.yaml"
    monkeypatch.setenv("CLAIMS_GLOSSARY_FILE", str(path))
    get_settings.cache_clear()
    yield path
    get_settings.cache_clear()


def test_the_organizations_glossary_joins_its_words_to_the_documents(
    engine: Engine, glossary_env: Path
) -> None:
    load_case(engine, _case(("policy", POLICY)))
    question = "How many PTO days do full-time workers get?"
    glossary_env.write_text("PTO: paid time off\n", encoding="utf-8")
    assert _short(_ask(engine, question))[:2] == ("answered", 12)
    # without the entry, the PTO question is not taken for the annual leave
    glossary_env.write_text("onboarding: induction\n", encoding="utf-8")
    assert _ask(engine, question)["value"] != 12


LEAVE = (
    "# Leave\n\n"
    "Every full-time employee is entitled to 27 days of annual leave.\n\n"
    "Staff may take up to 9 days of sick leave per year.\n"
)


def test_the_built_in_lexicon_takes_vacation_for_annual_leave(engine: Engine) -> None:
    load_case(engine, _case(("leave", LEAVE)))
    result = _ask(engine, "How many vacation days do full-time staff get?")
    assert _short(result)[:2] == ("answered", 27)


def test_the_register_names_the_glossary(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from claims.settings import get_settings

    (tmp_path / "words.yaml").write_text("PTO: paid time off\n", encoding="utf-8")
    register = tmp_path / "register.yaml"
    register.write_text("tiers: [official]\nglossary: words.yaml\nsources: {}\n", encoding="utf-8")
    monkeypatch.setenv("CLAIMS_REGISTER_FILE", str(register))
    monkeypatch.delenv("CLAIMS_GLOSSARY_FILE", raising=False)
    get_settings.cache_clear()
    try:
        load_case(engine, _case(("policy", POLICY)))
        assert _short(_ask(engine, "How many PTO days do full-time workers get?"))[:2] == (
            "answered",
            12,
        )
    finally:
        get_settings.cache_clear()


def test_a_glossary_that_is_not_term_and_words_names_the_file(tmp_path: Path) -> None:
    from claims.errors import InputError
    from retrieval.glossary import synonyms

    bad = tmp_path / "bad.yaml"
    bad.write_text("- just a list\n", encoding="utf-8")
    with pytest.raises(InputError, match="bad.yaml"):
        synonyms(str(bad))


def test_explain_shows_the_reading_the_ranked_evidence_and_why_the_winner_won(
    cli_env: Path,
) -> None:
    import json

    from typer.testing import CliRunner

    from claimledger.cli.app import app as cli_app
    from claims.settings import get_settings

    cli_env.mkdir(parents=True, exist_ok=True)
    (cli_env / "access.yaml").write_text(
        "default_principal: anyone\nprincipals:\n  anyone:\n    groups: []\n", encoding="utf-8"
    )
    url = get_settings().resolved_database_url
    upgrade(url)
    store = make_engine(url)
    try:
        load_case(store, _case(("report", REPORT), ("catalogue", CATALOGUE)))
    finally:
        store.dispose()
    question = "What was the revenue in 2022?"
    run = CliRunner().invoke(cli_app, ["ask", question, "--explain", "--json"])
    assert run.exit_code == 0, run.output
    why = json.loads(run.output)
    assert why["reading"]["kind"] == "money" and why["reading"]["time"] == "2022"
    assert why["reading"]["terms"] == ["revenue"]
    # only the 2022 column holds at the asked time; the revenue row beats the costs row
    top = why["evidence"][0]
    assert (top["value"], top["matched"]) == (9050, ["revenue"])
    assert all(e["value"] not in (8200, 5100) for e in why["evidence"])
    assert why["winner"].startswith("9050")
    assert why["answer"]["value"] == 9050
    human = CliRunner().invoke(cli_app, ["ask", question, "--explain"])
    assert human.exit_code == 0, human.output
    assert "reading: asks for money" in human.output
    assert "evidence 1: 9050" in human.output and "winner: 9050" in human.output
    # the table reading names the row and the column that answered
    assert [c["value"] for c in why["table"]["cells"]] == [9050]
    assert "'Revenue'" in why["table"]["why"] and "'2022'" in why["table"]["why"]
    assert "table: row 'Revenue', column '2022'" in human.output


BENEFITS = (
    "# Benefits\n\n"
    "Paid time off (PTO) is booked in the staff portal.\n\n"
    "Employees receive 18 days of paid time off each year.\n\n"
    "Employees receive 6 days of sick leave each year.\n"
)


def test_an_alias_the_document_defines_reaches_its_claims(engine: Engine) -> None:
    from retrieval.document_aliases import aliases_in

    assert (frozenset({"paid", "time", "off"}), frozenset({"pto"})) in aliases_in(BENEFITS)
    assert aliases_in("The depot (see the map) opens at 7.") == []
    load_case(engine, _case(("benefits", BENEFITS)))
    assert _short(_ask(engine, "How many PTO days do employees get?"))[:2] == ("answered", 18)


SPEC = [
    ("heading", 1, "Plant equipment"),
    ("heading", 2, "V-35 compressor"),
    ("paragraph", "The V-35 compressor weighs 48 kg."),
    ("heading", 2, "Yearly figures"),
    (
        "table",
        [["Line", "2023", "2024"], ["Revenue", "3,300", "3,720"], ["Costs", "2,100", "2,250"]],
    ),
]


@pytest.mark.parametrize("fmt", ["html", "docx"])
def test_questions_reach_claims_of_word_and_html_files(engine: Engine, fmt: str) -> None:
    from claims.documents.converters import convert
    from tests.document_writers import docx_bytes, html_page

    data = html_page(SPEC).encode() if fmt == "html" else docx_bytes(SPEC)
    converted = convert(data, Path(f"spec.{fmt}"))
    load_case(engine, _case(("spec", converted.text)))
    assert _short(_ask(engine, "How heavy is the V-35 compressor?"))[:3] == ("answered", 48, "kg")
    assert _short(_ask(engine, "What was the revenue in 2024?"))[:2] == ("answered", 3720)


def test_a_value_merely_beside_the_name_does_not_answer_what_else_is_asked(
    engine: Engine,
) -> None:
    load_case(engine, _case(("depot", "The Halvern depot opened in 2011 and weighs nothing.")))
    load_case(engine, _case(("crate", "The T-9 crate holds 40 litres.")))
    # the crate's volume is no weight, and its name alone does not make 40 litres its price
    assert _ask(engine, "How heavy is the T-9 crate?")["status"] == "not_found"
    assert _ask(engine, "When was the Halvern depot sold?")["status"] == "not_found"


def test_a_modal_verb_shared_with_the_question_is_no_evidence(engine: Engine) -> None:
    load_case(
        engine,
        _case(
            ("support", "Urgent tickets must get a first reply within 3 hours."),
            ("security", "Badges must be renewed every year at the front desk."),
        ),
    )
    # "must" is all the support sentence shares with the question: its 3 hours is no
    # answer to how long a PIN must be
    result = _ask(engine, "How long must a PIN be?")
    assert result["status"] == "not_found", _short(result)


EXPENSES = (
    "# Expenses\n\n"
    "Daily subsistence allowance: £30 per day spent off site.\n\n"
    "Mileage is repaid at 45p per mile.\n\n"
    "Access badges must be renewed every 12 months. PIN codes must be at least 6 digits long.\n"
)


def test_a_question_with_no_cue_is_answered_by_a_claim_carrying_every_word_it_asks(
    engine: Engine,
) -> None:
    load_case(engine, _case(("expenses", EXPENSES)))
    # keyed by the words after the figure, the label line still carries every asked word
    assert _short(_ask(engine, "What is the daily subsistence allowance?"))[:2] == (
        "answered",
        30,
    )
    # words the claims do not carry ("hotel") leave it unanswered, not guessed
    assert _ask(engine, "What is the overnight hotel rate?")["status"] == "not_found"


def test_how_long_may_ask_for_a_length_in_characters_or_digits(engine: Engine) -> None:
    load_case(engine, _case(("expenses", EXPENSES)))
    assert _short(_ask(engine, "How long must PIN codes be?"))[:2] == ("answered", 6)
