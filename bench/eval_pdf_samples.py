"""Every PDF of a folder through the PDF converter: read (pages, characters) or its error.

    python bench/eval_pdf_samples.py [FOLDER] [--show-text]
    # FOLDER default: ../shared/data/dev/pdf_samples beside this checkout

Prints one row per ``FOLDER/*/*.pdf`` (and ``FOLDER/*.pdf``): the file, ``read`` with its
page count, characters, tables, headings and list items (and with ``--show-text`` its
first words), or ``error`` with the per-file message a user sees. A traceback (any
exception other than the converter's ``InputError``) is counted as a failure and makes
the exit code 1. The table in docs/INGEST.md is its output.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from claims.documents.converters import convert  # noqa: E402
from claims.errors import InputError  # noqa: E402

_DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "dev" / "pdf_samples"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=_DEFAULT)
    parser.add_argument("--show-text", action="store_true", help="print each file's first words")
    args = parser.parse_args()
    files = sorted({*args.folder.glob("*.pdf"), *args.folder.glob("*/*.pdf")})
    if not files:
        print(f"no PDF under {args.folder}", file=sys.stderr)
        return 2
    crashed = 0
    print("| file | outcome | pages | chars | tables | headings | items | ms | error |")
    print("|---|---|---|---|---|---|---|---|---|")
    for path in files:
        name = path.relative_to(args.folder).as_posix()
        started = time.perf_counter()
        try:
            converted = convert(path.read_bytes(), path)
        except InputError as error:
            ms = (time.perf_counter() - started) * 1000
            reason = str(error).removeprefix(f"{path}: ")
            print(f"| {name} | error | | | | | | {ms:.0f} | {reason} |")
            continue
        except Exception:  # the converter must never let one escape
            crashed += 1
            print(f"| {name} | TRACEBACK | | | | | | | {traceback.format_exc(limit=3)!r} |")
            continue
        ms = (time.perf_counter() - started) * 1000
        text = converted.text
        pages = text.count("\f") + 1  # a form feed may stand inside a paragraph going on
        lines = text.splitlines()
        tables = sum(1 for line in lines if line.startswith("|---"))
        headings = sum(1 for line in lines if line.startswith("#"))
        items = sum(1 for line in lines if line.lstrip().startswith(("- ", "1. ")))
        words = " ".join(text.split()[:8]).replace("|", "\\|") if args.show_text else ""
        print(
            f"| {name} | read | {pages} | {len(text)} | {tables} | {headings} | {items} "
            f"| {ms:.0f} | {words} |"
        )
    print(f"\n{len(files)} files, {crashed} traceback(s)")
    return 1 if crashed else 0


if __name__ == "__main__":
    raise SystemExit(main())
