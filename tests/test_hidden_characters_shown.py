"""Bidi controls and zero-width characters in document text are shown as ``<U+XXXX>`` on
every screen (issue 31, point 7): `claims conflicts`, `claims review show` and the reviewer's
item page. A right-to-left override in a quote would otherwise display it reversed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from claimledger.cli import app
from claimledger.web import create_app
from claims.settings import Settings, get_settings
from claims.shown_text import show_hidden_characters

REVIEWERS = Path(__file__).parent / "fixtures" / "review" / "reviewers.yaml"
RLO, PDF = "\u202e", "\u202c"
REGISTER = """
tiers: [official]
sources:
  garden/lease:
    title: Garden lease
    tier: official
  garden/letter:
    title: "Letter \u202eesael\u202c about the garden"
    tier: official
"""


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[CliRunner, Path]]:
    folder = tmp_path_factory.mktemp("bidi")
    docs = folder / "docs" / "garden"
    docs.mkdir(parents=True)
    (docs / "lease.txt").write_text(
        "The yearly rent of the allotment garden is 120 EUR.\n", encoding="utf-8"
    )
    (docs / "letter.txt").write_text(
        f"The yearly rent of the {RLO}allotment{PDF} garden is 180 EUR.\n",
        encoding="utf-8",
    )
    register = folder / "register.yaml"
    register.write_text(REGISTER, encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CLAIMS_DATA_DIR", str(folder / ".claims"))
        patch.delenv("CLAIMS_DATABASE_URL", raising=False)
        get_settings.cache_clear()
        runner = CliRunner()
        result = runner.invoke(app, ["run", str(folder / "docs"), "--register", str(register)])
        assert result.exit_code == 0, result.output
        yield runner, folder / ".claims"
    get_settings.cache_clear()


def _shown(output: str) -> None:
    assert RLO not in output and PDF not in output, repr(output)
    assert "<U+202E>allotment<U+202C>" in output


def _item_id(runner: CliRunner) -> str:
    listed = runner.invoke(app, ["review", "list"])
    assert listed.exit_code == 0, listed.output
    (item_id,) = re.findall(r"^(ri_\w+)", listed.output, flags=re.MULTILINE)
    return item_id


def test_conflicts_show_a_bidi_override_as_its_code(ledger: tuple[CliRunner, Path]) -> None:
    runner, _ = ledger
    result = runner.invoke(app, ["conflicts"])
    assert result.exit_code == 0, result.output
    _shown(result.output)


def test_review_show_shows_bidi_controls_in_quotes_and_titles(
    ledger: tuple[CliRunner, Path],
) -> None:
    runner, _ = ledger
    shown = runner.invoke(app, ["review", "show", _item_id(runner)])
    assert shown.exit_code == 0, shown.output
    _shown(shown.output)
    assert "Letter <U+202E>esael<U+202C> about the garden" in shown.output


def test_reviewer_item_page_shows_bidi_controls_as_codes(ledger: tuple[CliRunner, Path]) -> None:
    runner, data_dir = ledger
    item_id = _item_id(runner)
    settings = Settings(
        database_url=f"sqlite:///{data_dir / 'claims.db'}", reviewers_file=REVIEWERS
    )
    with TestClient(create_app(settings)) as client:
        page = client.get("/review/login")
        token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
        assert token is not None
        client.post(
            "/review/login",
            data={"username": "alice", "password": "correct horse", "csrf_token": token[1]},
        )
        html = client.get(f"/review/items/{item_id}").text
    assert RLO not in html and PDF not in html
    assert "&lt;U+202E&gt;allotment&lt;U+202C&gt;" in html
    assert "Letter &lt;U+202E&gt;esael&lt;U+202C&gt; about the garden" in html


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain words", "plain words"),
        ("a\u200bword", "a<U+200B>word"),
        ("\u2067isolated\u2069", "<U+2067>isolated<U+2069>"),
        ("\ufeffstart", "<U+FEFF>start"),
        ("\u05e9\u05dc\u05d5\u05dd", "\u05e9\u05dc\u05d5\u05dd"),  # right-to-left letters stay
    ],
)
def test_hidden_and_reordering_characters_are_shown_as_codes(text: str, shown: str) -> None:
    assert show_hidden_characters(text) == shown
