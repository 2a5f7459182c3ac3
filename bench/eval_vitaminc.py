"""VitaminC real dev pairs through ``claims check``: conflict rates and why pairs are missed.

    python bench/eval_vitaminc.py [DATA.jsonl] [--limit N] [--json OUT] [--examples K]
                                  [--misses OUT.jsonl] [--no-page] [--part tuning|check]

Every row's (claim, evidence) goes through ``claims.check.check_texts``, the code path
of ``claims check``. Figures (issue 12 targets):

- REFUTES called conflict (>= 0.30), SUPPORTS called conflict (<= 0.03), NEI breakdown;
- revision pairs: two distinct evidence sentences of one ``case_id`` whose numbers differ
  land in one slot, i.e. the verdict is conflict or ambiguous (>= 0.85), and the subset whose
  texts are equal once numbers are masked (>= 0.98).

Both texts of a row are sentences of one page: its title (the row's ``page``, written with
``-LRB-``/``-RRB-``/``-COLON-`` for brackets and colons) is given to ``check_texts`` as both
texts' subject, as a register's ``title:`` would give it to the two files (``--no-page``:
no subject, the reading before session 17).

Misses are sorted into automatic failure classes (one primary class per pair: no claim on
a side, keys differ, same key but not a conflict by <rule>) and tagged with content classes
that may overlap (negation, numeric wording, years, no number at all), each with its rate.
``--misses OUT.jsonl`` writes every revision pair not in one slot, one JSON object a line
(both texts, the alignment ratio, the changed spans, the verdict and each claim pair), to read
the misses by class. ``--part tuning`` reads only the tuning half's rows (and its revision
pairs), so ``--examples`` and ``--misses`` show no case of the check half: read examples only
that way, and judge a rule by both halves of a whole run.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import re
import sys
from collections import Counter, defaultdict
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dev_eval_common as common  # noqa: E402

common.prefer_working_directory()

SLOT = ("conflict", "ambiguous")
MAX_EVIDENCE_PER_CASE = 12  # all pairs of a case's evidence; cases are small, this caps outliers
_NEGATION = re.compile(r"\b(?:not|no|never|n't|none|neither|nor|without|cannot|failed to)\b|n't\b")
_WORD = re.compile(r"[a-z]+")


def key_words(key: str) -> set[str]:
    return set(_WORD.findall(key.split(":")[-1]))


def key_pattern(left: str, right: str) -> str:
    """How two different claim keys relate, as a coarse automatic class."""
    if left.startswith("unknown") or right.startswith("unknown"):
        return "a key is unknown:*"
    a, b = key_words(left), key_words(right)
    if not a & b:
        return "no shared word"
    if a <= b or b <= a:
        return "one key's words inside the other's"
    return "some shared words"


def closest_keys(result: Any) -> tuple[str, str]:
    """The claim keys of the two texts that share the most words (the ones a fix would most
    likely join)."""

    def overlap(keys: tuple[str, str]) -> tuple[int, int]:
        a, b = key_words(keys[0]), key_words(keys[1])
        return (len(a & b), -len(a ^ b))

    return max(
        ((a.claim_key, b.claim_key) for a in result.left_found for b in result.right_found),
        key=overlap,
    )


def primary_class(result: Any) -> tuple[str, str | None]:
    """Why a pair is not a conflict: one class, plus the key pair when keys differ."""
    if not result.left_claims and not result.right_claims:
        return "no claim on either side", None
    if not result.left_claims:
        return "no claim from the claim side", None
    if not result.right_claims:
        return "no claim from the evidence side", None
    if not result.pairs:  # the builder linked no claim of one text with one of the other
        left, right = closest_keys(result)
        if left == right:
            return "same key, not linked", f"{left!r}"
        return f"keys differ: {key_pattern(left, right)}", f"{left!r} vs {right!r}"
    rank = {"conflict": 4, "ambiguous": 3, "corroboration": 2, "compatible": 1, "unrelated": 0}
    top = max(result.pairs, key=lambda p: rank[p.relation.value])
    same = "same key" if top.left.claim_key == top.right.claim_key else "similar keys"
    return f"{same}, {top.relation.value} by rule {top.rule}", None


def content_tags(left: str, right: str) -> list[str]:
    """Overlapping content classes of a text pair (automatic, from the surface text)."""
    tags: list[str] = []
    neg_l, neg_r = bool(_NEGATION.search(left.lower())), bool(_NEGATION.search(right.lower()))
    if neg_l != neg_r:
        tags.append("negation on one side only")
    nums_l, nums_r = common.numbers_in(left), common.numbers_in(right)
    if not nums_l and not nums_r:
        tags.append("no digit number on either side")
    elif not nums_l or not nums_r:
        tags.append("digit number on one side only (numeric wording)")
    else:
        if any(common.is_year(n) for n in nums_l + nums_r) and (
            {n for n in nums_l if common.is_year(n)} != {n for n in nums_r if common.is_year(n)}
        ):
            tags.append("years differ")
        if set(nums_l) & set(nums_r) and set(nums_l) != set(nums_r):
            tags.append("some numbers shared, others differ")
        if not set(nums_l) & set(nums_r):
            tags.append("no number shared")
        if len(nums_l) > 1 or len(nums_r) > 1:
            tags.append("several numbers in a sentence")
    return tags


class Tally:
    """Hits per label, primary classes and content tags of the misses."""

    def __init__(self, name: str, hit: tuple[str, ...]) -> None:
        self.name = name
        self.hit = hit
        self.total = 0
        self.hits = 0
        self.relations: Counter[str] = Counter()
        self.classes: Counter[str] = Counter()
        self.key_pairs: Counter[str] = Counter()
        self.tags_all: Counter[str] = Counter()
        self.tags_hit: Counter[str] = Counter()
        self.examples: dict[str, list[str]] = defaultdict(list)

    def add(self, left: str, right: str, result: Any, keep: int) -> None:
        self.total += 1
        relation = result.relation.value
        self.relations[relation] += 1
        hit = relation in self.hit
        self.hits += hit
        tags = content_tags(left, right)
        for tag in tags:
            self.tags_all[tag] += 1
            self.tags_hit[tag] += hit
        if hit:
            return
        cls, pair = primary_class(result)
        self.classes[cls] += 1
        if pair:
            self.key_pairs[pair] += 1
        if len(self.examples[cls]) < keep:
            self.examples[cls].append(f"{left}  ||  {right}  -> {result.reason}")

    def lines(self, missed_word: str = "missed") -> list[str]:
        out = common.counter_lines("verdicts", self.relations, self.total)
        out += common.counter_lines(f"{missed_word}, by failure class", self.classes, self.total)
        if self.key_pairs:
            out += common.counter_lines(
                "top key pairs when keys differ", self.key_pairs, self.total
            )
        out.append("  content classes (overlapping; rate = share of the class that was a hit):")
        for tag, count in self.tags_all.most_common():
            out.append(
                f"    {count:>6} pairs  hit {common.shown(common.rate(self.tags_hit[tag], count))}"
                f"  {tag}"
            )
        for cls, texts in self.examples.items():
            out.append(f"  examples of '{cls}':")
            out += [f"    - {t[:400]}" for t in texts]
        return out

    def figures(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "hits": self.hits,
            "rate": common.rate(self.hits, self.total),
            "relations": dict(self.relations),
            "failure_classes": dict(self.classes),
            "top_key_pairs": dict(self.key_pairs.most_common(30)),
            "content_classes": {
                t: {"pairs": c, "hit_rate": common.rate(self.tags_hit[t], c)}
                for t, c in self.tags_all.items()
            },
        }


PARTS = ("all", "tuning", "check")


def part_of(case_id: str) -> str:
    """The stable half a case belongs to: ``tuning`` (even sha256) or ``check`` (odd).

    Rules are taught on classes that hold on both halves; a change that helps one half only
    is tuned to items."""
    return "tuning" if int(hashlib.sha256(case_id.encode()).hexdigest(), 16) % 2 == 0 else "check"


_TITLE_MARKS = (("-LRB-", "("), ("-RRB-", ")"), ("-COLON-", ":"), ("( ", "("), (" )", ")"))


def page_title(page: str | None) -> str | None:
    """A row's ``page`` as the page's title is written ("Harbour Lights -LRB-2011 film-RRB-"
    -> "Harbour Lights (2011 film)")."""
    if not page:
        return None
    for mark, char in _TITLE_MARKS:
        page = page.replace(mark, char)
    return page.strip() or None


def revision_pairs(rows: list[dict[str, Any]]) -> list[tuple[str, str, bool, str]]:
    """(before, after, only_numbers_changed, case_id) for distinct evidence of one case whose
    numbers differ; each unordered pair once."""
    by_case: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        texts = by_case[row["case_id"]]
        if row["evidence"] not in texts:
            texts.append(row["evidence"])
    pairs = []
    for case, texts in by_case.items():
        for a, b in combinations(texts[:MAX_EVIDENCE_PER_CASE], 2):
            if Counter(common.numbers_in(a)) == Counter(common.numbers_in(b)):
                continue
            pairs.append((a, b, common.mask_numbers(a) == common.mask_numbers(b), case))
    return pairs


def miss_record(left: str, right: str, numbers_only: bool, result: Any) -> dict[str, Any]:
    """One revision pair not in one slot, with what a reader needs to class it."""
    from claims.edges.facts import shown_value

    return {
        "left": left,
        "right": right,
        "only_numbers": numbers_only,
        "relation": result.relation.value,
        "rule": result.rule,
        "reason": result.reason,
        "class": primary_class(result)[0],
        "claims": [
            [f"{c.claim_key} = {shown_value(c)}" for c in result.left_found],
            [f"{c.claim_key} = {shown_value(c)}" for c in result.right_found],
        ],
        "pairs": [
            {
                "relation": p.relation.value,
                "rule": p.rule,
                "left": f"{p.left.claim_key} = {shown_value(p.left)}",
                "right": f"{p.right.claim_key} = {shown_value(p.right)}",
                "reason": p.reason,
            }
            for p in result.pairs
        ],
    }


def new_tallies() -> dict[str, Tally]:
    return {
        "REFUTES": Tally("REFUTES", ("conflict",)),
        "SUPPORTS": Tally("SUPPORTS", ("conflict",)),
        "NOT ENOUGH INFO": Tally("NOT ENOUGH INFO", ("conflict",)),
        "revisions": Tally("revision pairs", SLOT),
        "only_numbers": Tally("revision pairs, only numbers changed", SLOT),
    }


def figure_lines(t: dict[str, Tally]) -> list[str]:
    ref, sup, nei = t["REFUTES"], t["SUPPORTS"], t["NOT ENOUGH INFO"]
    revisions, only_numbers = t["revisions"], t["only_numbers"]
    nei_conflict = common.rate(nei.hits, nei.total)
    return [
        common.target_line("REFUTES called conflict", ref.hits, ref.total, ">= 0.30"),
        common.target_line("SUPPORTS called conflict", sup.hits, sup.total, "<= 0.03"),
        common.target_line(
            "revision pairs in one slot", revisions.hits, revisions.total, ">= 0.85"
        ),
        common.target_line(
            "revision pairs in one slot, only numbers changed",
            only_numbers.hits,
            only_numbers.total,
            ">= 0.98",
        ),
        f"  info NOT ENOUGH INFO called conflict: {nei.hits}/{nei.total} = "
        f"{common.shown(nei_conflict)}",
    ]


def part_figures(t: dict[str, Tally]) -> dict[str, Any]:
    return {
        "refutes": t["REFUTES"].figures(),
        "supports": t["SUPPORTS"].figures(),
        "not_enough_info": t["NOT ENOUGH INFO"].figures(),
        "revision_pairs": t["revisions"].figures(),
        "revision_pairs_only_numbers": t["only_numbers"].figures(),
    }


def main() -> None:
    cli = common.parser(__doc__.splitlines()[0], "vitaminc_real_dev.jsonl")
    cli.add_argument(
        "--misses", type=Path, default=None, help="write the revision pairs not in one slot here"
    )
    cli.add_argument(
        "--no-page",
        action="store_true",
        help="do not give the page's title as the texts' subject (the reading before session 17)",
    )
    cli.add_argument(
        "--part",
        choices=PARTS[1:],
        default=None,
        help="only the rows of one half (read examples and misses of the tuning half only)",
    )
    common.profile_option(cli, "reference")
    args = cli.parse_args()
    common.quiet_warnings()
    rows = common.read_jsonl(args.data, args.limit)
    if args.part:
        rows = [row for row in rows if part_of(row["case_id"]) == args.part]
    code = common.describe_code()
    from claims import check

    # the pages are reference articles (claims.profiles); a commit before profiles reads
    # with every reader on
    parameters = inspect.signature(check.check_texts).parameters
    takes_profile = "profile" in parameters
    takes_subject = "subject" in parameters and not args.no_page

    def check_texts(left: str, right: str, page: str | None) -> Any:
        if takes_subject:
            return check.check_texts(left, right, args.profile, page_title(page))
        if takes_profile:
            return check.check_texts(left, right, args.profile)
        return check.check_texts(left, right)

    clock = common.Clock()
    common.header("VitaminC real dev through claims check", args.data, len(rows), code)
    parts = {part: new_tallies() for part in PARTS}
    false_rules: Counter[str] = Counter()
    for done, row in enumerate(rows, start=1):
        result = check_texts(row["claim"], row["evidence"], row.get("page"))
        for part in ("all", part_of(row["case_id"])):
            keep = args.examples if part == "all" else 0
            parts[part][row["label"]].add(row["claim"], row["evidence"], result, keep)
        if row["label"] == "SUPPORTS" and result.relation.value == "conflict":
            false_rules[f"rule {result.rule}"] += 1
        common.progress(done, len(rows), 2000, "rows")
    pairs = revision_pairs(rows)
    pages = {row["case_id"]: row.get("page") for row in rows}
    misses: list[dict[str, Any]] = []
    for done, (a, b, numbers_only, case) in enumerate(pairs, start=1):
        result = check_texts(a, b, pages[case])
        for part in ("all", part_of(case)):
            keep = args.examples if part == "all" else 0
            parts[part]["revisions"].add(a, b, result, keep)
            if numbers_only:
                parts[part]["only_numbers"].add(a, b, result, keep)
        if args.misses and result.relation.value not in SLOT:
            misses.append(miss_record(a, b, numbers_only, result))
        common.progress(done, len(pairs), 2000, "revision pairs")

    if args.misses:
        with args.misses.open("w", encoding="utf-8") as out:
            out.writelines(json.dumps(m, ensure_ascii=False) + "\n" for m in misses)
    print(f"time: {clock.seconds()} s")
    for part in PARTS:
        title = (
            "whole-set"
            if part == "all"
            else f"{part} part (sha256 of case_id, " + ("even)" if part == "tuning" else "odd)")
        )
        print(f"\n{title} figures:")
        print("\n".join(figure_lines(parts[part])))
    t = parts["all"]
    for title, tally, word in (
        ("REFUTES (a hit is a conflict)", t["REFUTES"], "missed"),
        ("SUPPORTS (a hit is a false conflict)", t["SUPPORTS"], "not conflict"),
        ("NOT ENOUGH INFO", t["NOT ENOUGH INFO"], "not conflict"),
        ("revision pairs (a hit is conflict or ambiguous)", t["revisions"], "missed"),
        ("revision pairs, only numbers changed", t["only_numbers"], "missed"),
    ):
        print(f"\n-- {title}")
        print("\n".join(tally.lines(word)))
    if false_rules:
        print("\n-- SUPPORTS called conflict: rule of the conflict")
        print(
            "\n".join(
                common.counter_lines("false conflicts by rule", false_rules, t["SUPPORTS"].hits)
            )
        )
    common.write_json(
        args.json_out,
        {
            **code,
            "data": str(args.data),
            "rows": len(rows),
            "seconds": clock.seconds(),
            **part_figures(t),
            "parts": {part: part_figures(parts[part]) for part in PARTS[1:]},
        },
    )


if __name__ == "__main__":
    main()
