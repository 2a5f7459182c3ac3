"""The blank pipeline's tokenizer is built with our infixes in one go
(claims/extraction/pipeline.py, make_tokenizer), and splits text exactly as spaCy's
English tokenizer with the infixes set afterwards did (the way it was built before)."""

from __future__ import annotations

import spacy
from spacy.util import compile_infix_regex

from claims.extraction.pipeline import EXTRA_INFIXES, TOKENIZER, build_pipeline

TEXTS = [
    "Don't pay the U.S. invoice before 3 p.m.; it's due on 2024-05-01 (net 30).",
    "The X200's battery lasts ~11 h, i.e. 10–12 hours, at 25°C and 1,200 mAh.",
    "Email ops@example.com or see https://example.com/fees?plan=pro#annual :) ok?",
    "Revenue rose 7% to $4.2bn in FY2024; costs fell by 1.5pp — a 3rd year of gains.",
    "通知は30日前です。通知期間は変更されました！本当？はい、変わりました；確認：済み",
    "الرسوم ١٠٠ دولار؟ نعم، تم التغيير.",
    "57279 1 917.68\n82165, 5, 441.2 | 12 | (830.04) [12] - 44 - 0.5\n\n## Leave\n- 25 days",
    "He said \"we'll ship 1200 pallets\"... and they didn't. Co-op e-mail re-sent @ 9am!",
]


def _spacy_then_infixes():  # type: ignore[no-untyped-def]
    nlp = spacy.blank("en")
    infixes = list(nlp.Defaults.infixes or []) + EXTRA_INFIXES
    nlp.tokenizer.infix_finditer = compile_infix_regex(infixes).finditer
    return nlp


def test_the_tokenizer_built_once_splits_as_the_one_given_infixes_after() -> None:
    ours = build_pipeline(None)
    assert ours.config["nlp"]["tokenizer"]["@tokenizers"] == TOKENIZER
    before = _spacy_then_infixes()
    for text in TEXTS:
        got = [(t.text, t.whitespace_) for t in ours.make_doc(text)]
        assert got == [(t.text, t.whitespace_) for t in before.make_doc(text)], text
    # the extra infixes are in force: a CJK full stop glued to letters is split off
    assert "。" in [t.text for t in ours.make_doc("です。通知")]
