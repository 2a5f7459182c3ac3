"""Ingest: versions are immutable, re-runs are no-ops, bad input changes nothing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, event, func, select

from claims.errors import InputError
from claims.ids import sha256_hex
from claims.ingest import decode_source_text, ingest, read_source_file, scan_sources
from claims.register import load_register
from claims.settings import get_settings
from claims.store import SourceRepository, make_engine, transaction
from claims.tables import SourceGrantRow, SourceRow, SourceSupersedesRow, SourceVersionRow
from tests.store_template import upgrade  # a copy of a store migrated once

FIXTURES = Path(__file__).parent / "fixtures"
GOOD = FIXTURES / "ingest" / "good"
BAD = FIXTURES / "ingest" / "bad"
REGISTERS = FIXTURES / "register"
REPO = Path(__file__).resolve().parent.parent


# --------------------------------------------------------------------------- helpers


def store_state(url: str) -> dict[str, object]:
    """Everything ingest may write, so "unchanged" can be asserted exactly."""
    engine = make_engine(url)
    try:
        with transaction(engine) as session:
            versions = session.execute(
                select(
                    SourceVersionRow.source_id, SourceVersionRow.number, SourceVersionRow.sha256
                ).order_by(SourceVersionRow.source_id, SourceVersionRow.number)
            ).all()
            return {
                "sources": session.scalar(select(func.count()).select_from(SourceRow)),
                "versions": [tuple(v) for v in versions],
                "grants": session.scalar(select(func.count()).select_from(SourceGrantRow)),
                "supersedes": session.scalar(select(func.count()).select_from(SourceSupersedesRow)),
                "metadata": session.execute(
                    select(SourceRow.id, SourceRow.authority_tier, SourceRow.updated_at).order_by(
                        SourceRow.id
                    )
                ).all(),
            }
    finally:
        engine.dispose()


@dataclass
class CliResult:
    code: int
    out: str
    err: str


def _cli_store(url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    upgrade(url)
    monkeypatch.setenv("CLAIMS_DATABASE_URL", url)
    monkeypatch.delenv("CLAIMS_REGISTER_FILE", raising=False)
    monkeypatch.delenv("CLAIMS_MAX_SOURCE_BYTES", raising=False)
    get_settings.cache_clear()
    yield url
    get_settings.cache_clear()


@pytest.fixture
def store_url(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A migrated SQLite store that the CLI is pointed at."""
    yield from _cli_store(sqlite_url, monkeypatch)


