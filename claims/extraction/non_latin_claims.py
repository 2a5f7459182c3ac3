"""Claims of sentences in other scripts (CJK, Arabic, Devanagari...): windows around each
value, polarity from the script's own markers (read for ``DocAssembly``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from claims.extraction.claim_shapes import _claim, _copy_time
from claims.extraction.clauses import Clause, _plain_statement
from claims.extraction.frames import Frame
from claims.extraction.keys import fold_text
from claims.extraction.markers import scan_markers
from claims.extraction.roles import _MODALITY, MAX_QUOTE_CHARS
from claims.extraction.value_claims import quantity_claim
from claims.extraction.value_kinds import (
    NO_QUANTITY,
)
from claims.models import (
    Claim,
    Modality,
    Polarity,
    ValueKind,
)
from claims.models import Span as CharSpan
from claims.trusted import trusted

if TYPE_CHECKING:
    from claims.extraction.assembly import DocAssembly


# ------------------------------------------------------------------ other scripts
def non_latin_claims(asm: DocAssembly, whole: Clause, qlo: int, qhi: int) -> list[Claim]:
    """The claims of a sentence of another script (``whole``: the sentence as one clause),
    whose quantities are ``mentions.quantities[qlo:qhi]``."""
    if qlo == qhi:
        claim = non_latin_polarity(asm, whole)
        return [claim] if claim else []
    sent, mentions = whole.sent, whole.mentions
    s0, s1 = sent.start_char, sent.end_char
    if s1 - s0 > MAX_QUOTE_CHARS:
        return non_latin_windows(asm, whole, qlo, qhi)
    text = asm._text
    pieces = list(text[s0:s1])
    cut: list[tuple[int, int]] = [(q.cue_start, q.end) for q in mentions.quantities[qlo:qhi]]
    cut += [(t.start, t.end) for t in mentions.times if s0 <= t.start < s1]
    cut += [(lab.start, lab.end) for lab in mentions.labels if s0 <= lab.start < s1]
    scope: dict[str, str] = {}
    sentence = text[s0:s1]
    # "مدة الإشعار ليست 30 يوما": the negation leaves the key and negates the value
    scan = scan_markers(sentence, asm.res.non_latin_modal)
    for k, ch in enumerate(scan.text):
        if ch == " " and sentence[k] != " ":
            pieces[k] = " "
    for phrase, dim, value in asm.res.non_latin_scope:
        pos = sentence.find(phrase)
        if pos >= 0:
            scope.setdefault(dim, value)
            cut.append((s0 + pos, s0 + pos + len(phrase)))
    for c0, c1 in cut:
        for k in range(max(c0, s0), min(c1, s1)):
            pieces[k - s0] = " "
    key = fold_text("".join(pieces), asm.res.non_latin_trim)
    frame = Frame(scope=scope, subject=key or None, negated=scan.negated)
    frame.modality = _MODALITY.get(scan.modal_id) if scan.modal_id else None
    span = asm._evidence(whole)
    return [
        quantity_claim(asm, whole, q, frame, whole.when, span, False, non_latin_key=key)
        for q in mentions.quantities[qlo:qhi]
    ]


def has_non_latin_marker(asm: DocAssembly, sentence: str) -> bool:
    # a plain statement of another script is a claim too (its negation contradicts it)
    return _plain_statement(sentence) or any(
        marker in sentence for marker, _ in asm.res.non_latin_modal
    )


def non_latin_polarity(asm: DocAssembly, whole: Clause) -> Claim | None:
    """A modal or negated sentence in another script: the markers are removed and the
    rest is the key, so permission and prohibition of one action share a key."""
    sent = whole.sent
    s0, s1 = sent.start_char, sent.end_char
    if s1 - s0 > MAX_QUOTE_CHARS:
        return None
    scan = scan_markers(asm._text[s0:s1], asm.res.non_latin_modal)
    modal_id, negated = scan.modal_id, scan.negated
    if modal_id is None and not negated and not _plain_statement(scan.text):
        return None
    key = fold_text(scan.text, asm.res.non_latin_trim)
    words = key.split(" ")
    for fragment in asm.res.non_latin_trailing:
        if words and words[-1].endswith(fragment) and len(words[-1]) > len(fragment):
            words[-1] = words[-1][: -len(fragment)]
            break
    key = " ".join(words)
    if not key:
        return None
    modality = _MODALITY.get(modal_id) if modal_id else Modality.STATEMENT
    polarity = Polarity.NEGATIVE if negated else Polarity.POSITIVE
    if modality == Modality.PROHIBITION:
        polarity = Polarity.NEGATIVE
    span = asm._evidence(whole)
    kind = ValueKind.POLARITY
    claim_id = asm._claim_id(span.start, span.end, s0, None, kind.value, key)
    return _claim(
        id=claim_id,
        source_version_id=whole.source_version_id,
        source_id=whole.source_id,
        generation=asm.generation,
        subject=None,
        predicate=key,
        claim_key=key,
        coarse_key=key,
        kind=kind,
        value=key,
        **NO_QUANTITY,
        polarity=polarity,
        modality=modality,
        scope={},
        scope_residual=[],
        time=_copy_time(whole.when),
        reported_speech=False,
        span=span,
        quote=asm._text[span.start : span.end],
        confidence=0.5,
        created_at=None,
    )


def non_latin_windows(asm: DocAssembly, whole: Clause, qlo: int, qhi: int) -> list[Claim]:
    """A very long non-Latin sentence: each value keyed by the 40 characters before it."""
    out = []
    text, sent = asm._text, whole.sent
    for q in whole.mentions.quantities[qlo:qhi]:
        w0 = max(sent.start_char, q.cue_start - 40)
        w1 = min(sent.end_char, q.end + 40)
        key = fold_text(text[w0 : q.cue_start], asm.res.non_latin_trim)
        span = trusted(CharSpan, {"start": w0, "end": w1})
        out.append(
            quantity_claim(
                asm,
                whole,
                q,
                Frame(subject=key or None),
                whole.when,
                span,
                False,
                non_latin_key=key,
            )
        )
    return out
