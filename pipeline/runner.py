"""Run the whole pipeline in-process, the way ``claims run`` does (and the benchmark).

Same plan as the sensor (``planning.plan_runs`` over what the store lacks): runs over
ranges of shards holding versions to store or extract (or bad files to name), the register
on the first and the graph-level assets on the last, so an incremental run is one run.

The caller holds the store's run lock (``claims run`` takes it before calling
``run_pipeline``); the runs are tagged so that their steps do not wait for it again.

Every file is stat'ed first (``claims.source_walk``); when that status and the store's counts
are what the last clean run over the same paths kept (``claims.run_stamp``), nothing is read
or planned and one run refreshes the graph from the change feed (docs/PIPELINE.md,
"Session 19: nothing changed").
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Any

import dagster as dg

from claims import run_stamp
from claims.ingest import stat_path
from claims.planning import VersionRef
from claims.retention import skip_message
from claims.run_stamp import RunStamp
from claims.source_walk import SourceStatus, source_status
from pipeline import corpus
from pipeline.assets import graph_asset_keys
from pipeline.assets.review import MAX_ITEMS_PER_SOURCE
from pipeline.collector import fewer_collections
from pipeline.jobs import CLAIMS_PIPELINE
from pipeline.partitions import SHARDS
from pipeline.planning import (
    RunBatch,
    RunPlan,
    plan_runs,
    store_gap,
    store_progress,
    stored_keys,
    stored_shards,
)
from pipeline.resources import (
    LAUNCHER_HOLDS_LOCK,
    RUN_LOCK_TAG,
    ClaimStore,
    ExtractorResource,
    SourcesResource,
)
from pipeline.sensors import FULL_GRAPH_CONFIG

Progress = Callable[[int, int, str], None]


@dataclass
class RunFailure:
    what: str  # a version key (a document), "graph", "register" or "N versions"
    message: str


@dataclass
class PipelineRun:
    """What one ``run_pipeline`` call did."""

    plan: RunPlan
    runs: int = 0
    versions_processed: int = 0
    failures: list[RunFailure] = field(default_factory=list)
    check_failures: list[str] = field(default_factory=list)
    graph_metadata: dict[str, Any] = field(default_factory=dict)
    step_seconds: dict[str, float] = field(default_factory=dict)  # summed over the runs
    store_gap: str | None = None  # a note: the store lacked versions Dagster remembers
    # documents whose claims claims.document_bounds bounded: one line each, naming the file
    bounded: list[str] = field(default_factory=list)
    files_found: int = 0  # files of a type claims reads, good or bad
    not_read: list[str] = field(default_factory=list)  # files of other types, by path
    # every file's status and the store's counts were as the last clean run left them:
    # nothing was read or planned (claims.run_stamp)
    sources_unchanged: bool = False
    dagster_run: str = ""  # the id of the last Dagster run

    def record(self, result: dg.ExecuteInProcessResult) -> None:
        for event in result.all_events:
            if event.event_type == dg.DagsterEventType.STEP_SUCCESS and event.step_key:
                seconds = event.event_specific_data.duration_ms / 1000  # type: ignore[union-attr]
                self.step_seconds[event.step_key] = (
                    self.step_seconds.get(event.step_key, 0.0) + seconds
                )


def run_pipeline(
    instance: dg.DagsterInstance,
    *,
    store: ClaimStore,
    sources: SourcesResource,
    extractor: ExtractorResource | None = None,
    batch_size: int = 1000,
    progress: Progress | None = None,
    full_graph: bool = False,
    log_level: str = "INFO",
    rescan: bool = False,
) -> PipelineRun:
    """Materialize everything the sources directory needs, in-process, and report.

    ``log_level`` is the level of Dagster's console logger in these runs (``claims run``
    shows its own progress and summary instead, so it passes CRITICAL). ``rescan`` (and
    ``full_graph``) read and hash every file, trusting neither the stamp of the last run nor
    the per-file records.
    """
    from pipeline.definitions import build_definitions

    extractor = extractor or ExtractorResource(extractor="")
    if sources.register_file and not extractor.register_file:
        # the register's profile choices are part of the generation (docs/REGISTER.md)
        extractor = ExtractorResource(
            extractor=extractor.extractor,
            workers=extractor.workers,
            pool_min_versions=extractor.pool_min_versions,
            register_file=sources.register_file,
        )
    store.prepare()
    resources: Mapping[str, Any] = {"store": store, "sources": sources, "extractor": extractor}
    job = build_definitions(resources).resolve_job_def(CLAIMS_PIPELINE)
    all_keys = job.asset_layer.asset_graph.get_all_asset_keys()
    graph_keys = [k for k in graph_asset_keys() if k in all_keys]
    partitioned = [k for k in all_keys if k not in set(graph_keys)]
    register_key = dg.AssetKey("source_register")

    stamping = _Stamping.of(sources, extractor)
    outcome = None if full_graph or rescan else stamping.unchanged(instance, store)
    scan = None
    if outcome is None:
        scan, outcome = _planned(
            instance, store, sources, extractor, batch_size, full_graph or rescan, stamping.scope
        )
    plan = outcome.plan
    total = plan.versions
    notify = progress or (lambda done, of, label: None)

    loggers = {"loggers": {"console": {"config": {"log_level": log_level}}}}
    graph = [k for k in graph_keys if k != register_key]
    graph_names = {k.to_user_string() for k in graph}
    # The register rides on the first run and the graph on the last, so an incremental run
    # is a single Dagster run.
    batches: list[RunBatch | None] = list(plan.batches) or [None]
    notify(0, total, "planned")
    for index, batch in enumerate(batches):
        selection = list(partitioned) if batch is not None else []
        if index == 0 and scan is not None:  # unchanged sources: the register is unchanged
            selection.append(register_key)
        last = index == len(batches) - 1
        if last:
            selection += graph
        with (
            asset_events_in_batches(batch_size),
            _pinned(scan, sources),
            fewer_collections(),  # Dagster's own bookkeeping allocates as much as the assets
        ):
            result = job.execute_in_process(
                run_config={**loggers, **(FULL_GRAPH_CONFIG if full_graph else {})}
                if last and graph
                else loggers,
                instance=instance,
                asset_selection=selection,
                tags={**(batch.tags if batch is not None else {}), **LOCK_HELD},
                raise_on_error=False,
            )
        _record_run(outcome, result, batch, graph_names)
        notify(outcome.versions_processed, total, batch.reason if batch else "graph")
    if scan is not None:
        stamping.keep_if_clean(store, outcome, scan)
    notify(total, total, "graph refreshed")
    return outcome


def _pinned(
    scan: corpus.CorpusScan | None, sources: SourcesResource
) -> AbstractContextManager[None]:
    if scan is None:  # nothing was scanned: the assets have nothing to read
        return nullcontext()
    return corpus.pinned(scan, sources.sources_paths(), sources.register_path())


@dataclass
class _Stamping:
    """The status of every file of a run's paths, and the stamp of the last clean run over
    them (``claims.run_stamp``)."""

    scope: str
    environment: str
    generation: str
    status: SourceStatus | None  # None: a path is missing or a file is no regular file
    # the register's recorded path and, when it changed too recently for its status to vouch
    # for it, its sha256 now (before the scan reads it: a later change is then seen)
    register: dict[str, str]

    @classmethod
    def of(cls, sources: SourcesResource, extractor: ExtractorResource) -> _Stamping:
        paths, register = sources.sources_paths(), sources.register_path()
        generation, _ = extractor.generation()
        status = source_status(paths, [register] if register is not None else [])
        recent_register: dict[str, str] = {}
        if register is not None and status is not None and stat_path(register) in status.racy:
            recent_register[stat_path(register)] = corpus.file_sha256(register)
        return cls(
            scope=run_stamp.scope_of(paths, register, sources.follow_outside_links),
            environment=run_stamp.environment_of(generation, sources.follow_outside_links),
            generation=generation,
            status=status,
            register=recent_register,
        )

    def now(self, session: Any) -> RunStamp | None:
        if self.status is None:
            return None
        return run_stamp.stamp_now(session, self.status, self.environment, self.generation)

    def unchanged(self, instance: dg.DagsterInstance, store: ClaimStore) -> PipelineRun | None:
        """The outcome of a run that has nothing to read or plan, when the stamp holds."""
        if self.status is None:
            return None
        with store.transaction() as session:
            kept = run_stamp.kept(session, self.scope)
            now = self.now(session) if kept is not None else None
        if kept is None or now is None:
            return None
        if not kept.dagster_run or not instance.has_run(kept.dagster_run):
            return None  # Dagster's history lost: the old way reflects the store's shards
        if not kept.holds(now):
            return None
        return PipelineRun(
            plan=RunPlan(),
            files_found=self.status.files,
            not_read=[str(path) for path in self.status.not_read],
            sources_unchanged=True,
        )

    def keep_if_clean(
        self, store: ClaimStore, outcome: PipelineRun, scan: corpus.CorpusScan
    ) -> None:
        """Keep a stamp after a run that read and planned the ordinary way and left the store
        holding every file: nothing failed, no file was bad, skipped or missing."""
        if self.status is None or not outcome.dagster_run or _unclean(outcome, scan):
            return
        checksums = {f.recorded_as: f.sha256 for f in scan.good}
        checksums.update(self.register)
        if any(path not in checksums for path in self.status.racy):
            return
        recent = {path: checksums[path] for path in self.status.racy}
        with store.transaction() as session:
            now = self.now(session)
            if now is not None:
                stamp = RunStamp(
                    now.digest, now.environment, now.counts, recent, outcome.dagster_run
                )
                run_stamp.keep(session, self.scope, stamp)


def _unclean(outcome: PipelineRun, scan: corpus.CorpusScan) -> bool:
    plan = outcome.plan
    return bool(
        outcome.failures
        or outcome.check_failures
        or plan.bad
        or plan.unkeyed
        or scan.bad
        or scan.unkeyed
        or outcome.store_gap
    )


def _planned(
    instance: dg.DagsterInstance,
    store: ClaimStore,
    sources: SourcesResource,
    extractor: ExtractorResource,
    batch_size: int,
    read_all: bool,
    scope: str,
) -> tuple[corpus.CorpusScan, PipelineRun]:
    """The scan of the sources and the run's outcome so far: its plan of batches, the gap
    between the store and Dagster's history, and the files found."""
    # Only files whose status changed since the store recorded it are read; --full and
    # --rescan (read_all) read and hash every file again, and record what they found. The
    # stamp of the last clean run is forgotten: only this run ending clean keeps a new one.
    with store.transaction() as session:
        run_stamp.forget(session, scope)
        records = {} if read_all else corpus.recorded_stats(session)
    scan = corpus.scan(
        sources.sources_paths(),
        sources.register_path(),
        records,
        follow_outside_links=sources.follow_outside_links,
    )
    generation, _ = extractor.generation()
    # What is done is the store's to say; Dagster's history only feeds the note that the
    # store lacks versions it remembers (a deleted or replaced store).
    remembered = remembered_versions(instance)
    with store.transaction() as session:
        corpus.check_register(session, scan)  # the register ingest rejects stops here too
        lacking = store_progress(session, scan, generation)
        known = stored_keys(lacking)
        gap = store_gap(session, [k for keys in remembered.values() for k in keys], scan, known)
        # files read again but unchanged (touched, racy): not read next time
        corpus.record_stats(session, scan, known)
        # Shards holding stored versions that Dagster's history has never seen (it was lost,
        # or predates shards) run too, doing nothing, so the UI's partitions reflect the
        # store. Read only when the history lacks a shard.
        forgotten = set(SHARDS) - set(remembered)
        unseen = stored_shards(session) & forgotten if forgotten else set()
    plan = plan_runs(scan, lacking, batch_size=batch_size, reflect_shards=unseen)
    # files of an erased source: not stored, said so with how to readmit them
    erased = set(lacking.erased)
    plan.unkeyed += [
        skip_message(f.source_id, str(f.path))
        for f in scan.good
        if VersionRef(f.source_id, f.sha256) in erased
    ]
    return scan, PipelineRun(
        plan=plan,
        store_gap=gap.message() if gap else None,
        files_found=len(scan.files) + len(plan.unkeyed),
        not_read=list(scan.not_read),
    )


