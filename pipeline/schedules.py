"""Nightly reconciliation: pick up what the sensor missed and refresh the graph in full."""

import dagster as dg

from claims.errors import ClaimLedgerError
from pipeline import corpus
from pipeline.assets import graph_asset_keys
from pipeline.jobs import CLAIMS_PIPELINE
from pipeline.planning import plan_runs, store_progress
from pipeline.resources import ClaimStore, ExtractorResource, SourcesResource
from pipeline.sensors import FULL_GRAPH_CONFIG, shards_in_flight
from pipeline.settings import PipelineSettings


def build_reconciliation_schedule(settings: PipelineSettings) -> dg.ScheduleDefinition:
    @dg.schedule(
        name="nightly_reconciliation",
        job_name=CLAIMS_PIPELINE,
        cron_schedule=settings.reconcile_cron,
        execution_timezone=settings.reconcile_timezone,
        default_status=(
            dg.DefaultScheduleStatus.RUNNING
            if settings.schedule_running
            else dg.DefaultScheduleStatus.STOPPED
        ),
        description="Runs the shards holding files the sensor missed or versions whose claims "
        "are missing (failed runs, a candidate generation), and re-materializes the "
        "graph-level assets in full. Cron: CLAIMS_RECONCILE_CRON.",
    )
    def nightly_reconciliation(
        context: dg.ScheduleEvaluationContext,
        sources: SourcesResource,
        store: ClaimStore,
        extractor: ExtractorResource,
    ) -> list[dg.RunRequest]:
        stamp = context.scheduled_execution_time.isoformat()
        generation, _ = extractor.generation()
        instance = context.instance
        paths = [p for p in sources.sources_paths() if p.exists()]
        requests: list[dg.RunRequest] = []
        with store.transaction() as session:  # files unchanged since stored are not read
            records = corpus.recorded_stats(session)
        try:
            scan = (
                corpus.scan(
                    paths,
                    sources.register_path(),
                    records,
                    follow_outside_links=sources.follow_outside_links,
                )
                if paths
                else None
            )
        except ClaimLedgerError as error:
            context.log.error(f"cannot read the sources: {error}")
            scan = None
        if scan is not None:
            # What the store lacks, failed runs and quarantined documents included (the store
            # does not count them as done), but not what a queued or running run covers.
            with store.transaction() as session:
                lacking = store_progress(session, scan, generation)
            plan = plan_runs(
                scan,
                lacking,
                batch_size=settings.batch_size,
                exclude_shards=shards_in_flight(instance),
            )
            requests += [
                dg.RunRequest(run_key=f"{batch.run_key(generation)}-{stamp}", tags=batch.tags)
                for batch in plan.batches
            ]
        requests.append(
            dg.RunRequest(
                run_key=f"reconcile-graph-{stamp}",
                asset_selection=graph_asset_keys(),
                run_config=FULL_GRAPH_CONFIG,
                tags={"claimledger/reason": "reconcile"},
            )
        )
        return requests

    return nightly_reconciliation
