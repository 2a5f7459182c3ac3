"""TAT-QA dev span questions with a numeric answer, asked of each report alone.

    python bench/eval_tatqa_questions.py [TATQA_JSON] [--part tuning|check|both] [--limit N]
                                         [--stores DIR] [--examples K] [--json OUT]

Each context (a table and its paragraphs) is rendered as the Markdown report of
``bench/eval_tatqa.py`` (``render``), run alone through ``pipeline.runner.run_pipeline``
(the path of ``claims run``) into a new SQLite store, and each of its questions whose
``answer_type`` is ``span`` and whose answer is one number (``eval_tatqa.cell_number``:
currency, percent sign, brackets, commas; not a year) is asked through
``retrieval.answer.answer`` (what ``claims ask`` calls) by a requester who sees the report.

Scores per question (issue 32 targets):

- gold: ``answered`` with a value equal to the gold number at a scale of 1, 10^3, 10^6 or
  10^9 (the report may state "in millions" or not), or 1/100 of it for a percent; the sign
  is compared as the report writes it, and an answer equal to the gold only in absolute
  value is counted as gold and shown apart (``sign only``) (>= 0.60);
- wrong figure: ``answered`` with any other value, or with a list (<= 0.05);
- ``conflict`` and ``not_found`` are neither; a conflict whose sides hold the gold figure is
  counted apart.

The contexts are split by the stable hash of the table's uid (``eval_tatqa.part_of``, as
the table figures are); both parts are reported. Examples of misses are printed for the
tuning part only (``--examples``), so that rules are tuned on it and checked on the other.

``--stores DIR`` keeps each report's store (``DIR/<uid8>.db``) and reuses one already there
instead of running the pipeline again: for iterating on the question side only (a kept store
holds what the extraction code of its run wrote). Figures for docs/ come from fresh runs.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dev_eval_common as common  # noqa: E402
from eval_tatqa import cell_number, part_of, render  # noqa: E402

_SCALES = (1.0, 1e3, 1e6, 1e9)
_YEAR_ASKED = re.compile(
    r"\b(?:in|for|of|during)\s+(?:fy\s*|fiscal\s+(?:year\s+)?)?(?:19|20)\d\d\b", re.I
)
_AS_OF = re.compile(r"\bas (?:of|at)\b", re.I)


def span_number(answer: Any) -> float | None:
    """The one number a span answer states, or None (a list of several, a word, a year)."""
    if isinstance(answer, list):
        if len(answer) != 1:
            return None
        answer = answer[0]
    return cell_number(str(answer))


def numeric_span_questions(context: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        q
        for q in context["questions"]
        if q["answer_type"] == "span" and span_number(q["answer"]) is not None
    ]


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    try:
        return float(str(value).replace(",", ""))
    except (TypeError, ValueError):
        return None


def matches(got: float | None, want: float, percent: bool) -> str | None:
    """``exact`` or ``sign only`` when ``got`` is the gold figure at some scale, else None."""
    if got is None:
        return None
    scales = _SCALES + ((0.01,) if percent else ())
    for scale in scales:
        target = want * scale
        tolerance = 1e-6 * max(1.0, abs(target))
        if abs(got - target) <= tolerance:
            return "exact"
        if abs(abs(got) - abs(target)) <= tolerance:
            return "sign only"
    return None


def question_class(question: dict[str, Any]) -> str:
    """The shape of a question, for the figures by class: where its answer is, and
    whether it names a year or an "as of" date."""
    text = question["question"]
    when = "as of" if _AS_OF.search(text) else "year" if _YEAR_ASKED.search(text) else "no year"
    return f"{question['answer_from']}, {when}"


@dataclass
class Tally:
    questions: int = 0
    gold: int = 0
    sign_only: int = 0
    wrong: int = 0
    conflict: int = 0
    conflict_with_gold: int = 0
    not_found: int = 0
    reports: int = 0
    reused: int = 0
    by_class: dict[str, Counter[str]] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def count(self, cls: str, outcome: str) -> None:
        self.by_class.setdefault(cls, Counter())[outcome] += 1

    def example(self, outcome: str, text: str, keep: int) -> None:
        shown = self.examples.setdefault(outcome, [])
        if len(shown) < keep:
            shown.append(text)


def _sides_hold(result: Any, want: float, percent: bool) -> bool:
    return any(
        matches(_number(side.value), want, percent)
        for side in (getattr(result, "sides", None) or [])
    )


def ask_report(
    context: dict[str, Any], tally: Tally, keep: int, work: Path, stores: Path | None
) -> None:
    from claims.models import Requester
    from claims.store.engine import make_engine
    from retrieval.answer import answer

    questions = numeric_span_questions(context)
    if not questions:
        return
    uid = context["table"]["uid"]
    kept = stores / f"{uid[:8]}.db" if stores else None
    if kept is not None and kept.exists():
        url = f"sqlite:///{kept}"
        tally.reused += 1
    else:
        corpus = work / uid[:8] / "corpus"
        corpus.mkdir(parents=True)
        text, _ = render(context)
        (corpus / "report.md").write_text(text, encoding="utf-8")
        database = kept or work / uid[:8] / "claims.db"
        database.unlink(missing_ok=True)
        url = common.run_corpus(corpus, None, database).url
    tally.reports += 1
    reader = Requester(principal="tatqa-eval", groups=[])
    engine = make_engine(url)
    try:
        for question in questions:
            want = span_number(question["answer"])
            assert want is not None
            percent = "%" in str(question["answer"]) or question.get("scale") == "percent"
            result = answer(engine, question["question"], reader)
            status = result.status.value
            cls = question_class(question)
            tally.questions += 1
            if status == "answered":
                listed = getattr(result, "values", None)
                got = None if listed is not None else _number(result.value)
                fit = matches(got, want, percent)
                if fit:
                    tally.gold += 1
                    tally.sign_only += fit == "sign only"
                    outcome = "gold"
                else:
                    tally.wrong += 1
                    outcome = "wrong figure"
                shown = listed if listed is not None else result.value
                detail = f"answered {shown} {result.unit or ''}".rstrip()
            elif status == "conflict":
                tally.conflict += 1
                holds = _sides_hold(result, want, percent)
                tally.conflict_with_gold += holds
                outcome = "conflict" + (" (gold among the sides)" if holds else "")
                detail = "conflict: " + " vs ".join(
                    f"{s.value} {s.unit or ''}".strip() for s in result.sides
                )
            else:
                tally.not_found += 1
                outcome = "not_found"
                detail = f"not_found ({result.reason[:100]})"
            tally.count(cls, outcome.split(" (")[0])
            if outcome != "gold":
                tally.example(
                    outcome,
                    f"{uid[:8]} [{cls}] {question['question'].strip()!r} gold "
                    f"{question['answer']!r} {question.get('scale') or ''}: {detail}",
                    keep,
                )
    finally:
        engine.dispose()


def report(name: str, tally: Tally, show_examples: bool) -> dict[str, Any]:
    print(f"\n-- {name}: {tally.questions} questions in {tally.reports} reports")
    print(
        common.target_line("answered with the gold figure", tally.gold, tally.questions, ">= 0.60")
    )
    print(
        common.target_line("answered with a wrong figure", tally.wrong, tally.questions, "<= 0.05")
    )
    print(f"       gold by absolute value only (sign differs): {tally.sign_only}")
    print(
        f"       conflict: {tally.conflict} (the gold figure among the sides: "
        f"{tally.conflict_with_gold}); not_found: {tally.not_found}"
    )
    print("  by class (where the answer is, what time the question names):")
    for cls, counts in sorted(tally.by_class.items()):
        total = sum(counts.values())
        parts = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        print(f"    {cls:<28} {total:>4}: {parts}")
    if show_examples:
        for outcome, shown in sorted(tally.examples.items()):
            print(f"  {outcome}:")
            for text in shown:
                print(f"    - {text}")
    return {
        "questions": tally.questions,
        "reports": tally.reports,
        "gold": tally.gold,
        "gold_sign_only": tally.sign_only,
        "wrong": tally.wrong,
        "conflict": tally.conflict,
        "conflict_with_gold": tally.conflict_with_gold,
        "not_found": tally.not_found,
        "by_class": {k: dict(v) for k, v in tally.by_class.items()},
    }


def main() -> None:
    p = common.parser(__doc__.splitlines()[0], "tatqa/tatqa_dataset_dev.json")
    p.add_argument("--part", choices=("tuning", "check", "both"), default="both")
    p.add_argument("--stores", type=Path, default=None, help="keep and reuse each report's store")
    args = p.parse_args()
    common.prefer_working_directory()
    common.quiet_warnings()
    contexts = json.loads(common.require(args.data).read_text(encoding="utf-8"))
    parts = ("tuning", "check") if args.part == "both" else (args.part,)
    code = common.describe_code()
    common.header("TAT-QA span questions with a numeric answer", args.data, len(contexts), code)
    if args.stores:
        args.stores.mkdir(parents=True, exist_ok=True)
    clock = common.Clock()
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="tatqa-questions-") as tmp:
        for part in parts:
            chosen = [
                c
                for c in contexts
                if part_of(c["table"]["uid"]) == part and numeric_span_questions(c)
            ]
            if args.limit:
                chosen = chosen[: args.limit]
            tally = Tally()
            for number, context in enumerate(chosen, start=1):
                ask_report(context, tally, args.examples, Path(tmp) / part, args.stores)
                common.progress(number, len(chosen), 10, part)
            figures[part] = report(f"{part} part", tally, part == "tuning")
            if args.stores:
                print(f"  stores: {args.stores} ({tally.reused} of {tally.reports} reused)")
    print(f"\ntime: {clock.seconds()} s")
    common.write_json(args.json_out, {**code, **figures})


if __name__ == "__main__":
    main()
