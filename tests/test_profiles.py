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
