"""`claims conflicts` lists the store's conflict and ambiguous edges with both sides."""

from __future__ import annotations

import json
from pathlib import Path

from edge_fixtures import claim_from_spec
from typer.testing import CliRunner

from claimledger.cli import app
from claims.edge_refresh import recompute_edges
from claims.settings import get_settings
from claims.store import (
    ClaimRepository,
    GenerationRepository,
    SourceRepository,
    make_engine,
    transaction,
)
from tests.store_template import upgrade  # a copy of a store migrated once

runner = CliRunner()


def _seed_store() -> None:
    url = get_settings().resolved_database_url
    upgrade(url)
    engine = make_engine(url)
    try:
        with transaction(engine) as session:
            GenerationRepository(session).ensure("g1", "test")
            GenerationRepository(session).promote("g1", {})
            for source, value, scope in (
                ("filing-q1", 12, {}),
                ("filing-q1-restated", 30, {}),
                ("filing-q2", 15, {"period": "q2"}),
            ):
                text = f"The dividend for the period was {value} cents per share."
                version, _ = SourceRepository(session).add_version(source, text)
                spec = {
                    "key": "dividend",
                    "value": value,
                    "unit": "cents per share",
                    "scale": 0.01,
                    "dimension": "USD/share",
                    "scope": scope,
                    "source": source,
                    "version": version.id,
                    "quote": text,
                }
                ClaimRepository(session).add_all(
                    [claim_from_spec(spec, default_source=source, generation="g1")]
                )
            recompute_edges(session, "g1")
    finally:
        engine.dispose()


def test_conflicts_json_lists_both_sides_with_values_and_quotes(cli_env: Path) -> None:
    _seed_store()
    out = runner.invoke(app, ["conflicts", "--json"])
    assert out.exit_code == 0, out.output
    entries = json.loads(out.output)
    kinds = sorted(e["kind"] for e in entries)
    # 12 vs 30 conflict; the Q2 figure against the unscoped ones is ambiguous (one-sided scope)
    assert kinds == ["ambiguous", "ambiguous", "conflicts"]
    conflict = next(e for e in entries if e["kind"] == "conflicts")
    sides = {conflict["left"]["source_id"], conflict["right"]["source_id"]}
    assert sides == {"filing-q1", "filing-q1-restated"}
    assert {conflict["left"]["value"], conflict["right"]["value"]} == {
        "12 cents per share",
        "30 cents per share",
    }
    assert "12 cents" in conflict["left"]["quote"] + conflict["right"]["quote"]
    assert conflict["material"] is True


def test_conflicts_table_and_material_filter(cli_env: Path) -> None:
    _seed_store()
    out = runner.invoke(app, ["conflicts", "--material"])
    assert out.exit_code == 0, out.output
    assert "conflicts" in out.output and "1 edge(s)" in out.output


def test_conflicts_on_an_empty_store(cli_env: Path) -> None:
    out = runner.invoke(app, ["conflicts"])
    assert out.exit_code == 0, out.output
    assert "no conflict" in out.output
