"""Authority policy: validation names file and field, versions are stamped and all kept."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from review_ledger import FIXTURES
from sqlalchemy import Engine, func, select

from claims.errors import PolicyError
from claims.store import transaction
from claims.tables import AuditEventRow, AuthorityPolicyRow
from review.policy import active_policy, apply_policy, load_policy, parse_policy, policy_versions


def test_policy_stamp_is_declared_version_plus_content_hash() -> None:
    policy = load_policy(FIXTURES / "policy.yaml")
    declared, digest = policy.stamp.split("+")
    assert declared == "1"
    assert len(digest) == 12 and digest == policy.content_hash[:12]


def test_reformatted_policy_keeps_its_stamp_but_changed_content_gets_a_new_one(
    tmp_path: Path,
) -> None:
    original = load_policy(FIXTURES / "policy.yaml")
    content = yaml.safe_load((FIXTURES / "policy.yaml").read_text())
    reordered = dict(reversed(list(content.items())))
    (tmp_path / "flow.yaml").write_text(yaml.safe_dump(reordered, default_flow_style=True))
    assert load_policy(tmp_path / "flow.yaml").stamp == original.stamp

    content["tiers"] = ["board", "regulator", "management", "draft"]  # same declared version
    changed = parse_policy(content, location="edited.yaml")
    assert changed.version == original.version
    assert changed.stamp != original.stamp


def test_duplicate_tier_and_bad_threshold_errors_name_file_and_fields() -> None:
    path = FIXTURES / "policy_bad_tier.yaml"
    with pytest.raises(PolicyError) as caught:
        load_policy(path)
    message = str(caught.value)
    assert message.startswith(str(path))
    assert "field 'tiers'" in message and "'board' is listed twice" in message
    assert "field 'materiality.relative_threshold'" in message
    assert "field 'auto_resolution[0].kind'" in message


def test_misspelled_field_is_reported_as_unknown() -> None:
    with pytest.raises(PolicyError, match=r"field 'high_risk_predicate': unknown field"):
        load_policy(FIXTURES / "policy_unknown_field.yaml")


def test_malformed_yaml_names_file_and_line() -> None:
    path = FIXTURES / "policy_bad_yaml.yaml"
    with pytest.raises(PolicyError, match=rf"^{path}:\d+: not valid YAML"):
        load_policy(path)


def test_rule_that_would_decide_high_risk_predicates_is_refused() -> None:
    content = yaml.safe_load((FIXTURES / "policy.yaml").read_text())
    content["auto_resolution"][0]["applies_to_high_risk"] = True
    with pytest.raises(PolicyError, match=r"auto_resolution\[0\]\.applies_to_high_risk"):
        parse_policy(content, location="policy.yaml")


def test_high_risk_patterns_match_exact_keys_and_globs() -> None:
    policy = load_policy(FIXTURES / "policy.yaml")
    assert policy.high_risk_pattern("acme|dividend_per_share") == "acme|dividend*"
    assert policy.high_risk_pattern("bank|capital_ratio") == "*|capital_ratio"
    assert policy.high_risk_pattern("acme|headcount") is None


def test_applying_policies_keeps_every_version_and_audits_each_application(
    engine: Engine,
) -> None:
    v1 = load_policy(FIXTURES / "policy.yaml")
    v2 = load_policy(FIXTURES / "policy_v2_no_rules.yaml")
    with transaction(engine) as session:
        assert apply_policy(session, v1, actor="admin")[1] is True
        assert apply_policy(session, v1, actor="admin")[1] is False  # already active: no-op
        apply_policy(session, v2, actor="admin")
        assert active_policy(session).stamp == v2.stamp
        apply_policy(session, v1, actor="admin")  # back to an older version
        assert active_policy(session).stamp == v1.stamp
        versions = {v.version for v in policy_versions(session)}
        applications = session.scalar(
            select(func.count()).where(AuditEventRow.action == "policy.apply")
        )
        stored = session.scalar(select(func.count()).select_from(AuthorityPolicyRow))
    assert versions == {v1.stamp, v2.stamp}
    assert stored == 2
    assert applications == 3


def test_policy_feeds_the_edge_builders_materiality_settings() -> None:
    settings = load_policy(FIXTURES / "policy.yaml").materiality_settings()
    assert settings.authority_tiers == ["regulator", "board", "management", "draft"]
    assert settings.relative_difference_threshold == 0.05
    assert settings.tier_gap_resolvable == 1
    assert settings.high_risk_predicates == ["acme dividend", "capital_ratio"]
    no_rules = load_policy(FIXTURES / "policy_v2_no_rules.yaml").materiality_settings()
    assert no_rules.tier_gap_resolvable == 5  # no tier rule: no tier gap settles a conflict
