"""Rules vs the shipped parse, part by part, on the open dev data (issue 12 point 3).

    python bench/compare_parse_rules.py [DEV_DIR] [--limit N] [--json OUT]

For each part the extractor could take from the parse (claims/parser/syntax.py) instead
of its rules, the same items are decided both ways and scored against the dev data's gold:

- **asserted value** (MeasEval train): which numbers are quantities. Rules: the value spans
  of ``extract``'s quantity claims. Parse: ``number_roles`` of each sentence that carries a
  number (roles ``asserted``/``modifier`` are values; ``date``, ``name``, ``list_marker``,
  ``parenthetical`` are not), and ``asserted`` only. Combined: the rule spans, minus those
  the parse reads as a date, name, list marker or parenthetical. Precision, recall and F1
  against the gold ``Quantity`` spans, one-to-one by largest overlap (the parse gives the
  number without its unit, so exact offsets would be unfair to it).
- **negation** (VitaminC real dev): a pair whose two sides differ in negation is predicted
  REFUTES. Rules: the role reading of the whole sentence (``read_frame(...).negated``) and
  the polarity of the claims ``extract`` returns. Parse: ``predicate(...).negated`` (the
  main clause is in a cue's scope). Combined: the rules say negated and the parse agrees.
  Figures: pairs flagged, their share of REFUTES (precision against the 0.373 base rate of
  REFUTES among REFUTES + SUPPORTS) and the REFUTES found.
- **subject / entity head** (MeasEval train): the gold ``MeasuredEntity`` of each quantity
  is the subject gold. Rules: a word of the key (entity + attribute) of the claim whose
  value overlaps the quantity. Parse: the subject's head noun (or its owner) of the
  sentence. Hit: the word is one of the gold entity's words (case and a plural -s folded,
  4-letter prefix for the lemmatised rule words). Combined: rules, else the parse when the
  rule claim is missing or its key is ``unknown:*``.

Speed: CPU time per sentence of ``extract`` over the MeasEval paragraphs against the parse
of the sentences carrying a number (the gate the extractor would use).
Only sentences with a cue are parsed (a number for values and subjects, a negator word for
negation): the parse cannot find what it has no cue for, so the figures are the same.
"""

from __future__ import annotations

import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dev_eval_common as common  # noqa: E402
import eval_measeval as measeval  # noqa: E402

common.prefer_working_directory()

NOT_VALUE = frozenset({"date", "name", "list_marker", "parenthetical"})
_HAS_NUMBER = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|"
    r"forty|fifty|hundred|thousand|million|billion|dozen)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z0-9]+")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """The extractor's own sentence cuts (tokenizer + claim_sentences), as char offsets."""
    from claims.extraction import get_pipeline

    nlp = get_pipeline(None)
    doc = nlp.get_pipe("claim_sentences")(nlp.make_doc(text))
    out = []
    for sent in doc.sents:
        a, b = sent.start_char, sent.end_char
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b > a:
            out.append((a, b))
    return out


def prf(matched: int, predicted: int, gold: int) -> dict[str, Any]:
    p, r = common.rate(matched, predicted), common.rate(matched, gold)
    return {
        "matched": matched,
        "predicted": predicted,
        "precision": p,
        "recall": r,
        "f1": measeval.f1(p, r),
    }


def fold(word: str) -> str:
    word = word.lower()
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def words_of(text: str) -> set[str]:
    return {fold(w) for w in _WORD.findall(text.lower())}


def word_hit(candidates: list[str], gold: set[str], prefix: bool) -> bool:
    for c in candidates:
        c = fold(c)
        if c in gold or (prefix and len(c) >= 4 and any(g[:4] == c[:4] for g in gold)):
            return True
    return False


