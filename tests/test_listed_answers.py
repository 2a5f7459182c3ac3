"""A list one sentence states for a slot is one answer listing it (issue 13, issue 12 point 5).

Real extraction, edges and routing (``load_case``) over short documents written for these
tests: a product spec, a sales email, a staff handbook and a facilities note.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from typer.testing import CliRunner

from claimledger.cli.app import app as cli_app
from claimledger.web import create_app
from claims.models import Requester
from claims.settings import get_settings
from claims.store import make_engine
from retrieval.access import token_digest
from retrieval.answer import answer
from retrieval.contract import AnswerStatus
from retrieval.explain import explain
from tests.store_template import upgrade  # a copy of a store migrated once

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_case  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])
SALES = Requester(principal="sam", groups=["sales"])

SPEC = """# Heron H4 tablet: product specification

Revision B, signed off by hardware engineering.

- The Heron H4 weighs 480 g.
- The Heron H4 is available in 64 GB, 128 GB and 256 GB versions.
"""

SALES_EMAIL_SAME = """Subject: Heron H4 line-up for the trade show

Hi all,

Quick summary for the stand: the Heron H4 is available in 256 GB, 64 GB and 128 GB
versions, so please bring one of each.

Thanks,
Priya
"""

SALES_EMAIL_OTHER = """Subject: Heron H4 line-up for the trade show

Hi all,

Just a heads-up: the Heron H4 is available in 64 GB and 128 GB versions this season.

Cheers,
Tom
"""


def _case(*documents: tuple[str, str]) -> dict[str, Any]:
    return {"documents": [{"id": i, "text": t} for i, t in documents], "supersedes": {}}


def _ask(engine: Engine, question: str, who: Requester = ANYONE) -> Any:
    return answer(engine, question, who)


QUESTION = "Which storage sizes is the Heron H4 available in?"


def test_a_listed_slot_is_answered_by_its_list(engine: Engine) -> None:
    load_case(engine, _case(("h4-spec", SPEC)))
    result = _ask(engine, QUESTION)
    assert result.status is AnswerStatus.ANSWERED
    assert result.values == [64, 128, 256]
    assert result.unit == "GB"
    assert result.value == "64, 128 and 256"  # the list in words for readers of ``value``
    assert result.citations == ["h4-spec"]
    [side] = result.sides
    assert side.values == [64, 128, 256] and side.claim_count == 3
    assert {c.quote for c in side.citations} == {
        "The Heron H4 is available in 64 GB, 128 GB and 256 GB versions."
    }


def test_two_documents_listing_the_same_set_in_another_order_agree(engine: Engine) -> None:
    load_case(engine, _case(("h4-spec", SPEC), ("sales-email", SALES_EMAIL_SAME)))
    result = _ask(engine, QUESTION)
    assert result.status is AnswerStatus.ANSWERED
    assert sorted(result.values) == [64, 128, 256]
    assert result.citations == ["h4-spec", "sales-email"]
    assert len(result.sides) == 1 and result.sides[0].claim_count == 6


def test_two_documents_listing_different_sets_conflict_with_both_lists(engine: Engine) -> None:
    load_case(engine, _case(("h4-spec", SPEC), ("sales-email", SALES_EMAIL_OTHER)))
    result = _ask(engine, QUESTION)
    assert result.status is AnswerStatus.CONFLICT
    assert result.value is None and result.values is None
    assert set(result.citations) == {"h4-spec", "sales-email"}
    lists = {tuple(side.values or []): side.source_ids for side in result.sides}
    assert lists == {(64, 128, 256): ["h4-spec"], (64, 128): ["sales-email"]}
    assert "64, 128 and 256 GB vs 64 and 128 GB" in result.reason


def test_a_single_value_question_still_answers_one_value(engine: Engine) -> None:
    load_case(engine, _case(("h4-spec", SPEC), ("sales-email", SALES_EMAIL_OTHER)))
    result = _ask(engine, "How much does the Heron H4 weigh?")
    assert result.status is AnswerStatus.ANSWERED
    assert (result.value, result.unit, result.values) == (480, "g", None)
    assert all(side.values is None for side in result.sides)


def test_prices_listed_with_currency_signs_are_one_list(engine: Engine) -> None:
    handbook = (
        "# Staff handbook\n\nParking permits at the Leeds office cost £12, £15 and £20 a month.\n"
    )
    load_case(engine, _case(("handbook", handbook)))
    result = _ask(engine, "How much do parking permits cost?")
    assert result.status is AnswerStatus.ANSWERED
    assert (result.values, result.unit) == ([12, 15, 20], "£")


def test_a_level_and_an_earlier_level_are_no_list(engine: Engine) -> None:
    # "up from" joins a level and what it was before: not items of one list
    note = "# Lakeview\n\nThe population of Lakeview was 1,066, up from 630.\n"
    load_case(engine, _case(("gazetteer", note)))
    result = _ask(engine, "What is the population of Lakeview?")
    assert result.values is None
    assert all(side.values is None for side in result.sides)


def test_a_hidden_list_is_neither_shown_nor_counted(engine: Engine) -> None:
    load_case(
        engine,
        _case(("h4-spec", SPEC), ("sales-email", SALES_EMAIL_OTHER)),
        groups={"sales-email": ["sales"]},
    )
    outsider = _ask(engine, QUESTION)
    assert outsider.status is AnswerStatus.ANSWERED
    assert outsider.values == [64, 128, 256] and outsider.citations == ["h4-spec"]
    assert "sales-email" not in json.dumps(outsider.model_dump(mode="json"))
    insider = _ask(engine, QUESTION, SALES)
    assert insider.status is AnswerStatus.CONFLICT


def test_explain_shows_the_listed_answer(engine: Engine) -> None:
    load_case(engine, _case(("h4-spec", SPEC)))
    why = explain(engine, QUESTION, ANYONE)
    assert why.answer.values == [64, 128, 256]
    assert why.model_dump(mode="json")["answer"]["values"] == [64, 128, 256]


TOKENS = {"anyone": "anyone-token-5d1e9c3b7a2f4e6d8c0b1a3f5e7d9c1b", "sam": "sam-token-8b2d4f6a"}


@pytest.fixture
def cli_store(cli_env: Path) -> Engine:
    cli_env.mkdir(parents=True, exist_ok=True)
    (cli_env / "access.yaml").write_text(
        "default_principal: anyone\nprincipals:\n"
        f"  anyone:\n    groups: []\n    tokens_sha256: [{token_digest(TOKENS['anyone'])}]\n"
        f"  sam:\n    groups: [sales]\n    tokens_sha256: [{token_digest(TOKENS['sam'])}]\n",
        encoding="utf-8",
    )
    url = get_settings().resolved_database_url
    upgrade(url)
    return make_engine(url)


def test_claims_ask_prints_the_list_and_its_json(cli_store: Engine) -> None:
    load_case(cli_store, _case(("h4-spec", SPEC)))
    cli_store.dispose()
    runner = CliRunner()
    shown = runner.invoke(cli_app, ["ask", QUESTION])
    assert shown.exit_code == 0, shown.output
    assert "answered: 64, 128 and 256 GB" in shown.output
    assert "side 1: 64, 128 and 256 GB" in shown.output and "lists 3 values" in shown.output
    assert "values (3): 64 GB; 128 GB; 256 GB" in shown.output
    as_json = runner.invoke(cli_app, ["ask", QUESTION, "--json"])
    assert as_json.exit_code == 0, as_json.output
    body = json.loads(as_json.output)
    assert body["values"] == [64, 128, 256] and body["sides"][0]["values"] == [64, 128, 256]


def test_the_http_answer_carries_the_list_per_requester(cli_store: Engine) -> None:
    load_case(
        cli_store,
        _case(("h4-spec", SPEC), ("sales-email", SALES_EMAIL_OTHER)),
        groups={"sales-email": ["sales"]},
    )
    cli_store.dispose()
    with TestClient(create_app(get_settings())) as client:

        def ask(who: str) -> Any:
            headers = {"Authorization": f"Bearer {TOKENS[who]}"}
            response = client.post("/api/answer", json={"question": QUESTION}, headers=headers)
            assert response.status_code == 200, response.text
            return response.json()

        outsider, insider = ask("anyone"), ask("sam")
    assert outsider["status"] == "answered" and outsider["values"] == [64, 128, 256]
    assert outsider["unit"] == "GB" and outsider["citations"] == ["h4-spec"]
    assert insider["status"] == "conflict" and insider["values"] is None
    assert sorted(side["values"] for side in insider["sides"]) == [[64, 128], [64, 128, 256]]


GUIDE = """# Osprey app user guide