@pytest.fixture
def any_store_url(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The same on each backend in turn (SQLite, PostgreSQL): for the core behaviour."""
    yield from _cli_store(database_url, monkeypatch)


@pytest.fixture
def run_cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Iterator[object]:
    """Run the real entry point (``claims ...``) in-process; returns exit code and output."""
    from claimledger.cli import main

    def run(*args: str | Path) -> CliResult:
        get_settings.cache_clear()
        capsys.readouterr()
        monkeypatch.setattr(sys, "argv", ["claims", *map(str, args)])
        try:
            main()
            code = 0
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    yield run


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A writable copy of the good fixture corpus."""
    target = tmp_path / "corpus"
    shutil.copytree(GOOD, target)
    return target


# --------------------------------------------------------------------------- core behaviour


def test_ingesting_the_same_directory_twice_adds_no_versions(
    any_store_url: str, corpus: Path, run_cli
) -> None:
    first = run_cli("ingest", corpus)
    assert first.code == 0, first.err
    assert "3 files, 3 sources: 3 new versions, 0 unchanged" in first.out
    after_first = store_state(any_store_url)

    second = run_cli("ingest", corpus)
    assert second.code == 0, second.err
    assert "3 files, 3 sources: 0 new versions, 3 unchanged" in second.out
    assert store_state(any_store_url)["versions"] == after_first["versions"]


def test_editing_one_file_adds_exactly_one_version(
    any_store_url: str, corpus: Path, run_cli
) -> None:
    assert run_cli("ingest", corpus).code == 0
    before = store_state(any_store_url)["versions"]
    beta = corpus / "notes" / "beta.md"
    beta.write_text(beta.read_text(encoding="utf-8").replace("50 GB", "80 GB"), encoding="utf-8")

    result = run_cli("ingest", corpus)

    assert result.code == 0, result.err
    assert "1 new versions, 2 unchanged" in result.out
    after = store_state(any_store_url)["versions"]
    assert isinstance(before, list) and isinstance(after, list)
    assert len(after) == len(before) + 1
    assert set(before) <= set(after)  # nothing overwritten or deleted
    assert [v for v in after if v[0] == "notes/beta"][-1][1] == 2


def test_library_ingest_is_idempotent_and_versions_changed_bytes(
    database_url: str, corpus: Path
) -> None:
    """The functions the pipeline calls, on SQLite and PostgreSQL."""
    upgrade(database_url)
    engine = make_engine(database_url)
    try:
        with transaction(engine) as session:
            report = ingest(session, scan_sources([corpus]).files)
        assert (report.sources, report.new_versions, report.unchanged) == (3, 3, 0)
        assert len(report.new_version_ids) == 3

        (corpus / "alpha.txt").write_text("The support response time is 8 hours.\n")
        with transaction(engine) as session:
            report = ingest(session, scan_sources([corpus]).files)
        assert (report.new_versions, report.unchanged) == (1, 2)
        changed = next(f for f in report.files if f.created)
        assert (changed.source_id, changed.number, changed.latest_number) == ("alpha", 2, 2)

        with transaction(engine) as session:
            versions = SourceRepository(session).versions("alpha")
        assert [v.number for v in versions] == [1, 2]
        assert versions[0].text == (GOOD / "alpha.txt").read_text(encoding="utf-8")
        assert versions[1].text == "The support response time is 8 hours.\n"
    finally:
        engine.dispose()


def test_source_ids_are_relative_paths_without_extension(corpus: Path) -> None:
    scan = scan_sources([corpus])
    assert [f.source_id for f in scan.files] == ["alpha", "front-matter", "notes/beta"]
    assert [f.media_type for f in scan.files] == ["text/plain", "text/markdown", "text/markdown"]
    assert scan.rejected == []  # .csv and hidden files are skipped, not rejected


def test_a_file_named_directly_is_identified_by_its_stem(corpus: Path) -> None:
    scan = scan_sources([corpus / "notes" / "beta.md"])
    assert [f.source_id for f in scan.files] == ["beta"]


def test_a_file_reached_twice_is_read_once(corpus: Path) -> None:
    scan = scan_sources([corpus, corpus / "alpha.txt"])
    assert [f.source_id for f in scan.files] == ["alpha", "front-matter", "notes/beta"]


def test_register_path_maps_a_file_to_its_source_id() -> None:
    register = load_register(REPO / "samples" / "register.yaml")
    policies = REPO / "samples" / "corpus" / "policies"
    # Whichever root the file is reached from, the register's mapping wins.
    whole = scan_sources([REPO / "samples" / "corpus"], register)
    alone = scan_sources([policies], register)
    named = scan_sources([policies / "travel_policy_2019_FINAL.md"], register)
    assert sorted(f.source_id for f in whole.files if f.source_id.startswith("policies/")) == [
        "policies/travel-2019",
        "policies/travel-2026",
        "policies/travel-team-guide",
    ]
    assert sorted(f.source_id for f in alone.files) == [
        "policies/travel-2019",
        "travel-2026",
        "travel-team-guide",
    ]
    assert [f.source_id for f in named.files] == ["policies/travel-2019"]


def test_byte_order_mark_and_line_endings(tmp_path: Path) -> None:
    path = tmp_path / "memo.txt"
    raw = "\ufeffLine one.\r\nThe limit is 5 MB.\r\n".encode()
    path.write_bytes(raw)
    file = read_source_file(path)
    assert file.text == "Line one.\r\nThe limit is 5 MB.\r\n"  # offsets count text, not the BOM
    assert file.data == raw  # the checksum covers the exact bytes


def test_reverting_to_older_bytes_stores_nothing_and_warns(
    store_url: str, corpus: Path, run_cli
) -> None:
    alpha = corpus / "alpha.txt"
    original = alpha.read_bytes()
    assert run_cli("ingest", corpus).code == 0
    alpha.write_text("The support response time is 2 hours.\n")
    assert run_cli("ingest", corpus).code == 0
    before = store_state(store_url)
    alpha.write_bytes(original)

    result = run_cli("ingest", corpus)

    assert result.code == 0
    assert "has the bytes of alpha v1, not of its newest version v2" in result.err
    assert store_state(store_url) == before


def test_sample_corpus_with_register(store_url: str, run_cli) -> None:
    result = run_cli(
        "ingest", REPO / "samples" / "corpus", "--register", REPO / "samples" / "register.yaml"
    )
    assert result.code == 0, result.err
    assert "20 files, 20 sources: 20 new versions, 0 unchanged" in result.out

    listing = run_cli("sources", "list", "--json")
    assert listing.code == 0
    sources = {s["id"]: s for s in json.loads(listing.out)}
    assert len(sources) == 20
    assert sources["finance/filing-q1-restated"]["access_groups"] == ["finance"]
    assert sources["finance/filing-q1"]["public"] is True
    assert sources["policies/travel-2026"]["supersedes"] == [
        {"source_id": "policies/travel-2019", "version": None, "effective_from": "2026-01-01"}
    ]
    assert sources["policies/travel-2019"]["versions"][0]["origin_path"].endswith(
        "travel_policy_2019_FINAL.md"
    )
    assert sources["assistant/drafter-limit-r2"]["tier"] == "approved"
    assert "<script>alert(1)</script>" in (
        REPO / "samples" / "corpus" / "policies" / "travel-team-guide.md"
    ).read_text(encoding="utf-8")


def test_sources_list_shows_versions_tier_groups_and_supersedes(
    store_url: str, corpus: Path, run_cli
) -> None:
    assert run_cli("ingest", corpus, "--register", REGISTERS / "good.yaml").code == 0
    (corpus / "alpha.txt").write_text("The support response time is 6 hours.\n")
    assert run_cli("ingest", corpus).code == 0

    text = run_cli("sources", "list")
    assert text.code == 0
    assert "notes/beta  tier=internal  groups=finance, ops" in text.out
    assert "supersedes alpha v1 from 2026-02-01" in text.out
    assert "3 sources, 4 versions" in text.out

    listing = json.loads(run_cli("sources", "list", "--json").out)
    alpha = next(s for s in listing if s["id"] == "alpha")
    assert [v["number"] for v in alpha["versions"]] == [1, 2]
    assert all(len(v["sha256"]) == 64 for v in alpha["versions"])
    assert alpha["versions"][0]["ingested_at"].endswith("+00:00")


def test_register_alone_updates_metadata_without_files(
    store_url: str, corpus: Path, run_cli, tmp_path: Path
) -> None:
    assert run_cli("ingest", corpus).code == 0
    register = tmp_path / "register.yaml"
    register.write_text(
        "tiers: [internal]\nsources:\n  alpha:\n    tier: internal\n    access_groups: [ops]\n"
    )
    result = run_cli("ingest", "--register", register)
    assert result.code == 0, result.err
    assert "0 files, 0 sources" in result.out and "1 changed" in result.out
    listing = json.loads(run_cli("sources", "list", "--json").out)
    assert next(s for s in listing if s["id"] == "alpha")["access_groups"] == ["ops"]


def test_json_report_lists_each_file(store_url: str, corpus: Path, run_cli) -> None:
    result = run_cli("ingest", corpus, "--json")
    assert result.code == 0
    report = json.loads(result.out)
    assert (report["sources"], report["new_versions"], report["unchanged"]) == (3, 3, 0)
    assert {f["source_id"]: f["status"] for f in report["files"]} == {
        "alpha": "new",
        "front-matter": "new",
        "notes/beta": "new",
    }
    assert report["rejected"] == [] and report["register"] is None


# --------------------------------------------------------------------------- bad input


def _with_bad(corpus: Path, name: str) -> Path:
    target = corpus / "incoming" / name
    target.parent.mkdir(exist_ok=True)
    shutil.copy(BAD / name, target)
    return target


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("binary.txt", ":4: the file looks binary (NUL byte at line 4, byte offset 15)"),
        ("latin1.txt", ":3: the file is not valid UTF-8 (byte 0xfc at line 3"),
        ("empty.txt", ": the file is empty"),
        ("blank.md", ": the file holds only whitespace"),
    ],
)
def test_bad_file_is_named_and_nothing_is_written(
    any_store_url: str, corpus: Path, run_cli, name: str, expected: str
) -> None:
    assert run_cli("ingest", corpus / "notes").code == 0  # something already stored
    (corpus / "alpha.txt").write_text("The support response time is 1 hour.\n")  # would be new
    bad = _with_bad(corpus, name)
    before = store_state(any_store_url)

    result = run_cli("ingest", corpus, "--register", REGISTERS / "good.yaml")

    assert result.code == 2
    assert "1 file(s) rejected, nothing was ingested" in result.err
    assert f"{bad}{expected}" in result.err
    assert store_state(any_store_url) == before