def read_entities(tsv: Path) -> list[tuple[int, int, str]]:
    """(quantity start, quantity end, gold entity text) for each linked pair of one set."""
    import csv
    import json

    rows = list(csv.DictReader(tsv.open(encoding="utf-8", newline=""), delimiter="\t"))
    quantities = {(r["annotSet"], r["annotId"]): r for r in rows if r["annotType"] == "Quantity"}
    out = {}
    for r in rows:
        if r["annotType"] != "MeasuredEntity" or not r.get("other"):
            continue
        link = json.loads(r["other"]).get("HasQuantity")
        q = quantities.get((r["annotSet"], link))
        if q is not None:
            out[(int(q["startOffset"]), int(q["endOffset"]))] = r["text"]
    return [(a, b, t) for (a, b), t in sorted(out.items())]


# --------------------------------------------------------------------------- MeasEval parts


def measeval_parts(root: Path, limit: int | None) -> dict[str, Any]:
    from claims.extraction import extract
    from claims.parser import syntax

    docs, _ = measeval.documents(root)
    docs = [d for d in docs if d[0].startswith("train/")][: limit or None]
    syntax.load_parser()
    extract("warm up: the fee is 5 euros.")
    variants = (
        "rules",
        "parse: asserted+modifier",
        "parse: asserted only",
        "rules minus parse non-values",
        "rules minus parse date/name/list",
    )
    counts = {v: [0, 0] for v in variants}  # matched, predicted
    n_gold = 0
    entity: Counter[str] = Counter()
    vetoes: Counter[str] = Counter()  # rule spans the parse drops, by role and gold
    extract_cpu = parse_cpu = 0.0
    n_sents = n_parsed = 0
    for _doc_id, text, tsv in docs:
        gold = measeval.read_gold(tsv) if tsv else []
        n_gold += len(gold)
        started = time.process_time()
        claims = extract(text, source_id="m", source_version_id="m@e")
        extract_cpu += time.process_time() - started
        quantity = [c for c in claims if c.kind.value == "quantity" and c.value_span]
        rules = {(c.value_span.start, c.value_span.end): c for c in quantity if c.value_span}
        spans = sentence_spans(text)
        n_sents += len(spans)
        cued = [(a, b) for a, b in spans if _HAS_NUMBER.search(text[a:b])]
        n_parsed += len(cued)
        started = time.process_time()
        parsed = syntax.parse_sentences([text[a:b] for a, b in cued])
        readings = []  # (start, end, role) in paragraph offsets
        subjects = []  # (sentence start, end, [head words])
        for (a, b), pdoc in zip(cued, parsed, strict=True):
            for r in syntax.number_roles(pdoc):
                readings.append((a + r.number.start, a + r.number.end, r.role))
            subj = syntax.subject(pdoc)
            heads = []
            if subj is not None:
                heads = [subj.head.head] + ([subj.owner.head] if subj.owner else [])
            subjects.append((a, b, heads))
        parse_cpu += time.process_time() - started

        def score(
            name: str, pred: list[tuple[int, int]], text: str = text, gold: list[Any] = gold
        ) -> None:
            preds = [measeval.Predicted(a, b, text[a:b], None) for a, b in sorted(set(pred))]
            counts[name][0] += len(measeval.match_overlap(gold, preds))
            counts[name][1] += len(preds)

        score("rules", list(rules))
        score("parse: asserted+modifier", [(a, b) for a, b, r in readings if r not in NOT_VALUE])
        score("parse: asserted only", [(a, b) for a, b, r in readings if r == "asserted"])
        kept = []
        for a, b in rules:
            roles = {r for s, e, r in readings if s < b and a < e}
            if roles and roles <= NOT_VALUE:
                right = any(g.start < b and a < g.end for g in gold)
                for role in roles:
                    verdict = "a gold quantity (wrong)" if right else "no gold (right)"
                    vetoes[f"{role}: {verdict}"] += 1
                continue  # every number the parse sees in the span is no value
            kept.append((a, b))
        score("rules minus parse non-values", kept)
        # brackets are counted on characters, not read from the parse: the parse's own vetoes
        score(
            "rules minus parse date/name/list",
            [
                (a, b)
                for a, b in rules
                if not (
                    (roles := {r for s, e, r in readings if s < b and a < e})
                    and roles <= NOT_VALUE - {"parenthetical"}
                )
            ],
        )

        for qa, qb, ent_text in read_entities(tsv) if tsv else []:
            gold_words = words_of(ent_text)
            entity["quantities with a gold entity"] += 1
            claim = next((c for (a, b), c in rules.items() if a < qb and qa < b), None)
            rule_words = []
            if claim is not None and not claim.claim_key.startswith("unknown:"):
                rule_words = (claim.entity or "").split() + (claim.attribute or "").split()
            rule_hit = word_hit(rule_words, gold_words, prefix=True)
            sent = next(((a, b, h) for a, b, h in subjects if a <= qa < b), None)
            parse_words = sent[2] if sent else []
            parse_hit = word_hit(parse_words, gold_words, prefix=False)
            entity["rules: a rule claim with a key"] += bool(rule_words)
            entity["rules: hit"] += rule_hit
            entity["parse: a subject"] += bool(parse_words)
            entity["parse: hit"] += parse_hit
            entity["rules, else parse: hit"] += rule_hit or (not rule_words and parse_hit)
            entity["both hit"] += rule_hit and parse_hit
    value = {name: prf(m, p, n_gold) for name, (m, p) in counts.items()}
    return {
        "paragraphs": len(docs),
        "gold_quantities": n_gold,
        "value": value,
        "entity": dict(entity),
        "vetoes": dict(vetoes),
        "speed": {
            "sentences": n_sents,
            "sentences_parsed": n_parsed,
            "extract_cpu_s": round(extract_cpu, 2),
            "parse_cpu_s": round(parse_cpu, 2),
            "extract_ms_per_sentence": round(1000 * extract_cpu / max(n_sents, 1), 3),
            "parse_ms_per_parsed_sentence": round(1000 * parse_cpu / max(n_parsed, 1), 3),
        },
    }


