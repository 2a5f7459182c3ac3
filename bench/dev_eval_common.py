"""Shared plumbing of the dev-data evaluation scripts (bench/eval_*.py).

The scripts measure the package found on ``PYTHONPATH`` or in the current directory, not
necessarily the checkout they live in: run them from a ``git worktree`` of an older commit
with ``PYTHONPATH=<worktree>`` to measure that commit with today's scoring code. They print
which ``claims`` package they loaded and its git commit so a figure is never misattributed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DEV_DIR = REPO.parent / "shared" / "data" / "dev"


def prefer_working_directory() -> None:
    """Import ``claims`` from the current directory when it holds a checkout of it."""
    here = Path.cwd()
    if (here / "claims" / "__init__.py").exists() and str(here) not in sys.path[:2]:
        sys.path.insert(1, str(here))


def describe_code() -> dict[str, str]:
    """Where the measured ``claims`` package lives and at which commit."""
    import claims

    root = Path(claims.__file__).resolve().parents[1]
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit, dirty = "unknown", ""
    return {"code": str(root), "commit": commit + ("+dirty" if dirty else "")}


def parser(description: str, default_name: str) -> argparse.ArgumentParser:
    """The common options: the data path, ``--limit N`` and ``--json OUT``."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument(
        "data",
        nargs="?",
        type=Path,
        default=DEFAULT_DEV_DIR / default_name,
        help=f"the dev data (default: {DEFAULT_DEV_DIR / default_name})",
    )
    p.add_argument("--limit", type=int, default=None, help="only the first N items")
    p.add_argument("--json", dest="json_out", type=Path, default=None, help="write figures here")
    p.add_argument("--examples", type=int, default=3, help="examples printed per failure class")
    return p


# The stable split of every dev set (issue 29): rules are tuned on one part and checked on
# the other, and both parts' figures are reported.
PARTS = ("tuning", "check")


def dev_part(item_id: object) -> str:
    """``tuning`` when the sha256 of the item id (as text) is even, else ``check``."""
    digest = hashlib.sha256(str(item_id).encode("utf-8")).digest()
    return PARTS[digest[-1] % 2]


def profile_option(p: argparse.ArgumentParser, default: str) -> None:
    """``--profile NAME``: the readers the items are read with (claims.profiles)."""
    p.add_argument(
        "--profile",
        default=default,
        help=f"the profile the items are read with (default: {default}; docs/EXTRACTION.md)",
    )


def require(path: Path) -> Path:
    if not path.exists():
        sys.exit(f"{path}: no such file or directory; give the dev data path as the argument")
    return path


def read_jsonl(path: Path, limit: int | None = None) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with require(path).open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as error:
                sys.exit(f"{path}:{number}: not a JSON line ({error.msg}); fix or remove it")
            if limit is not None and len(rows) >= limit:
                break
    return rows


def rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def shown(value: float | None) -> str:
    return "  n/a" if value is None else f"{value:.3f}"


def target_line(name: str, part: int, whole: int, target: str) -> str:
    """``name  part/whole = rate   (target ...)`` with a pass/FAIL mark."""
    value = rate(part, whole)
    op, bound = target.split()
    ok = value is not None and (value >= float(bound) if op == ">=" else value <= float(bound))
    mark = "ok  " if ok else "FAIL"
    return f"  {mark} {name:<58} {part:>6}/{whole:<6} = {shown(value)}   (target {target})"


def counter_lines(title: str, counts: Counter[str], total: int, top: int = 15) -> list[str]:
    lines = [f"  {title} (of {total}):"]
    for name, count in counts.most_common(top):
        lines.append(f"    {count:>6}  {shown(rate(count, total))}  {name}")
    if len(counts) > top:
        rest = sum(c for _, c in counts.most_common()[top:])
        lines.append(f"    {rest:>6}  {shown(rate(rest, total))}  ({len(counts) - top} more)")
    return lines


_NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?(?![\d])")
_NUMBER_WORD = re.compile(
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|"
    r"fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|trillion|dozen)\b",
    re.IGNORECASE,
)


def numbers_in(text: str) -> list[str]:
    """Digit numbers as written, commas dropped ("1,200" -> "1200")."""
    return [m.group().replace(",", "").lstrip("+") for m in _NUMBER.finditer(text)]


