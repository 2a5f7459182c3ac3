"""``claims``: extraction and unit normalisation, one transaction per source version."""

from collections import Counter

import dagster as dg

from claims.edges.recompute import record_supersession_candidates
from claims.extraction import find_supersession_mentions
from claims.models import Claim
from claims.store import ClaimRepository, GenerationRepository
from pipeline import corpus
from pipeline.assets.ownership import OWNERS
from pipeline.assets.sources import source_versions
from pipeline.partitions import source_version_partitions
from pipeline.resources import ClaimStore, ExtractorResource
from pipeline.summary import claims_preview, count_table


@dg.asset(
    partitions_def=source_version_partitions,
    backfill_policy=dg.BackfillPolicy.single_run(),
    deps=[source_versions],
    group_name="claims",
    kinds={"spacy", "pint", "sql"},
    owners=OWNERS,
    description="Atomic claims of each source version (subject, predicate, value, unit and "
    "canonical value, scope, effective time, evidence span and quote), tagged with the "
    "extractor generation that produced them. A new generation is written beside the active "
    "one and stays invisible to readers until the conflict regression check promotes it.",
)
def claims(
    context: dg.AssetExecutionContext, store: ClaimStore, extractor: ExtractorResource
) -> dg.MaterializeResult:
    keys = list(context.partition_keys)
    generation, label = extractor.generation()
    extract = extractor.extract_function()
    with store.transaction() as session:
        status = GenerationRepository(session).ensure(generation, label).status
        versions = corpus.versions_for_keys(session, keys)
    missing = [key for key in keys if key not in versions]
    if missing:
        raise dg.Failure(
            f"source versions not in the store: {', '.join(missing[:5])}"
            + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
            + "; materialize source_versions for them first"
        )
    kinds: Counter[str] = Counter()
    new_claims = 0
    candidates = 0
    preview: list[Claim] = []
    for key in keys:
        version = versions[key]
        try:
            found = extract(version.text, source_id=version.source_id, source_version_id=version.id)
        except Exception as error:  # name the version; the partition's transaction never began
            raise dg.Failure(
                f"extraction failed for source version {key} ({version.origin_path}): {error}"
            ) from error
        mentions = find_supersession_mentions(version.text)
        # One transaction per version: a failure later in the batch leaves this one whole.
        with store.transaction() as session:
            new_claims += ClaimRepository(session).add_all(found)
            if mentions:  # "this replaces X": a candidate for a reviewer, never applied
                candidates += record_supersession_candidates(session, version.id)
        kinds.update(claim.kind.value for claim in found)
        if len(preview) < 8:
            preview.extend(found[: 8 - len(preview)])
    context.log.info(f"{sum(kinds.values())} claims from {len(keys)} versions ({generation})")
    return dg.MaterializeResult(
        metadata={
            "generation": generation,
            "generation_label": label,
            "generation_status": status.value,
            "versions": len(keys),
            "claims": sum(kinds.values()),
            "new_claims": new_claims,
            "supersession_candidates": candidates,
            "claims_by_kind": dg.MetadataValue.md(count_table(dict(kinds))),
            "preview": dg.MetadataValue.md(claims_preview(preview)),
        }
    )
