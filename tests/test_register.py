"""The source register: validation names file, line and field; application is trusted-only."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, select

from claims.errors import RegisterError
from claims.ingest import ingest, scan_sources
from claims.models import SupersedesRef
from claims.register import apply_register, load_register
from claims.store import SourceRepository, transaction
from claims.tables import AuditEventRow

FIXTURES = Path(__file__).parent / "fixtures"
REGISTERS = FIXTURES / "register"
REPO = Path(__file__).resolve().parent.parent


def test_sample_register_declares_tiers_groups_and_dated_supersession() -> None:
    register = load_register(REPO / "samples" / "register.yaml")

    assert register.tiers == ("official", "approved", "reference", "informal")
    assert len(register.entries) == 20
    travel = register.entries["policies/travel-2026"].source
    assert travel.supersedes == [
        SupersedesRef(source_id="policies/travel-2019", effective_from=date(2026, 1, 1))
    ]
    assert register.entries["finance/filing-q1-restated"].source.access_groups == ["finance"]
    assert register.entries["finance/filing-q1"].source.access_groups == []
    mapped = REPO / "samples" / "corpus" / "policies" / "travel_policy_2019_FINAL.md"
    assert register.source_id_for(mapped) == "policies/travel-2019"


def test_register_entries_keep_title_tier_dates_and_versioned_supersedes() -> None:
    register = load_register(REGISTERS / "good.yaml")

    beta = register.entries["notes/beta"]
    assert beta.line == 8
    assert beta.source.title == "Storage note"
    assert beta.source.authority_tier == "internal"
    assert beta.source.access_groups == ["finance", "ops"]
    assert beta.source.supersedes == [
        SupersedesRef(source_id="alpha", version=1, effective_from=date(2026, 2, 1))
    ]
    assert register.entries["alpha"].source.effective_from == date(2025, 1, 1)
    assert register.tier_rank("official") < register.tier_rank("internal")
    assert register.tier_rank(None) == len(register.tiers)


@pytest.mark.parametrize(
    ("fixture", "line", "expected"),
    [
        ("invalid-yaml.yaml", 5, "invalid YAML: expected ',' or ']'"),
        ("unknown-key.yaml", 5, "sources.alpha.tire: unknown key"),
        ("unknown-top-key.yaml", 2, "defaults: unknown key"),
        ("unknown-tier.yaml", 5, "sources.alpha.tier: unknown tier 'gold'"),
        ("bad-date.yaml", 4, "sources.alpha.effective_from: '2026-13-01' is not a valid date"),
        ("bad-date-text.yaml", 5, "sources.alpha.effective_to: 'next spring' is not a valid date"),
        ("dates-reversed.yaml", 5, "sources.alpha.effective_to: 2025-12-31 is before"),
        ("datetime.yaml", 4, "sources.alpha.effective_from: '2026-01-01 09:30:00' has a time"),
        ("supersedes-self.yaml", 4, "sources.alpha.supersedes: a source cannot supersede itself"),
        ("supersedes-cycle.yaml", 3, "supersedes cycle alpha -> notes/beta -> gamma -> alpha"),
        ("bad-version.yaml", 7, "sources.notes/beta.supersedes.version: must be a version number"),
        ("duplicate-source.yaml", 5, "sources.alpha: is given twice"),
        ("groups-not-list.yaml", 4, "sources.alpha.access_groups: must be a list"),
        ("withdrawn-not-bool.yaml", 4, "sources.alpha.withdrawn: must be true or false"),
        ("missing-tiers.yaml", 1, "tiers: missing"),
        ("empty.yaml", 1, "the register is empty"),
        ("bad-source-id.yaml", 3, "invalid source id '../outside'"),
    ],
)
def test_invalid_register_names_file_line_and_field(fixture: str, line: int, expected: str) -> None:
    path = REGISTERS / fixture
    with pytest.raises(RegisterError) as caught:
        load_register(path)
    assert str(caught.value).startswith(f"{path}:{line}: ")
    assert expected in str(caught.value)


def test_missing_register_file_is_a_register_error(tmp_path: Path) -> None:
    with pytest.raises(RegisterError, match="no such register file"):
        load_register(tmp_path / "register.yaml")


def test_non_utf8_register_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "register.yaml"
    path.write_bytes(
        "tiers: [official]\nsources:\n  a:\n    title: Gr\xfc\xdfe\n".encode("latin-1")
    )
    with pytest.raises(RegisterError, match=r"register.yaml:4: the register is not valid UTF-8"):
        load_register(path)


def test_supersedes_of_unknown_source_names_file_line_and_field() -> None:
    register = load_register(REGISTERS / "missing-supersedes.yaml")
    with pytest.raises(RegisterError) as caught:
        register.check_references(set())
    message = str(caught.value)
    assert message.startswith(f"{REGISTERS / 'missing-supersedes.yaml'}:6: ")
    assert "sources.alpha.supersedes: unknown source 'ghost-policy'" in message


def test_supersedes_may_name_a_stored_or_ingested_source() -> None:
    register = load_register(REGISTERS / "missing-supersedes.yaml")
    register.check_references({"ghost-policy"})  # e.g. stored earlier or in this ingest


def test_applying_a_register_writes_trusted_metadata_and_reports_changes(engine: Engine) -> None:
    register = load_register(REGISTERS / "good.yaml")
    with transaction(engine) as session:
        changed = apply_register(session, register)
    assert changed == ["alpha", "notes/beta", "front-matter"]

    with transaction(engine) as session:
        beta = SourceRepository(session).get("notes/beta")
        assert apply_register(session, register) == []  # same register again: no change
        events = session.scalar(select(func.count()).select_from(AuditEventRow))
    assert events == 3  # one per source created, none for the no-op re-apply
    assert beta is not None
    assert beta.authority_tier == "internal"
    assert beta.access_groups == ["finance", "ops"]
    assert beta.supersedes == [
        SupersedesRef(source_id="alpha", version=1, effective_from=date(2026, 2, 1))
    ]


def test_changed_groups_are_reported_and_dropped_entries_keep_metadata(
    engine: Engine, tmp_path: Path
) -> None:
    with transaction(engine) as session:
        apply_register(session, load_register(REGISTERS / "good.yaml"))
    narrower = tmp_path / "register.yaml"
    narrower.write_text(
        "tiers: [official, internal]\n"
        "sources:\n"
        "  notes/beta:\n"
        "    tier: internal\n"
        "    access_groups: [ops]\n",
        encoding="utf-8",
    )
    with transaction(engine) as session:
        changed = apply_register(session, load_register(narrower))
    with transaction(engine) as session:
        repository = SourceRepository(session)
        beta, alpha = repository.get("notes/beta"), repository.get("alpha")
        audit = session.scalars(
            select(AuditEventRow)
            .where(AuditEventRow.entity_id == "notes/beta")
            .order_by(AuditEventRow.id)
        ).all()
    assert changed == ["notes/beta"]
    # every change of trusted metadata is in the audit log, with before and after
    assert [(e.action, e.entity_type) for e in audit] == [("register.apply", "source")] * 2
    assert audit[0].before is None and audit[0].after["access_groups"] == ["finance", "ops"]
    assert audit[1].before["access_groups"] == ["finance", "ops"]
    assert audit[1].after["access_groups"] == ["ops"]
    assert audit[1].actor == f"register:{narrower}"
    assert beta is not None and beta.access_groups == ["ops"]
    assert beta.supersedes == []  # the entry no longer lists it
    assert alpha is not None and alpha.authority_tier == "official"  # not listed: untouched


def test_default_access_groups_apply_where_an_entry_names_none(tmp_path: Path) -> None:
    path = tmp_path / "register.yaml"
    path.write_text(
        "tiers: [internal]\n"
        "default_access_groups: [staff]\n"
        "sources:\n"
        "  handbook:\n"
        "    tier: internal\n"
        "  press-release:\n"
        "    access_groups: []\n",
        encoding="utf-8",
    )
    register = load_register(path)
    assert register.entries["handbook"].source.access_groups == ["staff"]
    assert register.entries["press-release"].source.access_groups == []


def test_document_text_cannot_change_the_register(engine: Engine, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(FIXTURES / "ingest" / "good", corpus)
    register = load_register(REGISTERS / "good.yaml")
    scan = scan_sources([corpus], register)
    with transaction(engine) as session:
        ingest(session, scan.files, register)
    with transaction(engine) as session:
        note = SourceRepository(session).get("front-matter")
    # Its front matter claims tier official, public, superseding alpha; the register rules.
    assert note is not None
    assert note.authority_tier == "internal"
    assert note.access_groups == ["legal"]
    assert note.supersedes == []


def test_document_text_without_register_gets_no_metadata(engine: Engine, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(FIXTURES / "ingest" / "good", corpus)
    with transaction(engine) as session:
        ingest(session, scan_sources([corpus]).files)
    with transaction(engine) as session:
        note = SourceRepository(session).get("front-matter")
    assert note is not None
    assert (note.authority_tier, note.access_groups, note.supersedes) == (None, [], [])


def test_default_access_groups_cover_new_files_the_register_does_not_list(
    engine: Engine, tmp_path: Path
) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(FIXTURES / "ingest" / "good", corpus)
    with transaction(engine) as session:  # alpha exists before the register is used
        ingest(session, scan_sources([corpus / "alpha.txt"]).files)
    register_path = tmp_path / "register.yaml"
    register_path.write_text(
        "tiers: [internal]\n"
        "default_access_groups: [staff]\n"
        "sources:\n"
        "  front-matter:\n"
        "    access_groups: []\n",
        encoding="utf-8",
    )
    register = load_register(register_path)
    with transaction(engine) as session:
        ingest(session, scan_sources([corpus], register).files, register)
    with transaction(engine) as session:
        repository = SourceRepository(session)
        groups = {sid: repository.get(sid).access_groups for sid in repository.ids()}  # type: ignore[union-attr]
        defaulted = session.scalars(
            select(AuditEventRow.after).where(AuditEventRow.entity_id == "notes/beta")
        ).all()
    assert [a["access_groups"] for a in defaulted] == [["staff"]]  # audited like an entry
    assert groups == {
        "alpha": [],  # stored before, not listed: untouched
        "front-matter": [],  # listed as public
        "notes/beta": ["staff"],  # new and not listed: the default
    }
