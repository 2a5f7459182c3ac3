"""The ``claims`` group imports a command's module only when that command runs
(claimledger/cli/lazy.py). Every command is still listed, resolved and runnable; the table
of names matches what the modules register; and a command loads its own module, not the
others'. Processes are fresh interpreters, so ``sys.modules`` tells what was imported."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import typer
import typer.main
from cli_modules import fee_note_run, modules_loaded_by


def _claims(tmp_path: Path, *args: str) -> tuple[set[str], subprocess.CompletedProcess]:
    return modules_loaded_by(tmp_path, *args, COLUMNS="200")


def _command_modules(modules: set[str]) -> set[str]:
    return {m for m in modules if m.startswith("claimledger.cli.")} - {
        "claimledger.cli.app",
        "claimledger.cli.lazy",
        "claimledger.cli.safe_text",
        "claimledger.cli.startup",
    }


def test_the_table_names_exactly_what_the_modules_register() -> None:
    from claimledger.cli import app
    from claimledger.cli.lazy import COMMANDS, load_all_commands

    load_all_commands()
    registered = [c.name for c in app.registered_commands] + [g.name for g in app.registered_groups]
    assert registered and None not in registered
    assert sorted(registered) == sorted(COMMANDS)  # type: ignore[type-var]
    # the group lists them in the table's order (what --help shows), whatever order the
    # modules happened to be imported in
    group = typer.main.get_group(app)
    assert group.list_commands(typer.Context(group)) == list(COMMANDS)


def test_help_lists_every_command_with_its_summary(tmp_path: Path) -> None:
    from claimledger.cli.lazy import COMMANDS

    _, done = _claims(tmp_path, "--help")
    assert done.returncode == 0, done.stderr
    listed = [line.split()[1] for line in done.stdout.splitlines() if line.startswith("│ ")]
    assert [name for name in listed if name in COMMANDS] == list(COMMANDS)
    assert "Run the whole pipeline in-process" in done.stdout
    assert "List, claim and decide review items." in done.stdout


def test_the_version_loads_no_command_module(tmp_path: Path) -> None:
    modules, done = _claims(tmp_path, "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("claimledger ")
    assert _command_modules(modules) == set()
    # nor the store or the settings: nothing of SQLAlchemy or pydantic
    assert "sqlalchemy" not in modules and "pydantic" not in modules


def test_extract_loads_its_module_and_not_the_stores_commands(tmp_path: Path) -> None:
    text = tmp_path / "fees.txt"
    text.write_text("The annual fee for the visitor pass is 40 EUR.\n", encoding="utf-8")
    modules, done = _claims(tmp_path, "extract", str(text), "--json")
    assert done.returncode == 0, done.stderr
    assert "40" in done.stdout
    assert _command_modules(modules) == {"claimledger.cli.extract"}
    assert "dagster" not in modules and "review" not in modules


@pytest.mark.parametrize(
    ("args", "module", "expect"),
    [
        (["schema"], "schema", '"Claim"'),
        (["db", "current"], "db", ""),
        (["review", "list"], "review", ""),
        (["policy", "list"], "policy", ""),
        (["sources", "list"], "sources", ""),
        (["audit", "verify"], "audit", ""),
        (["metrics", "--json"], "metrics", "{"),
        (["conflicts"], "conflicts", ""),
        (["access", "--help"], "access", "token"),
        (["serve", "--help"], "serve", "reviewer UI"),
        (["ui", "--help"], "run", "dagster dev"),
        (["check", "--help"], "check", "claim pair"),
        (["ingest", "--help"], "ingest", "new versions"),
    ],
)
def test_each_command_module_still_runs_a_real_command(
    tmp_path: Path, args: list[str], module: str, expect: str
) -> None:
    modules, done = _claims(tmp_path, *args)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    assert expect in done.stdout
    assert f"claimledger.cli.{module}" in modules


def test_status_and_ask_answer_on_a_real_store(tmp_path: Path) -> None:
    ran_in, _, ran = fee_note_run()
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["claims"] >= 1
    shutil.copytree(ran_in / ".claims", tmp_path / ".claims")  # the run's store, ours alone
    modules, asked = _claims(tmp_path, "ask", "What is the annual fee for the visitor pass?")
    assert asked.returncode == 0, asked.stderr
    assert "40" in asked.stdout
    assert "claimledger.cli.run" not in modules and "dagster" not in modules


def test_an_unknown_command_is_refused_with_close_names(tmp_path: Path) -> None:
    _, done = _claims(tmp_path, "revew")
    assert done.returncode == 2
    assert "No such command 'revew'" in done.stderr
    assert "Did you mean 'review'" in done.stderr


def test_claims_run_loads_only_its_own_command_module() -> None:
    _, modules, done = fee_note_run()
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["claims"] >= 1
    assert _command_modules(modules) == {"claimledger.cli.run"}
    # what the pipeline itself needs is there; the web app and the HTTP stack are not
    assert {"pipeline.runner", "dagster", "claims.extraction"} <= modules
    assert not {"fastapi", "uvicorn", "starlette", "review.web", "retrieval.http"} & modules
