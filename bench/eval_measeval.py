"""MeasEval quantity spans against the value spans of extracted quantity claims.

    python bench/eval_measeval.py [MEASEVAL_DIR] [--limit N] [--json OUT] [--examples K]

Every paragraph of ``train`` and ``trial`` that has its text goes through
``claims.extraction.extract``; each quantity claim's ``value_span`` (number + unit) is a
predicted span, each ``Quantity`` row of the tsv a gold span. Paragraphs with a text but no
tsv have no quantity at all (every predicted span there is spurious). Figures (issue 12
targets): exact F1 (>= 0.50), overlap F1 (>= 0.85), precision on overlap (>= 0.80), recall,
and unit accuracy over overlap matches whose gold span has a unit.

Failure classes: missed gold spans by kind (the annotators' mods and the span's shape),
spurious predicted spans by shape (years, references, list numbers, bare numbers...), and
boundary errors of overlap matches (what the prediction left out or added).
"""

from __future__ import annotations

import csv
import json
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dev_eval_common as common  # noqa: E402

common.prefer_working_directory()

_SCIENTIFIC = re.compile(r"[×x]\s*10|\d[eE][-−+]?\d|10\s*[-−]\s*\d|10\^")
_TOLERANCE = re.compile(r"±|\+/-|\+-")
_RANGE = re.compile(
    r"\d\s*(?:-|–|−|to|and)\s*\d|between|from\s+\d|[<>≤≥]|more than|less than|up to"
)
_WORD_NUMBER = re.compile(
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|"
    r"hundred|thousand|million|billion|dozen|half|single|double|several)\b",
    re.IGNORECASE,
)
_LABEL_BEFORE = re.compile(
    r"(?:Fig\.?|Figs\.?|Figures?|Tables?|Eqs?\.?|Equations?|Sections?|Sect\.?|Refs?\.?|"
    r"phases?|sites?|stations?|samples?|steps?|stages?|no\.)\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Gold:
    start: int
    end: int
    text: str
    unit: str | None
    mods: tuple[str, ...]


@dataclass(frozen=True)
class Predicted:
    start: int
    end: int
    text: str
    unit: str | None


def read_gold(tsv: Path) -> list[Gold]:
    spans: list[Gold] = []
    with tsv.open(encoding="utf-8", newline="") as handle:
        for number, row in enumerate(csv.DictReader(handle, delimiter="\t"), start=2):
            if row.get("annotType") != "Quantity":
                continue
            try:
                other = json.loads(row["other"]) if row.get("other") else {}
                spans.append(
                    Gold(
                        int(row["startOffset"]),
                        int(row["endOffset"]),
                        row["text"],
                        other.get("unit"),
                        tuple(other.get("mods", ())),
                    )
                )
            except (ValueError, KeyError, TypeError) as error:
                sys.exit(f"{tsv}:{number}: unreadable Quantity row ({error}); fix the file")
    # the same quantity is annotated once per annotation set; keep one of each span
    unique = {(g.start, g.end): g for g in spans}
    return sorted(unique.values(), key=lambda g: (g.start, g.end))


def predicted_spans(text: str) -> list[Predicted]:
    from claims.extraction import extract

    spans: dict[tuple[int, int], Predicted] = {}
    for claim in extract(text, source_id="measeval", source_version_id="measeval@eval"):
        if claim.kind.value != "quantity" or claim.value_span is None:
            continue
        s, e = claim.value_span.start, claim.value_span.end
        spans.setdefault((s, e), Predicted(s, e, text[s:e], claim.unit))
    return sorted(spans.values(), key=lambda p: (p.start, p.end))


def overlaps(a: Gold | Predicted, b: Gold | Predicted) -> bool:
    return a.start < b.end and b.start < a.end


def match_overlap(gold: list[Gold], pred: list[Predicted]) -> list[tuple[Gold, Predicted]]:
    """One-to-one matching, largest overlap first (greedy; spans rarely overlap twice)."""
    candidates = sorted(
        (
            (min(g.end, p.end) - max(g.start, p.start), gi, pi)
            for gi, g in enumerate(gold)
            for pi, p in enumerate(pred)
            if overlaps(g, p)
        ),
        reverse=True,
    )
    used_g: set[int] = set()
    used_p: set[int] = set()
    pairs = []
    for _, gi, pi in candidates:
        if gi in used_g or pi in used_p:
            continue
        used_g.add(gi)
        used_p.add(pi)
        pairs.append((gold[gi], pred[pi]))
    return pairs


def unit_equal(gold: str, predicted: str | None) -> bool:
    if predicted is None:
        return False
    fold = lambda u: "".join(u.split()).casefold().rstrip(".")  # noqa: E731
    if fold(gold) == fold(predicted) or fold(gold).rstrip("s") == fold(predicted).rstrip("s"):
        return True
    from claims.units import conversion

    try:
        a, b = conversion(gold), conversion(predicted)
    except Exception:  # noqa: BLE001 - any unreadable unit string is simply "not equal"
        return False
    return (
        a is not None
        and b is not None
        and a.canonical_unit == b.canonical_unit
        and abs(a.factor - b.factor) <= 1e-9 * max(abs(a.factor), 1.0)
    )


def gold_kinds(g: Gold) -> list[str]:
    kinds = [f"mod {m}" for m in g.mods]
    text = g.text
    kinds.append("with unit" if g.unit else "no unit (bare number or count)")
    if _SCIENTIFIC.search(text):
        kinds.append("scientific notation")
    if _TOLERANCE.search(text):
        kinds.append("tolerance (±)")
    if _RANGE.search(text):
        kinds.append("range or bound wording")
    if _WORD_NUMBER.search(text):
        kinds.append("number word")
    if "%" in text:
        kinds.append("percent")
    if g.unit and any(ch in g.unit for ch in "/·^") or (g.unit and re.search(r"\d", g.unit)):
        kinds.append("compound unit")
    if not re.search(r"\d", text):
        kinds.append("no digit")
    return kinds


def spurious_kind(p: Predicted, text: str) -> str:
    """The shape of a predicted span no annotator marked."""
    before = text[max(0, p.start - 12) : p.start]
    after = text[p.end : p.end + 2]
    number = p.text.strip()
    if _LABEL_BEFORE.search(before):
        return "label number (figure, table, equation, phase, site...)"
    if before.rstrip().endswith(("[", "(")) and after[:1] in ("]", ")", ","):
        return "bracketed reference or citation number"
    if common.is_year(number.rstrip("s")) and p.unit is None:
        return "year"
    if re.fullmatch(r"\(?[ivx]+\)|\(?\d\)|\d\.", number) or re.search(r"(?:^|\n)\s*$", before):
        return "list number"
    if re.search(r"[A-Za-z]-?$", before) or re.match(r"-?[A-Za-z]", after):
        return "number inside a name or formula"
    if p.unit is None:
        return "bare number without unit"
    return "number with unit"


def boundary_kind(g: Gold, p: Predicted) -> str:
    if p.start <= g.start and p.end >= g.end:
        return "prediction longer than gold"
    if p.start >= g.start and p.end <= g.end:
        left_out = g.text[: p.start - g.start] + " … " + g.text[p.end - g.start :]
        if _TOLERANCE.search(left_out):
            return "prediction shorter: tolerance left out"
        if _RANGE.search(g.text) and not _RANGE.search(p.text):
            return "prediction shorter: one end of a range or its bound word"
        if g.unit and g.unit not in p.text:
            return "prediction shorter: unit left out"
        return "prediction shorter: other"
    return "spans cross"


def f1(p: float | None, r: float | None) -> float | None:
    if not p or not r:
        return 0.0 if p is not None and r is not None else None
    return round(2 * p * r / (p + r), 4)


def documents(root: Path) -> tuple[list[tuple[str, str, Path | None]], list[str]]:
    """(doc id, text, tsv or None) for every paragraph with text; ids of tsvs without text."""
    found: list[tuple[str, str, Path | None]] = []
    textless: list[str] = []
    for split in ("train", "trial"):
        text_dir, tsv_dir = root / split / "text", root / split / "tsv"
        tsvs = {p.stem: p for p in sorted(tsv_dir.glob("*.tsv"))} if tsv_dir.exists() else {}
        texts = {p.stem: p for p in sorted(text_dir.glob("*.txt"))} if text_dir.exists() else {}
        for stem, path in texts.items():
            found.append((f"{split}/{stem}", path.read_text(encoding="utf-8"), tsvs.get(stem)))
        textless += [f"{split}/{stem}" for stem in tsvs if stem not in texts]
    return found, textless


def main() -> None:
    args = common.parser(__doc__.splitlines()[0], "measeval").parse_args()
    common.quiet_warnings()
    root = common.require(args.data)
    docs, textless = documents(root)
    docs = docs[: args.limit] if args.limit else docs
    code = common.describe_code()
    clock = common.Clock()
    common.header("MeasEval quantity spans", root, len(docs), code)
    if textless:
        print(
            f"note: {len(textless)} annotated paragraphs have no text in the data "
            f"({', '.join(sorted({t.split('/')[0] for t in textless}))}); they cannot be scored"
        )

    n_gold = n_pred = exact = matched = 0
    unit_right = unit_wrong = unit_missing = 0
    missed: Counter[str] = Counter()
    gold_by_kind: Counter[str] = Counter()
    spurious: Counter[str] = Counter()
    boundary: Counter[str] = Counter()
    unit_errors: Counter[str] = Counter()
    examples: dict[str, list[str]] = defaultdict(list)

    def example(cls: str, line: str) -> None:
        if len(examples[cls]) < args.examples:
            examples[cls].append(line)

    parts: dict[str, Counter[str]] = {part: Counter() for part in common.PARTS}
    for done, (doc_id, text, tsv) in enumerate(docs, start=1):
        gold = read_gold(tsv) if tsv else []
        pred = predicted_spans(text)
        n_gold += len(gold)
        n_pred += len(pred)
        gold_exact = {(g.start, g.end) for g in gold}
        exact += sum((p.start, p.end) in gold_exact for p in pred)
        pairs = match_overlap(gold, pred)
        matched += len(pairs)
        parts[common.dev_part(doc_id)].update(
            gold=len(gold),
            predicted=len(pred),
            exact=sum((p.start, p.end) in gold_exact for p in pred),
            matched=len(pairs),
        )
        got_g = {(g.start, g.end) for g, _ in pairs}
        got_p = {(p.start, p.end) for _, p in pairs}
        for g in gold:
            kinds = gold_kinds(g)
            gold_by_kind.update(kinds)
            if (g.start, g.end) not in got_g:
                missed.update(kinds)
                context = text[max(0, g.start - 50) : g.end + 30].replace("\n", " ")
                example(f"missed: {kinds[0]}", f"{doc_id}: [{g.text}] in …{context}…")
        for p in pred:
            if (p.start, p.end) not in got_p:
                kind = spurious_kind(p, text)
                spurious[kind] += 1
                context = text[max(0, p.start - 50) : p.end + 30].replace("\n", " ")
                example(f"spurious: {kind}", f"{doc_id}: [{p.text}] in …{context}…")
        for g, p in pairs:
            if (g.start, g.end) != (p.start, p.end):
                kind = boundary_kind(g, p)
                boundary[kind] += 1
                example(f"boundary: {kind}", f"{doc_id}: gold [{g.text}] predicted [{p.text}]")
            if g.unit:
                if p.unit is None:
                    unit_missing += 1
                elif unit_equal(g.unit, p.unit):
                    unit_right += 1
                else:
                    unit_wrong += 1
                    unit_errors[f"{g.unit!r} read as {p.unit!r}"] += 1
        common.progress(done, len(docs), 50, "paragraphs")

    precision_exact = common.rate(exact, n_pred)
    recall_exact = common.rate(exact, n_gold)
    precision = common.rate(matched, n_pred)
    recall = common.rate(matched, n_gold)
    exact_f1, overlap_f1 = f1(precision_exact, recall_exact), f1(precision, recall)
    units_scored = unit_right + unit_wrong + unit_missing
    print(f"time: {clock.seconds()} s; gold spans {n_gold}, predicted spans {n_pred}")
    print("\nwhole-set figures:")
    print(
        f"  {'ok  ' if (exact_f1 or 0) >= 0.5 else 'FAIL'} exact F1    {common.shown(exact_f1)}"
        f"   (P {common.shown(precision_exact)}, R {common.shown(recall_exact)}; target >= 0.50)"
    )
    print(
        f"  {'ok  ' if (overlap_f1 or 0) >= 0.85 else 'FAIL'} overlap F1  "
        f"{common.shown(overlap_f1)}   (target >= 0.85)"
    )
    print(common.target_line("precision (overlap)", matched, n_pred, ">= 0.80"))
    print(f"       recall (overlap)    {matched}/{n_gold} = {common.shown(recall)}")
    print(
        f"       unit accuracy over overlap matches with a gold unit: "
        f"{unit_right}/{units_scored} = {common.shown(common.rate(unit_right, units_scored))}"
        f" (wrong {unit_wrong}, no unit predicted {unit_missing})"
    )
    for name, part in parts.items():
        p_exact = f1(
            common.rate(part["exact"], part["predicted"]), common.rate(part["exact"], part["gold"])
        )
        p_overlap = f1(
            common.rate(part["matched"], part["predicted"]),
            common.rate(part["matched"], part["gold"]),
        )
        print(
            f"  {name} part (sha256 of the paragraph id {'even' if name == 'tuning' else 'odd'}):"
            f" exact F1 {common.shown(p_exact)}, overlap F1 {common.shown(p_overlap)}, precision "
            f"{part['matched']}/{part['predicted']}"
        )
    print("\n-- missed gold spans by kind (overlapping kinds; rate = share of that kind missed)")
    for kind, count in gold_by_kind.most_common():
        print(
            f"    {missed[kind]:>5}/{count:<5} "
            f"{common.shown(common.rate(missed[kind], count))}  {kind}"
        )
    print()
    print("\n".join(common.counter_lines("spurious predicted spans by shape", spurious, n_pred)))
    print("\n".join(common.counter_lines("boundary errors of overlap matches", boundary, matched)))
    print("\n".join(common.counter_lines("unit errors", unit_errors, units_scored, top=12)))
    for cls in sorted(examples):
        print(f"  examples of '{cls}':")
        print("\n".join(f"    - {line[:300]}" for line in examples[cls]))
    common.write_json(
        args.json_out,
        {
            **code,
            "data": str(root),
            "paragraphs": len(docs),
            "paragraphs_without_text": textless,
            "seconds": clock.seconds(),
            "gold_spans": n_gold,
            "predicted_spans": n_pred,
            "parts": {name: dict(part) for name, part in parts.items()},
            "exact": {
                "matches": exact,
                "precision": precision_exact,
                "recall": recall_exact,
                "f1": exact_f1,
            },
            "overlap": {
                "matches": matched,
                "precision": precision,
                "recall": recall,
                "f1": overlap_f1,
            },
            "units": {
                "right": unit_right,
                "wrong": unit_wrong,
                "missing": unit_missing,
                "accuracy": common.rate(unit_right, units_scored),
            },
            "missed_by_kind": {
                k: {"missed": missed[k], "gold": c} for k, c in gold_by_kind.items()
            },
            "spurious_by_shape": dict(spurious),
            "boundary_errors": dict(boundary),
            "unit_errors": dict(unit_errors.most_common(30)),
        },
    )


if __name__ == "__main__":
    main()
