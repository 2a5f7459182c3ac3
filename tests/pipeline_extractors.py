"""Extractor variants plugged into the pipeline through ``ExtractorResource(extractor=...)``.

They wrap the real extractor, each as its own generation, to exercise generation gating
and failure handling with real extraction underneath.
"""

from __future__ import annotations

from claims.extraction import extract as real_extract
from claims.ids import stable_id
from claims.models import Claim


def _restamp(claims: list[Claim], generation: str) -> list[Claim]:
    return [
        claim.model_copy(
            update={"id": stable_id("cl", claim.id, generation), "generation": generation}
        )
        for claim in claims
    ]


def drop_values(text: str, **kwargs: object) -> list[Claim]:
    """A broken generation: every quantity loses its value, so conflicts vanish."""
    claims = _restamp(real_extract(text, **kwargs), "gen_test_drop_values")
    return [
        c.model_copy(
            update={
                "value": None,
                "low": None,
                "high": None,
                "canonical_value": None,
                "canonical_low": None,
                "canonical_high": None,
            }
        )
        for c in claims
    ]


def relabelled(text: str, **kwargs: object) -> list[Claim]:
    """The real extractor under another generation id (a harmless new generation)."""
    return _restamp(real_extract(text, **kwargs), "gen_test_relabelled")


def fail_halfway(text: str, **kwargs: object) -> list[Claim]:
    """Good claims, then one that the store must refuse (its source version does not exist),
    for the version whose text mentions the handbook; the real extractor elsewhere."""
    claims = _restamp(real_extract(text, **kwargs), "gen_test_fail_halfway")
    if "handbook" in text and claims:
        claims.append(
            claims[0].model_copy(
                update={"id": "cl_orphan", "source_version_id": "sv_does_not_exist"}
            )
        )
    return claims


# The pipeline reads a plugged extractor's generation from this attribute.
drop_values.generation = ("gen_test_drop_values", "test: drops values")  # type: ignore[attr-defined]
relabelled.generation = ("gen_test_relabelled", "test: relabelled")  # type: ignore[attr-defined]
fail_halfway.generation = ("gen_test_fail_halfway", "test: fails halfway")  # type: ignore[attr-defined]
