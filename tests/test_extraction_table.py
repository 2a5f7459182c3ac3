"""The sentence table in tests/fixtures/extraction/*.yaml: expected value, unit, canonical
value, scope, time and polarity for every case (issue 3, points 3-8)."""

from __future__ import annotations

import math
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml

from claims.extraction import extract
from claims.models import Claim

TABLE_DIR = Path(__file__).parent / "fixtures" / "extraction"


def _cases() -> list[Any]:
    params = []
    for path in sorted(TABLE_DIR.glob("*.yaml")):
        for number, case in enumerate(yaml.safe_load(path.read_text(encoding="utf-8")), 1):
            params.append(pytest.param(case, id=f"{path.stem}-{number}"))
    return params


def _as_date(value: Any) -> date | None:
    if value is None or isinstance(value, date):
        return value
    return date.fromisoformat(str(value))


def _check(claim: Claim, expected: dict[str, Any], text: str) -> None:
    where = f"{text!r}: {claim.model_dump(exclude={'id', 'generation'})}"
    for name, want in expected.items():
        if name == "key":
            assert claim.claim_key == want, where
        elif name == "residual":
            assert claim.scope_residual == want, where
        elif name == "time":
            if want == "unknown":
                assert not claim.time.is_known, where
            else:
                assert claim.time.start == _as_date(want["start"]), where
                assert claim.time.end == _as_date(want["end"]), where
                assert claim.time.granularity == want["granularity"], where
        elif name in ("value", "low", "high", "canonical_value") and isinstance(want, (int, float)):
            got = getattr(claim, name)
            assert got is not None and math.isclose(got, want, rel_tol=1e-9), where
        else:
            got = getattr(claim, name)
            got = got.value if hasattr(got, "value") and not isinstance(got, (int, float)) else got
            assert got == want, f"{name}: {where}"


@pytest.mark.parametrize("case", _cases())
def test_sentence_table(case: dict[str, Any]) -> None:
    text = case["text"]
    claims = extract(text)
    expected = case["expect"]
    assert len(claims) == len(expected), (
        f"{text!r}: {[c.model_dump(include={'claim_key', 'value', 'unit'}) for c in claims]}"
    )
    for claim, want in zip(claims, expected, strict=True):
        assert text[claim.span.start : claim.span.end] == claim.quote
        # built without validation (claims.trusted.trusted): validating it must change nothing
        assert set(claim.__dict__) == set(Claim.model_fields)
        assert Claim.model_validate(claim.model_dump()) == claim
        _check(claim, want, text)


def test_table_has_at_least_eighty_sentences() -> None:
    assert len(_cases()) >= 80
