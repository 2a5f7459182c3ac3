"""What folding look-alike text costs extraction (issue 31, point 6).

Usage: python bench/bench_lookalikes.py [--repeat R] [N]   (default N 400 sentences, R 3)

Extracts N office sentences written with curly quotes and accented words (non-ASCII text
with nothing to fold), then the same text with a zero-width space and a Cyrillic look-alike
in every tenth sentence (the folding path, spans mapped back). The baseline is the same
extraction of the text made ASCII (no folding possible) in the same run; figures are CPU
seconds of this process, best of R, and their ratios to the baseline; the look-alike text is
also compared with the non-ASCII text that has nothing to fold (the cost of folding and of
mapping spans back). The folding alone (``fold_lookalikes`` on the text) is timed too.
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
warnings.filterwarnings("ignore")


def _sentences(n: int, first: int) -> list[str]:
    # fresh numbers for every timing: the extractor replays a sentence it read before
    return [
        f"The “café {i}” service fee for the Zürich branch is {i % 40 + 5} CHF per month."
        for i in range(first, first + n)
    ]


def _plain(n: int, first: int) -> str:
    return "\n".join(_sentences(n, first))


def _ascii(n: int, first: int) -> str:
    return _plain(n, first).translate(str.maketrans({"“": '"', "”": '"', "é": "e", "ü": "u"}))


def _odd(n: int, first: int) -> str:
    rows = _sentences(n, first)
    for i in range(0, n, 10):
        rows[i] = "\u200b" + rows[i].replace("service", "servic\u0435")
    return "\n".join(rows)


def _best(repeat: int, n: int, make, work) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for r in range(repeat):
        text = make(n, 10_000_000 * (r + 1) + id(make) % 1000 * 10_000)
        start = time.process_time()
        work(text)
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    args = sys.argv[1:]
    repeat = 3
    if "--repeat" in args:
        at = args.index("--repeat")
        repeat = int(args[at + 1])
        del args[at : at + 2]
    n = int(args[0]) if args else 400
    from claims.extraction import extract
    from claims.lookalikes import fold_lookalikes

    extract(_ascii(50, 0))  # load the pipeline outside the timings

    baseline = _best(repeat, n, _ascii, extract)
    nothing = _best(repeat, n, _plain, extract)
    folded = _best(repeat, n, _odd, extract)
    fold_only = _best(repeat, n, _odd, fold_lookalikes)
    keys_odd = [c.claim_key for c in extract(_odd(n, 1))]
    same = keys_odd == [c.claim_key for c in extract(_plain(n, 1))]
    print(f"{n} sentences, {len(_plain(n, 1)):,} characters, best of {repeat} (CPU s)")
    print(f"  extract, ASCII text (baseline)          {baseline:.3f}")
    print(f"  extract, non-ASCII, nothing to fold     {nothing:.3f}  ({nothing / baseline:.2f}x)")
    print(
        f"  extract, look-alikes in 1 of 10         {folded:.3f}  ({folded / baseline:.2f}x; "
        f"{folded / nothing:.2f}x the same text with nothing to fold)"
    )
    print(f"  fold_lookalikes alone on that text      {fold_only:.4f}")
    print(f"  claim keys equal to the text without look-alikes: {same}")


if __name__ == "__main__":
    main()
