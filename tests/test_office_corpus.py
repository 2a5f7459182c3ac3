"""The office corpus (samples/office/) through the real pipeline, scored like bench/eval_office.py.

One run: the 31 documents (Markdown, text, Word, PDF and HTML) are ingested with their
register into a SQLite store by ``pipeline.runner.run_pipeline`` on an ephemeral Dagster
instance, then every planted case of ``samples/office/expected.yaml`` is checked against
the stored edges and ``answer``.

The sets below name what passes today. When a planted conflict or a question starts
passing, add its id here; never remove one (that would be a regression).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

from claims.documents.converters import convert

REPO = Path(__file__).resolve().parents[1]
OFFICE = REPO / "samples" / "office"

# planted conflicts (expected.yaml ids) found as a conflicts or ambiguous edge today
FOUND_NOW = {
    "parking-permit-negation",  # negated vs positive sentence
    "pricing-approved-rejected",  # antonymic predicates
    "attrition-direction",  # direction of change
    "founding-year",  # event dates and years
    "revenue-bn-m",  # units of news: £1.2bn vs £950m
    "payment-terms-lead-in",  # a lead-in before a colon
    "battery-life-wording",  # "battery life ... is 14 hours" / "battery lasts 10 hours, not ..."
    "migration-cost-reported",  # "according to the finance team" / "the CFO said the ..."
    "gross-margin-comparison",  # "41%, ahead of the forecast": the idiom is no qualifier
    "p200-price-sales-wording",  # "Price: $1,499" label line / "will retail for $1,299"
    "pro-plan-price-table",  # an HTML price table's Pro row / "the Pro plan costs $35"
    "revenue-table-vs-summary",  # a PDF financial table's 2025 cell / a Word board summary
    "leeds-notice-period",  # HTML label-line bullets / an email: four of six figures differ
    "leeds-probation",
    "leeds-pension",
    "password-length",  # "at least 12 characters" / "at least 14 characters"
    "leeds-remote-days",  # "Remote working: 2 days per week" / "work remotely 3 days per week"
    "priority-1-response",  # an SLA table's "Priority 1" row / "Priority 1 tickets ..." email
    "p300-weight",  # a datasheet titled "P-300 Centrifugal Pump" / a catalogue's "## P-300"
}
# planted equal values in other units linked by a corroborates edge today (the three:
# 16 weeks = 112 days, 1.1 kW = 1100 W, 120 L/min = 7.2 m3/h; and 4.5p = 4.5 pence)
CORROBORATED_NOW = {
    "parental-leave-weeks-days",  # a Word list item for full-time staff / an HTML FAQ answer
    "p200-power-kw-w",  # a PDF spec table / a catalogue label line
    "p200-flow-units",  # "Maximum flow rate" (PDF table) / "Flow rate" (label line)
    "dividend-pence",  # "4.5p per share, payable in November" / "4.5 pence per share"
    "backup-window-conversion",  # "from next week the ... window is 1.5 hours" / "90 minutes"
}
# questions (by the fact they ask about) that get the expected status and value today
ANSWERED_RIGHT_NOW = {
    "battery-life-wording",
    "founding-year",
    "revenue-bn-m",
    "backup-window-conversion",
    "dividend-pence",
    "annual-leave-editions",
    "working-week-offices",
    "pricing-approved-rejected",
    "payment-terms-lead-in",
    "weight-k2-k3",
    "leeds-office-amenities",
    "parking-permit-negation",
    "attrition-direction",
    "migration-cost-reported",
    "gross-margin-comparison",
    "k2-storage-versions",  # the storage sizes answered as one list
    "revenue-table-vs-summary",
    "leeds-notice-period",
    "leeds-probation",
    "leeds-pension",
    "parental-leave-weeks-days",  # 16 weeks (a Word bullet) = 112 days (an HTML FAQ)
    "p200-flow-units",  # 120 L/min (a PDF spec table) = 7.2 m3/h (a catalogue label line)
    "leeds-annual-leave",
    "lifting-limit-wording",
    "revenue-years",  # the 2024 column of the PDF table
    # session 17 (issue 32, the question side)
    "password-length",  # "how long" of characters: 12 (a standard) vs 14 (an email)
    "p300-weight",  # a Word spec table's cell beside a catalogue label line
    "p200-power-kw-w",  # a spec table row named by the question
    "meal-allowance-editions",  # a label line carrying every word of a question with no cue
    "sla-priorities",  # a numbered row ("Priority 2") and its column
    "plan-prices",  # "per month" meets the "Monthly price" column
    # session 18 (issue 32): a conflict cites both sides the ledger holds in dispute
    "p200-price-sales-wording",  # the disagreement read from the key's value groups
    # session 19: a side joined by an ambiguous relation counts unless its scope sets it
    # apart on what is asked (retrieval/scope_sides.py)
    "pro-plan-price-table",  # "$35 per month" beside a "Monthly price" cell (by unit)
    "leeds-remote-days",  # a condition clause only the email adds, not asked
    "priority-1-response",  # asked words, and a party the table's page states
}


def _eval_office() -> ModuleType:
    """bench/eval_office.py as a module: the test and the benchmark share one scoring."""
    bench = str(REPO / "bench")
    if bench not in sys.path:
        sys.path.insert(0, bench)
    return importlib.import_module("eval_office")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    module = _eval_office()
    return module.score_office(OFFICE, tmp_path_factory.mktemp("office") / "claims.db")


def test_every_planted_case_names_quotes_that_are_in_the_corpus() -> None:
    module = _eval_office()
    expected = module.load_expected(OFFICE)
    texts = {
        p.stem: module.folded(convert(p.read_bytes(), p).text)
        for p in (OFFICE / "corpus").iterdir()
    }
    planted = expected["conflicts"] + expected["non_conflicts"]
    assert len(expected["conflicts"]) >= 8 and len(expected["non_conflicts"]) >= 6
    for case in planted:
        assert any(case.left in t for t in texts.values()), case.id
        assert any(case.right in t for t in texts.values()), case.id
    facts = {q["fact"] for q in expected["questions"]}
    assert facts == {case.id for case in planted}


def test_planted_non_conflicts_are_never_called_conflict(report) -> None:  # type: ignore[no-untyped-def]
    broken = [(o.planted.id, o.detail) for o in report.non_conflicts if not o.ok]
    assert broken == []
    assert {o.planted.cls for o in report.non_conflicts} >= {
        "equal after unit conversion",
        "register supersession",
        "different scope",
        "different entity",
        "labels that can both hold",
        "numbers listed in one sentence",
    }


def test_no_conflict_is_invented(report) -> None:  # type: ignore[no-untyped-def]
    assert report.invented == []


def test_the_planted_conflicts_found_today_stay_found(report) -> None:  # type: ignore[no-untyped-def]
    found = report.found()
    assert found >= FOUND_NOW, {o.planted.id: o.detail for o in report.conflicts if not o.ok}


def test_the_questions_answered_right_today_stay_right(report) -> None:  # type: ignore[no-untyped-def]
    right = {q.fact for q in report.questions if q.ok}
    wrong = {q.fact: f"expected {q.expected}; got {q.got}" for q in report.questions if not q.ok}
    assert right >= ANSWERED_RIGHT_NOW, wrong


def test_equal_values_in_other_units_corroborate_in_the_store(report) -> None:  # type: ignore[no-untyped-def]
    corroborated = report.corroborated()
    missing = {o.planted.id: o.detail for o in report.conversions if not o.ok}
    assert corroborated >= CORROBORATED_NOW, missing
