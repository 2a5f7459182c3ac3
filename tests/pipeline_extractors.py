"""Extractor variants plugged into the pipeline through ``ExtractorResource(extractor=...)``.

They wrap the real extractor, each as its own generation, to exercise generation gating
and failure handling with real extraction underneath.
"""

from __future__ import annotations

import os
from pathlib import Path

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


# Where ``counted`` and ``counted_again`` note each text they are given, by source id.
EXTRACT_LOG = "CLAIMS_TEST_EXTRACT_LOG"
# While the file this names exists, ``fails_while_flagged`` cannot read a text naming "flaky".
FAIL_FLAG = "CLAIMS_TEST_FAIL_FLAG"


def _noted(generation: str, text: str, kwargs: dict[str, object]) -> list[Claim]:
    with Path(os.environ[EXTRACT_LOG]).open("a", encoding="utf-8") as log:
        log.write(f"{kwargs.get('source_id')}\n")
    return _restamp(real_extract(text, **kwargs), generation)  # type: ignore[arg-type]


def counted(text: str, **kwargs: object) -> list[Claim]:
    """The real extractor, noting the source id of each text in the log ``EXTRACT_LOG``."""
    return _noted("gen_test_counted", text, kwargs)


def counted_again(text: str, **kwargs: object) -> list[Claim]:
    """``counted`` under another generation id."""
    return _noted("gen_test_counted_again", text, kwargs)


def fails_while_flagged(text: str, **kwargs: object) -> list[Claim]:
    """The real extractor, but a text naming "flaky" fails while the ``FAIL_FLAG`` file is
    there (a document that cannot be read until something outside is fixed)."""
    flag = os.environ.get(FAIL_FLAG)
    if flag and "flaky" in text and Path(flag).exists():
        raise RuntimeError("the flaky document cannot be read until its flag is gone")
    return _restamp(real_extract(text, **kwargs), "gen_test_flaky")  # type: ignore[arg-type]


# The pipeline reads a plugged extractor's generation from this attribute.
drop_values.generation = ("gen_test_drop_values", "test: drops values")  # type: ignore[attr-defined]
relabelled.generation = ("gen_test_relabelled", "test: relabelled")  # type: ignore[attr-defined]
fail_halfway.generation = ("gen_test_fail_halfway", "test: fails halfway")  # type: ignore[attr-defined]
counted.generation = ("gen_test_counted", "test: counted")  # type: ignore[attr-defined]
counted_again.generation = ("gen_test_counted_again", "test: counted again")  # type: ignore[attr-defined]
fails_while_flagged.generation = ("gen_test_flaky", "test: fails while flagged")  # type: ignore[attr-defined]
