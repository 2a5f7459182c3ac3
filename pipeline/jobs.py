"""The one job of the pipeline: every asset, for the source versions a run's tags name.

Imports nothing of the pipeline, so the definitions, the runner, the sensor and the schedule
can all import it (the reconstructable job lives in ``pipeline.definitions``)."""

from __future__ import annotations

import dagster as dg

CLAIMS_PIPELINE = "claims_pipeline"

claims_pipeline_job = dg.define_asset_job(
    CLAIMS_PIPELINE,
    selection=dg.AssetSelection.all(),
    description="source_register -> source_versions -> claims -> claim_edges -> ... for the "
    "shards of the source set named by the run's partition tags (a shard or a range of shards); "
    "each shard's run does what the store lacks in it.",
    tags={"claimledger/pipeline": "claims"},
)