def _record_run(
    outcome: PipelineRun,
    result: dg.ExecuteInProcessResult,
    batch: RunBatch | None,
    graph_names: set[str],
) -> None:
    """Add one Dagster run's result to ``outcome``: its failures (by graph, register,
    batch or document), failed checks, the bounds its assets said they kept, and the
    graph's metadata."""
    outcome.runs += 1
    outcome.dagster_run = result.run_id
    outcome.record(result)
    if batch is not None:
        outcome.versions_processed += len(batch.versions)  # bad files named included
    for step, message in _failures(result):
        if any(step.startswith(name) for name in graph_names):
            what = "graph"
        elif step.startswith("source_register"):
            what = "register"
        else:
            what = f"{batch.work if batch else 0} versions"
        outcome.failures.append(RunFailure(what, f"{step}: {message}"))
    outcome.check_failures += _failed_checks(result)
    # Documents a check named on their own (a bad file; claims a blocking check took
    # out, which the store no longer counts as extracted, so the next run tries them
    # again): fail exactly these documents, while the rest of the run went on.
    for key, (check, reason) in sorted(_failed_documents(result).items()):
        outcome.failures.append(RunFailure(key, f"{check}: {reason}"))
    for event in result.get_asset_materialization_events():
        materialization = event.materialization
        outcome.bounded += [
            line for line in _bounds_said(materialization) if line not in outcome.bounded
        ]
        if materialization.asset_key == dg.AssetKey("claim_edges"):
            outcome.graph_metadata = {
                key: value.value for key, value in materialization.metadata.items()
            }


