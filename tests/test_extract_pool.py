"""Extraction on several processes (claims.extract_pool): the same rows as in one process,
a version that raises is named, and a dead worker stops the run instead of hanging."""

from __future__ import annotations

import multiprocessing.forkserver
import os
import signal
from pathlib import Path

import pytest

from claims.extract_pool import ExtractionPoolBroken, VersionText, extract_versions, uses_pool
from claims.extraction.pipeline import MAX_TEXT_CHARS

SUBJECTS = ["Northwind", "Contoso", "Fabrikam", "Tailspin", "Litware", "Adatum", "Proseware"]


def _note(i: int) -> str:
    """A short note written the way teams write them, different for every ``i``."""
    who = SUBJECTS[i % len(SUBJECTS)]
    return (
        f"# {who} operations note {i}\n\n"
        f"The {who} notice period is {14 + i % 5 * 15} days. Invoices are kept for "
        f"{5 + i % 3} years, and the portal upload limit is {100 * (1 + i % 4)} MB.\n"
        f"- Checkout p99 latency was {300 + 7 * i} ms in Q{1 + i % 4} 2024.\n"
        f"- According to the finance team, the refund window is {30 + i % 2 * 15} days.\n"
    )


def _versions(count: int) -> list[VersionText]:
    return [
        VersionText(f"note-{i:03d}@v1", _note(i), f"note-{i:03d}", f"sv_note_{i:03d}")
        for i in range(count)
    ]


def test_two_workers_give_the_rows_of_one_process_in_the_same_order() -> None:
    versions = _versions(40)
    alone = list(extract_versions(versions, workers=1))
    pooled = list(extract_versions(versions, workers=2, min_versions=1))
    assert [r.key for r in pooled] == [v.key for v in versions]
    assert sum(len(r.rows) for r in alone) >= 4 * len(versions)  # real claims, several a note
    assert [(r.key, r.rows, r.mentions, r.error) for r in pooled] == [
        (r.key, r.rows, r.mentions, r.error) for r in alone
    ]


def test_a_version_that_raises_is_named_and_the_others_come_through() -> None:
    versions = _versions(12)
    too_long = "word " * (MAX_TEXT_CHARS // 5 + 1)  # past the extractor's limit: it raises
    versions[5] = VersionText("huge@v1", too_long, "huge", "sv_huge")
    results = list(extract_versions(versions, workers=2, min_versions=1))
    assert [r.key for r in results] == [v.key for v in versions]
    failed = [r for r in results if r.error is not None]
    assert [r.key for r in failed] == ["huge@v1"]
    assert "more than the extractor's limit" in (failed[0].error or "")
    assert failed[0].rows == []
    assert all(r.rows for r in results if r.error is None)


def test_few_versions_or_one_worker_stay_in_process() -> None:
    assert not uses_pool(1, workers=2)
    assert not uses_pool(10, workers=2)
    assert not uses_pool(5000, workers=1)
    assert uses_pool(600, workers=2)
    assert uses_pool(3, workers=2, min_versions=3)


def _pool_workers() -> list[int]:
    """The processes the fork server forked: the pool's workers."""
    server = multiprocessing.forkserver._forkserver._forkserver_pid  # type: ignore[attr-defined]
    assert server is not None
    children = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == server:
            children.append(int(entry.name))
    return children


def test_a_killed_worker_fails_clearly_instead_of_hanging() -> None:
    versions = _versions(300)
    results = extract_versions(versions, workers=2, min_versions=1)
    first = next(results)
    assert first.key == versions[0].key
    workers = _pool_workers()
    assert workers
    os.kill(workers[0], signal.SIGKILL)
    with pytest.raises(ExtractionPoolBroken, match="extraction worker process died") as raised:
        for _ in results:
            pass
    assert "run again" in str(raised.value)
