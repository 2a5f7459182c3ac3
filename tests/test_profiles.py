"""Profiles: the office profile (the default) reads with the core alone; the ``reference``
profile adds the encyclopedia-page readers, and only a reader who asks for it loads them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from claims.extraction import extract
from claims.profiles import DEFAULT_PROFILE, PROFILE_NAMES, UnknownProfile, profile_named

REPO = Path(__file__).resolve().parents[1]

OFFICE_NOTE = """# Leave policy

The notice period is 30 days. New staff serve a probation of 6 months.
Annual leave is 25 days per year, and the company pays a travel allowance of EUR 40 per day.
"""

_SCRIPT = """
import json, sys
from claims.extraction import extract
claims = extract(sys.stdin.read(), source_id="leave.md", source_version_id="v1")
print(json.dumps({
    "claims": len(claims),
    "reference": sorted(m for m in sys.modules if m.split(".")[:2] == ["claims", "reference"]),
}))
"""


def test_office_extraction_imports_no_module_of_the_reference_profile() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT],
        input=OFFICE_NOTE,
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
        timeout=300,
    )
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["claims"] >= 3  # the document was read
    assert seen["reference"] == []


def test_office_is_the_default_profile_and_reference_is_registered() -> None:
    assert DEFAULT_PROFILE == "office"
    assert set(PROFILE_NAMES) == {"office", "reference"}
    assert profile_named(None).name == "office"
    assert profile_named("reference").name == "reference"


def test_unknown_profile_is_refused_with_the_names_it_could_be() -> None:
    with pytest.raises(UnknownProfile, match="office, reference"):
        profile_named("encyclopaedia")


def test_how_a_work_was_received_is_read_only_under_the_reference_profile() -> None:
    text = "The play received favourable reviews from critics."
    office = {c.attribute for c in extract(text)}
    reference = {(c.attribute, c.value) for c in extract(text, profile="reference")}
    assert "reception" not in office
    assert ("reception", "positive") in reference


def test_a_bracketed_picture_caption_is_its_own_sentence_only_under_the_reference_profile() -> None:
    text = "[A view of the old mill from the river in 2018] The mill was built in 1895."
    office = {c.claim_key for c in extract(text)}
    reference = {c.claim_key for c in extract(text, profile="reference")}
    assert "mill built" in reference
    assert "mill built" not in office


def test_office_claims_are_the_same_under_both_profiles_for_plain_figures() -> None:
    office = {(c.claim_key, c.value) for c in extract(OFFICE_NOTE)}
    reference = {(c.claim_key, c.value) for c in extract(OFFICE_NOTE, profile="reference")}
    assert ("notice period", 30.0) in office
    assert ("notice period", 30.0) in reference


HANDBOOK_2023 = """The notice period is 30 days. The probation period is 6 months.
Annual leave is 25 days. The travel allowance is EUR 40 per day.
The home office budget is EUR 500. Parental leave is 16 weeks.
"""
HANDBOOK_2024 = """The notice period is 60 days. The probation period is 3 months.
Annual leave is 28 days. The travel allowance is EUR 55 per day.
The home office budget is EUR 800. Parental leave is 16 weeks.
"""


def _conflicting_keys(judges: object, pages: tuple[str, ...] = ()) -> set[str]:
    from claims.edges.builder import build_edges
    from claims.edges.facts import facts_from_claim
    from claims.models import EdgeKind

    facts = [
        facts_from_claim(claim)
        for source, text in (("hr/2023", HANDBOOK_2023), ("hr/2024", HANDBOOK_2024))
        for claim in extract(text, source_id=source, source_version_id=f"{source}@1")
    ]
    build = build_edges(
        facts,
        generation="gen-test",
        judges=judges,
        namesake_sources=pages,  # type: ignore[arg-type]
    )
    by_id = {f.id: f for f in facts}
    return {
        by_id[edge.left_claim_id].claim_key
        for edge in build.edges
        if edge.kind == EdgeKind.CONFLICTS
    }


def test_two_office_documents_differing_on_five_figures_give_five_conflicts() -> None:
    office = _conflicting_keys(profile_named("office").edge_judges)
    assert len(office) == 5
    assert "parental leave" not in office  # the one figure they agree on


def test_the_namesake_page_judge_is_lent_only_by_the_reference_profile() -> None:
    assert not profile_named("office").edge_judges
    assert profile_named("reference").edge_judges
    # the judge tells two pages that differ on most figures apart as namesakes, when the
    # sources are read as reference pages
    pages = ("hr/2023", "hr/2024")
    assert _conflicting_keys(profile_named("reference").edge_judges, pages) == set()
