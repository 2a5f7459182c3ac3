"""``claims``: extraction and unit normalisation; each version's claims land whole or not at all."""

import inspect
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import dagster as dg
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
from claims.run_summary import claims_preview, count_table
from claims.store import ClaimRepository, GenerationRepository
from claims.store.bulk_load import indexes_deferred, load_pays
from claims.store.changes import mark_extracted, record_version_changes
from claims.store.claims import CLAIM_COLUMNS, claim_from_row, row_kind
from claims.store.sources import record_profiles, register_dates, register_titles
from pipeline import corpus
from pipeline.assets.ownership import OWNERS
from pipeline.assets.sources import source_versions
from pipeline.collector import with_fewer_collections
from pipeline.partitions import shard_of, source_shards, version_key
from pipeline.resources import ClaimStore, ExtractorResource


@dg.asset(
    partitions_def=source_shards,
    backfill_policy=dg.BackfillPolicy.single_run(),
    deps=[source_versions],
    group_name="claims",
    kinds={"spacy", "pint", "sql"},
    owners=OWNERS,
    description="Atomic claims of the source versions of each shard that the store has not "
    "extracted in the configured generation yet (subject, predicate, value, unit and "
    "canonical value, scope, effective time, evidence span and quote), tagged with the "
    "extractor generation that produced them. A new generation is written beside the active "
    "one and stays invisible to readers until the conflict regression check promotes it.",
)
@with_fewer_collections
def claims(
    context: dg.AssetExecutionContext, store: ClaimStore, extractor: ExtractorResource
) -> dg.MaterializeResult:
    shards = set(context.partition_keys)
    generation, label = extractor.generation()
    extract = extractor.extract_function()
    with store.transaction() as session:
        GenerationRepository(session).ensure(generation, label)
        # What the store has not extracted in this generation, in the run's shards: the
        # store is the record of progress, so a re-run does only what is left.
        pending = [
            version_key(r.source_id, r.sha256)
            for r in compare(session, [], generation).to_extract
            if shard_of(r.source_id) in shards
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
    kinds: Counter[str] = Counter()
    written = _Written()
    preview: list[Claim] = []
    pending_writes: list[_Extracted] = []
    failed: dict[str, str] = {}
    bounded_notes: dict[str, str] = {}  # version key -> what the document bounds left out
    by_shard: dict[str, list[tuple[str, int]]] = {shard: [] for shard in context.partition_keys}
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
                    bounded_notes[result.key] = note
                    context.log.warning(note)
            pending_writes.append(_Extracted(version.id, rows, result.mentions))
            if not bulk and len(pending_writes) >= VERSIONS_PER_TRANSACTION:
                _write(store, pending_writes, written, generation)
            by_shard[shard_of(version.source_id)].append((result.key, len(rows)))
            kinds.update(row_kind(row) for row in rows)
            if len(preview) < 8:
                preview.extend(claim_from_row(row) for row in rows[: 8 - len(preview)])
    except ExtractionPoolBroken as error:  # keep what arrived, then stop the run, clearly
        _write_all(store, pending_writes, written, generation, bulk)
        raise dg.Failure(str(error)) from error
    finally:  # a write that raised stops the workers now, not when the generator is collected
        results.close()
    _write_all(store, pending_writes, written, generation, bulk)
    if bulk:
        context.log.info(f"loaded {len(versions)} versions, the claims indexes built after")
    if failed:  # after the others are written; the store still lacks these, so runs retry
        raise dg.Failure(
            f"extraction failed for {len(failed)} source version(s): "
            + "; ".join(list(failed.values())[:5])
            + (f" and {len(failed) - 5} more" if len(failed) > 5 else "")
        )
    new_claims, candidates = written.claims, written.candidates
    done = sum(len(entries) for entries in by_shard.values())
    context.log.info(f"{sum(kinds.values())} claims from {done} versions ({generation})")
    for shard, entries in by_shard.items():  # what each shard's partition did, for the UI
        context.add_asset_metadata(
            {
                "versions": len(entries),
                "claims": sum(count for _, count in entries),
                # the checks of this run read these to know which versions it wrote
                "version_keys": dg.MetadataValue.json([key for key, _ in entries]),
            },
            partition_key=shard,
        )
    return dg.MaterializeResult(
        metadata={
            # One id per generation, and no status: the regression check promotes the
            # generation after this partition is written, and its result carries the status.
            "generation": generation,
            "versions_in_run": done,
            "claims_in_run": sum(kinds.values()),
            "new_claims": new_claims,
            "bulk_load": bulk,
            "supersession_candidates": candidates,
            "claims_by_kind": dg.MetadataValue.md(count_table(dict(kinds))),
            "preview": dg.MetadataValue.md(claims_preview(preview)),
            # documents whose claims claims.document_bounds bounded (the run summary warns)
            "bounded_documents": dg.MetadataValue.json(bounded_notes),
        }
    )


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
