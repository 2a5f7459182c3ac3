"""``claims``: extraction and unit normalisation; each version's claims land whole or not at all.

The asset is a graph: ``extract_part_0`` .. ``extract_part_{N-1}`` each extract and write the
run's versions whose source hashes to them (``pipeline.partitions.extraction_part_of``), and
``record_claims`` emits the asset's materializations from what they report. N is
``CLAIMS_EXTRACT_STEPS`` (``pipeline.settings.extraction_steps``): with the celery executor
several workers share one run's extraction (docs/PIPELINE.md, "Session 18: Celery").
"""

import inspect
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import dagster as dg
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from claims.document_bounds import MAX_CLAIMS_PER_LONG_LINE, bound_claims
from claims.edge_refresh import record_supersession_candidates
from claims.extract_pool import (
    ExtractionPoolBroken,
    VersionText,
    extract_versions,
    in_process,
    uses_pool,
)
from claims.models import Claim
from claims.planning import compare
from claims.profiles import DEFAULT_PROFILE
from claims.register import register_as_on_disk
from claims.run_summary import count_table, preview_cells, preview_table
from claims.store import ClaimRepository, GenerationRepository
from claims.store.bulk_load import indexes_deferred, load_pays
from claims.store.changes import mark_extracted, record_version_changes
from claims.store.claims import CLAIM_COLUMNS, claim_from_row, row_kind
from claims.store.sources import record_profiles, register_dates, register_titles
from pipeline import corpus
from pipeline.assets.ownership import OWNERS
from pipeline.collector import with_fewer_collections
from pipeline.partitions import (
    EXTRACTION_PART_OP_PREFIX,
    extraction_part_of,
    is_extraction_part,
    shard_of,
    source_shards,
    version_key,
)
from pipeline.resources import ClaimStore, ExtractorResource

DESCRIPTION = (
    "Atomic claims of the source versions of each shard that the store has not extracted in "
    "the configured generation yet (subject, predicate, value, unit and canonical value, "
    "scope, effective time, evidence span and quote), tagged with the extractor generation "
    "that produced them. A new generation is written beside the active one and stays "
    "invisible to readers until the conflict regression check promotes it. The extraction "
    "runs in CLAIMS_EXTRACT_STEPS steps (each the sources that hash to it, written in its "
    "own transactions); the last step records the asset."
)


def claims_asset(parts: int = 1) -> dg.AssetsDefinition:
    """The ``claims`` asset: ``parts`` extraction steps side by side (an executor that runs
    steps in several processes or on several Celery workers spreads them), then
    ``record_claims``, which emits the one materialization per shard partition."""
    if parts < 1:
        raise ValueError(f"the claims asset needs at least one extraction step, not {parts}")
    extract_ops = [_part_op(part, parts) for part in range(parts)]
    record = _record_op(parts)

    @dg.graph_asset(
        name="claims",
        partitions_def=source_shards,
        backfill_policy=dg.BackfillPolicy.single_run(),
        ins={"source_versions": dg.AssetIn(dagster_type=dg.Nothing)},
        group_name="claims",
        kinds={"spacy", "pint", "sql"},
        owners=OWNERS,
        description=DESCRIPTION,
    )
    def claims_graph(source_versions: Any) -> Any:
        done = {f"part_{part}": op(source_versions) for part, op in enumerate(extract_ops)}
        return record(**done)

    return claims_graph


def _part_op(part: int, parts: int) -> dg.OpDefinition:
    @dg.op(
        name=f"{EXTRACTION_PART_OP_PREFIX}{part}",
        ins={"source_versions": dg.In(dg.Nothing)},
        out=dg.Out(dg.Nothing),
        description=f"Extract and store the claims of the run's versions whose source "
        f"hashes to part {part} of {parts}.",
    )
    @with_fewer_collections
    def extract_part(
        context: dg.OpExecutionContext, store: ClaimStore, extractor: ExtractorResource
    ) -> None:
        report = extract_and_write(context, store, extractor, part, parts)
        context.add_output_metadata(report.metadata())

    return extract_part


RECORD_OP = "record_claims"