# --------------------------------------------------------------------------- VitaminC negation


def vitaminc_negation(path: Path, limit: int | None) -> dict[str, Any]:
    from claims.extraction import extract, get_pipeline
    from claims.extraction.frames import read_frame
    from claims.extraction.mentions import Mentions
    from claims.extraction.resources import resources
    from claims.extraction.roles import assign_roles
    from claims.models import Modality, Polarity
    from claims.parser import syntax

    rows = [r for r in common.read_jsonl(path, limit) if r["label"] in ("REFUTES", "SUPPORTS")]
    nlp = get_pipeline(None)
    res = resources()
    negators = syntax._words().negators  # the parse's own cue words (data/syntax.yaml)
    texts = sorted({r[side] for r in rows for side in ("claim", "evidence")})

    def rule_roles(text: str) -> bool:
        doc = nlp.make_doc(text)
        for name, component in nlp.pipeline:
            if name != "claim_assembler":
                doc = component(doc)
        mentions = doc._.mentions or Mentions()
        roles = assign_roles(doc, mentions, res, text)
        return read_frame(doc, roles, list(range(len(doc))), res, mentions.times).negated

    def rule_claims(text: str) -> bool:
        return any(
            c.polarity is Polarity.NEGATIVE and c.modality is not Modality.PROHIBITION
            for c in extract(text)
        )

    cued = [
        t
        for t in texts
        if {w.lower() for w in re.findall(r"[\w']+", t)} & negators or "n't" in t.lower()
    ]
    started = time.process_time()
    parsed = dict(zip(cued, syntax.parse_sentences(cued), strict=True))
    parse_neg = {t: syntax.predicate(d).negated for t, d in parsed.items()}
    parse_cpu = time.process_time() - started
    started = time.process_time()
    roles_neg = {t: rule_roles(t) for t in texts}
    rules_cpu = time.process_time() - started
    claims_neg = {t: rule_claims(t) for t in texts}
    deciders = {
        "rules: role reading of the sentence": lambda t: roles_neg[t],
        "rules: polarity of the extracted claims": lambda t: claims_neg[t],
        "parse: main clause negated": lambda t: parse_neg.get(t, False),
        "rules and parse agree it is negated": lambda t: roles_neg[t] and parse_neg.get(t, False),
    }
    refutes = sum(r["label"] == "REFUTES" for r in rows)
    out: dict[str, Any] = {
        "pairs": len(rows),
        "refutes": refutes,
        "base_rate": common.rate(refutes, len(rows)),
        "sentences": len(texts),
        "sentences_parsed": len(cued),
        "parse_cpu_s": round(parse_cpu, 2),
        "rule_roles_cpu_s": round(rules_cpu, 2),
        "deciders": {},
    }
    for name, negated in deciders.items():
        flagged = [r for r in rows if negated(r["claim"]) != negated(r["evidence"])]
        hits = sum(r["label"] == "REFUTES" for r in flagged)
        out["deciders"][name] = {
            "sentences_negated": sum(negated(t) for t in texts),
            "pairs_flagged": len(flagged),
            "refutes_among_flagged": hits,
            "precision": common.rate(hits, len(flagged)),
            "recall": common.rate(hits, refutes),
        }
    return out


