"""Parser speed and memory: the shipped tagger + parser (claims/parser/syntax.py) on
generated claim sentences, beside spaCy's blank English tokenizer alone in the same run, and
the resident memory the loaded parser adds to the process.

    .venv/bin/python bench/bench_parser.py [--sentences 2000] [--repeat 3]

Times are CPU time of this process (best of --repeat runs), since the machine is shared and
wall time would mostly measure the neighbours. Figures go in docs/MODEL.md.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import spacy  # noqa: E402

from claims.parser import syntax  # noqa: E402

SUBJECTS = [
    "The P-9 router's battery",
    "The notice period for senior staff",
    "Our annual licence fee",
    "The median response time of the search service",
    "Contractors in the northern region",
    "The warehouse in Leeds",
    "Revenue from the consulting unit",
    "The hotel's late checkout",
]
PREDICATES = [
    "lasts {n} hours",
    "is {n} days",
    "is not transferable to another customer",
    "climbed {n}% in May",
    "fell from {n}% to {m}% last year",
    "are paid within {n} days of the invoice date",
    "costs more than {n} euros per month",
    "includes breakfast, parking and a late checkout",
    "was never longer than {n} minutes",
]


def sentences(count: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        pred = rng.choice(PREDICATES).format(n=rng.randint(2, 90), m=rng.randint(2, 90))
        out.append(f"{rng.choice(SUBJECTS)} {pred}.")
    return out


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def best_cpu(run, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        run()
        best = min(best, time.process_time() - started)
    return best


def reader_agreement(corpus: Path) -> None:
    """How often each reader says the same on the parser's parse as on the treebank's gold
    parse of the same held-out sentence (gold tokens, one sentence per parse)."""
    from spacy.tokens import Doc, DocBin

    nlp = syntax.load_parser()
    gold_sents = []
    for ref in DocBin().from_disk(corpus).get_docs(nlp.vocab):
        gold_sents.extend(sent.as_doc() for sent in ref.sents)
    predicted = list(
        nlp.pipe(
            Doc(
                nlp.vocab,
                words=[t.text for t in g],
                spaces=[bool(t.whitespace_) for t in g],
                sent_starts=[t.i == 0 for t in g],
            )
            for g in gold_sents
        )
    )
    readers = {
        "subject head": lambda d: (s := syntax.subject(d)) and s.head.head_index,
        "predicate": lambda d: syntax.predicate(d).word.head_index,
        "predicate negated": lambda d: syntax.predicate(d).negated,
        "asserted value": lambda d: (v := syntax.asserted_value(d)) and v.number.head_index,
        "number roles": lambda d: [(r.number.head_index, r.role) for r in syntax.number_roles(d)],
        "coordinations": lambda d: [
            [i.head_index for i in c.items] for c in syntax.coordinations(d)
        ],
    }
    print(f"reader agreement with the gold parse, {len(gold_sents)} held-out sentences:")
    for name, read in readers.items():
        same = sum(read(p) == read(g) for p, g in zip(predicted, gold_sents, strict=True))
        print(f"  {name:<18} {same / len(gold_sents):.3f}")
    # Most sentences carry no negation; the share found where the gold parse has one says more.
    negated = [(p, g) for p, g in zip(predicted, gold_sents, strict=True) if syntax.negations(g)]
    found = sum(syntax.predicate(p).negated == syntax.predicate(g).negated for p, g in negated)
    print(f"  {'negated, gold has a cue':<18} {found / max(len(negated), 1):.3f} of {len(negated)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sentences", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--heldout",
        type=Path,
        help="also compare the readers on the parser's and the gold parse of these treebank "
        "sentences (.claims/model-build/corpus/heldout.spacy after `make model`)",
    )
    args = parser.parse_args()
    if args.heldout is not None:
        reader_agreement(args.heldout)
    texts = sentences(args.sentences)

    blank = spacy.blank("en")
    tokens = sum(len(blank.make_doc(t)) for t in texts)
    before = rss_mb()
    syntax.load_parser()
    loaded = rss_mb()

    blank_cpu = best_cpu(lambda: [blank.make_doc(t) for t in texts], args.repeat)
    parse_cpu = best_cpu(lambda: syntax.parse_sentences(texts), args.repeat)
    docs = syntax.parse_sentences(texts)

    def read_all() -> None:
        for doc in docs:
            syntax.subject(doc)
            syntax.predicate(doc)
            syntax.number_roles(doc)
            syntax.negations(doc)
            syntax.coordinations(doc)
            syntax.comparisons(doc)
            syntax.changes(doc)

    readers_cpu = best_cpu(read_all, args.repeat)
    after = rss_mb()
    print(f"sentences {len(texts)}, tokens {tokens}")
    print(f"blank tokenizer : {tokens / blank_cpu:>10,.0f} tokens/s")
    print(
        f"parser          : {len(texts) / parse_cpu:>10,.0f} sentences/s  "
        f"{tokens / parse_cpu:>10,.0f} tokens/s  "
        f"({100 * blank_cpu / parse_cpu:.2f}% of the tokenizer)"
    )
    print(f"all readers     : {len(texts) / readers_cpu:>10,.0f} sentences/s")
    print(
        f"resident memory : {before:.0f} MB before loading, {loaded:.0f} MB loaded "
        f"(+{loaded - before:.0f} MB), {after:.0f} MB after parsing"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