The interface languages are English, French and German.

The default language is English.
"""

FAQ_SAME = """# Osprey app FAQ

The interface languages are German, English and French.
"""

FAQ_OTHER = """# Osprey app FAQ

The interface languages are English and French.
"""


def test_a_label_listing_several_names_is_a_list_in_any_order(engine: Engine) -> None:
    load_case(engine, _case(("user-guide", GUIDE), ("faq", FAQ_SAME)))
    result = _ask(engine, "What are the interface languages?")
    assert result.status is AnswerStatus.ANSWERED
    assert sorted(result.values or []) == ["English", "French", "German"]
    assert result.unit is None and result.citations == ["faq", "user-guide"]


def test_labels_listing_different_names_conflict(engine: Engine) -> None:
    load_case(engine, _case(("user-guide", GUIDE), ("faq", FAQ_OTHER)))
    result = _ask(engine, "What are the interface languages?")
    assert result.status is AnswerStatus.CONFLICT
    assert set(result.citations) == {"user-guide", "faq"}
    by_source = {side.source_ids[0]: side for side in result.sides}
    assert sorted(by_source["user-guide"].values or []) == ["English", "French", "German"]
    # two names and no comma may be one name ("Bosnia and Herzegovina"): one item as read
    assert by_source["faq"].values == ["english french"]


def test_a_label_of_one_name_is_no_list(engine: Engine) -> None:
    load_case(engine, _case(("user-guide", GUIDE)))
    result = _ask(engine, "What is the default language?")
    assert result.status is AnswerStatus.ANSWERED
    assert result.values is None and str(result.value).casefold() == "english"


def test_a_place_written_with_a_comma_is_no_list(engine: Engine) -> None:
    note = "# Acme Rail\n\nThe registered address is Springfield, Illinois.\n"
    load_case(engine, _case(("company-note", note)))
    result = _ask(engine, "What is Acme Rail's registered address?")
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.values is None and all(side.values is None for side in result.sides)
