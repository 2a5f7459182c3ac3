"""The shipped tagger + parser: it ships in the package, loads, is small, and its held-out
figures (written by `make model`) meet the floor, so a worse retrained model fails here."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest

from claims.errors import InputError
from claims.parser import syntax

MODEL = files("claims.parser") / "model"
REPO = Path(__file__).resolve().parents[1]

# Floors on the held-out treebank documents (never used for training or model selection).
# "gold_sentences" is how the extractor parses (one known sentence at a time); "raw_text" also
# counts the parser's own sentence splits, so its floor is a little lower.
FLOORS = {
    "gold_sentences": {"pos_acc": 0.92, "dep_uas": 0.80, "dep_las": 0.74},
    "gold_tokens": {"pos_acc": 0.92, "dep_uas": 0.78, "dep_las": 0.73},
    "raw_text": {"pos_acc": 0.92, "dep_uas": 0.78, "dep_las": 0.73},
}
MAX_SIZE_BYTES = 15 * 1024 * 1024


@pytest.fixture(scope="module")
def accuracy() -> dict:
    return json.loads((MODEL / "accuracy.json").read_text(encoding="utf-8"))


def test_pipeline_loads_from_the_package_with_tagger_parser_and_lemmas():
    nlp = syntax.load_parser()
    assert nlp.pipe_names == ["tok2vec", "morphologizer", "parser", "lemmatizer"]
    assert syntax.load_parser() is nlp  # loaded once per process
    doc = syntax.parse_sentences(["Our warehouse ships orders to Canada."])[0]
    assert doc.has_annotation("DEP") and doc.has_annotation("POS")
    assert [t.lemma_ for t in doc][2:4] == ["ship", "order"]


def test_heldout_accuracy_meets_the_floor(accuracy):
    for view, floors in FLOORS.items():
        scores = accuracy["heldout"][view]
        for name, floor in floors.items():
            assert scores[name] >= floor, (view, name, scores)


def test_heldout_part_is_separate_documents_from_both_treebanks(accuracy):
    split = accuracy["split"]
    assert split["heldout"]["sentences"] >= 500
    assert split["train"]["documents"] > 5 * split["heldout"]["documents"]
    assert all(n > 0 for n in split["heldout"]["by_treebank"].values())
    assert accuracy["seed"] == 0 and "sha256" in split["rule"]


def test_shipped_pipeline_is_small_and_has_no_vectors(accuracy):
    pipeline = MODEL / "pipeline"
    size = sum(p.stat().st_size for p in pipeline.rglob("*") if p.is_file())  # type: ignore[attr-defined]
    assert size < MAX_SIZE_BYTES
    assert accuracy["size_bytes"] < MAX_SIZE_BYTES
    assert syntax.load_parser().vocab.vectors.shape[0] == 0


def test_model_carries_its_licence_and_attribution():
    readme = (MODEL / "README.md").read_text(encoding="utf-8")
    assert "CC BY-SA 4.0" in readme and "GUM" in readme and "EWT" in readme
    assert "Attribution-ShareAlike 4.0" in (MODEL / "LICENSE").read_text(encoding="utf-8")
    assert syntax.load_parser().meta["license"] == "CC BY-SA 4.0"


def test_missing_model_is_an_input_error_saying_make_model(tmp_path, monkeypatch):
    monkeypatch.setattr(syntax, "MODEL_PATH", tmp_path / "pipeline")
    syntax.load_parser.cache_clear()
    try:
        with pytest.raises(InputError, match="make model"):
            syntax.load_parser()
    finally:
        syntax.load_parser.cache_clear()


_EXTRACT_BOTH_PROFILES = """
import json, sys
from claims.extraction import extract, parse_question
text = sys.stdin.read()
counts = [len(extract(text, profile=name)) for name in ("office", "reference")]
parse_question("How long is the notice period?")
parser = sorted(m for m in sys.modules if m.startswith("claims.parser"))
print(json.dumps({"counts": counts, "parser": parser}))
"""


def test_extraction_under_either_profile_loads_no_parser():
    # no extraction path runs the parser (docs/MODEL.md, "Rules vs parse"): it lives in
    # claims/parser, and reading a document or a question must not import it
    note = "# Leave\n\nThe notice period is 30 days. Staff get 25 days of annual leave.\n"
    done = subprocess.run(
        [sys.executable, "-c", _EXTRACT_BOTH_PROFILES],
        input=note,
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
        timeout=300,
    )
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert all(count >= 2 for count in seen["counts"])
    assert seen["parser"] == []
