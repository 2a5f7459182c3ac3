"""``claims``: extraction and unit normalisation; each version's claims land whole or not at all."""

import inspect
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import dagster as dg
from sqlalchemy.orm import Session

from claims.edge_refresh import record_supersession_candidates
from claims.extraction import find_supersession_mentions
from claims.models import Claim
from claims.run_summary import claims_preview, count_table
from claims.store import ClaimRepository, GenerationRepository
from claims.store.changes import mark_extracted, record_version_changes
from claims.store.sources import register_titles
from pipeline import corpus
from pipeline.assets.ownership import OWNERS
from pipeline.assets.sources import source_versions
from pipeline.collector import with_fewer_collections
from pipeline.partitions import source_version_partitions
from pipeline.resources import ClaimStore, ExtractorResource


@dg.asset(
    partitions_def=source_version_partitions,
    backfill_policy=dg.BackfillPolicy.single_run(),
    deps=[source_versions],
    group_name="claims",
    kinds={"spacy", "pint", "sql"},
    owners=OWNERS,
    description="Atomic claims of each source version (subject, predicate, value, unit and "
    "canonical value, scope, effective time, evidence span and quote), tagged with the "
    "extractor generation that produced them. A new generation is written beside the active "
    "one and stays invisible to readers until the conflict regression check promotes it.",
)
@with_fewer_collections
def claims(
    context: dg.AssetExecutionContext, store: ClaimStore, extractor: ExtractorResource
) -> dg.MaterializeResult:
    keys = list(context.partition_keys)
    generation, label = extractor.generation()
    extract = extractor.extract_function()
    with store.transaction() as session:
        GenerationRepository(session).ensure(generation, label)
        versions = corpus.versions_for_keys(session, keys)
        titles = register_titles(session, {v.source_id for v in versions.values()})
    takes_subject = _takes_document_subject(extract)
    missing = [key for key in keys if key not in versions]
    if missing:
        raise dg.Failure(
            f"source versions not in the store: {', '.join(missing[:5])}"
            + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
            + "; materialize source_versions for them first"
        )
    kinds: Counter[str] = Counter()
    written = _Written()
    preview: list[Claim] = []
    pending: list[_Extracted] = []
    for key in keys:
        version = versions[key]
        try:
            # the register title is what "it", "we", "the company" in the text refer to
            subject = {"document_subject": titles.get(version.source_id)} if takes_subject else {}
            found = extract(
                version.text, source_id=version.source_id, source_version_id=version.id, **subject
            )
        except Exception as error:  # name the version; none of its claims was written
            _write(store, pending, written, generation)  # the versions before it stay whole
            raise dg.Failure(
                f"extraction failed for source version {key} ({version.origin_path}): {error}"
            ) from error
        mentions = bool(find_supersession_mentions(version.text))
        pending.append(_Extracted(version.id, found, mentions))
        if len(pending) >= VERSIONS_PER_TRANSACTION:
            _write(store, pending, written, generation)
        kinds.update(claim.kind.value for claim in found)
        if len(preview) < 8:
            preview.extend(found[: 8 - len(preview)])
    _write(store, pending, written, generation)
    new_claims, candidates = written.claims, written.candidates
    context.log.info(f"{sum(kinds.values())} claims from {len(keys)} versions ({generation})")
    return dg.MaterializeResult(
        metadata={
            # One id per generation, and no status: the regression check promotes the
            # generation after this partition is written, and its result carries the status.
            "generation": generation,
            "versions": len(keys),
            "claims": sum(kinds.values()),
            "new_claims": new_claims,
            "supersession_candidates": candidates,
            "claims_by_kind": dg.MetadataValue.md(count_table(dict(kinds))),
            "preview": dg.MetadataValue.md(claims_preview(preview)),
        }
    )


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
VERSIONS_PER_TRANSACTION = 100


@dataclass
class _Extracted:
    version_id: str
    claims: list[Claim]
    mentions: bool  # "this replaces X": a candidate for a reviewer, never applied


@dataclass
class _Written:
    claims: int = 0
    candidates: int = 0


def _write_version(
    session: Session, item: _Extracted, written: _Written, repository: ClaimRepository
) -> None:
    written.claims += repository.add_all(item.claims)
    if item.mentions:
        written.candidates += record_supersession_candidates(session, item.version_id)


def _record_progress(session: Session, items: list[_Extracted], generation: str) -> None:
    """In the claims' own transaction: the versions count as extracted (run planning reads
    it) and their claim keys go into the change feed (the edge builder reads it)."""
    mark_extracted(session, {item.version_id: len(item.claims) for item in items}, generation)
    record_version_changes(session, [item.version_id for item in items], generation)


def _write(
    store: ClaimStore, pending: list[_Extracted], written: _Written, generation: str
) -> None:
    """Store and clear ``pending``: one transaction, or one per version after a failure."""
    if not pending:
        return
    attempt = _Written()
    try:
        with store.transaction() as session:
            repository = ClaimRepository(session)
            repository.prime_versions([item.version_id for item in pending], generation)
            for item in pending:
                _write_version(session, item, attempt, repository)
            _record_progress(session, pending, generation)
    except Exception:
        for item in pending:  # raises at the version the store refuses; earlier ones stay
            with store.transaction() as session:
                _write_version(session, item, written, ClaimRepository(session))
                _record_progress(session, [item], generation)
    else:
        written.claims += attempt.claims
        written.candidates += attempt.candidates
    pending.clear()
