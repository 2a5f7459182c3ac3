"""Tables are drawn with boxes on a terminal and written as plain tab-separated lines when
stdout is a pipe or a file (issue 16: "tables readable when piped")."""

from __future__ import annotations

import os
import subprocess
import sys

LEFT = "Our standard notice period is 30 days."
RIGHT = "The standard notice period is 60 days for everyone."
BOX = set("│┃─━┏┓┗┛┡┩└┘┌┐")


def _check(env: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "claimledger", "check", LEFT, RIGHT],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_a_piped_table_is_tab_separated_with_a_header_and_no_box_characters() -> None:
    out = _check()
    assert not BOX & set(out), out
    lines = out.splitlines()
    header = lines.index("relation\trule\tleft\tright\treason")
    row = lines[header + 1].split("\t")
    assert row[:2] == ["conflict", "value"]
    assert row[2].endswith(": 30 days") and row[3].endswith(": 60 days")


def test_a_terminal_still_gets_the_boxed_table() -> None:
    out = _check({"FORCE_COLOR": "1", "TTY_COMPATIBLE": "1", "COLUMNS": "160"})
    assert BOX & set(out), out
    assert "relation\trule" not in out
