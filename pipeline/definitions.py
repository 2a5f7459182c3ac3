"""The code location: ``pipeline.definitions:defs`` (loaded by workspace.yaml). Assembly only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import dagster as dg

from pipeline.assets import all_assets
from pipeline.checks import ASSET_CHECKS
from pipeline.executors import executor_for
from pipeline.jobs import CLAIMS_PIPELINE, claims_pipeline_job
from pipeline.resources import ClaimStore, ExtractorResource, SourcesResource
from pipeline.schedules import build_reconciliation_schedule
from pipeline.sensors import sources_sensor
from pipeline.settings import get_pipeline_settings


def environment_resources() -> dict[str, Any]:
    """Resources bound to ``CLAIMS_*`` environment variables, read when a run starts."""
    return {
        "store": ClaimStore(database_url=dg.EnvVar("CLAIMS_DATABASE_URL"), migrate=True),
        "extractor": ExtractorResource(
            extractor="", register_file=dg.EnvVar("CLAIMS_REGISTER_FILE")
        ),
        "sources": SourcesResource(
            sources_dir=dg.EnvVar("CLAIMS_SOURCES_DIR"),
            register_file=dg.EnvVar("CLAIMS_REGISTER_FILE"),
        ),
    }


def build_definitions(resources: Mapping[str, Any] | None = None) -> dg.Definitions:
    """The whole code location; ``resources`` replaces the environment-bound ones (tests,
    ``claims run`` with explicit paths)."""
    settings = get_pipeline_settings()
    return dg.Definitions(
        assets=all_assets(),
        asset_checks=ASSET_CHECKS,
        jobs=[claims_pipeline_job],
        sensors=[sources_sensor()],
        schedules=[build_reconciliation_schedule(settings)],
        resources={**environment_resources(), **(resources or {})},
        executor=executor_for(settings),
    )


def resolved_claims_pipeline() -> dg.JobDefinition:
    """The job as the environment defines it now (a module-level function, so it is
    reconstructable in the child processes of the multiprocess executor)."""
    return build_definitions().resolve_job_def(CLAIMS_PIPELINE)


defs = build_definitions()