def _bounds_said(materialization: dg.AssetMaterialization) -> list[str]:
    """The summary lines of what a step left out by its bounds (issue 31.11): documents whose
    claims ``claims`` bounded, sources whose new review items ``review_queue`` held back.
    The same metadata comes on each shard's event of ``claims``: the caller drops repeats."""
    if materialization.asset_key == dg.AssetKey("claims"):
        entry = materialization.metadata.get("bounded_documents")
        notes = entry.value if entry is not None else None
        if isinstance(notes, dict):
            return [str(notes[key]) for key in sorted(notes)]
    if materialization.asset_key == dg.AssetKey("review_queue"):
        entry = materialization.metadata.get("held_back_by_source")
        held = entry.value if entry is not None else None
        if isinstance(held, dict):
            return [
                f"{source}: {count} conflict sets not opened as review items in this run (at "
                f"most {MAX_ITEMS_PER_SOURCE} new items per source and run); the next run "
                "opens them"
                for source, count in sorted(held.items())
            ]
    return []


LOCK_HELD = {RUN_LOCK_TAG: LAUNCHER_HOLDS_LOCK}

# Dagster writes the materialization of each partition of a step as an event of its own
# unless this is set; then it writes them in batches of this many (one INSERT, one index
# transaction). On PostgreSQL that is most of the bookkeeping per source version. A value
# already in the environment is left as it is (0 turns batching off).
EVENT_BATCH_SIZE = "DAGSTER_EVENT_BATCH_SIZE"