def mask_numbers(text: str) -> str:
    """The text with every digit number and number word replaced by '#', spaces folded."""
    masked = _NUMBER_WORD.sub("#", _NUMBER.sub("#", text))
    return " ".join(masked.replace("\ufffd", " ").split()).casefold()


def is_year(number: str) -> bool:
    return number.isdigit() and len(number) == 4 and 1500 <= int(number) <= 2100


def write_json(path: Path | None, figures: dict[str, Any]) -> None:
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(figures, indent=2, sort_keys=True, default=str) + "\n")
    print(f"figures written to {path}")


class Clock:
    def __init__(self) -> None:
        self.start = time.perf_counter()

    def seconds(self) -> float:
        return round(time.perf_counter() - self.start, 1)


def progress(done: int, total: int, every: int, label: str) -> None:
    if done % every == 0 or done == total:
        print(f"  ... {label} {done}/{total}", file=sys.stderr, flush=True)


def header(title: str, data: Path, items: int, code: dict[str, str]) -> None:
    print(f"== {title}")
    print(f"data: {data} ({items} items)")
    print(f"code: {code['code']} at {code['commit']}; python {sys.version.split()[0]}")
    print(f"date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")


def quiet_warnings() -> None:
    import warnings

    warnings.filterwarnings("ignore")
    os.environ.setdefault("PYTHONWARNINGS", "ignore")


def first(items: Iterable[Any]) -> Any:
    return next(iter(items), None)


# --------------------------------------------------------------------------- real pipeline


@dataclass(frozen=True)
class CorpusRun:
    url: str  # the SQLite store the corpus was run into
    failures: list[str]  # steps that failed (empty when strict)


def run_corpus(
    sources_dir: Path, register: Path | None, database: Path, *, strict: bool = True
) -> CorpusRun:
    """Ingest, extract and link ``sources_dir`` into a new SQLite store; the store URL.

    The path ``claims run`` takes (``pipeline.runner.run_pipeline``), in-process, on an
    ephemeral Dagster instance, so each small corpus is a corpus of its own. ``strict``:
    a failed step raises; otherwise the failures are returned with the URL.
    """
    import dagster as dg

    from pipeline.resources import ClaimStore, ExtractorResource, SourcesResource
    from pipeline.runner import run_pipeline

    url = f"sqlite:///{database}"
    outcome = run_pipeline(
        dg.DagsterInstance.ephemeral(),
        store=ClaimStore(database_url=url),
        sources=SourcesResource(
            sources_dir=str(sources_dir), register_file=str(register) if register else ""
        ),
        extractor=ExtractorResource(),
        log_level="CRITICAL",
    )
    failures = [f"{f.what}: {f.message}" for f in outcome.failures]
    if failures and strict:
        raise RuntimeError(f"the pipeline failed on {sources_dir}: {'; '.join(failures)}")
    return CorpusRun(url, failures)


def linked_edges(
    url: str, kinds: tuple[str, ...] = ("conflicts", "ambiguous")
) -> list[dict[str, Any]]:
    """Live edges of ``kinds`` (conflicts and ambiguous unless told) with both claims' source
    ids, quotes, keys and values (tests/test_table_restatement.py reads them too)."""
    from sqlalchemy import select
    from sqlalchemy.orm import aliased

    from claims.store.engine import make_engine
    from claims.tables import ClaimRow, EdgeRow

    left, right = aliased(ClaimRow), aliased(ClaimRow)
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                select(
                    EdgeRow.id,
                    EdgeRow.kind,
                    EdgeRow.left_claim_id,
                    EdgeRow.right_claim_id,
                    EdgeRow.rule,
                    EdgeRow.reason,
                    left.source_id.label("left_source"),
                    right.source_id.label("right_source"),
                    left.quote.label("left_quote"),
                    right.quote.label("right_quote"),
                    left.claim_key.label("left_key"),
                    right.claim_key.label("right_key"),
                    left.value_number.label("left_value"),
                    right.value_number.label("right_value"),
                )
                .join(left, left.id == EdgeRow.left_claim_id)
                .join(right, right.id == EdgeRow.right_claim_id)
                .where(EdgeRow.retired_at.is_(None))
                .where(EdgeRow.kind.in_(kinds))
            ).all()
    finally:
        engine.dispose()
    return [dict(r._mapping) for r in rows]
