"""The office corpus (samples/office/) through the real pipeline: planted cases found or not.

    python bench/eval_office.py [OFFICE_DIR] [--json OUT]

``OFFICE_DIR`` (default ``samples/office`` of this checkout) holds ``corpus/``,
``register.yaml`` and ``expected.yaml``. The corpus runs through
``pipeline.runner.run_pipeline`` (ingest with the register, extraction, edges; the path of
``claims run``) into a temporary SQLite store, then:

- each planted conflict is found when a conflicts or ambiguous edge links a claim whose
  quote contains one expected quote with a claim whose quote contains the other;
- each planted non-conflict holds when no conflicts edge links such claims; one of the
  class "equal after unit conversion" is also *corroborated* when a corroborates edge
  links them (16 weeks = 112 days agree: the store says so, not only "no conflict");
- every other conflicts edge is invented;
- each question is asked through ``retrieval.answer.answer`` (what ``claims ask`` calls)
  and must get the expected status: the value for ``answered``, both sources for
  ``conflict``.

Found / missed / invented are printed per class. ``tests/test_office_corpus.py`` runs the
same scoring (``score_office``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dev_eval_common as common  # noqa: E402

DEFAULT_OFFICE = common.REPO / "samples" / "office"
EQUAL_AFTER_CONVERSION = "equal after unit conversion"


def folded(text: str) -> str:
    """Whitespace-insensitive, so a line break in a document matches a space in a quote."""
    return " ".join(text.split())


@dataclass(frozen=True)
class Planted:
    id: str
    cls: str
    left: str
    right: str

    def links(self, left_quote: str, right_quote: str) -> bool:
        a, b = folded(left_quote), folded(right_quote)
        return (self.left in a and self.right in b) or (self.left in b and self.right in a)


@dataclass
class Outcome:
    planted: Planted
    ok: bool
    detail: str


@dataclass
class QuestionOutcome:
    fact: str
    question: str
    expected: str
    got: str
    ok: bool


@dataclass
class OfficeReport:
    conflicts: list[Outcome] = field(default_factory=list)
    non_conflicts: list[Outcome] = field(default_factory=list)
    invented: list[dict[str, Any]] = field(default_factory=list)
    other_ambiguous: list[dict[str, Any]] = field(default_factory=list)
    questions: list[QuestionOutcome] = field(default_factory=list)
    # planted equal values in other units: linked by a corroborates edge or not
    conversions: list[Outcome] = field(default_factory=list)
    claims: int = 0

    def found(self) -> set[str]:
        return {o.planted.id for o in self.conflicts if o.ok}

    def corroborated(self) -> set[str]:
        return {o.planted.id for o in self.conversions if o.ok}

    def to_dict(self) -> dict[str, Any]:
        def outcomes(items: Iterable[Outcome]) -> list[dict[str, Any]]:
            return [
                {"id": o.planted.id, "class": o.planted.cls, "ok": o.ok, "detail": o.detail}
                for o in items
            ]

        return {
            "claims": self.claims,
            "conflicts": outcomes(self.conflicts),
            "non_conflicts": outcomes(self.non_conflicts),
            "invented": self.invented,
            "other_ambiguous": self.other_ambiguous,
            "questions": [q.__dict__ for q in self.questions],
            "conversions": outcomes(self.conversions),
        }


def _planted(entries: list[dict[str, Any]], where: str) -> list[Planted]:
    out = []
    for number, entry in enumerate(entries, start=1):
        try:
            out.append(
                Planted(
                    entry["id"],
                    entry["class"],
                    folded(entry["left"]["quote"]),
                    folded(entry["right"]["quote"]),
                )
            )
        except (KeyError, TypeError) as error:
            raise ValueError(
                f"expected.yaml: {where}[{number}]: missing {error}; each entry needs id, "
                "class, left.quote and right.quote"
            ) from error
    return out


def load_expected(office: Path) -> dict[str, Any]:
    data = yaml.safe_load((office / "expected.yaml").read_text(encoding="utf-8"))
    return {
        "conflicts": _planted(data.get("conflicts") or [], "conflicts"),
        "non_conflicts": _planted(data.get("non_conflicts") or [], "non_conflicts"),
        "questions": data.get("questions") or [],
    }


def _claims(url: str) -> list[dict[str, Any]]:
    from sqlalchemy import select

    from claims.store.engine import make_engine
    from claims.tables import ClaimRow

    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(ClaimRow.id, ClaimRow.source_id, ClaimRow.quote)).all()
    finally:
        engine.dispose()
    return [dict(r._mapping) for r in rows]


def _number(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _answer_matches(expected: dict[str, Any], result: Any) -> bool:
    status = result.status.value
    if status != expected["status"]:
        return False
    if status == "conflict":
        cited = set(result.citations)
        return set(expected.get("sources") or []) <= cited and len(result.sides) >= 2
    want = expected.get("value")
    if isinstance(want, list):
        # a listed answer: the contract's ``values`` hold exactly the expected items
        got = list(getattr(result, "values", None) or [])
        unit = expected.get("unit")
        return (
            len(got) == len(want)
            and all(any(_same_value(w, v) for v in got) for w in want)
            and (unit is None or folded(str(result.unit or "")).casefold() == unit.casefold())
        )
    if _same_value(want, result.value):
        return True
    return _same_quantity(want, expected.get("unit"), result.value, getattr(result, "unit", None))


def _same_quantity(want: Any, want_unit: Any, got: Any, got_unit: Any) -> bool:
    """One quantity written in other units ("1.5 hours" for "90 minutes"): a person asking
    takes either as the answer, so both are compared in the canonical unit."""
    from claims.units.normalize import normalize

    got_n, want_n = _number(got), _number(want)
    if None in (got_n, want_n) or not want_unit or not got_unit:
        return False
    a, b = normalize(want_n, str(want_unit)), normalize(got_n, str(got_unit))
    if a is None or b is None or a.canonical_unit != b.canonical_unit:
        return False
    return abs(a.canonical_value - b.canonical_value) <= 1e-6 * max(1.0, abs(a.canonical_value))


def _same_value(want: Any, got: Any) -> bool:
    got_n, want_n = _number(got), _number(want)
    if want_n is not None:
        return got_n is not None and abs(got_n - want_n) <= 1e-9 * max(1.0, abs(want_n))
    return folded(str(want)).casefold() in folded(str(got)).casefold()


def score_office(office: Path, database: Path) -> OfficeReport:
    """Run the office corpus into ``database`` (SQLite file) and score the planted cases."""
    from claims.models import Requester
    from claims.store.engine import make_engine
    from retrieval.answer import answer

    expected = load_expected(office)
    url = common.run_corpus(office / "corpus", office / "register.yaml", database).url
    edges = common.linked_edges(url)
    claims = _claims(url)
    report = OfficeReport(claims=len(claims))

    def has_claim(quote: str) -> bool:
        return any(quote in folded(c["quote"]) for c in claims)

    for planted in expected["conflicts"]:
        kinds = sorted(
            {e["kind"] for e in edges if planted.links(e["left_quote"], e["right_quote"])}
        )
        if kinds:
            detail = "linked by " + " and ".join(kinds)
        else:
            missing = [q for q in (planted.left, planted.right) if not has_claim(q)]
            detail = "no claim from: " + " | ".join(missing) if missing else "claims not linked"
        report.conflicts.append(Outcome(planted, bool(kinds), detail))
    for planted in expected["non_conflicts"]:
        wrong = [
            e
            for e in edges
            if e["kind"] == "conflicts" and planted.links(e["left_quote"], e["right_quote"])
        ]
        detail = "; ".join(e["reason"] for e in wrong) if wrong else "not called conflict"
        report.non_conflicts.append(Outcome(planted, not wrong, detail))
    agreeing = common.linked_edges(url, kinds=("corroborates",))
    for planted in expected["non_conflicts"]:
        if planted.cls != EQUAL_AFTER_CONVERSION:
            continue
        linked = [e for e in agreeing if planted.links(e["left_quote"], e["right_quote"])]
        detail = linked[0]["reason"] if linked else "no corroborates edge"
        report.conversions.append(Outcome(planted, bool(linked), detail))
    for edge in edges:
        if any(p.links(edge["left_quote"], edge["right_quote"]) for p in expected["conflicts"]):
            continue
        shown = {
            k: edge[k]
            for k in ("kind", "rule", "reason", "left_source", "right_source")
            if k in edge
        }
        shown["left_quote"], shown["right_quote"] = (
            folded(edge["left_quote"]),
            folded(edge["right_quote"]),
        )
        if edge["kind"] == "conflicts":
            report.invented.append(shown)
        else:
            report.other_ambiguous.append(shown)
    reader = Requester(principal="office-eval", groups=[])
    engine = make_engine(url)
    try:
        for item in expected["questions"]:
            result = answer(engine, item["question"], reader)
            got = result.status.value
            if got == "answered" and getattr(result, "values", None) is not None:
                got += f": {result.values} {result.unit or ''}".rstrip()
            elif got == "answered":
                got += f": {result.value} {result.unit or ''}".rstrip()
            elif got == "conflict":
                got += f" citing {', '.join(result.citations)}"
            want = item["status"] + (
                f": {item.get('value')} {item.get('unit') or ''}".rstrip()
                if item["status"] == "answered"
                else f" citing {', '.join(item.get('sources') or [])}"
            )
            report.questions.append(
                QuestionOutcome(
                    item.get("fact", ""),
                    item["question"],
                    want,
                    got,
                    _answer_matches(item, result),
                )
            )
    finally:
        engine.dispose()
    return report


def print_report(report: OfficeReport) -> None:
    print(f"claims in the store: {report.claims}")
    print("\n-- planted conflicts (found = a conflicts or ambiguous edge)")
    for o in report.conflicts:
        mark = "found " if o.ok else "MISSED"
        print(f"  {mark} {o.planted.cls:<42} {o.planted.id:<26} {o.detail}")
    print("\n-- planted non-conflicts (held = no conflicts edge)")
    for o in report.non_conflicts:
        mark = "held  " if o.ok else "BROKEN"
        print(f"  {mark} {o.planted.cls:<42} {o.planted.id:<26} {o.detail}")
    print("\n-- equal values in other units (corroborated = a corroborates edge)")
    for o in report.conversions:
        mark = "corrob" if o.ok else "NOT   "
        print(f"  {mark} {o.planted.id:<26} {o.detail[:110]}")
    print(f"\n-- invented conflicts: {len(report.invented)}")
    for e in report.invented:
        print(f"  - [{e['left_source']}] {e['left_quote'][:90]}")
        print(f"    [{e['right_source']}] {e['right_quote'][:90]}")
        print(f"    {e['rule']}: {e['reason'][:160]}")
    print(f"\n-- other ambiguous edges (not scored): {len(report.other_ambiguous)}")
    for e in report.other_ambiguous:
        print(
            f"  - {e['left_source']} / {e['right_source']}: {e['left_quote'][:60]} || "
            f"{e['right_quote'][:60]}"
        )
    print("\n-- questions")
    for q in report.questions:
        print(f"  {'ok  ' if q.ok else 'MISS'} {q.question}")
        print(f"       expected {q.expected}; got {q.got}")
    n_found, n_conf = sum(o.ok for o in report.conflicts), len(report.conflicts)
    n_held, n_non = sum(o.ok for o in report.non_conflicts), len(report.non_conflicts)
    n_q, n_ok = len(report.questions), sum(q.ok for q in report.questions)
    print("\nsummary:")
    print(f"  planted conflicts found      {n_found}/{n_conf}")
    print(f"  planted non-conflicts held   {n_held}/{n_non}")
    print(f"  invented conflicts           {len(report.invented)}")
    n_agree = sum(o.ok for o in report.conversions)
    print(f"  unit conversions corroborated {n_agree}/{len(report.conversions)}")
    print(f"  questions answered right     {n_ok}/{n_q}")
    for part in common.PARTS:  # the stable split (sha256 of an item's id, or its question)
        conf = [o.ok for o in report.conflicts if common.dev_part(o.planted.id) == part]
        held = [o.ok for o in report.non_conflicts if common.dev_part(o.planted.id) == part]
        asked = [q.ok for q in report.questions if common.dev_part(q.question) == part]
        print(
            f"  {part} part: conflicts found {sum(conf)}/{len(conf)}, non-conflicts held "
            f"{sum(held)}/{len(held)}, questions right {sum(asked)}/{len(asked)}"
        )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("office", nargs="?", type=Path, default=DEFAULT_OFFICE)
    p.add_argument("--json", dest="json_out", type=Path, default=None)
    args = p.parse_args()
    common.prefer_working_directory()
    common.quiet_warnings()
    common.require(args.office / "expected.yaml")
    code = common.describe_code()
    clock = common.Clock()
    common.header("office corpus through the pipeline", args.office, 0, code)
    with tempfile.TemporaryDirectory(prefix="office-eval-") as tmp:
        report = score_office(args.office, Path(tmp) / "claims.db")
    print(f"time: {clock.seconds()} s")
    print_report(report)
    common.write_json(args.json_out, {**code, **report.to_dict()})


if __name__ == "__main__":
    main()
