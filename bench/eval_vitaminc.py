"""VitaminC real dev pairs through ``claims check``: conflict rates and why pairs are missed.

    python bench/eval_vitaminc.py [DATA.jsonl] [--limit N] [--json OUT] [--examples K]
                                  [--misses OUT.jsonl]

Every row's (claim, evidence) goes through ``claims.edges.check.check_texts``, the code path
of ``claims check``. Figures (issue 12 targets):

- REFUTES called conflict (>= 0.30), SUPPORTS called conflict (<= 0.03), NEI breakdown;
- revision pairs: two distinct evidence sentences of one ``case_id`` whose numbers differ
  land in one slot, i.e. the verdict is conflict or ambiguous (>= 0.85), and the subset whose
  texts are equal once numbers are masked (>= 0.98).

Misses are sorted into automatic failure classes (one primary class per pair: no claim on
a side, keys differ, same key but not a conflict by <rule>) and tagged with content classes
that may overlap (negation, numeric wording, years, no number at all), each with its rate.
``--misses OUT.jsonl`` writes every revision pair not in one slot, one JSON object a line
(both texts, the alignment ratio, the changed spans, the verdict and each claim pair), to read
the misses by class.
"""

from __future__ import annotations

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


def closest_pair(pairs: list[Any]) -> Any:
    """The pair whose keys share the most words (the one a fix would most likely join)."""

    def overlap(p: Any) -> tuple[int, int]:
        a, b = key_words(p.left.claim_key), key_words(p.right.claim_key)
        return (len(a & b), -len(a ^ b))

    return max(pairs, key=overlap)


def primary_class(result: Any) -> tuple[str, str | None]:
    """Why a pair is not a conflict: one class, plus the key pair when keys differ."""
    if not result.left_claims and not result.right_claims:
        return "no claim on either side", None
    if not result.left_claims:
        return "no claim from the claim side", None
    if not result.right_claims:
        return "no claim from the evidence side", None
    rank = {"conflict": 4, "ambiguous": 3, "corroboration": 2, "compatible": 1, "unrelated": 0}
    top = max(result.pairs, key=lambda p: rank[p.relation.value])
    if top.relation.value == "unrelated":  # no pair was compared: the keys kept them apart
        best = closest_pair(result.pairs)
        pair = f"{best.left.claim_key!r} vs {best.right.claim_key!r}"
        return f"keys differ: {key_pattern(best.left.claim_key, best.right.claim_key)}", pair
    # compared: on one key, or (since attribute similarity) on similar keys
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


