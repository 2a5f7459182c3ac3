"""Profiles chosen by the register: per source, per folder and by default, validated where
they are written, stored with each source, part of the generation, and reaching extraction,
the edge builder and retrieval (docs/REGISTER.md, "Profiles")."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from claims.errors import RegisterError
from claims.register import load_register
from claims.tables import ClaimRow, SourceRow
from pipeline.resources import ClaimStore, ExtractorResource, SourcesResource
from tests.store_template import upgrade

HEADER = "tiers: [official, reference]\n"


def _register(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "register.yaml"
    path.write_text(HEADER + body, encoding="utf-8")
    return path


def test_an_unknown_profile_on_an_entry_names_file_line_and_field(tmp_path: Path) -> None:
    path = _register(tmp_path, "sources:\n  handbook:\n    profile: wiki\n")
    with pytest.raises(RegisterError) as caught:
        load_register(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:4: sources.handbook.profile: unknown profile 'wiki'")
    assert "office, reference" in message


def test_an_unknown_folder_or_default_profile_is_refused_at_its_line(tmp_path: Path) -> None:
    folder = _register(tmp_path, 'profiles:\n  "pages/": encyclopaedia\nsources: {}\n')
    with pytest.raises(RegisterError, match=r":3: profiles.pages/: unknown profile"):
        load_register(folder)
    default = _register(tmp_path, "default_profile: wiki\nsources: {}\n")
    with pytest.raises(RegisterError, match=r":2: default_profile: unknown profile 'wiki'"):
        load_register(default)


def test_a_profiles_key_that_is_no_folder_is_refused(tmp_path: Path) -> None:
    path = _register(tmp_path, "profiles:\n  pages: reference\nsources: {}\n")
    with pytest.raises(RegisterError, match=r":3: profiles.pages: a folder of source ids"):
        load_register(path)


def test_an_entry_beats_the_longest_folder_which_beats_the_default(tmp_path: Path) -> None:
    path = _register(
        tmp_path,
        "default_profile: reference\n"
        "profiles:\n"
        '  "policies/": office\n'
        '  "policies/history/": reference\n'
        "sources:\n"
        "  policies/history/handbook-1998:\n"
        "    profile: office\n",
    )
    register = load_register(path)
    assert register.profile_for("policies/history/handbook-1998") == "office"
    assert register.profile_for("policies/history/founding") == "reference"
    assert register.profile_for("policies/travel") == "office"
    assert register.profile_for("notes/minutes") == "reference"


def test_profile_choices_are_part_of_the_generation_and_no_choice_changes_nothing(
    tmp_path: Path,
) -> None:
    plain = _register(tmp_path, "sources:\n  handbook: {}\n")
    base = ExtractorResource().generation()
    assert ExtractorResource(register_file=str(plain)).generation() == base
    chosen = tmp_path / "chosen.yaml"
    chosen.write_text(HEADER + "sources:\n  handbook:\n    profile: reference\n", "utf-8")
    other = tmp_path / "other.yaml"
    other.write_text(HEADER + 'profiles:\n  "pages/": reference\nsources: {}\n', "utf-8")
    with_entry = ExtractorResource(register_file=str(chosen)).generation()
    with_folder = ExtractorResource(register_file=str(other)).generation()
    assert len({base, with_entry, with_folder}) == 3
    assert with_entry[1].startswith(base[1] + "+profiles-")


OFFICE_NOTE = (
    "# Travel\n\nThe daily meal allowance is EUR 40. The play received favourable reviews.\n"
)
PAGE = "The play received favourable reviews from critics. It ran for 120 performances.\n"


def test_a_folder_profile_reaches_extraction_and_is_stored_with_each_source(
    tmp_path: Path,
) -> None:
    import dagster as dg

    from pipeline.runner import run_pipeline

    corpus = tmp_path / "corpus"
    (corpus / "pages").mkdir(parents=True)
    (corpus / "notes").mkdir()
    (corpus / "pages" / "the-play.md").write_text(PAGE, encoding="utf-8")
    (corpus / "notes" / "travel.md").write_text(OFFICE_NOTE, encoding="utf-8")
    register = _register(tmp_path, 'profiles:\n  "pages/": reference\nsources: {}\n')
    url = f"sqlite:///{tmp_path / 'claims.db'}"
    upgrade(url)
    store = ClaimStore(database_url=url)
    outcome = run_pipeline(
        dg.DagsterInstance.ephemeral(),
        store=store,
        sources=SourcesResource(sources_dir=str(corpus), register_file=str(register)),
        log_level="CRITICAL",
    )
    assert outcome.failures == []
    with store.transaction() as session:
        profiles = dict(session.execute(select(SourceRow.id, SourceRow.profile)).all())
        attributes = {
            (source, attribute)
            for source, attribute in session.execute(
                select(ClaimRow.source_id, ClaimRow.attribute)
            ).all()
        }
    assert profiles == {"pages/the-play": "reference", "notes/travel": "office"}
    assert ("pages/the-play", "reception") in attributes  # the reference profile's stance
    assert ("notes/travel", "reception") not in attributes  # the office note reads plainly
