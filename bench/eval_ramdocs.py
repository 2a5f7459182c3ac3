"""RAMDocs dev questions through the real pipeline and ``claims ask``'s answer function.

    python bench/eval_ramdocs.py [RAMDOCS.jsonl] [--limit N] [--json OUT] [--examples K]
                                 [--stores DIR]

Each question's documents are one small corpus: written as files into a temporary folder,
run through ``pipeline.runner.run_pipeline`` (ingest, extraction, edges, review queue, read
model; the path of ``claims run``) into a temporary SQLite store on an ephemeral Dagster
instance, then asked through ``retrieval.answer.answer`` (the function ``claims ask``
calls) by a requester who sees every document. Figures (issue 13 targets):

- answered with a gold answer (>= 0.35), answered with another value (<= 0.03),
  ``not_found`` (<= 0.30), over all questions; an answer per namesake (two things of one
  name the ledger tells apart, one side each, ``value`` null) counts as answered with a
  gold answer when every side's value is one, else as another value; those answered with
  gold per namesake are also counted on their own;
- ``conflict`` citing a correct and a misinfo document on different sides, over the
  questions whose documents include a misinfo document (>= 0.50);
- pairs (correct document, misinfo document) of one question joined by a conflicts edge
  (>= 0.60; conflicts-or-ambiguous also shown);
- pairs of correct documents of one question whose answers differ (different entities with
  the same name, ``disambig_entity``) joined by a conflicts edge (<= 0.03).

``--stores DIR`` keeps each question's store (``DIR/q0001.db``...) and reuses one already
there instead of running the pipeline again: for iterating on the question side only (a
kept store holds what the extraction code of its run wrote; the header says how many stores
were reused). Figures for docs/ come from fresh runs, without it.

Misses are sorted into automatic failure classes (question not keyed, key not in the store,
key there but nothing answered, wrong-value shapes, one-sided conflicts...).
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import unicodedata
from collections import Counter, defaultdict
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dev_eval_common as common  # noqa: E402

common.prefer_working_directory()

_ARTICLES = {"a", "an", "the", "of"}


def words(text: str) -> list[str]:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()
    folded = re.sub(r"(?<=\d),(?=\d{3}\b)", "", folded)  # "5,601" is the number 5601
    return [w for w in re.findall(r"[a-z0-9]+(?:\.[0-9]+)?", folded) if w not in _ARTICLES]


_ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_ISO_MONTH = re.compile(r"^(\d{4})-(\d{2})$")
_MONTHS = "January February March April May June July August September October November December"


def readable_date(value: str) -> str:
    """An ISO date value as people write it ("1885-05-15" -> "15 May 1885", "1888-09" ->
    "September 1888"); else as is."""
    month_only = _ISO_MONTH.match(value.strip())
    if month_only and 1 <= int(month_only.group(2)) <= 12:  # "1888-09" -> "September 1888"
        return f"{_MONTHS.split()[int(month_only.group(2)) - 1]} {month_only.group(1)}"
    match = _ISO_DATE.match(value.strip())
    if not match or not 1 <= int(match.group(2)) <= 12:
        return value
    year, month, day = match.groups()
    return f"{int(day)} {_MONTHS.split()[int(month) - 1]} {year}"


_YEARS = re.compile(r"^(\d{4})-01-01/(\d{4})-12-31$")


def _written_forms(value: str) -> list[str]:
    """The ways people write a value: a span of whole years ("1926-01-01/1927-12-31") is
    "1926-27" or "1926 to 1927"; a date as ``readable_date`` writes it, its month also cut
    to three letters."""
    years = _YEARS.match(value.strip())
    if years and years.group(1)[:2] == years.group(2)[:2]:
        first, last = years.groups()
        return [f"{first}-{last[2:]}", f"{first} to {last}"]
    shown = readable_date(value)
    # "11 November 1808" is also written "11 Nov. 1808"
    month = next((m for m in _MONTHS.split() if f" {m} " in f" {shown} "), None)
    return [shown, shown.replace(month, month[:3])] if month else [shown]


def same_answer(value: str, answers: list[str]) -> bool:
    """A shown value matches an answer when one's words contain the other's (numbers too)."""
    for form in _written_forms(value):
        got = set(words(form))
        if not got:
            continue
        for answer in answers:
            want = set(words(answer))
            if want and (want <= got or got <= want):
                return True
    return False


def shown_value(value: Any, unit: str | None) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{value} {unit or ''}".strip()


def value_shape(value: str) -> str:
    digits = value.replace(",", "").split()[0] if value.split() else ""
    if common.is_year(digits):
        return "a year"
    if re.fullmatch(r"\d{1,2}", digits):
        return "a small integer (list, rank or reference number?)"
    if re.fullmatch(r"[-\d.]+", digits):
        return "another number"
    return "a label"


# what a question asks, by its frame's attribute: the classes misses are counted in
_CLASSES = {
    "born": "birth date", "died": "death date", "population": "population",
    "sport": "sport", "artist": "artist/band", "band": "artist/band",
    "director": "director", "profession": "profession", "know for": "profession",
    "genre": "genre", "medium": "medium", "language": "language",
    "political party": "political party", "location": "location", "city": "location",
    "state": "location", "country": "location", "birthplace": "location",
}  # fmt: skip
_EVENTS = {"founded", "built", "launched", "held", "opened", "released", "completed"}


def question_class(attribute: str | None) -> str:
    """The class a question is counted in: its asked attribute, events and rare ones grouped."""
    if not attribute:
        return "unparsed"
    if attribute in _CLASSES:
        return _CLASSES[attribute]
    if attribute in _EVENTS or attribute.split()[-1] in _EVENTS:
        return "event date"
    return "other"


def claims_by_source(url: str) -> dict[str, list[Any]]:
    """Every stored claim of a question's store, by source id (for the pair classes)."""
    from sqlalchemy import select

    from claims.store.engine import make_engine
    from claims.tables import ClaimRow

    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(ClaimRow)).all()
    finally:
        engine.dispose()
    found: dict[str, list[Any]] = defaultdict(list)
    for row in rows:
        found[row.source_id].append(row)
    return found