def _record_op(parts: int) -> dg.OpDefinition:
    @dg.op(
        name=RECORD_OP,
        ins={f"part_{part}": dg.In(dg.Nothing) for part in range(parts)},
        out=dg.Out(dg.Nothing),
        description="The run's claims asset materialization: what the extraction steps wrote, "
        "per shard partition (the checks read each partition's version keys).",
    )
    def record_claims(context: dg.AssetExecutionContext) -> None:
        report = PartReport.joined(_part_reports(context))
        generation = report.generation
        done = sum(len(entries) for entries in report.by_shard.values())
        claims_in_run = sum(report.kinds.values())
        context.log.info(f"{claims_in_run} claims from {done} versions ({generation})")
        for shard in context.partition_keys:  # what each shard's partition did, for the UI
            entries = report.by_shard.get(shard, [])
            context.add_asset_metadata(
                {
                    "versions": len(entries),
                    "claims": sum(count for _, count in entries),
                    # the checks of this run read these to know which versions it wrote
                    "version_keys": dg.MetadataValue.json([key for key, _ in entries]),
                },
                partition_key=shard,
            )
        context.add_output_metadata(
            {
                # One id per generation, and no status: the regression check promotes the
                # generation after this partition is written, and its result carries it.
                "generation": generation,
                "versions_in_run": done,
                "claims_in_run": claims_in_run,
                "new_claims": report.new_claims,
                "bulk_load": report.bulk,
                "supersession_candidates": report.candidates,
                "extraction_steps": parts,
                "claims_by_kind": dg.MetadataValue.md(count_table(dict(report.kinds))),
                "preview": dg.MetadataValue.md(preview_table(report.preview)),
                # documents whose claims claims.document_bounds bounded (the run summary warns)
                "bounded_documents": dg.MetadataValue.json(report.bounded),
            }
        )

    return record_claims


def _part_reports(context: dg.AssetExecutionContext) -> "list[PartReport]":
    """What the extraction steps reported (each step's output metadata, read from the event
    log: the steps may have run in other processes or on other machines).

    A run re-executed from failure (Dagster's "re-execute") runs only the failed steps and
    those after them: what the other steps wrote is in the runs it re-executes. So the runs
    are read back along the re-execution's ancestry until one whose ``record_claims``
    succeeded (it recorded what came before it): the output of every step that ran in them,
    and what a failed step wrote before it failed (its failure's metadata)."""
    reports: list[PartReport] = []
    run: dg.DagsterRun | None = context.run
    while run is not None:
        recorded = False
        for entry in context.instance.all_logs(run.run_id, of_type=_REPORTING):
            event = entry.dagster_event
            step = str(event.step_key or "") if event else ""
            if event is None:
                continue
            if step.rpartition(".")[2] == RECORD_OP and event.is_step_success:
                recorded = run.run_id != context.run.run_id
            elif is_extraction_part(step) and event.is_successful_output:
                reports.append(_report(event.step_output_data.metadata))
            elif is_extraction_part(step) and event.is_step_failure:
                failure = event.step_failure_data.user_failure_data
                if failure is not None and failure.metadata.get("written") is not None:
                    reports.append(_report(failure.metadata))
        parent = run.parent_run_id
        run = None if recorded or parent is None else context.instance.get_run_by_id(parent)
    return reports


_REPORTING = {
    dg.DagsterEventType.STEP_OUTPUT,
    dg.DagsterEventType.STEP_FAILURE,
    dg.DagsterEventType.STEP_SUCCESS,
}


def _report(metadata: Mapping[str, Any]) -> "PartReport":
    return PartReport.from_metadata({name: value.value for name, value in metadata.items()})


