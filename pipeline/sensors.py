"""The sources sensor: new or changed files become runs of their shards, in one result."""

import json

import dagster as dg

from claims.errors import ClaimLedgerError
from claims.store.changes import store_identity
from pipeline import corpus
from pipeline.assets import graph_asset_keys, partitioned_asset_keys
from pipeline.jobs import CLAIMS_PIPELINE
from pipeline.partitions import run_shards
from pipeline.planning import plan_runs, store_progress
from pipeline.resources import ClaimStore, ExtractorResource, SourcesResource
from pipeline.settings import get_pipeline_settings

FULL_GRAPH_CONFIG = {
    "ops": {
        name: {"config": {"full": True}}
        for name in ("claim_edges", "review_queue", "conflict_status")
    }
}


def build_sources_sensor(
    interval_seconds: int, batch_size: int, default_running: bool
) -> dg.SensorDefinition:
    @dg.sensor(
        name="source_files_sensor",
        job_name=CLAIMS_PIPELINE,
        minimum_interval_seconds=interval_seconds,
        default_status=(
            dg.DefaultSensorStatus.RUNNING if default_running else dg.DefaultSensorStatus.STOPPED
        ),
        description="Watches CLAIMS_SOURCES_DIR and CLAIMS_REGISTER_FILE. A new or changed file "
        "requests a run of its shard (shards with work are batched into few runs; a bad file "
        "is named by its shard's run); a changed register refreshes the graph; nothing "
        "changed, nothing requested.",
    )
    def source_files_sensor(
        context: dg.SensorEvaluationContext,
        sources: SourcesResource,
        store: ClaimStore,
        extractor: ExtractorResource,
    ) -> dg.SensorResult | dg.SkipReason:
        paths = [p for p in sources.sources_paths() if p.exists()]
        if not paths:
            return dg.SkipReason(f"no sources directory at {sources.sources_dir!r}")
        register_path = sources.register_path()
        with store.transaction() as session:  # files unchanged since stored are not read
            records = corpus.recorded_stats(session)
        try:
            scan = corpus.scan(
                paths, register_path, records, follow_outside_links=sources.follow_outside_links
            )
            with store.transaction() as session:
                corpus.check_register(session, scan)
        except ClaimLedgerError as error:  # a broken register: say so, request nothing
            return dg.SkipReason(f"cannot read the sources: {error}")
        generation, _ = extractor.generation()
        with store.transaction() as session:
            lacking = store_progress(session, scan, generation)
            store_id = store_identity(session)
        plan = plan_runs(
            scan, lacking, batch_size=batch_size, exclude_shards=shards_in_flight(context.instance)
        )

        register_sha = corpus.file_sha256(register_path) if register_path else ""
        previous = json.loads(context.cursor) if context.cursor else {}
        # The graph-level assets only in the last run, so a bulk load of many batches
        # evaluates the graph once, after every batch's claims.
        ordered = plan.batches
        last = len(ordered) - 1
        run_requests = [
            dg.RunRequest(
                # Keyed by the store too: a run that failed is not asked for again on every
                # tick (the nightly schedule retries it), while a new store with the same
                # files is filled again.
                run_key=batch.run_key(store_id, generation),
                tags=batch.tags,
                asset_selection=None if index == last else partitioned_asset_keys(),
            )
            for index, batch in enumerate(ordered)
        ]
        if register_sha != previous.get("register_sha256", "") and not plan.batches:
            run_requests.append(
                dg.RunRequest(
                    run_key=f"register-{store_id[:8]}-{register_sha[:20]}",
                    asset_selection=graph_asset_keys(),
                    # not a full refresh: applying the register records the keys of the
                    # sources whose entries changed in the store's change feed
                    tags={"claimledger/reason": "register"},
                )
            )
        for line in plan.unkeyed:
            context.log.warning(f"skipped {line}")
        if not run_requests:
            return dg.SkipReason("no new or changed source versions")
        return dg.SensorResult(
            run_requests=run_requests, cursor=json.dumps({"register_sha256": register_sha})
        )

    return source_files_sensor


def shards_in_flight(instance: dg.DagsterInstance) -> set[str]:
    """Shards a queued or running pipeline run covers: the store does not hold their results
    yet, and that run does what they lack when it gets there (its assets read the store
    then), so asking for them again would do the work twice."""
    runs = instance.get_runs(
        filters=dg.RunsFilter(
            job_name=CLAIMS_PIPELINE,
            statuses=[
                dg.DagsterRunStatus.QUEUED,
                dg.DagsterRunStatus.NOT_STARTED,
                dg.DagsterRunStatus.STARTING,
                dg.DagsterRunStatus.STARTED,
            ],
        ),
    )
    shards: set[str] = set()
    for run in runs:
        shards.update(run_shards(dict(run.tags)) or [])
    return shards


def sources_sensor() -> dg.SensorDefinition:
    settings = get_pipeline_settings()
    return build_sources_sensor(
        settings.sensor_interval_seconds, settings.batch_size, settings.sensor_running
    )
