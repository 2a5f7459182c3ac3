"""The ``conflict_status`` asset and its blocking known-conflict check, on a real instance."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import pytest
from retrieval_cases import CASE_IDS, CASES, load_case
from sqlalchemy import Engine, select

from claims.settings import get_settings
from claims.tables import ClaimStatusRow
from pipeline.assets.status import conflict_status, known_conflicts_answered_as_expected
from pipeline.resources import ClaimStore
from retrieval.probes import BUNDLED_PROBES, load_probes

FIXTURES = Path(__file__).parent / "fixtures" / "retrieval"


def _materialize(
    engine: Engine, probes: Path, monkeypatch: pytest.MonkeyPatch
) -> dg.ExecuteInProcessResult:
    monkeypatch.setenv("CLAIMS_PROBES_FILE", str(probes))
    get_settings.cache_clear()
    try:
        return dg.materialize(
            [conflict_status, known_conflicts_answered_as_expected],
            resources={"store": ClaimStore(database_url=str(engine.url))},
            instance=dg.DagsterInstance.ephemeral(),
            raise_on_error=False,
        )
    finally:
        get_settings.cache_clear()


def _check(result: dg.ExecuteInProcessResult) -> dg.AssetCheckEvaluation:
    (evaluation,) = result.get_asset_check_evaluations()
    return evaluation


def test_conflict_status_writes_the_read_model_and_probes_pass(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_case(engine, CASES[CASE_IDS.index("unresolved")])
    result = _materialize(engine, FIXTURES / "probes.yaml", monkeypatch)
    assert result.success
    (materialization,) = result.asset_materializations_for_node("conflict_status")
    assert materialization.metadata["status_contested"].value == 2
    with engine.connect() as conn:
        rows = conn.execute(select(ClaimStatusRow.status, ClaimStatusRow.review_item_id)).all()
    assert [r.status for r in rows] == ["contested", "contested"]
    assert all(r.review_item_id for r in rows)
    evaluation = _check(result)
    assert evaluation.passed
    assert evaluation.metadata["probes_run"].value == 1
    assert evaluation.metadata["probes_skipped"].value == 1


def test_a_probe_answered_differently_fails_the_blocking_check(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_case(engine, CASES[CASE_IDS.index("unresolved")])
    evaluation = _check(_materialize(engine, FIXTURES / "probes_wrong.yaml", monkeypatch))
    assert not evaluation.passed
    assert evaluation.metadata["probes_failed"].value == 1
    assert "status conflict (expected answered)" in str(evaluation.metadata["results"].value)


def test_bundled_probes_load_and_the_check_is_in_the_code_location() -> None:
    assert {p.id for p in load_probes(BUNDLED_PROBES)} >= {"seed004-unresolved"}
    from pipeline.definitions import defs

    keys = {key.to_user_string() for key in defs.resolve_all_asset_keys()}
    assert "conflict_status" in keys
    checks = {key.name for key in defs.resolve_asset_graph().asset_check_keys}
    assert "known_conflicts_answered_as_expected" in checks
