"""Build hand-made ``Claim`` objects from the compact specs in tests/fixtures/edges/*.yaml.

A spec names only what matters for the pair; everything else gets a plain default
(canonical value = value, dimension = unit, quote generated from the key and value).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import yaml

from claims.ids import stable_id
from claims.models import (
    Bound,
    Claim,
    EffectiveTime,
    Modality,
    Polarity,
    Span,
    ValueKind,
)

FIXTURES = Path(__file__).parent / "fixtures" / "edges"


def load_yaml(name: str) -> Any:
    return yaml.safe_load((FIXTURES / name).read_text(encoding="utf-8"))


def _day(value: object) -> date | None:
    if value is None:
        return None
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value))


def claim_from_spec(spec: dict[str, Any], *, default_source: str, generation: str = "g1") -> Claim:
    key = spec["key"]
    source = spec.get("source", default_source)
    version = spec.get("version", f"{source}-v1")
    if "label" in spec:
        kind = ValueKind.CATEGORICAL
    elif "action" in spec or "modality" in spec:
        kind = ValueKind.POLARITY
    else:
        kind = ValueKind.QUANTITY
    value: float | str | None
    if kind is ValueKind.CATEGORICAL:
        value = spec["label"]
    elif kind is ValueKind.POLARITY:
        value = spec.get("action")
    else:
        value = spec.get("value")
    unit = spec.get("unit")
    scale = float(spec.get("scale", 1.0))  # canonical = written * scale
    canonical = spec.get("canonical", value * scale if isinstance(value, int | float) else None)
    low, high = spec.get("low"), spec.get("high")
    time = spec.get("time") or {}
    # the generated sentence writes the bound and "about" as a text would (two pairs that
    # differ there are two sentences, not one sentence with its figure changed)
    wording = " ".join(
        w
        for w in (str(spec.get("bound", "")).replace("_", " "), spec.get("approximate") and "about")
        if w
    )
    quote = (
        spec.get("quote") or f"{key} {wording} {value if value is not None else ''} {unit or ''}"
    )
    claim_id = spec.get("id") or stable_id(
        "c", source, version, quote, key, repr(sorted(spec.items(), key=str))
    )
    return Claim(
        id=claim_id,
        source_version_id=version,
        source_id=source,
        generation=generation,
        subject=key.split("|")[0],
        predicate=spec.get("predicate", key.split("|")[-1]),
        claim_key=key,
        coarse_key=spec.get("coarse", key),
        kind=kind,
        value=value,
        low=low,
        high=high,
        bound=Bound(spec.get("bound", "range" if low is not None else "exact")),
        approximate=bool(spec.get("approximate", False)),
        precision=spec.get("precision"),
        unit=unit,
        canonical_value=canonical,
        canonical_low=spec.get("canonical_low", low * scale if low is not None else None),
        canonical_high=spec.get("canonical_high", high * scale if high is not None else None),
        canonical_unit=spec.get("canonical_unit", unit),
        dimension=spec.get("dimension", unit),
        polarity=(
            Polarity(spec.get("polarity", "positive"))
            if kind is ValueKind.POLARITY or "polarity" in spec
            else None
        ),
        modality=Modality(spec["modality"]) if "modality" in spec else None,
        scope=dict(spec.get("scope", {})),
        scope_residual=list(spec.get("residual", [])),
        time=EffectiveTime(
            start=_day(time.get("start")), end=_day(time.get("end")), text=time.get("text")
        ),
        reported_speech=bool(spec.get("reported", False)),
        span=Span(start=0, end=len(quote)),
        quote=quote,
        confidence=0.9,
    )


def pair_from_spec(case: dict[str, Any]) -> tuple[Claim, Claim]:
    return (
        claim_from_spec(case["left"], default_source="left-doc"),
        claim_from_spec(case["right"], default_source="right-doc"),
    )
