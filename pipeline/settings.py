"""Operator knobs that Dagster needs when it loads the definitions (not per run).

Per-run knobs (database URL, sources directory, extractor) are resource config instead,
so they show in the UI and can be changed in the launchpad. These few decide the shape of
the code location itself: the executor, the reconciliation cron, the sensor interval.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

ExecutorName = Literal["multi_or_in_process", "in_process", "multiprocess", "celery", "k8s"]


class PipelineSettings(BaseSettings):
    """Read from ``CLAIMS_*`` environment variables when the code location loads."""

    model_config = SettingsConfigDict(env_prefix="CLAIMS_", extra="ignore")

    executor: ExecutorName = Field(
        "in_process",
        description="Dagster executor: in_process (default: the pipeline's steps run one "
        "after another, and a process per step costs seconds of imports), multiprocess, "
        "multi_or_in_process (each run's config picks), celery (dagster-celery) or k8s "
        "(dagster-k8s).",
    )
    max_concurrent: int = Field(
        0, description="multiprocess executor: processes per run (0 = one per CPU)."
    )
    celery_broker_url: str = Field(
        "redis://localhost:6379/0",
        description="celery executor: the Redis that runs submit steps to, that the workers "
        "listen on and keep step results in (deploy/celery.yaml gives workers the same URL).",
    )
    reconcile_cron: str = Field(
        "0 2 * * *", description="Cron of the nightly reconciliation schedule."
    )
    reconcile_timezone: str = Field("UTC", description="Time zone of the reconcile cron.")
    sensor_interval_seconds: int = Field(
        30, description="How often the sources sensor looks at the sources directory."
    )
    sensor_running: bool = Field(
        True, description="Start the sources sensor switched on (false: an operator turns it on)."
    )
    schedule_running: bool = Field(
        True, description="Start the nightly reconciliation switched on."
    )
    extract_steps: int = Field(
        0,
        ge=0,
        description="Steps the extraction of one run is split into (each extracts and writes "
        "the versions of the sources that hash to it, then one step records the claims "
        "asset): 0 = 4 with the celery executor, so several workers share one run's "
        "extraction, and 1 with every other executor.",
    )
    batch_size: int = Field(
        1000, description="Most source versions one run processes (bulk loads are batched)."
    )


def extraction_steps(settings: PipelineSettings) -> int:
    """How many steps the ``claims`` asset's extraction is split into (``extract_steps``)."""
    if settings.extract_steps > 0:
        return settings.extract_steps
    return 4 if settings.executor == "celery" else 1


@lru_cache(maxsize=1)
def get_pipeline_settings() -> PipelineSettings:
    """The settings of this process (tests call ``get_pipeline_settings.cache_clear()``)."""
    return PipelineSettings()
