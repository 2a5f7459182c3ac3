"""Look-alike text does not split claim keys (issue 31, point 6).

A zero-width space before "The" and a Cyrillic "е" inside "dividend" read the same as the
plain sentence: extraction folds them where keys are made, so the key, the high-risk rule,
the conflict and the answer are the plain sentence's, while the quote and its span keep the
exact text. The reviewer is told the quote mixes scripts. A Russian sentence is not folded.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claimledger.cli import app
from claims.extraction import extract, parse_question
from claims.lookalikes import fold_lookalikes, lookalike_note, mixed_script_words

PLAIN = "The dividend for the period was 12 cents per share."
HIDDEN_SPACE = "\u200bThe dividend for the period was 30 cents per share."
CYRILLIC_E = "The divid\u0435nd for the period was 30 cents per share."
BOTH = "\u200bThe divid\u0435nd for the period was 30 cents\u2060 per share."
POLICY = """policy_id: lookalikes
version: 1
tiers: [official]
high_risk_predicates: ["*dividend*"]
"""


def _only(text: str):  # type: ignore[no-untyped-def]
    (claim,) = extract(text)
    return claim


@pytest.mark.parametrize("text", [HIDDEN_SPACE, CYRILLIC_E, BOTH])
def test_lookalike_text_makes_the_plain_key_and_keeps_the_exact_quote(text: str) -> None:
    plain, odd = _only(PLAIN), _only(text)
    assert (odd.claim_key, odd.entity, odd.attribute) == (
        plain.claim_key,
        plain.entity,
        plain.attribute,
    )
    assert odd.quote == text[odd.span.start : odd.span.end]  # exact, look-alikes included
    assert odd.quote.lstrip("\u200b").startswith("The divid")
    assert odd.value_span is not None
    assert text[odd.value_span.start : odd.value_span.end].startswith("30 cents")


def test_a_question_written_with_lookalikes_asks_for_the_plain_key() -> None:
    plain = parse_question("What was the dividend for the period?")
    odd = parse_question("What was the \u200bdivid\u0435nd for the period?")
    assert odd.claim_key == plain.claim_key


def test_words_of_one_script_are_not_folded() -> None:
    russian = "Дивиденд за период составил 12 центов на акцию."
    greek = "Το μέρισμα ήταν 12 λεπτά."
    for text in (russian, greek):
        assert not fold_lookalikes(text).changed
        assert mixed_script_words(text) == []
    assert fold_lookalikes("Тhе timeout").text == "The timeout"  # mixed: folded
    assert fold_lookalikes("plain ascii").origin is None


def test_the_reviewer_is_told_which_word_mixes_scripts() -> None:
    note = lookalike_note(CYRILLIC_E)
    assert '"divid\u0435nd" holds U+0435 CYRILLIC SMALL LETTER IE' in note
    assert 'the key reads "dividend"' in note
    assert "U+200B ZERO WIDTH SPACE" in lookalike_note(HIDDEN_SPACE)
    assert lookalike_note(PLAIN) == ""


@pytest.fixture
def ledger(cli_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "filing.txt").write_text(PLAIN + "\n", encoding="utf-8")
    (docs / "restated.txt").write_text(BOTH + "\n", encoding="utf-8")
    policy = tmp_path / "policy.yaml"
    policy.write_text(POLICY, encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(app, ["run", str(docs), "--policy", str(policy)])
    assert result.exit_code == 0, result.output
    return runner


def test_lookalikes_conflict_route_as_high_risk_and_answer_as_conflict(
    ledger: CliRunner,
) -> None:
    conflicts = json.loads(ledger.invoke(app, ["conflicts", "--json"]).output)
    assert [entry["claim_key"] for entry in conflicts] == ["dividend"]
    listed = ledger.invoke(app, ["review", "list"]).output
    (item_id,) = re.findall(r"^(ri_\w+)", listed, flags=re.MULTILINE)
    shown = ledger.invoke(app, ["review", "show", item_id]).output
    assert "high" in listed.lower()  # the high-risk rule matched the folded key
    assert "note: mixed scripts or hidden characters:" in shown
    assert "U+0435 CYRILLIC SMALL LETTER IE" in shown
    answer = json.loads(
        ledger.invoke(app, ["ask", "What was the dividend for the period?", "--json"]).output
    )
    assert answer["status"] == "conflict", answer


def test_the_item_page_notes_mixed_scripts(ledger: CliRunner, cli_env: Path) -> None:
    from fastapi.testclient import TestClient

    from claimledger.web import create_app
    from claims.settings import Settings

    listed = ledger.invoke(app, ["review", "list"]).output
    (item_id,) = re.findall(r"^(ri_\w+)", listed, flags=re.MULTILINE)
    reviewers = Path(__file__).parent / "fixtures" / "review" / "reviewers.yaml"
    settings = Settings(database_url=f"sqlite:///{cli_env / 'claims.db'}", reviewers_file=reviewers)
    with TestClient(create_app(settings)) as client:
        page = client.get("/review/login")
        token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
        assert token is not None
        client.post(
            "/review/login",
            data={"username": "alice", "password": "correct horse", "csrf_token": token[1]},
        )
        html = client.get(f"/review/items/{item_id}").text
    assert '<p class="lookalike-note"><b>Note:</b> mixed scripts or hidden characters:' in html
    assert "U+0435 CYRILLIC SMALL LETTER IE" in html