@contextmanager
def asset_events_in_batches(size: int) -> Iterator[None]:
    if os.environ.get(EVENT_BATCH_SIZE) is not None:
        yield
        return
    os.environ[EVENT_BATCH_SIZE] = str(max(1, size))
    try:
        yield
    finally:
        os.environ.pop(EVENT_BATCH_SIZE, None)


def _failures(result: dg.ExecuteInProcessResult) -> list[tuple[str, str]]:
    """(step key, the user's error message) of every failed step."""
    failed = []
    for event in result.all_events:
        if event.is_step_failure and event.step_failure_data is not None and event.step_key:
            error = event.step_failure_data.error
            user = error.cause if error is not None and error.cause is not None else error
            message = user.message.strip() if user else "step failed"
            # Our own errors already say what and where; the class name is noise for a user.
            if user is not None and message.startswith("claims.errors."):
                message = message.partition(": ")[2] or message
            failed.append((event.step_key, message))
    return failed


def _failed_documents(result: dg.ExecuteInProcessResult) -> dict[str, tuple[str, str]]:
    """Version key -> (check name, why), for each document a check failed on its own
    (the check's ``failed_documents`` metadata)."""
    failed: dict[str, tuple[str, str]] = {}
    for event in result.all_events:
        if event.event_type != dg.DagsterEventType.ASSET_CHECK_EVALUATION:
            continue
        evaluation = event.asset_check_evaluation_data
        entry = evaluation.metadata.get("failed_documents")
        if evaluation.passed or entry is None:
            continue
        for key, reason in (entry.value or {}).items():  # type: ignore[union-attr]
            failed.setdefault(str(key), (evaluation.check_name, str(reason)))
    return failed


def remembered_versions(instance: dg.DagsterInstance) -> dict[str, list[str]]:
    """Shard -> the version keys its latest ``source_versions`` materialization listed as
    stored.

    Only for the note that the store lacks what Dagster remembers; nothing is planned from
    it. Partitions of older versions (one per source version) are history and not read."""
    remembered: dict[str, list[str]] = {}
    for shard in SHARDS:
        records = instance.fetch_materializations(
            dg.AssetRecordsFilter(
                asset_key=dg.AssetKey("source_versions"), asset_partitions=[shard]
            ),
            limit=1,
        ).records
        materialization = records[0].asset_materialization if records else None
        entry = materialization.metadata.get("stored_version_keys") if materialization else None
        if entry is not None and isinstance(entry.value, list):
            remembered[shard] = [str(key) for key in entry.value]
    return remembered


def _failed_checks(result: dg.ExecuteInProcessResult) -> list[str]:
    failed = []
    for event in result.all_events:
        if event.event_type != dg.DagsterEventType.ASSET_CHECK_EVALUATION:
            continue
        evaluation = event.asset_check_evaluation_data
        if not evaluation.passed:
            description = evaluation.description or ""
            failed.append(f"{evaluation.check_name}: {description}".rstrip(": "))
    return failed