def _claim_value(row: Any) -> str:
    return shown_value(
        row.value_number if row.value_number is not None else row.value_text, row.unit
    )


def why_no_conflict(
    correct: dict[str, Any], misinfo: dict[str, Any], claims_c: list[Any], claims_m: list[Any]
) -> tuple[str, str]:
    """Why a (correct, misinfo) document pair has no conflicts edge, and the keys or values
    that show it: (a) a side's answer is the value of no claim; (b) both are, under
    different keys (entity or attribute differs); (c) one key, but the edges' comparison
    does not call the values a conflict (its rule says why)."""
    from claims.edges.compare import compare
    from claims.store.claims import row_to_claim

    stating_c = [r for r in claims_c if same_answer(_claim_value(r), [correct["answer"]])]
    stating_m = [r for r in claims_m if same_answer(_claim_value(r), [misinfo["answer"]])]
    if not stating_m:
        return "a: the misinfo value is in no claim", repr(misinfo["answer"])
    if not stating_c:
        return "a: the correct value is in no claim", repr(correct["answer"])
    for c in stating_c:
        for m in stating_m:
            if c.claim_key == m.claim_key:
                verdict = compare(row_to_claim(c), row_to_claim(m))
                return (
                    f"c: one key, {verdict.relation.value} by rule {verdict.rule}",
                    f"{c.claim_key!r}: {verdict.reason[:160]}",
                )
    c, m = stating_c[0], stating_m[0]
    differs = [
        n
        for n, a, b in (("entity", c.entity, m.entity), ("attribute", c.attribute, m.attribute))
        if a != b
    ]
    return (
        f"b: keys differ ({' and '.join(differs) or 'key'})",
        f"({c.entity!r}, {c.attribute!r}) vs ({m.entity!r}, {m.attribute!r})",
    )


def stating_keys(document: dict[str, Any], claims: list[Any]) -> list[tuple[str, str]]:
    """The (entity, attribute) keys of a document's claims stating its answer ("-" for a
    claim naming no entity), for ``--pairs``."""
    return sorted(
        {
            (row.entity or "-", row.attribute or "-")
            for row in claims
            if same_answer(_claim_value(row), [document["answer"]])
        }
    )