@dataclass
class PartReport:
    """What one extraction step wrote (its output metadata, read back by ``record_claims``)."""

    generation: str
    by_shard: dict[str, list[tuple[str, int]]]  # shard -> (version key, claims) written
    kinds: Counter[str]
    new_claims: int
    candidates: int
    bulk: bool
    bounded: dict[str, str]  # version key -> what the document bounds left out
    preview: list[list[str]]  # preview_cells of its first claims

    def metadata(self) -> dict[str, Any]:
        return {
            "generation": self.generation,
            "versions": sum(len(entries) for entries in self.by_shard.values()),
            "claims": sum(self.kinds.values()),
            "new_claims": self.new_claims,
            "supersession_candidates": self.candidates,
            "bulk_load": self.bulk,
            "written": dg.MetadataValue.json(
                {
                    shard: [list(entry) for entry in entries]
                    for shard, entries in self.by_shard.items()
                }
            ),
            "claims_by_kind": dg.MetadataValue.json(dict(self.kinds)),
            "bounded_documents": dg.MetadataValue.json(self.bounded),
            "preview_cells": dg.MetadataValue.json(self.preview),
        }

    @classmethod
    def from_metadata(cls, values: dict[str, Any]) -> "PartReport":
        written = values.get("written") or {}
        return cls(
            generation=str(values["generation"]),
            by_shard={
                str(shard): [(str(key), int(count)) for key, count in entries]
                for shard, entries in written.items()
            },
            kinds=Counter(
                {str(k): int(v) for k, v in (values.get("claims_by_kind") or {}).items()}
            ),
            new_claims=int(values.get("new_claims", 0)),
            candidates=int(values.get("supersession_candidates", 0)),
            bulk=bool(values.get("bulk_load", False)),
            bounded={str(k): str(v) for k, v in (values.get("bounded_documents") or {}).items()},
            preview=[[str(cell) for cell in row] for row in values.get("preview_cells") or []],
        )

    @classmethod
    def joined(cls, reports: "list[PartReport]") -> "PartReport":
        if not reports:
            raise dg.Failure("no extraction step of this run reported what it wrote")
        joined = cls(reports[0].generation, {}, Counter(), 0, 0, False, {}, [])
        for report in reports:
            for shard, entries in report.by_shard.items():
                joined.by_shard.setdefault(shard, []).extend(entries)
            joined.kinds.update(report.kinds)
            joined.new_claims += report.new_claims
            joined.candidates += report.candidates
            joined.bulk = joined.bulk or report.bulk
            joined.bounded.update(report.bounded)
            joined.preview.extend(report.preview[: PREVIEW_CLAIMS - len(joined.preview)])
        for shard, entries in joined.by_shard.items():  # version order, whichever step
            joined.by_shard[shard] = sorted(set(entries))  # wrote them, each version once
        return joined


PREVIEW_CLAIMS = 8


def extract_and_write(
    context: dg.OpExecutionContext,
    store: ClaimStore,
    extractor: ExtractorResource,
    part: int = 0,
    parts: int = 1,
) -> PartReport:
    """Extract and store the versions of the run's shards that the store has not extracted
    in the configured generation and whose source is in ``part`` of ``parts``; a version's
    claims land whole or not at all. Raises ``dg.Failure`` naming the versions that failed,
    after the others are written."""
    shards = set(context.partition_keys)
    generation, label = extractor.generation()
    extract = extractor.extract_function()
    _ensure_generation(store, generation, label)
    with store.transaction() as session:
        # What the store has not extracted in this generation, in the run's shards and this
        # step's part: the store is the record of progress, so a re-run does only what is
        # left, and what another step of the run wrote meanwhile is never this step's.
        pending = [
            version_key(r.source_id, r.sha256)
            for r in compare(session, [], generation).to_extract
            if shard_of(r.source_id) in shards and extraction_part_of(r.source_id, parts) == part
        ]
        versions = corpus.versions_for_keys(session, pending)
        titles = register_titles(session, {v.source_id for v in versions.values()})
        # the readers each source is read with (the register's profile choices), stored
        # with the source so the edge builder and retrieval take that profile's judges
        profiles = _profiles(extractor, {v.source_id for v in versions.values()})
        record_profiles(session, profiles)
        dates = register_dates(session, {v.source_id for v in versions.values()})
        # a load large against what the store holds builds the claims indexes once, at the
        # end (claims.store.bulk_load); its writes wait for the whole run's extraction
        bulk = load_pays(session, len(versions))
    takes_subject = _takes_document_subject(extract)
    takes_profile = _accepts(extract, "profile")
    takes_generation = _accepts(extract, "generation")
    own_generation = extractor.generation_of_code()
    report = PartReport(generation, {}, Counter(), 0, 0, bulk, {}, [])
    written = _Written()
    pending_writes: list[_Extracted] = []
    failed: dict[str, str] = {}
    # the register title is what "it", "we", "the company" in the text refer to
    todo = [
        VersionText(
            key,
            versions[key].text,
            versions[key].source_id,
            versions[key].id,
            titles.get(versions[key].source_id) if takes_subject else None,
            # only the built-in extractor reads by structure and infers years
            None if extractor.extractor else _structure_media_type(versions[key].media_type),
            None if extractor.extractor else dates.get(versions[key].source_id),
            profiles[versions[key].source_id] if takes_profile else None,
            # the run's generation holds the register's profile choices (docs/REGISTER.md)
            generation if takes_generation and generation != own_generation else None,
        )
        for key in sorted(versions)
    ]
    # The built-in extractor runs on every core (claims.extract_pool), a custom one in this
    # process; either way the results come in version order and this process writes them.
    if extractor.extractor:
        results = in_process(todo, extract)
    else:
        workers, least = extractor.worker_count(), extractor.pool_min_versions or None
        if uses_pool(len(todo), workers, least):
            context.log.info(f"extracting {len(todo)} versions on {workers} worker processes")
        results = extract_versions(
            todo, workers=workers, min_versions=least, notify=context.log.warning
        )
    try:
        for result in results:
            version = versions[result.key]
            if result.error is not None:  # named; none of its claims is written
                failed[result.key] = f"{result.key} ({version.origin_path}): {result.error}"
                continue  # the other versions of the shard go on
            rows = result.rows
            if len(rows) > MAX_CLAIMS_PER_LONG_LINE:  # below that no bound can bite
                bounded = bound_claims(version.text, rows, _span_start, _claim_key)
                note = bounded.note(f"{result.key} ({version.origin_path})")
                if note is not None:
                    rows = bounded.kept  # type: ignore[assignment]
                    report.bounded[result.key] = note
                    context.log.warning(note)
            pending_writes.append(_Extracted(version.id, rows, result.mentions))
            if not bulk and len(pending_writes) >= VERSIONS_PER_TRANSACTION:
                _write(store, pending_writes, written, generation)
            shard = shard_of(version.source_id)
            report.by_shard.setdefault(shard, []).append((result.key, len(rows)))
            report.kinds.update(row_kind(row) for row in rows)
            for row in rows[: PREVIEW_CLAIMS - len(report.preview)]:
                report.preview.append(preview_cells(claim_from_row(row)))
    except ExtractionPoolBroken as error:  # keep what arrived, then stop the run, clearly
        _write_all(store, pending_writes, written, generation, bulk)
        report.new_claims, report.candidates = written.claims, written.candidates
        # what was written: a re-execution's record_claims reads it (``_part_reports``)
        raise dg.Failure(str(error), metadata=report.metadata()) from error
    finally:  # a write that raised stops the workers now, not when the generator is collected
        results.close()
    _write_all(store, pending_writes, written, generation, bulk)
    if bulk:
        context.log.info(f"loaded {len(versions)} versions, the claims indexes built after")
    report.new_claims, report.candidates = written.claims, written.candidates
    if failed:  # after the others are written; the store still lacks these, so runs retry
        raise dg.Failure(
            f"extraction failed for {len(failed)} source version(s): "
            + "; ".join(list(failed.values())[:5])
            + (f" and {len(failed) - 5} more" if len(failed) > 5 else ""),
            # what was written: a re-execution's record_claims reads it (``_part_reports``)
            metadata=report.metadata(),
        )
    return report


