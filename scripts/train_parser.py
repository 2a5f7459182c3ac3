"""Train the shipped tagger + dependency parser from the UD English treebanks (`make model`).

    .venv/bin/python scripts/train_parser.py [--treebank ../shared/data/treebank] [--steps N]

Steps, each deterministic for a given treebank and seed:

1. read every ``*.conllu`` under ``gum/`` and ``ewt/`` and cut it into documents
   (``# newdoc id``; a GUM file is one document);
2. split by document, never by sentence: documents are ordered by sha256 of their id and every
   10th (position % 10 == 0) is held out, position % 10 == 1 is dev (model selection), the rest
   is train. The held-out part is used for nothing but the figures in accuracy.json;
3. convert each part with spaCy's CoNLL-U converter (10 sentences per training doc, so the
   parser learns sentence boundaries) into ``.spacy`` files under the work directory;
4. train ``scripts/model/parser.cfg`` (tok2vec CNN + morphologizer + parser) with a step cap;
5. evaluate the best model on the held-out part, on raw text (spaCy's tokenizer, what callers
   get) and on gold tokens, and ship it: ``nlp.to_disk`` to ``claims/parser/model/pipeline``
   and the figures to ``claims/parser/model/accuracy.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CONFIG = REPO / "scripts" / "model" / "parser.cfg"
MODEL_DIR = REPO / "claims" / "parser" / "model"
TREEBANK_PARTS = ("gum", "ewt")
HELD_OUT, DEV = 0, 1  # position % 10 of a document in sha256 order
SENTS_PER_DOC = 10


@dataclass(frozen=True)
class TreebankDoc:
    """One document of a treebank: its id, which treebank, and its CoNLL-U sentence blocks."""

    doc_id: str
    treebank: str
    sentences: tuple[str, ...]


def fail(message: str) -> None:
    print(f"train_parser: {message}", file=sys.stderr)
    raise SystemExit(2)


def read_documents(treebank_dir: Path) -> list[TreebankDoc]:
    """Every document of every CoNLL-U file, cut at ``# newdoc id`` lines."""
    docs: list[TreebankDoc] = []
    for part in TREEBANK_PARTS:
        files = sorted((treebank_dir / part).glob("*.conllu"))
        if not files:
            fail(
                f"no *.conllu files in {treebank_dir / part}; pass --treebank DIR holding "
                f"{' and '.join(p + '/' for p in TREEBANK_PARTS)} (see docs/MODEL.md)"
            )
        for path in files:
            docs.extend(_documents_of(path, part))
    return docs


def _documents_of(path: Path, treebank: str) -> list[TreebankDoc]:
    docs: list[TreebankDoc] = []
    doc_id = path.stem
    sentences: list[str] = []
    text = path.read_text(encoding="utf-8")
    for number, block in enumerate(text.strip().split("\n\n"), start=1):
        lines = block.strip().split("\n")
        newdoc = next((ln for ln in lines if ln.startswith("# newdoc id")), None)
        if newdoc is not None and sentences:
            docs.append(TreebankDoc(doc_id, treebank, tuple(sentences)))
            sentences = []
        if newdoc is not None:
            doc_id = newdoc.split("=", 1)[1].strip()
        rows = [ln for ln in lines if not ln.startswith("#")]
        if not rows or any(len(ln.split("\t")) != 10 for ln in rows):
            fail(f"{path}: sentence block {number} is not CoNLL-U (10 tab-separated columns)")
        sentences.append(block.strip())
    if sentences:
        docs.append(TreebankDoc(doc_id, treebank, tuple(sentences)))
    return docs


def split_documents(docs: list[TreebankDoc]) -> dict[str, list[TreebankDoc]]:
    """train / dev / heldout by document, from the sha256 order of the document ids."""
    ordered = sorted(docs, key=lambda d: hashlib.sha256(d.doc_id.encode()).hexdigest())
    parts: dict[str, list[TreebankDoc]] = {"train": [], "dev": [], "heldout": []}
    for position, doc in enumerate(ordered):
        slot = position % 10
        parts["heldout" if slot == HELD_OUT else "dev" if slot == DEV else "train"].append(doc)
    return parts


def convert(docs: list[TreebankDoc], target: Path) -> int:
    """Write ``docs`` as a DocBin with spaCy's CoNLL-U converter; returns the sentence count."""
    from spacy.tokens import DocBin
    from spacy.training.converters import conllu_to_docs

    bin_ = DocBin(store_user_data=False)
    for doc in docs:
        conllu = "\n\n".join(doc.sentences) + "\n"
        for spacy_doc in conllu_to_docs(conllu, n_sents=SENTS_PER_DOC, no_print=True):
            bin_.add(spacy_doc)
    target.parent.mkdir(parents=True, exist_ok=True)
    bin_.to_disk(target)
    return sum(len(d.sentences) for d in docs)


def _gold_tokens(nlp, reference, *, sentences: bool = False):
    """The reference's words; with ``sentences`` also its sentence starts, preset as
    claims.parser.syntax presets them (one sentence per parse)."""
    from spacy.tokens import Doc

    words = [t.text for t in reference]
    spaces = [bool(t.whitespace_) for t in reference]
    starts = [bool(t.is_sent_start) for t in reference] if sentences else None
    return Doc(nlp.vocab, words=words, spaces=spaces, sent_starts=starts)