def _fits_slot(row: Any, entity: str | None, attribute: str) -> str | None:
    """Why a stored claim cannot answer the asked (entity, attribute), or None when it fits
    both: names no entity, names another, states another attribute."""
    from claims.edges.similarity import DIFFERENT, match_attributes
    from claims.store.claims import entity_ref_of
    from retrieval.answering import answering_attributes
    from retrieval.candidates import entity_fit

    if entity and not row.entity:
        return "names no entity"
    if entity and entity_fit(entity, entity_ref_of(row)) == 0.0:
        return "names another entity"
    stated = row.attribute or row.claim_key
    if stated not in answering_attributes(attribute) and (
        match_attributes(attribute, stated).band == DIFFERENT
    ):
        return "states another attribute"
    return None


def where_value_lands(
    rows: list[Any], values: list[str], entity: str | None, attribute: str, asked: Any
) -> tuple[str, str]:
    """Where the claims stating one of ``values`` stand against the asked slot: the class
    of the claim that comes closest (in no claim; names no entity; names another entity;
    states another attribute; fits the slot), and that claim's key."""
    stating = [r for r in rows if same_answer(_claim_value(r), values)]
    if not stating:
        return "the value is in no claim", "-"
    order = ["fits the slot", "states another attribute", "names another entity",
             "names no entity"]  # fmt: skip
    best = min(
        ((_fits_slot(r, entity, attribute) or "fits the slot", r) for r in stating),
        key=lambda pair: order.index(pair[0]),
    )
    why, row = best
    if why == "fits the slot":
        from retrieval.answer_type import dimension_of_unit, value_fits

        if not value_fits(asked, kind=row.kind, dimension=dimension_of_unit(row.canonical_unit)):
            why = "fits the slot, value of another type"
    return why, f"{row.claim_key!r} = {_claim_value(row)!r}"


def per_namesake_values(result: Any) -> list[str]:
    """Each side's value of an answer given per namesake (``Side.entity`` set on every
    side, ``value`` null), else nothing."""
    if result.status.value != "answered" or result.value is not None or len(result.sides) < 2:
        return []
    if not all(getattr(side, "entity", None) for side in result.sides):  # older trees: none
        return []
    return [shown_value(side.value, side.unit) for side in result.sides]


def written_in(texts: list[str], values: list[str]) -> bool:
    """Whether one of ``values`` is written in one of ``texts`` (its words in a row)."""
    for text in texts:
        folded = " " + " ".join(words(text)) + " "
        if any(" " + " ".join(words(v)) + " " in folded for v in values if words(v)):
            return True
    return False