# --------------------------------------------------------------------------- report


def main() -> None:
    p = common.parser(__doc__.splitlines()[0], "")
    p.set_defaults(data=common.DEFAULT_DEV_DIR)
    args = p.parse_args()
    common.quiet_warnings()
    root = common.require(args.data)
    code = common.describe_code()
    clock = common.Clock()
    print("== rules vs the shipped parse on the dev data")
    print(f"data: {root}\ncode: {code['code']} at {code['commit']}")
    print(f"date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")

    m = measeval_parts(root / "measeval", args.limit)
    print(
        f"\n-- asserted value: MeasEval train, {m['paragraphs']} paragraphs, "
        f"{m['gold_quantities']} gold quantities (overlap, one-to-one)"
    )
    for name, f in m["value"].items():
        print(
            f"  {name:<32} P {common.shown(f['precision'])}  R {common.shown(f['recall'])}"
            f"  F1 {common.shown(f['f1'])}  ({f['matched']}/{f['predicted']} predicted)"
        )
    print("  rule spans the parse reads as no value, by role:")
    for name, n in sorted(m["vetoes"].items()):
        print(f"    {n:>5}  {name}")
    e = m["entity"]
    total = e.get("quantities with a gold entity", 0)
    print(f"\n-- subject / entity head: MeasEval train, {total} quantities with a gold entity")
    for name in (
        "rules: a rule claim with a key",
        "rules: hit",
        "parse: a subject",
        "parse: hit",
        "rules, else parse: hit",
        "both hit",
    ):
        print(
            f"  {name:<32} {e.get(name, 0):>5}/{total} = "
            f"{common.shown(common.rate(e.get(name, 0), total))}"
        )

    v = vitaminc_negation(root / "vitaminc_real_dev.jsonl", args.limit)
    print(
        f"\n-- negation on one side only -> REFUTES: VitaminC real dev, {v['pairs']} "
        f"REFUTES+SUPPORTS pairs, base rate of REFUTES {common.shown(v['base_rate'])}"
    )
    for name, d in v["deciders"].items():
        print(
            f"  {name:<42} flagged {d['pairs_flagged']:>4}  REFUTES among them "
            f"{common.shown(d['precision'])}  REFUTES found {d['refutes_among_flagged']}"
            f" ({common.shown(d['recall'])})  sentences negated {d['sentences_negated']}"
        )

    s = m["speed"]
    print(
        f"\n-- cost (CPU time, shared machine): extract {s['extract_ms_per_sentence']} ms per "
        f"sentence over {s['sentences']} MeasEval sentences; parse + readers "
        f"{s['parse_ms_per_parsed_sentence']} ms per parsed sentence "
        f"({s['sentences_parsed']} carry a number)"
    )
    if s["extract_cpu_s"]:
        added = 100 * s["parse_cpu_s"] / s["extract_cpu_s"]
        print(f"   parsing the number sentences adds {added:.0f}% to extraction time")
    print(
        f"   VitaminC: {v['sentences_parsed']} of {v['sentences']} sentences carry a negator "
        f"word; parsing them {v['parse_cpu_s']} s CPU, the rule reading of all "
        f"{v['rule_roles_cpu_s']} s"
    )
    print(f"time: {clock.seconds()} s")
    common.write_json(args.json_out, {**code, "measeval": m, "vitaminc_negation": v})


if __name__ == "__main__":
    main()
