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
    "source versions named by the run's partition tags (a key or a key range).",
    tags={"claimledger/pipeline": "claims"},
)