def write_corpus(folder: Path, documents: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """One file per document (``doc01.txt``...); source id -> the document."""
    by_source: dict[str, dict[str, Any]] = {}
    for number, document in enumerate(documents, start=1):
        source_id = f"doc{number:02d}"
        # Scraped pages carry stray control characters (a NUL byte makes ingest refuse the
        # file as binary); they are blanked so the document's words are still read.
        text = "".join(
            " " if unicodedata.category(ch) == "Cc" and ch not in "\n\t" else ch
            for ch in document["text"]
        )
        text = text.strip() or "(empty document)"
        (folder / f"{source_id}.txt").write_text(text + "\n", encoding="utf-8")
        by_source[source_id] = document
    return by_source


def main() -> None:
    cli = common.parser(__doc__.splitlines()[0], "ramdocs_dev.jsonl")
    cli.add_argument(
        "--stores",
        type=Path,
        default=None,
        help="keep each question's store here and reuse kept ones (question-side work only)",
    )
    cli.add_argument(
        "--pairs",
        metavar="CLASS",
        default=None,
        help="print every (correct, misinfo) pair whose class begins with CLASS ('b: keys"
        " differ (entity'), with the two sources and the keys of the claims stating each value",
    )
    common.profile_option(cli, "reference")
    args = cli.parse_args()
    common.quiet_warnings()
    rows = common.read_jsonl(args.data, args.limit)
    code = common.describe_code()
    profile_register = _profile_register(args.profile)
    from claims.extraction import parse_question
    from claims.models import Requester
    from claims.store.engine import make_engine
    from claims.tables import ClaimRow
    from retrieval.answer import answer, asked_type
    from retrieval.answering import answering_attributes

    clock = common.Clock()
    common.header("RAMDocs dev through the pipeline and claims ask", args.data, len(rows), code)
    print(f"profile: {args.profile if profile_register else '(the code has no profiles)'}")
    # the stable split: the item id is the question (a RAMDocs row has no id field)
    parts: dict[str, Counter[str]] = {part: Counter() for part in common.PARTS}
    reader = Requester(principal="dev-eval", groups=[])
    status: Counter[str] = Counter()
    outcome: Counter[str] = Counter()
    classes: Counter[str] = Counter()
    examples: dict[str, list[str]] = defaultdict(list)
    with_misinfo = conflict_both = 0
    per_namesake_gold = 0
    pairs_cm = pairs_cm_conflict = pairs_cm_slot = 0
    pairs_cc = pairs_cc_conflict = 0
    results: list[dict[str, Any]] = []
    by_class: dict[str, Counter[str]] = defaultdict(Counter)  # asked attribute -> outcomes
    pair_classes: Counter[str] = Counter()  # why a (correct, misinfo) pair has no conflict
    pair_examples: dict[str, list[str]] = defaultdict(list)
    listed_pairs: list[str] = []  # --pairs: every pair of the asked class
    # where the gold value of a not_found question, and the misinfo value of a missed
    # conflict, stand against the asked (entity, attribute): the triage of docs/DEV_EVAL.md
    triage: dict[str, Counter[str]] = defaultdict(Counter)
    triage_examples: dict[str, list[str]] = defaultdict(list)

    def triaged(table: str, cls: str, row: dict[str, Any], detail: str) -> None:
        triage[table][cls] += 1
        name = f"{table}: {cls}"
        if len(triage_examples[name]) < args.examples:
            triage_examples[name].append(f"{row['question']} -> {detail}")

    def failed(cls: str, row: dict[str, Any], detail: str) -> None:
        classes[cls] += 1
        if len(examples[cls]) < args.examples:
            examples[cls].append(f"{row['question']} (gold {row['gold_answers']}) -> {detail}")

    reused = 0
    if args.stores:
        args.stores.mkdir(parents=True, exist_ok=True)
    for done, row in enumerate(rows, start=1):
        with tempfile.TemporaryDirectory(prefix="ramdocs-") as tmp:
            folder = Path(tmp) / "docs"
            folder.mkdir()
            by_source = write_corpus(folder, row["documents"])
            kept = args.stores / f"q{done:04d}.db" if args.stores else None
            # the failures file is written last: a store without one is incomplete
            finished = kept.with_suffix(".failures.json") if kept else None
            if kept is not None and finished is not None and finished.exists():
                reused += 1
                url = f"sqlite:///{kept}"
                run_failures = json.loads(finished.read_text())
            else:
                database = kept or Path(tmp) / "claims.db"
                for stale in [database, *database.parent.glob(database.name + "-*")]:
                    stale.unlink(missing_ok=True)
                register = None
                if profile_register:  # every document read with the asked profile
                    register = Path(tmp) / "register.yaml"
                    register.write_text(profile_register, encoding="utf-8")
                run = common.run_corpus(folder, register, database, strict=False)
                url, run_failures = run.url, run.failures
                if finished is not None:
                    finished.write_text(json.dumps(run_failures))
            for problem in run_failures:
                failed("pipeline failure (the answer uses what was stored)", row, problem)
            engine = make_engine(url)
            try:
                result = answer(engine, row["question"], reader)
                with engine.connect() as conn:
                    keys = {
                        k
                        for (k,) in conn.execute(
                            ClaimRow.__table__.select().with_only_columns(ClaimRow.claim_key)
                        )
                    }
                    attributes = {
                        a
                        for (a,) in conn.execute(
                            ClaimRow.__table__.select().with_only_columns(ClaimRow.attribute)
                        )
                    }
                    n_claims = conn.execute(
                        ClaimRow.__table__.select().with_only_columns(ClaimRow.id)
                    ).all()
            finally:
                engine.dispose()
            edges = common.linked_edges(url)
            stored = claims_by_source(url)
        kind_of = {sid: doc["type"] for sid, doc in by_source.items()}
        frame = parse_question(row["question"])
        question_key = getattr(frame, "claim_key", None)
        status[result.status.value] += 1
        value = shown_value(result.value, result.unit)
        record = {
            "question": row["question"],
            "status": result.status.value,
            "value": value,
            "reason": result.reason,
            "sides": [
                [
                    shown_value(s.value, s.unit),
                    s.source_ids,
                    *filter(None, [getattr(s, "entity", None)]),
                ]
                for s in result.sides
            ],
        }
        per_namesake = per_namesake_values(result)
        gold_answer = (
            all(same_answer(v, row["gold_answers"]) for v in per_namesake)
            if per_namesake
            else same_answer(value, row["gold_answers"])
        )

        # --- the answer
        if result.status.value == "answered":
            if gold_answer:
                outcome["answered with a gold answer"] += 1
                per_namesake_gold += bool(per_namesake)
            elif per_namesake:
                outcome["answered with another value"] += 1
                failed("wrong value: a side of a per-namesake answer", row, result.reason)
            else:
                outcome["answered with another value"] += 1
                misinfo = same_answer(value, row.get("wrong_answers") or [])
                failed(
                    f"wrong value: {'a misinfo answer' if misinfo else value_shape(value)}",
                    row,
                    f"{value!r} from {result.citations}",
                )
        elif result.status.value == "not_found":
            if question_key is None:
                failed("not_found: the question gives no claim key", row, "-")
            elif not n_claims:
                failed("not_found: no claim extracted from any document", row, question_key)
            elif question_key not in keys:
                asked_attribute = getattr(frame, "attribute", None) or question_key
                slot = {asked_attribute, *answering_attributes(asked_attribute)}
                if slot & attributes:
                    failed(
                        "not_found: the asked attribute is stated, not of the asked entity or type",
                        row,
                        f"attribute {asked_attribute!r}, entity {getattr(frame, 'entity', None)!r}",
                    )
                else:
                    failed(
                        "not_found: no claim states the asked attribute",
                        row,
                        f"attribute {asked_attribute!r}; {len(keys)} document keys",
                    )
            else:
                failed("not_found: key in the store, nothing held", row, result.reason)
        sides_types = [{kind_of.get(s, "?") for s in side.source_ids} for side in result.sides]
        has_misinfo = any(d["type"] == "misinfo" for d in row["documents"])
        both = any(
            "correct" in a and "misinfo" in b
            for i, a in enumerate(sides_types)
            for j, b in enumerate(sides_types)
            if i != j
        )
        if has_misinfo:
            with_misinfo += 1
            conflict_both += result.status.value == "conflict" and both
            if result.status.value == "conflict" and not both:
                failed(
                    "conflict, but not a correct side against a misinfo side",
                    row,
                    f"sides from {sides_types}",
                )
        elif result.status.value == "conflict":
            failed(
                "conflict with no misinfo document",
                row,
                f"sides {[s.value for s in result.sides]} from {sides_types}",
            )

        # --- the triage: where the gold (and misinfo) values stand against the asked slot
        asked = asked_type(frame, row["question"])
        slot = (getattr(frame, "entity", None), getattr(frame, "attribute", None) or "")
        of_type: dict[str, list[Any]] = {"correct": [], "misinfo": []}
        for sid, kind in kind_of.items():
            if kind in of_type:
                of_type[kind].extend(stored.get(sid, []))
        if result.status.value == "not_found":
            cls, shown = where_value_lands(of_type["correct"], row["gold_answers"], *slot, asked)
            if cls == "the value is in no claim":
                texts = [d["text"] for d in row["documents"] if d["type"] == "correct"]
                cls += (
                    ", written in a document"
                    if written_in(texts, row["gold_answers"])
                    else (", written in no document as asked")
                )
            triaged("not_found: the gold value", cls, row, shown)
        if has_misinfo and not (result.status.value == "conflict" and both):
            wrong_values = [d["answer"] for d in row["documents"] if d["type"] == "misinfo"]
            cls, shown = where_value_lands(of_type["misinfo"], wrong_values, *slot, asked)
            triaged(f"conflict missed ({result.status.value}): the misinfo value", cls, row, shown)

        # --- the edges between documents
        before_pairs = (pairs_cm, pairs_cm_conflict, pairs_cc, pairs_cc_conflict)
        linked: dict[frozenset[str], set[str]] = defaultdict(set)
        for edge in edges:
            if edge["left_source"] != edge["right_source"]:
                linked[frozenset((edge["left_source"], edge["right_source"]))].add(edge["kind"])
        correct = [s for s, t in kind_of.items() if t == "correct"]
        misinfo = [s for s, t in kind_of.items() if t == "misinfo"]
        for c in correct:
            for m in misinfo:
                pairs_cm += 1
                kinds = linked.get(frozenset((c, m)), set())
                pairs_cm_conflict += "conflicts" in kinds
                pairs_cm_slot += bool(kinds)
                if "conflicts" not in kinds:
                    why, shown = why_no_conflict(
                        by_source[c], by_source[m], stored.get(c, []), stored.get(m, [])
                    )
                    if kinds:
                        why += " [ambiguous edge]"
                    pair_classes[why] += 1
                    if len(pair_examples[why]) < args.examples:
                        pair_examples[why].append(f"{row['question']} -> {shown}")
                    if args.pairs is not None and why.startswith(args.pairs):
                        listed_pairs.append(
                            f"q{done:04d} {c}/{m} {why} | {row['question']}\n"
                            f"      correct: {stating_keys(by_source[c], stored.get(c, []))}\n"
                            f"      misinfo: {stating_keys(by_source[m], stored.get(m, []))}"
                        )
        for a, b in combinations(correct, 2):
            if not same_answer(by_source[a]["answer"], [by_source[b]["answer"]]):
                pairs_cc += 1
                if "conflicts" in linked.get(frozenset((a, b)), set()):
                    pairs_cc_conflict += 1
                    failed(
                        "two same-name entities called conflict",
                        row,
                        f"{by_source[a]['answer']!r} vs {by_source[b]['answer']!r}",
                    )
        part = parts[common.dev_part(row["question"])]
        answered = result.status.value == "answered"
        part.update(
            questions=1,
            gold=answered and gold_answer,
            other=answered and not gold_answer,
            not_found=result.status.value == "not_found",
            with_misinfo=has_misinfo,
            conflict_both=has_misinfo and result.status.value == "conflict" and both,
        )
        after_pairs = (pairs_cm, pairs_cm_conflict, pairs_cc, pairs_cc_conflict)
        for name, was, now in zip(PAIR_FIGURES, before_pairs, after_pairs, strict=True):
            part[name] += now - was
        record.update(question_key=question_key, claims=len(n_claims), edges=len(edges))
        asked = question_class(getattr(frame, "attribute", None) or question_key)
        outcome_of = result.status.value
        if outcome_of == "answered":
            outcome_of = "gold" if gold_answer else "other"
        by_class[asked][outcome_of] += 1
        record["class"] = asked
        results.append(record)
        common.progress(done, len(rows), 20, "questions")

    total = len(rows)
    print(f"time: {clock.seconds()} s")
    if args.stores:
        print(f"stores: {args.stores} ({reused} of {total} reused from an earlier run)")
    print("\nwhole-set figures:")
    gold = outcome["answered with a gold answer"]
    wrong = outcome["answered with another value"]
    print(common.target_line("answered with a gold answer", gold, total, ">= 0.35"))
    print(f"         of which per namesake: {per_namesake_gold}")
    print(common.target_line("answered with another value", wrong, total, "<= 0.03"))
    print(common.target_line("not_found", status["not_found"], total, "<= 0.30"))
    print(
        common.target_line(
            "conflict citing correct and misinfo sides (misinfo questions)",
            conflict_both,
            with_misinfo,
            ">= 0.50",
        )
    )
    print(
        common.target_line(
            "correct+misinfo document pair: conflicts edge", pairs_cm_conflict, pairs_cm, ">= 0.60"
        )
    )
    print(
        f"       correct+misinfo document pair: conflicts or ambiguous edge "
        f"{pairs_cm_slot}/{pairs_cm} = {common.shown(common.rate(pairs_cm_slot, pairs_cm))}"
    )
    print(
        common.target_line(
            "two correct documents, different answers: conflicts edge",
            pairs_cc_conflict,
            pairs_cc,
            "<= 0.03",
        )
    )
    for name, part in parts.items():
        print(f"\n{name} part (sha256 of the question {'even' if name == 'tuning' else 'odd'}):")
        print("\n".join(_part_lines(part)))
    print()
    print("\n".join(common.counter_lines("answer status", status, total)))
    print("\n".join(common.counter_lines("failure classes", classes, total)))
    print("  outcomes by the attribute asked (question classes):")
    print(f"    {'class':<16} {'n':>4} {'gold':>5} {'other':>6} {'conflict':>9} {'not_found':>10}")
    for name, counts in sorted(by_class.items(), key=lambda kv: -sum(kv[1].values())):
        print(
            f"    {name:<16} {sum(counts.values()):>4} {counts['gold']:>5} {counts['other']:>6}"
            f" {counts['conflict']:>9} {counts['not_found']:>10}"
        )
    print(
        "\n".join(
            common.counter_lines(
                "correct+misinfo pairs with no conflicts edge, why", pair_classes, pairs_cm
            )
        )
    )
    for table, counts in sorted(triage.items()):
        print("\n".join(common.counter_lines(table, counts, sum(counts.values()))))
    for name in sorted(triage_examples):
        print(f"  triage '{name}':")
        print("\n".join(f"    - {line[:300]}" for line in triage_examples[name]))
    for cls in sorted(pair_examples):
        print(f"  pairs '{cls}':")
        print("\n".join(f"    - {line[:300]}" for line in pair_examples[cls]))
    for cls in sorted(examples):
        print(f"  examples of '{cls}':")
        print("\n".join(f"    - {line[:300]}" for line in examples[cls]))
    if args.pairs is not None:
        print(f"  every pair of class '{args.pairs}...' ({len(listed_pairs)}):")
        print("\n".join(f"    - {line}" for line in listed_pairs))
    common.write_json(
        args.json_out,
        {
            **code,
            "data": str(args.data),
            "questions": total,
            "seconds": clock.seconds(),
            "status": dict(status),
            "answered_gold": gold,
            "answered_gold_per_namesake": per_namesake_gold,
            "answered_other": wrong,
            "questions_with_misinfo": with_misinfo,
            "conflict_citing_both": conflict_both,
            "correct_misinfo_pairs": {
                "pairs": pairs_cm,
                "conflicts": pairs_cm_conflict,
                "conflicts_or_ambiguous": pairs_cm_slot,
            },
            "same_name_entity_pairs": {"pairs": pairs_cc, "conflicts": pairs_cc_conflict},
            "failure_classes": dict(classes),
            "pair_classes": dict(pair_classes),
            "triage": {table: dict(counts) for table, counts in triage.items()},
            "question_classes": {k: dict(v) for k, v in by_class.items()},
            "per_question": results,
            "profile": args.profile if profile_register else None,
            "parts": {name: dict(part) for name, part in parts.items()},
        },
    )


PAIR_FIGURES = ("pairs_cm", "pairs_cm_conflict", "pairs_cc", "pairs_cc_conflict")


def _profile_register(profile: str) -> str | None:
    """A register reading every document with ``profile``, or None when the measured code
    has no profiles (a commit before them: every reader on)."""
    try:
        import claims.profiles  # noqa: F401
    except ImportError:
        return None
    return f"tiers: [dev]\ndefault_profile: {profile}\nsources: {{}}\n"


def _part_lines(part: Counter[str]) -> list[str]:
    n = part["questions"]
    return [
        common.target_line("answered with a gold answer", part["gold"], n, ">= 0.35"),
        common.target_line("answered with another value", part["other"], n, "<= 0.03"),
        common.target_line("not_found", part["not_found"], n, "<= 0.30"),
        common.target_line(
            "conflict citing correct and misinfo sides (misinfo questions)",
            part["conflict_both"],
            part["with_misinfo"],
            ">= 0.50",
        ),
        common.target_line(
            "correct+misinfo document pair: conflicts edge",
            part["pairs_cm_conflict"],
            part["pairs_cm"],
            ">= 0.60",
        ),
        common.target_line(
            "two correct documents, different answers: conflicts edge",
            part["pairs_cc_conflict"],
            part["pairs_cc"],
            "<= 0.03",
        ),
    ]


if __name__ == "__main__":
    main()
