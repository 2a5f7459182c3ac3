"""The extractor generation names its files by their place inside the ``claims`` package, so
two checkouts of one commit in differently named folders store the same claim ids."""

from __future__ import annotations

import shutil
from pathlib import Path

from claims.extraction.generation import generation_digest

CLAIMS = Path(__file__).resolve().parent.parent / "claims"


def _copy(to: Path) -> Path:
    target = to / "claims"
    shutil.copytree(CLAIMS, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def test_generation_is_the_same_whatever_folder_the_checkout_is_in(tmp_path: Path) -> None:
    first = _copy(tmp_path / "checkout-one")
    second = _copy(tmp_path / "elsewhere" / "another-name")
    assert generation_digest(first) == generation_digest(second) == generation_digest(CLAIMS)


def test_generation_changes_when_the_lookalike_table_changes(tmp_path: Path) -> None:
    copy = _copy(tmp_path / "checkout")
    before = generation_digest(copy)
    (copy / "lookalikes.py").write_text(
        (copy / "lookalikes.py").read_text("utf-8") + "\n# one more line\n", encoding="utf-8"
    )
    assert generation_digest(copy) != before


def test_generation_ignores_files_that_do_not_decide_claims(tmp_path: Path) -> None:
    copy = _copy(tmp_path / "checkout")
    before = generation_digest(copy)
    (copy / "store" / "notes.py").write_text("X = 1\n", encoding="utf-8")
    assert generation_digest(copy) == before
