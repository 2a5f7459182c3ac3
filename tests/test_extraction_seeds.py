"""Sentences of the CiteNexus pages and the acceptance tutorial extract into comparable claims."""

from __future__ import annotations

from claims.extraction import current_generation, extract, parse_question
from claims.models import Polarity, ValueKind


def only(text: str):
    claims = [c for c in extract(text) if c.kind == ValueKind.QUANTITY]
    assert len(claims) == 1, claims
    return claims[0]


def test_restated_dividend_shares_key_scope_and_unit():
    a = only("The dividend for the period was 12 cents per share.")
    b = only("The dividend for the period was 30 cents per share.")
    assert a.claim_key == b.claim_key == "dividend"
    assert a.scope == b.scope == {}
    assert (a.canonical_value, b.canonical_value) == (0.12, 0.3)
    assert a.canonical_unit == b.canonical_unit == "USD/share"


def test_quarterly_dividends_share_key_but_differ_in_period_scope():
    a = only("The Q1 dividend was 12 cents per share.")
    b = only("The Q2 dividend was 15 cents per share.")
    assert a.claim_key == b.claim_key
    assert a.scope == {"period": "q1"}
    assert b.scope == {"period": "q2"}


def test_output_limits_share_key_with_request_type_scope():
    texts = [
        "The interactive assistant has a 250-token output limit.",
        "Interactive requests have a 250-token output limit.",
        "Batch evaluation requests have a 500-token output limit.",
        "Revision 2: interactive output limit is 500 tokens.",
    ]
    claims = [only(t) for t in texts]
    assert {c.claim_key for c in claims} == {"output limit"}
    assert [c.scope.get("request_type") for c in claims] == [
        "interactive",
        "interactive",
        "batch",
        "interactive",
    ]
    assert [c.value for c in claims] == [250, 250, 500, 500]
    # "Revision 2" is a label, never a quantity
    assert len(extract(texts[3])) == 1


def test_latency_percentiles_are_metric_scope():
    a = only("p50 latency 200 ms")
    b = only("p99 latency 900 ms")
    assert a.claim_key == b.claim_key == "latency"
    assert a.scope["metric"] != b.scope["metric"]
    assert (a.canonical_value, b.canonical_value) == (0.2, 0.9)


def test_first_year_notice_period_is_a_period_scope():
    a = only("The notice period is 30 days.")
    b = only("In the first year, the notice period is 60 days.")
    assert a.claim_key == b.claim_key == "notice period"
    assert a.scope == {}
    assert b.scope == {"period": "year 1"}


def test_full_width_japanese_digits_share_key_with_ascii_digits():
    a = only("通知期間は30日です。")
    b = only("通知期間は６０日です。")
    assert a.claim_key == b.claim_key
    assert (a.value, b.value) == (30, 60)
    assert a.canonical_unit == b.canonical_unit == "s"
    assert b.quote == "通知期間は６０日です。"


def test_tamil_and_arabic_values_carry_day_units():
    ta = only("அறிவிப்பு காலம் 30 நாட்கள் ஆகும்.")
    ta_scoped = only("முதல் ஆண்டில் அறிவிப்பு காலம் 60 நாட்கள் ஆகும்.")
    ar = only("مدة الإشعار هي 30 يوما.")
    assert ta.claim_key == ta_scoped.claim_key
    assert ta_scoped.scope == {"period": "year 1"}
    assert ar.dimension == ta.dimension == "time"


def test_disclosure_obligation_and_prohibition_are_opposite_polarity():
    (pos,) = extract("The supplier shall disclose confidential information.")
    (neg,) = extract("The supplier shall not disclose confidential information.")
    assert pos.kind == neg.kind == ValueKind.POLARITY
    assert pos.claim_key == neg.claim_key
    assert (pos.polarity, neg.polarity) == (Polarity.POSITIVE, Polarity.NEGATIVE)


def test_questions_use_the_claim_key_machinery():
    q = parse_question("What is the interactive assistant's output limit?")
    assert q.claim_key == "output limit"
    assert q.scope == {"request_type": "interactive"}
    q1 = parse_question("What was the Q1 dividend per share?")
    assert q1.claim_key == "dividend"
    assert q1.scope == {"period": "q1"}
    assert parse_question("What was the dividend per share for the period?").claim_key == "dividend"


def test_generation_is_stable_and_labelled():
    gen, label = current_generation()
    assert gen.startswith("gen_")
    assert label.startswith("gen-") and len(label) == 12
    claim = only("The notice period is 30 days.")
    assert claim.generation == gen


def test_claim_ids_are_deterministic_per_source_version():
    a = extract("The notice period is 30 days.", source_version_id="sv_1", source_id="s")
    b = extract("The notice period is 30 days.", source_version_id="sv_1", source_id="s")
    c = extract("The notice period is 30 days.", source_version_id="sv_2", source_id="s")
    assert [x.id for x in a] == [x.id for x in b]
    assert a[0].id != c[0].id
    assert a[0].source_id == "s" and a[0].source_version_id == "sv_1"


def test_tamil_permission_and_prohibition_share_a_key_with_opposite_polarity():
    # CiteNexus lists this pair as a known miss (its negation rule is English-only).
    (may,) = extract("ஊழியர் ரகசியத் தகவலை வெளியிடலாம்.")
    (must_not,) = extract("ஊழியர் ரகசியத் தகவலை வெளியிடக் கூடாது.")
    assert may.claim_key == must_not.claim_key
    assert (may.polarity, must_not.polarity) == (Polarity.POSITIVE, Polarity.NEGATIVE)