def revision_pairs(rows: list[dict[str, Any]]) -> list[tuple[str, str, bool, str]]:
    """(before, after, only_numbers_changed, case id) for distinct evidence of one case whose
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
    from claims.edges.alignment import align
    from claims.edges.facts import shown_value

    alignment = align(left, right)
    return {
        "left": left,
        "right": right,
        "only_numbers": numbers_only,
        "ratio": round(alignment.ratio, 3),
        "containment": round(alignment.containment, 3),
        "revision": alignment.revision,
        "changes": [[c.left_text, c.right_text] for c in alignment.changes],
        "relation": result.relation.value,
        "rule": result.rule,
        "reason": result.reason,
        "class": primary_class(result)[0],
        "claims": [result.left_claims, result.right_claims],
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


def main() -> None:
    cli = common.parser(__doc__.splitlines()[0], "vitaminc_real_dev.jsonl")
    cli.add_argument(
        "--misses", type=Path, default=None, help="write the revision pairs not in one slot here"
    )
    common.profile_option(cli, "reference")
    args = cli.parse_args()
    common.quiet_warnings()
    rows = common.read_jsonl(args.data, args.limit)
    code = common.describe_code()
    from claims.edges import check

    # a commit before profiles reads with every reader on
    takes_profile = "profile" in inspect.signature(check.check_texts).parameters

    def check_texts(left: str, right: str) -> Any:
        if takes_profile:
            return check.check_texts(left, right, args.profile)
        return check.check_texts(left, right)

    clock = common.Clock()
    common.header("VitaminC real dev through claims check", args.data, len(rows), code)
    print(f"profile: {args.profile if takes_profile else '(the code has no profiles)'}")
    by_label = _label_tallies()
    parts = {part: _label_tallies() for part in common.PARTS}  # the stable split
    for done, row in enumerate(rows, start=1):
        result = check_texts(row["claim"], row["evidence"])
        by_label[row["label"]].add(row["claim"], row["evidence"], result, args.examples)
        part = parts[common.dev_part(row["unique_id"])]
        part[row["label"]].add(row["claim"], row["evidence"], result, 0)
        common.progress(done, len(rows), 2000, "rows")
    pairs = revision_pairs(rows)
    revisions = Tally("revision pairs", SLOT)
    only_numbers = Tally("revision pairs, only numbers changed", SLOT)
    part_revisions = {part: Tally(f"revision pairs, {part}", SLOT) for part in common.PARTS}
    misses: list[dict[str, Any]] = []
    for done, (a, b, numbers_only, case) in enumerate(pairs, start=1):
        result = check_texts(a, b)
        revisions.add(a, b, result, args.examples)
        part_revisions[common.dev_part(case)].add(a, b, result, 0)
        if args.misses and result.relation.value not in SLOT:
            misses.append(miss_record(a, b, numbers_only, result))
        if numbers_only:
            only_numbers.add(a, b, result, args.examples)
        common.progress(done, len(pairs), 2000, "revision pairs")

    if args.misses:
        with args.misses.open("w", encoding="utf-8") as out:
            out.writelines(json.dumps(m, ensure_ascii=False) + "\n" for m in misses)
    ref, sup, nei = by_label["REFUTES"], by_label["SUPPORTS"], by_label["NOT ENOUGH INFO"]
    print(f"time: {clock.seconds()} s")
    print("\nwhole-set figures:")
    print(common.target_line("REFUTES called conflict", ref.hits, ref.total, ">= 0.30"))
    print(common.target_line("SUPPORTS called conflict", sup.hits, sup.total, "<= 0.03"))
    print(
        common.target_line("revision pairs in one slot", revisions.hits, revisions.total, ">= 0.85")
    )
    print(
        common.target_line(
            "revision pairs in one slot, only numbers changed",
            only_numbers.hits,
            only_numbers.total,
            ">= 0.98",
        )
    )
    for part in common.PARTS:
        p_ref, p_sup = parts[part]["REFUTES"], parts[part]["SUPPORTS"]
        p_rev = part_revisions[part]
        print(f"\n{part} part (sha256 of the item id {'even' if part == 'tuning' else 'odd'}):")
        print(common.target_line("REFUTES called conflict", p_ref.hits, p_ref.total, ">= 0.30"))
        print(common.target_line("SUPPORTS called conflict", p_sup.hits, p_sup.total, "<= 0.03"))
        print(common.target_line("revision pairs in one slot", p_rev.hits, p_rev.total, ">= 0.85"))
    nei_conflict = common.rate(nei.hits, nei.total)
    print(
        f"  info NOT ENOUGH INFO called conflict: {nei.hits}/{nei.total} = "
        f"{common.shown(nei_conflict)}"
    )
    for title, tally, word in (
        ("REFUTES (a hit is a conflict)", ref, "missed"),
        ("SUPPORTS (a hit is a false conflict)", sup, "not conflict"),
        ("NOT ENOUGH INFO", nei, "not conflict"),
        ("revision pairs (a hit is conflict or ambiguous)", revisions, "missed"),
        ("revision pairs, only numbers changed", only_numbers, "missed"),
    ):
        print(f"\n-- {title}")
        print("\n".join(tally.lines(word)))
    if sup.hits:
        print("\n-- SUPPORTS called conflict: rule of the conflict")
        # a second pass over the few false conflicts only: which rule called them
        rules: Counter[str] = Counter()
        for row in rows:
            if row["label"] == "SUPPORTS":
                result = check_texts(row["claim"], row["evidence"])
                if result.relation.value == "conflict":
                    rules[f"rule {result.rule}"] += 1
        print("\n".join(common.counter_lines("false conflicts by rule", rules, sup.hits)))
    common.write_json(
        args.json_out,
        {
            **code,
            "data": str(args.data),
            "rows": len(rows),
            "seconds": clock.seconds(),
            "refutes": ref.figures(),
            "supports": sup.figures(),
            "not_enough_info": nei.figures(),
            "revision_pairs": revisions.figures(),
            "revision_pairs_only_numbers": only_numbers.figures(),
            "profile": args.profile,
            "parts": {
                part: {
                    "refutes": parts[part]["REFUTES"].figures(),
                    "supports": parts[part]["SUPPORTS"].figures(),
                    "revision_pairs": part_revisions[part].figures(),
                }
                for part in common.PARTS
            },
        },
    )


def _label_tallies() -> dict[str, Tally]:
    return {
        "REFUTES": Tally("REFUTES", ("conflict",)),
        "SUPPORTS": Tally("SUPPORTS", ("conflict",)),
        "NOT ENOUGH INFO": Tally("NOT ENOUGH INFO", ("conflict",)),
    }


if __name__ == "__main__":
    main()