def test_file_over_the_size_limit_is_named_and_nothing_is_written(
    store_url: str, corpus: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAIMS_MAX_SOURCE_BYTES", "300")
    big = corpus / "big.txt"
    big.write_text("The archive retention period is 7 years. " * 10)
    before = store_state(store_url)

    result = run_cli("ingest", corpus)

    assert result.code == 2
    assert f"{big}: the file is 410 bytes, over the limit of 300 bytes" in result.err
    assert "CLAIMS_MAX_SOURCE_BYTES" in result.err
    assert store_state(store_url) == before


def test_unsupported_or_missing_path_named_directly_is_rejected(
    store_url: str, corpus: Path, run_cli, tmp_path: Path
) -> None:
    sheet = tmp_path / "figures.xlsx"  # a type claims does not read
    sheet.write_bytes(b"PK\x03\x04 not read")
    before = store_state(store_url)
    result = run_cli("ingest", corpus, sheet, tmp_path / "nowhere")
    assert result.code == 2
    assert f"{sheet}: unsupported file type '.xlsx'" in result.err
    assert f"{tmp_path / 'nowhere'}: no such file or directory" in result.err
    assert store_state(store_url) == before


def test_two_files_with_one_source_id_are_both_rejected(
    store_url: str, corpus: Path, run_cli
) -> None:
    (corpus / "alpha.md").write_text("# Vendor terms\n\nThe support response time is 3 hours.\n")
    before = store_state(store_url)
    result = run_cli("ingest", corpus)
    assert result.code == 2
    assert f"{corpus / 'alpha.md'}: source id 'alpha' is also the id of {corpus / 'alpha.txt'}" in (
        result.err
    )
    assert store_state(store_url) == before


@pytest.mark.parametrize(
    ("fixture", "expected"),
    [
        ("unknown-key.yaml", "unknown-key.yaml:5: sources.alpha.tire: unknown key"),
        ("unknown-tier.yaml", "unknown-tier.yaml:5: sources.alpha.tier: unknown tier 'gold'"),
        ("invalid-yaml.yaml", "invalid-yaml.yaml:5: invalid YAML"),
        ("bad-date.yaml", "bad-date.yaml:4: sources.alpha.effective_from: '2026-13-01'"),
        (
            "missing-supersedes.yaml",
            "missing-supersedes.yaml:6: sources.alpha.supersedes: unknown source 'ghost-policy'",
        ),
    ],
)
def test_bad_register_stops_the_whole_command(
    any_store_url: str, corpus: Path, run_cli, fixture: str, expected: str
) -> None:
    assert run_cli("ingest", corpus / "notes").code == 0
    before = store_state(any_store_url)

    # even --keep-going does not ingest anything under a register it cannot trust
    result = run_cli("ingest", corpus, "--register", REGISTERS / fixture, "--keep-going")

    assert result.code == 2
    assert expected in result.err
    assert store_state(any_store_url) == before


def test_supersedes_naming_a_file_of_the_same_command_is_accepted(
    store_url: str, corpus: Path, run_cli, tmp_path: Path
) -> None:
    register = tmp_path / "register.yaml"
    register.write_text("tiers: [a]\nsources:\n  notes/beta:\n    supersedes: [alpha]\n")
    assert run_cli("ingest", corpus, "--register", register).code == 0
    # later, a register naming a stored source that is not re-ingested is accepted too
    register.write_text("tiers: [a]\nsources:\n  front-matter:\n    supersedes: [alpha]\n")
    assert run_cli("ingest", corpus / "notes", "--register", register).code == 0


def test_keep_going_ingests_valid_files_and_reports_every_bad_one(
    any_store_url: str, corpus: Path, run_cli
) -> None:
    binary = _with_bad(corpus, "binary.txt")
    empty = _with_bad(corpus, "empty.txt")

    result = run_cli("ingest", corpus, "--keep-going")

    assert result.code == 2  # bad files still fail the command
    assert "3 files, 3 sources: 3 new versions, 0 unchanged; 2 rejected" in result.out
    assert "2 file(s) rejected; the other 3 were ingested" in result.err
    assert f"{binary}:4: the file looks binary" in result.err
    assert f"{empty}: the file is empty" in result.err
    assert {v[0] for v in store_state(any_store_url)["versions"]} == {  # type: ignore[union-attr]
        "alpha",
        "front-matter",
        "notes/beta",
    }


def test_keep_going_json_report_lists_rejected_files(store_url: str, corpus: Path, run_cli) -> None:
    latin1 = _with_bad(corpus, "latin1.txt")
    result = run_cli("ingest", corpus, "--keep-going", "--json")
    assert result.code == 2
    report = json.loads(result.out)
    assert report["new_versions"] == 3
    assert report["rejected"] == [
        {
            "path": str(latin1),
            "line": 3,
            "source_id": "incoming/latin1",
            "reason": "the file is not valid UTF-8 (byte 0xfc at line 3, byte offset 21); "
            "convert it to UTF-8",
        }
    ]


def test_concurrent_ingest_of_the_same_source_fails_cleanly_and_writes_nothing(
    any_store_url: str, corpus: Path, run_cli
) -> None:
    """Another command commits a version of `alpha` after our reads, before our writes."""
    competitor = make_engine(any_store_url)
    fired: list[str] = []

    def commit_competing_version(conn, cursor, statement, *_args) -> None:  # type: ignore[no-untyped-def]
        if fired or not statement.lstrip().upper().startswith("INSERT INTO SOURCES"):
            return
        fired.append(statement)
        with transaction(competitor) as session:
            SourceRepository(session).add_version("alpha", "The support response time is 9 hours.")

    event.listen(Engine, "before_cursor_execute", commit_competing_version)
    try:
        result = run_cli("ingest", corpus)
    finally:
        event.remove(Engine, "before_cursor_execute", commit_competing_version)
        competitor.dispose()

    assert fired, "the race was not staged"
    assert result.code == 4
    assert "another command stored versions of the same sources at the same time" in result.err
    assert store_state(any_store_url)["versions"] == [  # only the competitor's version
        ("alpha", 1, sha256_hex(b"The support response time is 9 hours."))
    ]
    again = run_cli("ingest", corpus)  # running it again succeeds, as the message says
    assert again.code == 0 and "3 new versions" in again.out


def test_no_paths_and_no_register_is_a_usage_error(store_url: str, run_cli) -> None:
    result = run_cli("ingest")
    assert result.code == 2
    assert "name files or directories to ingest" in result.err


def test_module_entry_point_maps_errors_to_exit_codes(tmp_path: Path) -> None:
    """`python -m claimledger` as a user runs it: real process, real exit code."""
    env = {**os.environ, "CLAIMS_DATA_DIR": str(tmp_path / ".claims"), "PYTHONPATH": str(REPO)}
    env.pop("CLAIMS_DATABASE_URL", None)
    ok = subprocess.run(
        [sys.executable, "-m", "claimledger", "ingest", str(GOOD)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert "3 new versions" in ok.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "claimledger", "ingest", str(BAD / "empty.txt")],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=False,
    )
    assert bad.returncode == 2
    assert "the file is empty" in bad.stderr


def test_rejected_files_carry_the_id_and_checksum_they_would_have_had(corpus: Path) -> None:
    """So a pipeline can fail exactly that source version's partition."""
    binary = _with_bad(corpus, "binary.txt")
    scan = scan_sources([corpus, BAD / "report.pdf", corpus / "gone.txt"])
    by_path = {r.path: r for r in scan.rejected}
    assert (by_path[binary].source_id, by_path[binary].line) == ("incoming/binary", 4)
    assert by_path[binary].sha256 == sha256_hex(binary.read_bytes())
    assert by_path[BAD / "report.pdf"].source_id == "report"
    missing = by_path[corpus / "gone.txt"]
    assert (missing.source_id, missing.sha256) == (None, None)


def test_read_source_file_raises_input_error_naming_the_file(tmp_path: Path) -> None:
    """The per-file function the pipeline uses to fail one partition."""
    with pytest.raises(InputError, match=r"latin1.txt:3: the file is not valid UTF-8"):
        read_source_file(BAD / "latin1.txt")


def test_engine_fixture_store_is_untouched_by_scanning(engine: Engine, corpus: Path) -> None:
    scan_sources([corpus, BAD])
    with transaction(engine) as session:
        assert SourceRepository(session).count_versions() == 0


def test_file_names_are_printed_literally_not_as_markup(
    store_url: str, tmp_path: Path, run_cli
) -> None:
    folder = tmp_path / "drafts"
    folder.mkdir()
    (folder / "[bold]memo.txt").write_text("The review period is 10 days.\n")
    result = run_cli("ingest", folder)
    assert result.code == 0, result.err
    assert "new        [bold]memo v1" in result.out
    assert "[bold]memo  tier=-  groups=public" in run_cli("sources", "list").out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=64) | st.text(max_size=64).map(lambda t: t.encode("utf-8")))
def test_any_bytes_are_either_exact_text_or_a_named_rejection(data: bytes) -> None:
    path = Path("inbox/any.txt")
    try:
        text = decode_source_text(data, path)
    except InputError as error:
        assert str(error).startswith(str(path))
        return
    assert text.encode("utf-8") in (data, data.removeprefix(b"\xef\xbb\xbf"))
    assert text.strip() and "\x00" not in text


def test_claims_ingest_names_files_it_does_not_read(
    store_url: str, tmp_path: Path, run_cli
) -> None:
    folder = tmp_path / "shared-drive"
    folder.mkdir()
    (folder / "terms.html").write_text("<h1>Terms</h1><p>Notice period: 30 days.</p>")
    (folder / "budget.xlsx").write_bytes(b"PK\x03\x04 a spreadsheet")
    result = run_cli("ingest", folder)
    assert result.code == 0, result.err
    assert f"not read   {folder / 'budget.xlsx'}: not a type claims reads" in result.err
    assert "1 files, 1 sources: 1 new versions, 0 unchanged; 1 not read (type)" in result.out

    (folder / "terms.html").unlink()
    result = run_cli("ingest", folder)
    assert result.code == 2
    assert "none of the 1 file(s) found is of a type claims reads" in result.err
