"""The one job of the pipeline: every asset, for the source versions a run's tags name."""

from __future__ import annotations

import dagster as dg

CLAIMS_PIPELINE = "claims_pipeline"

claims_pipeline_job = dg.define_asset_job(
    CLAIMS_PIPELINE,
    selection=dg.AssetSelection.all(),
    description="source_register -> source_versions -> claims -> claim_edges -> ... for the "
    "source versions named by the run's partition tags (a key or a key range).",
    tags={"claimledger/pipeline": "claims"},
)


def resolved_claims_pipeline() -> dg.JobDefinition:
    """The job as the environment defines it now (a module-level function, so it is
    reconstructable in the child processes of the multiprocess executor)."""
    from pipeline.definitions import build_definitions

    return build_definitions().resolve_job_def(CLAIMS_PIPELINE)
