"""Answers honour what reviewers and visibility decide (issue 14, points 8 and 9).

Both scenarios run the real pipeline (`claims run`: ingest, extraction, edges, routing, read
model) on files written here, then ask through the CLI as a requester of an access file.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claimledger.cli import app
from claims.settings import get_settings

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
REVIEWERS = Path(__file__).resolve().parent / "fixtures" / "review" / "reviewers.yaml"
runner = CliRunner()


def _ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def _json(*args: str) -> dict:
    return json.loads(_ok(*args, "--json"))


@pytest.fixture
def env(cli_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLAIMS_REVIEWERS_FILE", str(REVIEWERS))
    monkeypatch.setenv("CLAIMS_REVIEWER", "alice")
    get_settings.cache_clear()
    return cli_env


def test_a_resolution_decides_its_set_whatever_other_edges_the_loser_has(
    env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The bundled samples: the original Q1 filing (12 cents) against the finance-only
    # restatement (30 cents). The losing claim also has an ambiguous edge to the Q2
    # dividend (15 cents, another period); that must not keep the answer at conflict.
    corpus = tmp_path / "samples"
    shutil.copytree(SAMPLES, corpus)
    monkeypatch.setenv("CLAIMS_POLICY_FILE", str(corpus / "policy.yaml"))
    monkeypatch.setenv("CLAIMS_ACCESS_FILE", str(corpus / "access.yaml"))
    get_settings.cache_clear()
    _ok("run", str(corpus / "corpus"), "--register", str(corpus / "register.yaml"))
    question = "What was the dividend for the period?"
    before = _json("ask", question, "--as", "fay")
    assert before["status"] == "conflict"

    items = _json("review", "list")
    (item,) = [i for i in items if i["claim_key"] == "dividend"]
    shown = _json("review", "show", item["id"])
    (restated,) = [s for s in shown["sides"] if s["source_id"] == "finance/filing-q1-restated"]
    (original,) = [s for s in shown["sides"] if s["source_id"] == "finance/filing-q1"]

    _ok(
        "review", "resolve", item["id"], "--winner", restated["claim_id"],
        "--rationale", "The restatement filed with the regulator governs.",
    )  # fmt: skip
    after = _json("ask", question, "--as", "fay")
    assert after["status"] == "answered", after["reason"]
    assert after["value"] == 30
    assert after["citations"] == ["finance/filing-q1-restated"]
    assert after["policy_version"] == item["policy_version"]
    # the loser's own status still shows its unrelated ambiguity with the Q2 dividend
    status = _json("status", "--claim", original["claim_id"], "--as", "fay")
    assert status["claims"][0]["status"] == "ambiguous"
    # the public requester never saw the restatement: the resolution cannot speak to it
    public = _json("ask", question, "--as", "anyone")
    assert (public["status"], public["value"]) == ("answered", 12)
    assert public["policy_version"] is None


REGISTER = """\
tiers: [official, reference]
sources:
  p/old:
    title: Parking rules 2024
    tier: official
  p/new:
    title: Parking rules 2026 (finance draft)
    tier: official
    access_groups: [finance]
    supersedes: [p/old]
  p/other:
    title: Parking rules, legal department copy
    tier: official
    access_groups: [legal]
"""

ACCESS = """\
principals:
  anyone: {groups: []}
  fay: {groups: [finance]}
  lee: {groups: [legal]}
  boss: {groups: [finance, legal]}
"""


def test_a_hidden_superseding_source_changes_no_visible_status(
    env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = tmp_path / "corpus" / "p"
    corpus.mkdir(parents=True)
    (corpus / "old.md").write_text("# Parking\n\nThe visitor parking fee is 5 EUR per day.\n")
    (corpus / "new.md").write_text("# Parking\n\nThe visitor parking fee is 7 EUR per day.\n")
    (corpus / "other.md").write_text("# Parking\n\nThe visitor parking fee is 9 EUR per day.\n")
    (tmp_path / "register.yaml").write_text(REGISTER)
    (tmp_path / "access.yaml").write_text(ACCESS)
    monkeypatch.setenv("CLAIMS_ACCESS_FILE", str(tmp_path / "access.yaml"))
    get_settings.cache_clear()
    _ok("run", str(tmp_path / "corpus"), "--register", str(tmp_path / "register.yaml"))
    question = "What is the visitor parking fee?"
    key = _json("ask", question, "--as", "lee")["claim_key"]

    # lee sees p/old and p/other, not the replacement: 5 against 9 EUR is a live conflict
    answer = _json("ask", question, "--as", "lee")
    assert answer["status"] == "conflict", answer["reason"]
    assert sorted(answer["citations"]) == ["p/old", "p/other"]
    status = _json("status", "--key", key, "--as", "lee")
    assert status["status"] == "contested"
    assert {c["status"] for c in status["claims"]} == {"contested"}

    # fay sees p/old replaced by p/new: 7 EUR, the old claim superseded
    answer = _json("ask", question, "--as", "fay")
    assert (answer["status"], answer["value"], answer["citations"]) == ("answered", 7, ["p/new"])
    assert _json("status", "--key", key, "--as", "fay")["status"] == "none"

    # boss sees all three: p/old is replaced, p/new (7) against p/other (9) is the conflict
    answer = _json("ask", question, "--as", "boss")
    assert answer["status"] == "conflict"
    assert sorted(answer["citations"]) == ["p/new", "p/other"]
    assert _json("status", "--key", key, "--as", "boss")["status"] == "contested"

    # the public sees only p/old
    answer = _json("ask", question, "--as", "anyone")
    assert (answer["status"], answer["value"]) == ("answered", 5)
