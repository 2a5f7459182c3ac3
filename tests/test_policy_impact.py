"""Applying a policy re-evaluates every open and rule-decided item at once and shows the
diff (issue 16): newly auto-resolved items, rule decisions whose winner changed, items
reopened, with before and after; kept in the audit log. ``--dry-run`` shows the same diff
and writes nothing. The domain function runs on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from review_ledger import DIVIDEND, FIXTURES, HEADCOUNT, LIMIT, ReviewLedger, item_for_key
from sqlalchemy import Engine, func, select
from typer.testing import CliRunner

from claimledger.cli import app
from claims.settings import get_settings
from claims.store import make_engine, transaction
from claims.store.engine import session_factory
from claims.tables import AuditEventRow, AuthorityPolicyRow, ResolutionRow, ReviewItemRow
from review.policy import apply_policy, load_policy, parse_policy
from review.policy_impact import apply_with_impact, recorded_impacts
from review.routing import route

runner = CliRunner()


def _policy_file(tmp_path: Path, name: str, **changes: object) -> Path:
    content = yaml.safe_load((FIXTURES / "policy.yaml").read_text(encoding="utf-8"))
    content.update(changes)
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(content), encoding="utf-8")
    return path


def _snapshot(engine: Engine) -> tuple[int, int, int, list[tuple[str, str, int]]]:
    with transaction(engine) as session:
        return (
            session.scalar(select(func.count()).select_from(AuditEventRow)) or 0,
            session.scalar(select(func.count()).select_from(ResolutionRow)) or 0,
            session.scalar(select(func.count()).select_from(AuthorityPolicyRow)) or 0,
            [
                (r.id, r.state, r.revision)
                for r in session.scalars(select(ReviewItemRow).order_by(ReviewItemRow.id))
            ],
        )


@pytest.fixture
def store(migrated_url: str) -> Iterator[Engine]:
    """The review corpus routed under a policy without rules: every conflict waits."""
    engine = make_engine(migrated_url)
    ReviewLedger(engine).load()
    content = yaml.safe_load((FIXTURES / "policy.yaml").read_text(encoding="utf-8"))
    content["auto_resolution"] = []
    no_rules = parse_policy(content, location="no-rules")
    with transaction(engine) as session:
        apply_policy(session, no_rules, actor="admin")
        route(session, no_rules)
    yield engine
    engine.dispose()


def test_a_new_rule_decides_open_items_at_once_and_the_diff_is_audited(store: Engine) -> None:
    assert item_for_key(store, HEADCOUNT).state.value == "open"
    policy = load_policy(FIXTURES / "policy.yaml")
    with transaction(store) as session:
        _, impact, _ = apply_with_impact(session, policy, actor="admin")
    assert impact.counts() == {
        "auto_resolved": 1,
        "winner_changed": 0,
        "reopened": 0,
        "opened": 0,
        "rescored": 0,
    }
    (change,) = impact.changes
    assert change.claim_key == HEADCOUNT
    assert change.before is not None and change.before["state"] == "open"
    assert change.after["state"] == "resolved" and change.after["decided_by"] == "rule:higher-tier"
    assert change.after["winners"] == ["annual-report-2025 (c-staff-report)"]
    assert item_for_key(store, HEADCOUNT).state.value == "resolved"  # no `claims run` needed
    with transaction(store) as session:
        (kept,) = recorded_impacts(session, "acme-authority")
    assert kept["to_version"] == policy.stamp and kept["actor"] == "admin"
    assert kept["changes"][0]["item_id"] == change.item_id


def test_a_reordered_tier_list_changes_the_winner_and_a_high_risk_pattern_reopens(
    store: Engine, tmp_path: Path
) -> None:
    with transaction(store) as session:
        apply_with_impact(session, load_policy(FIXTURES / "policy.yaml"), actor="admin")
    swapped = load_policy(
        _policy_file(tmp_path, "swapped", tiers=["regulator", "draft", "management", "board"])
    )
    with transaction(store) as session:
        _, impact, _ = apply_with_impact(session, swapped, actor="admin")
    (change,) = impact.of_kind("winner_changed")
    assert change.before is not None
    assert change.before["winners"] == ["annual-report-2025 (c-staff-report)"]
    assert change.after["winners"] == ["careers-blog (c-staff-blog)"]

    guarded = load_policy(
        _policy_file(tmp_path, "guarded", high_risk_predicates=["acme|dividend*", "acme|head*"])
    )
    with transaction(store) as session:
        _, impact, _ = apply_with_impact(session, guarded, actor="admin")
    (reopened,) = impact.of_kind("reopened")
    assert reopened.claim_key == HEADCOUNT
    assert reopened.before is not None and reopened.before["decided_by"] == "rule:higher-tier"
    assert reopened.after["state"] == "open" and reopened.after["high_risk"] is True
    assert item_for_key(store, HEADCOUNT).state.value == "open"


def test_a_dry_run_computes_the_same_diff_and_writes_nothing(store: Engine) -> None:
    policy = load_policy(FIXTURES / "policy.yaml")
    before = _snapshot(store)
    session = session_factory(store)()
    try:
        _, dry, _ = apply_with_impact(session, policy, actor="admin", record=False)
        session.rollback()
    finally:
        session.close()
    assert dry.dry_run and dry.counts()["auto_resolved"] == 1
    assert _snapshot(store) == before
    with transaction(store) as session:
        _, real, _ = apply_with_impact(session, policy, actor="admin")
    assert [c.as_dict() for c in dry.changes] == [c.as_dict() for c in real.changes]


@pytest.fixture
def cli_store(cli_env: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Engine]:
    monkeypatch.setenv("CLAIMS_REVIEWERS_FILE", str(FIXTURES / "reviewers.yaml"))
    get_settings.cache_clear()
    from claims.store.migrate import upgrade

    url = get_settings().resolved_database_url
    upgrade(url)
    engine = make_engine(url)
    ReviewLedger(engine).load()
    yield engine
    engine.dispose()


def _cli(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def test_cli_dry_run_then_apply_print_the_diff_per_item(cli_store: Engine, tmp_path: Path) -> None:
    _cli("policy", "apply", str(FIXTURES / "policy.yaml"), "--as", "admin")
    swapped = _policy_file(tmp_path, "swapped", tiers=["regulator", "draft", "management", "board"])
    before = _snapshot(cli_store)
    dry = _cli("policy", "apply", str(swapped), "--dry-run")
    assert dry.startswith("would apply policy acme-authority version 1+")
    assert "1 rule decision changed winner" in dry
    assert (
        f"rule decision changed winner: {item_for_key(cli_store, HEADCOUNT).id} {HEADCOUNT}: "
        "resolved by rule:higher-tier, winner annual-report-2025 (c-staff-report), risk 0.10 -> "
        "resolved by rule:higher-tier, winner careers-blog (c-staff-blog), risk 0.10"
    ) in dry
    assert "dry run: nothing was written" in dry
    assert _snapshot(cli_store) == before

    applied = json.loads(_cli("policy", "apply", str(swapped), "--json"))
    assert applied["counts"]["winner_changed"] == 1 and not applied["dry_run"]
    shown = _cli("policy", "show")
    assert "tiers (highest first): regulator, draft, management, board" in shown
    assert "1 rule decision changed winner" in shown
    assert {i["claim_key"] for i in json.loads(_cli("review", "list", "--json"))} == {
        DIVIDEND,
        LIMIT,
    }
