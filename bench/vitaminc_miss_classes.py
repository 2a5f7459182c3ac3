"""Classes of the VitaminC revision pairs not in one slot (the ``--misses`` file of
``eval_vitaminc.py``), one primary class per pair, and a seeded sample to read by hand.

    python bench/eval_vitaminc.py DATA --misses /tmp/misses.jsonl
    python bench/vitaminc_miss_classes.py /tmp/misses.jsonl [--sample N --seed S --of PREFIX]
    python bench/vitaminc_miss_classes.py /tmp/misses.jsonl --sample 60 --seed 12 \
        --skip "one version, figures only"

Primary classes, first that applies:

1. a figure changed in place, read apart: one version of the other (``Alignment.revision``,
   or the shorter text near-whole in the longer) and a changed span holds digits on both
   sides;
2. a figure replaced by words: one version, a changed span with digits on one side only;
3. one version, figures only added or dropped (every number of one side is among the
   other's);
4. one version, figures changed inside a rewritten stretch (longer than a change span);
5. rewrite, a figure on one side only: not one version, and one text has no digit number;
6. rewrite, written apart: the rest (two wordings, or two sentences of one article).

Sentence-structure tags (overlapping, on classes 5-6): a superlative or rank on both sides,
a relative date on one side, a list (three or more items) on both sides.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dev_eval_common as common  # noqa: E402

_DIGIT = re.compile(r"\d")
_SUPERLATIVE = re.compile(
    r"\b(?:\w+est|most|least|highest|largest|biggest|first|second|third|top|best|worst)\b",
    re.IGNORECASE,
)
_RELATIVE = re.compile(
    r"\b(?:following|next|previous|preceding|same|later|earlier|subsequent)\s+"
    r"(?:day|week|month|year|season|decade|morning|evening|night)\b|\b(?:the day after|"
    r"the day before|a year later|years later|days later)\b",
    re.IGNORECASE,
)
_LIST = re.compile(r"(?:[^,;]+,){2,}[^,;]*\b(?:and|or)\b")


def primary(record: dict[str, Any]) -> str:
    left, right = record["left"], record["right"]
    changes = record["changes"]
    aligned = record["revision"] or record["containment"] >= 0.85
    if aligned:
        if any(_DIGIT.search(x) and _DIGIT.search(y) for x, y in changes):
            return "a figure changed in place, read apart"
        if any(bool(_DIGIT.search(x)) != bool(_DIGIT.search(y)) for x, y in changes):
            return "a figure replaced by words"
        a, b = Counter(common.numbers_in(left)), Counter(common.numbers_in(right))
        if not (a - b) or not (b - a):
            return "one version, figures only added or dropped"
        return "one version, figures changed inside a rewritten stretch"
    if not common.numbers_in(left) or not common.numbers_in(right):
        return "rewrite, a figure on one side only"
    return "rewrite, written apart"


def structure_tags(record: dict[str, Any]) -> list[str]:
    left, right = record["left"], record["right"]
    tags = []
    if _SUPERLATIVE.search(left) and _SUPERLATIVE.search(right):
        tags.append("superlative or rank on both sides")
    if bool(_RELATIVE.search(left)) != bool(_RELATIVE.search(right)):
        tags.append("relative date on one side")
    if _LIST.search(left) and _LIST.search(right):
        tags.append("a list on both sides")
    return tags


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("misses", type=Path)
    cli.add_argument("--sample", type=int, default=0, help="print N random misses of --of")
    cli.add_argument("--seed", type=int, default=0)
    cli.add_argument("--of", default="rewrite", help="the class(es) to sample: a name prefix")
    cli.add_argument(
        "--skip",
        default=None,
        help="sample every class except those whose name starts with this prefix (overrides --of)",
    )
    args = cli.parse_args()
    records = [json.loads(line) for line in args.misses.read_text().splitlines() if line]
    classes: Counter[str] = Counter()
    tags: Counter[str] = Counter()
    keyed: Counter[str] = Counter()
    by_class: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        cls = primary(record)
        classes[cls] += 1
        by_class.setdefault(cls, []).append(record)
        if cls.startswith("rewrite"):
            for tag in structure_tags(record):
                tags[f"{cls}: {tag}"] += 1
        if cls == "a figure changed in place, read apart":
            keyed[record["class"]] += 1
    print(f"{len(records)} revision pairs not in one slot")
    print("\n".join(common.counter_lines("primary class", classes, len(records))))
    print("\n".join(common.counter_lines("structure tags of the rewrites", tags, len(records))))
    print("\n".join(common.counter_lines("figure changed in place, why", keyed, len(records))))
    if args.sample:
        # every class whose name starts with --of ("rewrite" samples both rewrite classes)
        if args.skip:
            # "--skip 'one version, figures only'": the session-12 triage read the rest
            chosen = [
                r for cls, rs in by_class.items() if not cls.startswith(args.skip) for r in rs
            ]
        else:
            chosen = [r for cls, rs in by_class.items() if cls.startswith(args.of) for r in rs]
        pool = sorted(chosen, key=lambda r: (r["left"], r["right"]))
        for record in random.Random(args.seed).sample(pool, min(args.sample, len(pool))):
            print(json.dumps(record, ensure_ascii=False)[:1500])


if __name__ == "__main__":
    main()