def evaluate(nlp, corpus: Path) -> dict[str, dict[str, float]]:
    """Scores on raw text (spaCy's tokenizer and sentence splits), on gold tokens, and on gold
    tokens with gold sentence starts (how the extractor parses: one known sentence at a time)."""
    from spacy.tokens import DocBin
    from spacy.training import Example

    references = list(DocBin().from_disk(corpus).get_docs(nlp.vocab))
    raw = [Example(nlp.make_doc(ref.text), ref) for ref in references]
    gold = [Example(_gold_tokens(nlp, ref), ref) for ref in references]
    sents = [Example(_gold_tokens(nlp, ref, sentences=True), ref) for ref in references]
    keys = ("token_acc", "pos_acc", "morph_acc", "dep_uas", "dep_las", "sents_f")
    result = {}
    for name, examples in (("raw_text", raw), ("gold_tokens", gold), ("gold_sentences", sents)):
        scores = nlp.evaluate(examples)
        result[name] = {k: round(float(scores[k]), 4) for k in keys if scores.get(k) is not None}
    return result


def _train(work: Path, trained: Path, steps: int, seed: int) -> float:
    """Train parser.cfg on WORK/corpus into WORK/trained; returns the wall-clock seconds."""
    from spacy.cli.train import train

    if trained.exists():
        shutil.rmtree(trained)
    started = time.monotonic()
    # Relative corpus paths keep the work directory out of the shipped config.cfg.
    cwd = Path.cwd()
    os.chdir(work)
    try:
        train(
            CONFIG,
            trained.relative_to(work),
            use_gpu=-1,
            overrides={
                "paths.train": "corpus/train.spacy",
                "paths.dev": "corpus/dev.spacy",
                "training.max_steps": steps,
                "system.seed": seed,
            },
        )
    finally:
        os.chdir(cwd)
    return round(time.monotonic() - started, 1)


def directory_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--treebank",
        type=Path,
        default=REPO.parent / "shared" / "data" / "treebank",
        help="directory with gum/*.conllu and ewt/*.conllu (default ../shared/data/treebank)",
    )
    parser.add_argument("--work", type=Path, default=REPO / ".claims" / "model-build")
    parser.add_argument("--out", type=Path, default=MODEL_DIR)
    parser.add_argument("--steps", type=int, default=1400, help="training step cap")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--ship-only",
        action="store_true",
        help="skip training: evaluate and ship WORK/trained/model-best as it is "
        "(pass the --steps it was trained for, so accuracy.json says how to rebuild it)",
    )
    args = parser.parse_args(argv)
    if not args.treebank.is_dir():
        fail(f"treebank directory {args.treebank} does not exist; pass --treebank DIR")

    import spacy

    docs = read_documents(args.treebank)
    parts = split_documents(docs)
    corpus = args.work / "corpus"
    split_info = {}
    for name, part_docs in parts.items():
        target = corpus / f"{name}.spacy"
        # --ship-only keeps the files the model was trained on (and their timestamps).
        if args.ship_only and target.exists():
            sentences = sum(len(d.sentences) for d in part_docs)
        else:
            sentences = convert(part_docs, target)
        split_info[name] = {
            "documents": len(part_docs),
            "sentences": sentences,
            "by_treebank": {
                tb: sum(1 for d in part_docs if d.treebank == tb) for tb in TREEBANK_PARTS
            },
        }
        print(f"{name}: {len(part_docs)} documents, {sentences} sentences", flush=True)
    (args.work / "split.json").write_text(
        json.dumps({name: sorted(d.doc_id for d in ds) for name, ds in parts.items()}, indent=1)
    )

    trained = args.work / "trained"
    train_seconds = None
    if args.ship_only:
        if not (trained / "model-best").is_dir():
            fail(f"--ship-only: {trained / 'model-best'} does not exist; train first")
    else:
        train_seconds = _train(args.work, trained, args.steps, args.seed)

    nlp = spacy.load(trained / "model-best")
    # Rule lemmas (spacy-lookups-data tables keyed by our UPOS) so "lasts" reads as "last".
    nlp.add_pipe("lemmatizer", config={"mode": "rule"}).initialize()
    nlp.meta.update(
        {
            "name": "claims_parser",
            "version": "1.0.0",
            "description": "Small UD English tagger and dependency parser for claimledger",
            "license": "CC BY-SA 4.0",
            "sources": [
                {"name": "GUM (Zeldes 2017), permissive-text genres", "license": "CC BY 4.0"},
                {"name": "UD English EWT dev+test", "license": "CC BY-SA 4.0"},
            ],
        }
    )
    pipeline_dir = args.out / "pipeline"
    if pipeline_dir.exists():
        shutil.rmtree(pipeline_dir)
    pipeline_dir.parent.mkdir(parents=True, exist_ok=True)
    nlp.to_disk(pipeline_dir)

    shipped = spacy.load(pipeline_dir)
    heldout = evaluate(shipped, corpus / "heldout.spacy")
    by_treebank = {}
    for tb in TREEBANK_PARTS:
        tb_docs = [d for d in parts["heldout"] if d.treebank == tb]
        convert(tb_docs, corpus / f"heldout-{tb}.spacy")
        by_treebank[tb] = evaluate(shipped, corpus / f"heldout-{tb}.spacy")["gold_tokens"]
    dev = evaluate(shipped, corpus / "dev.spacy")["gold_tokens"]
    accuracy = {
        "heldout": heldout,
        "heldout_by_treebank_gold_tokens": by_treebank,
        "dev_gold_tokens": dev,
        "split": {
            "rule": "documents ordered by sha256(doc id); position % 10 == 0 held out, "
            "== 1 dev (model selection), else train",
            **split_info,
        },
        "seed": args.seed,
        "max_steps": args.steps,
        "train_seconds": train_seconds,
        "pipeline": shipped.pipe_names,
        "labels": {"dep": len(shipped.get_pipe("parser").labels)},
        "size_bytes": directory_bytes(pipeline_dir),
        "spacy_version": spacy.__version__,
        "trained_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    (args.out / "accuracy.json").write_text(json.dumps(accuracy, indent=2) + "\n")
    print(json.dumps(accuracy["heldout"], indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
