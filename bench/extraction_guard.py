"""The extractor's identical-output guard: every claim of a fixed corpus, as JSON lines.

    python bench/extraction_guard.py OUT.jsonl [--vitaminc PATH] [--ramdocs PATH]
    python bench/extraction_guard.py --compare BEFORE.jsonl AFTER.jsonl

Run once per tree (the code found on ``PYTHONPATH`` or in the current directory) and
compare: a change that should keep the extractor's behaviour must give identical lines.
The corpus is the ``samples/`` Markdown and text files, every twelfth row of the VitaminC
dev set (its claim and its evidence, the page's title as the texts' subject, as ``claims
check`` reads them), the documents of every sixth RAMDocs dev question and those
questions parsed. Each text is read under the ``office`` and the ``reference`` profile.
The claim id, the version id and the generation are left out (they hash the code).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dev_eval_common as common  # noqa: E402

PROFILES = ("office", "reference")
VITAMINC_EVERY = 12
RAMDOCS_EVERY = 6
_LEFT_OUT = ("id", "source_version_id", "generation")


def sample_texts() -> Iterator[tuple[str, str, str | None, str]]:
    """(name, text, subject, media type) of the samples/ Markdown and text files."""
    media = {".md": "text/markdown", ".txt": "text/plain"}
    for path in sorted((common.REPO / "samples").rglob("*")):
        if path.suffix in media and path.is_file():
            name = str(path.relative_to(common.REPO))
            yield name, path.read_text(encoding="utf-8"), None, media[path.suffix]


def vitaminc_texts(path: Path) -> Iterator[tuple[str, str, str | None, str]]:
    from eval_vitaminc import page_title

    for number, row in enumerate(common.read_jsonl(path)):
        if number % VITAMINC_EVERY:
            continue
        subject = page_title(row.get("page"))
        for side in ("claim", "evidence"):
            yield f"vitaminc:{row['unique_id']}:{side}", row[side], subject, "text/markdown"


def ramdocs_rows(path: Path) -> list[dict[str, Any]]:
    rows = common.read_jsonl(path)
    return [row for number, row in enumerate(rows) if number % RAMDOCS_EVERY == 0]


def ramdocs_texts(rows: list[dict[str, Any]]) -> Iterator[tuple[str, str, str | None, str]]:
    for number, row in enumerate(rows):
        for d, document in enumerate(row["documents"]):
            yield f"ramdocs:{number}:{d}", document["text"], None, "text/plain"


def claim_fields(claim: Any) -> dict[str, Any]:
    data = claim.model_dump(mode="json")
    for field in _LEFT_OUT:
        data.pop(field, None)
    return data


def dump(out: Path, vitaminc: Path | None, ramdocs: Path | None) -> None:
    common.prefer_working_directory()
    common.quiet_warnings()
    from claims.extraction import extract, parse_question

    texts = list(sample_texts())
    if vitaminc is not None:
        texts += list(vitaminc_texts(vitaminc))
    rows = ramdocs_rows(ramdocs) if ramdocs is not None else []
    texts += list(ramdocs_texts(rows))
    print(f"code: {common.describe_code()}; {len(texts)} texts, {len(rows)} questions")
    with out.open("w", encoding="utf-8") as handle:
        for profile in PROFILES:
            for name, text, subject, media_type in texts:
                claims = extract(
                    text, document_subject=subject, profile=profile, media_type=media_type
                )
                fields = [claim_fields(c) for c in claims]
                line = {"text": name, "profile": profile, "claims": fields}
                handle.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
        for number, row in enumerate(rows):
            frame = parse_question(row["question"])
            line = {"question": number, "frame": repr(frame)}
            handle.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")


def compare(before: Path, after: Path) -> int:
    """Print every line that differs; 1 when any does."""
    old = before.read_text(encoding="utf-8").splitlines()
    new = after.read_text(encoding="utf-8").splitlines()
    if len(old) != len(new):
        print(f"{len(old)} lines before, {len(new)} after")
        return 1
    differ = 0
    for left, right in zip(old, new, strict=True):
        if left != right:
            differ += 1
            a = json.loads(left)
            print(f"--- {a.get('text', a.get('question'))} ({a.get('profile', 'question')})")
            print(f"  before: {left[:2000]}")
            print(f"  after:  {right[:2000]}")
    print(f"{differ} of {len(old)} lines differ")
    return 1 if differ else 0


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("out", type=Path, nargs="?", help="where to write the JSON lines")
    dev = common.DEFAULT_DEV_DIR
    cli.add_argument("--vitaminc", type=Path, default=dev / "vitaminc_real_dev.jsonl")
    cli.add_argument("--ramdocs", type=Path, default=dev / "ramdocs_dev.jsonl")
    cli.add_argument("--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"))
    args = cli.parse_args()
    if args.compare:
        sys.exit(compare(*args.compare))
    if args.out is None:
        cli.error("give OUT.jsonl, or --compare BEFORE AFTER")
    dump(args.out, args.vitaminc, args.ramdocs)


if __name__ == "__main__":
    main()
