"""Every command that reads the register validates it the same way: a `supersedes` naming a
source that exists nowhere stops ingest, `claims run`, the `source_register` asset and the
sensor alike, with one error naming file, line and field, and no phantom source."""

from __future__ import annotations

import shutil
from pathlib import Path

import dagster as dg
import pytest
from sqlalchemy import create_engine, select
from typer.testing import CliRunner

from claimledger.cli import app
from claims.errors import RegisterError
from claims.tables import SourceRow
from pipeline.definitions import build_definitions
from tests.pipeline_support import FIXTURES, make_world

UNKNOWN = "policies/never-written"
EXPECTED = f"sources.policies/notice-period.supersedes: unknown source '{UNKNOWN}'"


def _register_naming_an_unknown_source(path: Path) -> Path:
    text = (FIXTURES / "register.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "    title: Notice period policy\n",
        f"    title: Notice period policy\n    supersedes:\n      - {UNKNOWN}\n",
    )
    path.write_text(text, encoding="utf-8")
    return path


def _line_of_unknown(register: Path) -> int:
    lines = register.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if UNKNOWN in line)


def _stored_source_ids(database_url: str) -> set[str]:
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            return set(connection.scalars(select(SourceRow.id)))
    finally:
        engine.dispose()


def test_ingest_and_run_reject_the_same_register_with_the_same_error(
    cli_env: Path, tmp_path: Path
) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(FIXTURES / "corpus", corpus)
    register = _register_naming_an_unknown_source(tmp_path / "register.yaml")
    where = f"{register}:{_line_of_unknown(register)}"
    runner = CliRunner()

    ingested = runner.invoke(app, ["ingest", str(corpus), "--register", str(register)])
    ran = runner.invoke(app, ["run", str(corpus), "--register", str(register)])

    for result in (ingested, ran):  # the CLI maps RegisterError to exit code 2, once
        assert isinstance(result.exception, RegisterError), result.output
        assert str(result.exception).startswith(f"{where}: {EXPECTED}")
    assert str(ingested.exception) == str(ran.exception)
    database = f"sqlite:///{cli_env / 'claims.db'}"
    assert UNKNOWN not in _stored_source_ids(database)  # no phantom source
    assert _stored_source_ids(database) == set()  # nothing half-written


def test_source_register_asset_rejects_a_supersedes_naming_no_source(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    _register_naming_an_unknown_source(world.register)
    from pipeline.assets.sources import source_register

    with pytest.raises(RegisterError, match=EXPECTED):
        dg.materialize([source_register], resources=world.resources(), instance=world.instance)
    assert _stored_source_ids(world.database_url) == set()


def test_sensor_requests_nothing_for_a_register_that_names_no_source(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    _register_naming_an_unknown_source(world.register)
    defs = build_definitions(world.resources())
    sensor = defs.resolve_sensor_def("source_files_sensor")
    with dg.build_sensor_context(
        instance=world.instance, resources=world.resources(), definitions=defs
    ) as context:
        result = sensor(context)
    assert isinstance(result, dg.SkipReason)
    assert EXPECTED in (result.skip_message or "")


def test_a_supersedes_naming_a_file_of_the_same_run_is_accepted(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    text = world.register.read_text(encoding="utf-8").replace(
        "    title: Staff handbook\n",
        "    title: Staff handbook\n    supersedes:\n      - ops/checkout-slo\n",
    )
    world.register.write_text(text, encoding="utf-8")
    from tests.pipeline_support import run_quietly

    run_quietly(world)
    assert "ops/checkout-slo" in _stored_source_ids(world.database_url)
