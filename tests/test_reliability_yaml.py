"""Hand-written YAML and error lines (issue 14, point 18).

The policy is read like the register: a key given twice, a YAML tag, a UTF-16 file are
named errors; ``version: 3.10`` stays "3.10"; a register version too large for the database
is a field error; ``claims policy apply --as`` must name a known reviewer or ``admin``;
error lines print each path once and never a raw newline.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claimledger.cli import app
from claims.errors import InputError, PolicyError, RegisterError
from claims.ingest import scan_sources
from claims.register import load_register
from claims.settings import get_settings
from review.policy import load_policy

ROOT = Path(__file__).resolve().parent.parent
POLICY = """\
policy_id: office-handbook
version: {version}
tiers: [board, management, staff]
"""
REGISTER = """\
tiers: [official]
sources:
  handbook:
    tier: official
  handbook-2025:
    tier: official
    supersedes:
      - source: handbook
        version: {version}
"""


def _write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


def test_policy_version_is_kept_as_written(tmp_path: Path) -> None:
    for written, kept in (("3.10", "3.10"), ("3.1", "3.1"), ("2", "2"), ("'1.0'", "1.0")):
        policy = load_policy(_write(tmp_path / "policy.yaml", POLICY.format(version=written)))
        assert policy.version == kept
        assert policy.stamp.startswith(f"{kept}+")


def test_policy_with_a_duplicate_key_is_rejected_with_its_line(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "policy.yaml",
        POLICY.format(version="4") + "materiality:\n  relative_threshold: 0.1\n"
        "  relative_threshold: 0.5\n",
    )
    with pytest.raises(PolicyError) as caught:
        load_policy(path)
    assert str(caught.value) == (
        f"{path}:6: key 'relative_threshold' is given twice in one mapping; keep one"
    )


@pytest.mark.parametrize("tagged", ["!!str 5", "!!float 5", "!include other.yaml", "!!binary aGk="])
def test_yaml_tags_are_rejected_in_the_policy_and_the_register(tmp_path: Path, tagged: str) -> None:
    policy = _write(tmp_path / "policy.yaml", POLICY.format(version=tagged))
    with pytest.raises(PolicyError, match=r"policy.yaml:2: YAML tags are not accepted here"):
        load_policy(policy)
    register = _write(tmp_path / "register.yaml", REGISTER.format(version=tagged))
    with pytest.raises(RegisterError, match=r"register.yaml:9: YAML tags are not accepted here"):
        load_register(register)


def test_a_register_version_too_large_for_the_database_is_a_field_error(tmp_path: Path) -> None:
    path = _write(tmp_path / "register.yaml", REGISTER.format(version=2**63))
    with pytest.raises(RegisterError) as caught:
        load_register(path)
    assert str(caught.value) == (
        f"{path}:9: sources.handbook-2025.supersedes.version: must be a version number "
        "from 1 to 2147483647"
    )
    assert load_register(_write(path, REGISTER.format(version=2**31 - 1))).entries


def test_utf16_files_are_named_as_utf16(tmp_path: Path) -> None:
    policy = _write(tmp_path / "policy.yaml", POLICY.format(version="1"), "utf-16")
    with pytest.raises(PolicyError) as caught:
        load_policy(policy)
    assert str(caught.value) == (
        f"{policy}: the policy file is UTF-16 (little-endian), not UTF-8; save it as UTF-8"
    )
    register = _write(tmp_path / "register.yaml", REGISTER.format(version=1), "utf-16-be")
    with pytest.raises(RegisterError, match=r"the register is UTF-16 \(big-endian\), not UTF-8"):
        load_register(register)
    note = _write(tmp_path / "memo.txt", "The office opens at 9 am.\n", "utf-16")
    (rejected,) = scan_sources([note]).rejected
    assert rejected.reason == "the file is UTF-16 (little-endian), not UTF-8; convert it to UTF-8"
    assert "binary" not in rejected.reason


def test_policy_apply_as_must_name_a_known_reviewer_or_admin(
    cli_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reviewers = _write(tmp_path / "reviewers.yaml", "reviewers:\n  - name: alice\n")
    monkeypatch.setenv("CLAIMS_REVIEWERS_FILE", str(reviewers))
    monkeypatch.delenv("CLAIMS_REVIEWER", raising=False)
    get_settings.cache_clear()
    policy = str(_write(tmp_path / "policy.yaml", POLICY.format(version="3.10")))
    runner = CliRunner()

    forged = runner.invoke(app, ["policy", "apply", policy, "--as", "mallory"])
    assert forged.exit_code != 0
    assert isinstance(forged.exception, InputError)
    assert "'mallory' is neither a reviewer of the reviewers file (known: alice)" in str(
        forged.exception
    )

    applied = runner.invoke(app, ["policy", "apply", policy, "--as", "alice"])
    assert applied.exit_code == 0, applied.output
    assert "version 3.10+" in applied.output
    listed = runner.invoke(app, ["policy", "list"])
    assert "by alice" in listed.output

    by_admin = _write(tmp_path / "policy-4.yaml", POLICY.format(version="4"))
    applied = runner.invoke(app, ["policy", "apply", str(by_admin), "--as", "admin"])
    assert applied.exit_code == 0, applied.output
    assert "by admin:" in runner.invoke(app, ["policy", "list"]).output


def test_error_lines_name_a_path_once_and_hold_no_raw_newline(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    _write(folder / "two\nlines.txt", "")
    _write(folder / "ok.txt", "The office opens at 9 am.\n")
    policy = _write(tmp_path / "policy.yaml", "policy_id: x\nversion: [1,\n")
    env = {**os.environ, "CLAIMS_DATA_DIR": str(tmp_path / ".claims")}

    def claims(*args: str) -> str:
        result = subprocess.run(
            [sys.executable, "-m", "claimledger", *args],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
            cwd=ROOT,
        )
        assert result.returncode == 2, result.stderr
        return result.stderr

    ingest = claims("ingest", str(folder))
    assert ingest.splitlines()[1:] == [
        f"  {folder}/two\\nlines.txt: the file is empty; there is nothing to ingest"
    ]
    for stderr in (ingest, claims("policy", "validate", str(policy))):
        for line in stderr.splitlines():
            assert line.count(str(tmp_path)) <= 1, line
    bad_yaml = claims("policy", "validate", str(policy)).strip()
    assert "\n" not in bad_yaml and bad_yaml.startswith(f"error: {policy}:")