claims = claims_asset()


def _ensure_generation(store: ClaimStore, generation: str, label: str) -> None:
    """The generation's row, in a transaction of its own: the run's extraction steps may
    start together, and the one that loses the race to create it finds it made."""
    try:
        with store.transaction() as session:
            GenerationRepository(session).ensure(generation, label)
    except IntegrityError:
        with store.transaction() as session:
            GenerationRepository(session).ensure(generation, label)


_SPAN_START = CLAIM_COLUMNS.index("span_start")
_CLAIM_KEY = CLAIM_COLUMNS.index("claim_key")


def _span_start(row: tuple[Any, ...]) -> int:
    return int(row[_SPAN_START])


def _claim_key(row: tuple[Any, ...]) -> str:
    return str(row[_CLAIM_KEY])


def _profiles(extractor: ExtractorResource, source_ids: set[str]) -> dict[str, str]:
    """Each source's profile by the register (the office profile without one)."""
    if not extractor.register_file:
        return dict.fromkeys(source_ids, DEFAULT_PROFILE)
    register = register_as_on_disk(Path(extractor.register_file).expanduser())
    return {source_id: register.profile_for(source_id) for source_id in source_ids}


def _accepts(extract: Callable[..., list[Claim]], name: str) -> bool:
    """Whether a (possibly custom) extractor takes the keyword ``name`` (``profile``,
    ``generation``)."""
    try:
        parameters = inspect.signature(extract).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == name for p in parameters)


def _structure_media_type(media_type: str) -> str:
    """How the structure reader reads a version: Markdown, Word, HTML and PDF mark their
    headings with "#" (the converters render them so; the PDF converter by font size and
    weight, so a short line in the body font is a paragraph); plain text has title lines."""
    if media_type == "text/plain":
        return "text/plain"
    return "text/markdown"


def _takes_document_subject(extract: Callable[..., list[Claim]]) -> bool:
    """Whether a (possibly custom) extractor accepts ``document_subject``."""
    try:
        parameters = inspect.signature(extract).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(
        p.name == "document_subject" or p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters
    )


