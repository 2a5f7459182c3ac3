"""Document text printed by the CLI is never interpreted (issue 14, point 16).

Rich markup in a quote or a title (``[/]``, ``[bold red]``) used to crash ``claims review
show`` and ``claims conflicts`` with a ``MarkupError``; terminal escape sequences in a
document reached the terminal. Both are printed as text now, or stripped.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claimledger.cli import app
from claimledger.cli.safe_text import strip_terminal_controls

# Clear the screen, retitle the window, a hyperlink to elsewhere: none may reach a terminal.
ESCAPES = "\x1b[H\x1b[J\x1b]0;owned\x07"
# YAML's own escapes (\e is ESC): a register owner can put these in a title.
REGISTER = r"""
tiers: [official]
sources:
  lease:
    title: "[bold red]Lease[/] of the Porto flat"
    tier: official
  letter:
    title: "Letter [/] from the landlord \e]8;;http://elsewhere.example/\e\\here\e]8;;\e\\"
    tier: official
"""


@pytest.fixture
def ledger(cli_env: Path, tmp_path: Path) -> CliRunner:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "lease.txt").write_text(
        "The monthly rent of the Porto flat is 500 EUR, per clause [/] 4.\n", encoding="utf-8"
    )
    (docs / "letter.txt").write_text(
        f"The monthly rent of the Porto flat is 650 EUR, per clause {ESCAPES}[/] 4.\n",
        encoding="utf-8",
    )
    register = tmp_path / "register.yaml"
    register.write_text(REGISTER, encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(app, ["run", str(docs), "--register", str(register)])
    assert result.exit_code == 0, result.output
    return runner


def _clean(output: str) -> None:
    assert "\x1b" not in output and "\x07" not in output, repr(output)


def test_review_show_prints_markup_in_quotes_and_titles_as_text(ledger: CliRunner) -> None:
    listed = ledger.invoke(app, ["review", "list"])
    assert listed.exit_code == 0, listed.output
    (item_id,) = re.findall(r"^(ri_\w+)", listed.output, flags=re.MULTILINE)

    shown = ledger.invoke(app, ["review", "show", item_id])
    assert shown.exit_code == 0, shown.output
    assert '"The monthly rent of the Porto flat is 500 EUR, per clause [/] 4."' in shown.output
    assert '"The monthly rent of the Porto flat is 650 EUR, per clause [/] 4."' in shown.output
    assert 'source "[bold red]Lease[/] of the Porto flat" (lease)' in shown.output
    assert "Letter [/] from the landlord here" in shown.output  # the link's text, no link
    assert re.search(r"^side \d: 500 EUR\n  claim cl_\w+, ", shown.output, flags=re.MULTILINE)
    _clean(shown.output)


def test_conflicts_and_sources_print_document_text_as_text(ledger: CliRunner) -> None:
    conflicts = ledger.invoke(app, ["conflicts"])
    assert conflicts.exit_code == 0, conflicts.output
    assert "[/]" in conflicts.output and "conflicts" in conflicts.output
    _clean(conflicts.output)

    sources = ledger.invoke(app, ["sources", "list"])
    assert sources.exit_code == 0, sources.output
    assert "title      [bold red]Lease[/] of the Porto flat" in sources.output
    _clean(sources.output)


def test_error_lines_strip_escapes_from_file_names(cli_env: Path, tmp_path: Path) -> None:
    hostile = tmp_path / "notes\x1b]0;owned\x07\x1b[2J[bold red].txt"
    hostile.write_bytes(b"")
    result = subprocess.run(  # the real entry point, which prints domain errors
        [sys.executable, "-m", "claimledger", "ingest", str(hostile)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "CLAIMS_DATA_DIR": str(cli_env)},
    )
    assert result.returncode == 2, result.stderr
    # The name's control characters are shown as visible escapes, never sent raw.
    assert "notes\\x1b]0;owned\\x07\\x1b[2J[bold red].txt: the file is empty" in result.stderr
    _clean(result.stderr)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("kept: é, 日本, tab\tand\nnewline", "kept: é, 日本, tab\tand\nnewline"),
        ("red \x1b[1;31mALERT\x1b[0m done", "red ALERT done"),
        ("title \x1b]0;owned\x07 after", "title  after"),
        ("link \x1b]8;;http://x.example/\x1b\\text\x1b]8;;\x1b\\ end", "link text end"),
        ("c1 csi \x9b2J and osc \x9d0;t\x9c kept", "c1 csi  and osc  kept"),
        ("dcs \x1bPq#0;2;0;0;0\x1b\\ gone", "dcs  gone"),
        ("lone \x1b and bell \x07 and del \x7f", "lone and bell  and del "),
        ("unterminated \x1b]0;title to the end", "unterminated "),
        ("cr\r and backspace\x08", "cr and backspace"),
    ],
)
def test_terminal_controls_are_stripped_and_text_kept(text: str, shown: str) -> None:
    assert strip_terminal_controls(text) == shown
