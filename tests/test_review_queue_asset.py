"""The ``review_queue`` asset, materialized in-process on a real Dagster instance."""

from __future__ import annotations

import dagster as dg
from review_ledger import DIVIDEND, FIXTURES, HEADCOUNT, LIMIT, ReviewLedger, item_for_key
from sqlalchemy import Engine

from claims.models import ReviewState
from pipeline.assets.review import review_queue
from pipeline.resources import ClaimStore


def _materialize(engine: Engine, policy_file: str = "") -> dg.ExecuteInProcessResult:
    return dg.materialize(
        [review_queue],
        resources={"store": ClaimStore(database_url=str(engine.url))},
        run_config={"ops": {"review_queue": {"config": {"policy_file": policy_file}}}},
        instance=dg.DagsterInstance.ephemeral(),
    )


def _metadata(result: dg.ExecuteInProcessResult) -> dict[str, object]:
    (materialization,) = result.asset_materializations_for_node("review_queue")
    return {key: value.value for key, value in materialization.metadata.items()}


def test_review_queue_routes_under_the_configured_policy_and_reports_metrics(
    engine: Engine,
) -> None:
    ReviewLedger(engine).load()
    result = _materialize(engine, str(FIXTURES / "policy.yaml"))
    assert result.success
    metadata = _metadata(result)
    assert metadata["mode"] == "full"
    assert "keys_refreshed" not in metadata  # a full routing is "mode": "full", never a -1 count
    assert metadata["conflict_sets"] == 3 and metadata["opened"] == 3
    assert metadata["auto_resolved"] == 1
    assert metadata["metric_conflict_candidates"] == 5
    assert metadata["metric_share_auto_resolved"] == 1.0
    assert "acme|dividend*" in str(metadata["open_high_risk_by_predicate"])
    assert item_for_key(engine, HEADCOUNT).state is ReviewState.RESOLVED
    assert item_for_key(engine, DIVIDEND).state is ReviewState.OPEN

    again = _metadata(_materialize(engine, str(FIXTURES / "policy.yaml")))
    assert again["opened"] == 0 and again["auto_resolved"] == 0 and again["reopened"] == 0


def test_without_any_policy_every_conflict_waits_for_a_person(engine: Engine) -> None:
    ReviewLedger(engine).load()
    metadata = _metadata(_materialize(engine))
    assert str(metadata["policy_version"]).startswith("0+")
    assert metadata["auto_resolved"] == 0
    for key in (DIVIDEND, HEADCOUNT, LIMIT):
        assert item_for_key(engine, key).state is ReviewState.OPEN


def test_review_queue_is_part_of_the_code_location() -> None:
    from pipeline.definitions import defs

    keys = {key.to_user_string() for key in defs.resolve_all_asset_keys()}
    assert {"claim_edges", "review_queue"} <= keys