# Versions written per transaction. A failure inside one is retried version by version, each
# in its own transaction, so the result is what one transaction per version gives (the
# versions before the bad one complete, the bad one untouched) without a commit per version.
# As many as a run holds by default (PipelineSettings.batch_size): each commit writes every
# page it changed to the WAL, and the claims indexes' random keys change most of their
# pages in any batch, so ten commits of 100 versions wrote them ten times (docs/PIPELINE.md,
# "Session 10"). A killed run redoes at most this many versions' extraction.
VERSIONS_PER_TRANSACTION = 1000


@dataclass
class _Extracted:
    version_id: str
    rows: list[tuple[Any, ...]]  # claims.store.claims.claim_row tuples
    mentions: bool  # "this replaces X": a candidate for a reviewer, never applied


@dataclass
class _Written:
    claims: int = 0
    candidates: int = 0


def _write_version(
    session: Session, item: _Extracted, written: _Written, repository: ClaimRepository
) -> None:
    written.claims += repository.add_rows(item.rows)
    if item.mentions:
        written.candidates += record_supersession_candidates(session, item.version_id)


def _record_progress(session: Session, items: list[_Extracted], generation: str) -> None:
    """In the claims' own transaction: the versions count as extracted (run planning reads
    it) and their claim keys go into the change feed (the edge builder reads it)."""
    mark_extracted(session, {item.version_id: len(item.rows) for item in items}, generation)
    record_version_changes(session, [item.version_id for item in items], generation)


def write_run(store: ClaimStore, extracted: list[_Extracted], generation: str) -> _Written:
    """Write a run's extracted versions as the step does (bench/bench_claim_writes.py)."""
    written = _Written()
    with store.transaction() as session:
        bulk = load_pays(session, len(extracted))
    _write_all(store, list(extracted), written, generation, bulk)
    return written


def _write_all(
    store: ClaimStore, pending: list[_Extracted], written: _Written, generation: str, bulk: bool
) -> None:
    """Store and clear ``pending``: in one load (``bulk``), else in transactions of
    ``VERSIONS_PER_TRANSACTION`` versions."""
    if bulk:
        _load(store, pending, written, generation)
        pending.clear()
        return
    for start in range(0, len(pending), VERSIONS_PER_TRANSACTION):
        _write(store, pending[start : start + VERSIONS_PER_TRANSACTION], written, generation)
    pending.clear()


def _write_batch(
    session: Session,
    repository: ClaimRepository,
    pending: list[_Extracted],
    written: _Written,
    generation: str,
) -> None:
    """Versions' claims, their supersession candidates and progress, in ``session``."""
    repository.prime_versions([item.version_id for item in pending], generation)
    # the versions' rows in one insert, in version order: the rows, rowids and quote ids a
    # write per version gives (quotes.quote_ids), without the per-call costs
    written.claims += repository.add_rows([row for item in pending for row in item.rows])
    for item in pending:
        if item.mentions:
            written.candidates += record_supersession_candidates(session, item.version_id)
    _record_progress(session, pending, generation)


def _load(
    store: ClaimStore, extracted: list[_Extracted], written: _Written, generation: str
) -> None:
    """Write a whole run's versions in one transaction, the claims table's secondary
    indexes built once at its end (claims.store.bulk_load). If anything fails, that
    transaction rolls back whole, indexes included, and the versions go the ordinary way
    (which names the version the store refuses and keeps the ones before it)."""
    attempt = _Written()
    try:
        with store.transaction() as session, indexes_deferred(session):
            repository = ClaimRepository(session)
            for start in range(0, len(extracted), VERSIONS_PER_TRANSACTION):
                batch = extracted[start : start + VERSIONS_PER_TRANSACTION]
                _write_batch(session, repository, batch, attempt, generation)
    except Exception:
        _write_all(store, list(extracted), written, generation, bulk=False)
    else:
        written.claims += attempt.claims
        written.candidates += attempt.candidates


def _write(
    store: ClaimStore, pending: list[_Extracted], written: _Written, generation: str
) -> None:
    """Store and clear ``pending``: one transaction, or one per version after a failure."""
    if not pending:
        return
    attempt = _Written()
    try:
        with store.transaction() as session:
            _write_batch(session, ClaimRepository(session), pending, attempt, generation)
    except Exception:
        for item in pending:  # raises at the version the store refuses; earlier ones stay
            with store.transaction() as session:
                _write_version(session, item, written, ClaimRepository(session))
                _record_progress(session, [item], generation)
    else:
        written.claims += attempt.claims
        written.candidates += attempt.candidates
    pending.clear()
