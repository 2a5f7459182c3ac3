"""Extraction speed: tokens per second on a generated corpus of policy / filing / SLA text,
beside spaCy's blank English tokenizer alone, measured in the same run; plus a linearity
check on long inputs (one long document, and one "sentence" with no breaks at all).

    .venv/bin/python bench/bench_extraction.py [--docs 600] [--repeat 5]

Target (issue 12, with entity, attribute and value kinds): extraction at >= 1.5% of the
tokenizer's speed (issue 3 asked 5% of the leaner rules). Times are CPU time of this
process (best of --repeat runs): the machine is shared, and wall time would mostly
measure the neighbours. Each timed pass starts with an empty sentence cache
(claims.extraction.sentence_cache), so a sentence counts as repeated only within one pass
over the corpus, never because an earlier pass read it; the pass with the cache kept full
is printed apart ("warm").
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import spacy  # noqa: E402

from claims.extraction import extract, get_pipeline  # noqa: E402
from claims.settings import get_settings  # noqa: E402

ATTRIBUTES = [
    ("notice period", ["days", "weeks", "months"]),
    ("output limit", ["tokens"]),
    ("context window", ["tokens"]),
    ("p99 latency", ["ms", "seconds"]),
    ("median response time", ["ms"]),
    ("storage quota", ["GB", "TB", "MiB"]),
    ("rate limit", ["requests per minute", "requests per second"]),
    ("Q1 dividend", ["cents per share"]),
    ("annual fee", ["USD", "EUR", "GBP"]),
    ("recommended dose", ["mg", "mg/kg"]),
    ("retention period", ["days", "years"]),
    ("uptime", ["%"]),
    ("late payment interest", ["%", "basis points"]),
    ("maximum upload size", ["MB", "GB"]),
    ("session timeout", ["minutes", "hours"]),
    ("warranty period", ["months", "years"]),
    ("refund window", ["days", "business days"]),
    ("headcount", ["employees"]),
    ("operating margin", ["%"]),
    ("capital expenditure", ["million dollars", "USD"]),
]
SYLLABLES = [
    "nor",
    "vex",
    "kal",
    "in",
    "dra",
    "to",
    "mi",
    "sen",
    "qua",
    "rel",
    "bo",
    "ta",
    "phi",
    "lon",
    "da",
    "ver",
    "ix",
    "um",
    "ca",
    "sol",
]
LEADS = [
    "",
    "In 2024, ",
    "As of March 31, 2025, ",
    "In the first year, ",
    "Effective 1 July 2025, ",
    "According to the vendor, ",
    "In staging, ",
    "For enterprise customers, ",
    "Since 2021, ",
    "For adults, ",
    "In production, ",
    "Until 2023, ",
    "In the third quarter of 2024, ",
]
BOUNDS = ["", "", "", "up to ", "at least ", "no more than ", "about ", "approximately "]
PARTIES = [
    "The supplier",
    "The contractor",
    "Each employee",
    "The customer",
    "The licensee",
    "The vendor",
    "The tenant",
    "The service provider",
    "The processor",
    "The auditor",
]
MODALS = ["shall", "must", "may", "shall not", "must not", "is permitted to", "is prohibited from"]
ACTIONS = [
    "disclose",
    "retain",
    "transfer",
    "encrypt",
    "delete",
    "share",
    "audit",
    "publish",
    "store",
    "process",
    "review",
    "approve",
    "report",
    "escalate",
    "archive",
    "sublicense",
]
OBJECTS = [
    "confidential information",
    "personal data",
    "the audit logs",
    "payment records",
    "source code",
    "customer credentials",
    "incident reports",
    "the annual accounts",
    "backup copies",
    "access keys",
    "training data",
    "invoices",
    "support tickets",
]
TAILS = [
    "",
    " to third parties",
    " without prior written consent",
    " outside the EU",
    " after termination",
    " on request",
    " within the agreed period",
    " in writing",
]
# fmt: skip


OPENINGS = [
    "This section",
    "The following schedule",
    "Clause seven",
    "The annex below",
    "This agreement",
    "The present policy",
    "The committee",
    "The board",
]
VERBS = ["describes", "sets out", "summarises", "explains", "records", "lists", "governs"]
TOPICS = [
    "the responsibilities of the parties",
    "how disputes are escalated",
    "the reporting duties of each business unit",
    "the scope of the services",
    "the approval workflow for exceptions",
    "the definitions used in this document",
    "the review cycle for security controls",
    "how personal data is classified",
]
# fmt: skip


def name(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()


def sentence(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.4:  # most sentences of a real policy or filing state no claim at all
        return f"{rng.choice(OPENINGS)} {rng.choice(VERBS)} {rng.choice(TOPICS)}."
    if kind < 0.65:
        party = rng.choice(PARTIES)
        action = f"{rng.choice(ACTIONS)} {rng.choice(OBJECTS)}{rng.choice(TAILS)}"
        return f"{party} {rng.choice(MODALS)} {action}."
    attribute, units = rng.choice(ATTRIBUTES)
    owner = rng.choice(
        ["The", f"{name(rng)}'s", "The interactive", "The batch", f"The {name(rng)}"]
    )
    value: float = rng.choice([rng.randint(1, 999), round(rng.uniform(0.1, 99.9), 1)])
    if rng.random() < 0.1:
        value_text = f"between {value} and {value * 2}"
    else:
        value_text = f"{rng.choice(BOUNDS)}{value:,}"
    lead = rng.choice(LEADS)
    head = f"{owner} {attribute}"
    if lead:
        head = head[0].lower() + head[1:]
    verb = rng.choice(["is", "was", "remains", "will be"])
    return f"{lead}{head} {verb} {value_text} {rng.choice(units)}."


def corpus(docs: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(sentence(rng) for _ in range(rng.randint(6, 14))) for _ in range(docs)]


def office_document(rng: random.Random, i: int) -> str:
    """A structured office document: headings, a lead-in with bullets, label lines under a
    product heading, a FAQ question and answer, a prose paragraph (issue 30)."""
    product = f"P-{100 + i}"
    return (
        f"# Handbook {i}\n\n## Time off\n\nFull-time employees are entitled to:\n\n"
        f"- {20 + i % 10} days of annual leave\n- {5 + i % 7} days of sick leave\n"
        f"- a home office allowance of ${300 + i}\n\n## {product}\n\n"
        f"Weight: {10 + i % 30} kg\nMaximum head: {8 + i % 9} m\nPower: {1 + i % 3}.1 kW\n"
        f"Price: ${999 + i}\n\n### How long is the notice period?\n\n{30 + i % 3 * 30} days.\n\n"
        + " ".join(sentence(rng) for _ in range(rng.randint(3, 6)))
        + "\n"
    )


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--docs", type=int, default=600)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    texts = corpus(args.docs)
    blank = spacy.blank("en")
    tokens = sum(len(blank.tokenizer(t)) for t in texts)
    extract(texts[0])  # build the pipeline outside the timing

    tok_s = best_of(args.repeat, lambda: [blank.tokenizer(t) for t in texts])
    counts: list[int] = []

    def run() -> None:
        counts.append(sum(len(extract(t)) for t in texts))

    sentences = get_pipeline(get_settings().spacy_model).get_pipe("claim_assembler")
    cache = sentences.assembler.sentences

    def cold_run() -> None:
        if cache is not None:
            cache.clear()
        run()

    ext_s = best_of(args.repeat, cold_run)
    warm_s = best_of(2, run)
    claims = counts[-1]
    tok_rate, ext_rate = tokens / tok_s, tokens / ext_s
    ratio = ext_rate / tok_rate
    verdict = "PASS" if ratio >= 0.015 else "FAIL"
    print(f"corpus: {len(texts)} documents, {tokens} tokens, {sum(map(len, texts))} chars")
    print(f"blank tokenizer : {tok_rate:12,.0f} tokens/s")
    print(f"extraction      : {ext_rate:12,.0f} tokens/s  ({claims / ext_s:,.0f} claims/s)")
    print(f"ratio           : {ratio:.1%} of tokenizer speed (target >= 1.5%): {verdict}")
    print(f"warm (cache full): {tokens / warm_s:12,.0f} tokens/s  (every sentence read before)")

    # structured office documents: the structure reader's share of their extraction time
    from claims.documents.structure import read_structure

    rng = random.Random(3)
    office = [office_document(rng, i) for i in range(args.docs // 2)]
    office_tokens = sum(len(blank.tokenizer(t)) for t in office)
    office_s = best_of(args.repeat, lambda: (cache and cache.clear(), [extract(t) for t in office]))  # type: ignore[misc]
    structure_s = best_of(args.repeat, lambda: [read_structure(t) for t in office])
    print(
        f"office documents: {len(office)} structured documents, {office_tokens} tokens: "
        f"extraction {office_tokens / office_s:,.0f} tokens/s; structure reader alone "
        f"{structure_s / office_s:.1%} of that time"
    )

    # linearity: CPU time per 1k tokens must stay flat as the input grows (the copies of the
    # unit text are repeated sentences, which the cache replays within the pass)
    print("\nlinearity (best of 2; s per 1k tokens should stay flat):")
    base = " ".join(corpus(40, seed=2))
    breakless = " ".join(f"item {i} costs {i} dollars and" for i in range(2000))
    for label, unit in (("long document", base), ("no sentence breaks", breakless)):
        for factor in (1, 2, 4, 8):
            text = " ".join([unit] * factor)
            n = len(blank.tokenizer(text))
            secs = best_of(2, lambda text=text: (cache and cache.clear(), extract(text)))  # type: ignore[misc]
            print(f"  {label:20} x{factor}: {n:8d} tokens {secs:7.3f} s  {1000 * secs / n:.4f}")


if __name__ == "__main__":
    main()
