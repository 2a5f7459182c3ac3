"""Asset checks. The blocking ones guard data: a failure stops downstream assets in the run.

``conflict_regression`` is also the gate of extractor generations: a candidate generation
that passes is promoted (readers switch to it), one that fails is marked failed (readers
never see it) and the check fails the run with the cases it got wrong.
"""

from collections.abc import Callable, Sequence
from typing import Any

import dagster as dg
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from claims import integrity
from claims.models import GenerationStatus
from claims.regression_gate import (
    FINGERPRINT,
    CaseOutcome,
    RegressionReport,
    load_cases,
    regression_fingerprint,
    run_regression,
)
from claims.store import GenerationRepository
from pipeline import corpus, graph
from pipeline.assets.claims import claims
from pipeline.assets.edges import claim_edges
from pipeline.assets.sources import source_versions
from pipeline.resources import ClaimStore, ExtractorResource

ERROR = dg.AssetCheckSeverity.ERROR


def _problems_md(problems: list[integrity.Problem]) -> str:
    lines = ["| where | problem |", "|---|---|"]
    lines += [f"| {p.where} | {p.what} |" for p in problems[:20]]
    return "\n".join(lines)


def _run_metadata(
    context: dg.AssetCheckExecutionContext, asset_key: dg.AssetKey, name: str
) -> list[Any]:
    """The ``name`` metadata values of this run's materializations of ``asset_key`` (one per
    shard partition), for the checks that look at the run's work, not at whole shards."""
    values = []
    for entry in context.instance.all_logs(
        context.run.run_id, of_type=dg.DagsterEventType.ASSET_MATERIALIZATION
    ):
        materialization = entry.asset_materialization
        if materialization is not None and materialization.asset_key == asset_key:
            value = materialization.metadata.get(name)
            if value is not None:
                values.append(value.value)
    return values


def _run_version_ids(context: dg.AssetCheckExecutionContext, store: ClaimStore) -> list[str]:
    """The versions this run's ``claims`` step wrote (its per-shard ``version_keys``)."""
    keys = [
        str(key)
        for value in _run_metadata(context, claims.key, "version_keys")
        for key in value or []
    ]
    if not keys:
        return []
    with store.transaction() as session:
        return [v.id for v in corpus.versions_for_keys(session, keys).values()]


@dg.asset_check(
    asset=source_versions,
    blocking=False,  # the other files of the shard were stored and go on
    description="Every file of the run's shards could be read (UTF-8 text, not empty, not too "
    "large, one file per source id). Each bad file is named with the ingest error; the other "
    "files of its shard are stored and go on.",
)
def source_files_readable(context: dg.AssetCheckExecutionContext) -> dg.AssetCheckResult:
    bad: dict[str, str] = {}
    for value in _run_metadata(context, source_versions.key, "bad_file_errors"):
        bad.update({str(key): str(error) for key, error in (value or {}).items()})
    return dg.AssetCheckResult(
        passed=not bad,
        severity=ERROR,
        description=f"{len(bad)} file(s) could not be stored: " + "; ".join(bad.values())
        if bad
        else None,
        # the runner reports each as a failed document (``claims run`` exits 2)
        metadata={"failed_documents": dg.MetadataValue.json(bad), "bad_files": len(bad)},
    )


@dg.asset_check(
    asset=claims,
    blocking=True,
    description="Every claim's quote equals its source version's text at its span, and every "
    "version's text still matches its sha256 (the versions of this run).",
)
def quotes_match_source_text(
    context: dg.AssetCheckExecutionContext, store: ClaimStore, extractor: ExtractorResource
) -> dg.AssetCheckResult:
    return _integrity_result(context, store, extractor, integrity.quote_problems, "claims_checked")


@dg.asset_check(
    asset=claims,
    blocking=True,
    description="Every quantity claim with a unit as written has a canonical unit.",
)
def quantities_have_canonical_units(
    context: dg.AssetCheckExecutionContext, store: ClaimStore, extractor: ExtractorResource
) -> dg.AssetCheckResult:
    return _integrity_result(
        context, store, extractor, integrity.unit_problems, "claims_with_units"
    )


@dg.asset_check(
    asset=claim_edges,
    blocking=True,
    description="No live edge points to a claim that does not exist (after an incremental "
    "evaluation: the edges of the claim keys it touched; after a full one: every edge).",
)
def edges_point_to_existing_claims(
    context: dg.AssetCheckExecutionContext, store: ClaimStore, extractor: ExtractorResource
) -> dg.AssetCheckResult:
    generation, _ = extractor.generation()
    touched = graph.touched_keys(graph.latest_metadata(context.instance, claim_edges.key))
    with store.transaction() as session:
        total, problems = integrity.dangling_edges(session, generation, claim_keys=touched)
    return dg.AssetCheckResult(
        passed=not problems,
        severity=ERROR,
        metadata={
            "edges_checked": total,
            "scope": "all edges" if touched is None else f"{len(touched)} touched claim keys",
            "problems": dg.MetadataValue.md(_problems_md(problems)),
        },
    )


@dg.asset_check(
    asset=claim_edges,
    blocking=True,
    description="Known conflicts and known non-conflicts (claims/data/conflict_regression.yaml)"
    " through the configured extractor and the edge rules. Promotes a candidate extractor "
    "generation that passes; marks one that fails as failed, so readers never see it. Runs "
    "again only when the generation, the cases, the claims package's code or data, or the "
    "spaCy model changed since its outcome was kept.",
)
def conflict_regression(
    context: dg.AssetCheckExecutionContext, store: ClaimStore, extractor: ExtractorResource
) -> dg.AssetCheckResult:
    generation, label = extractor.generation()
    cases = load_cases()
    # what the outcome depends on (generation, cases, the claims package's rules, the
    # model): when the generation's stored outcome was taken under the same, it stands
    fingerprint = regression_fingerprint(generation, cases)
    with store.transaction() as session:
        known = GenerationRepository(session).ensure(generation, label)
    kept = known.regression_report
    if known.status in _DECIDED and kept.get(FINGERPRINT) == fingerprint:
        return _regression_result(context, generation, known.status.value, kept)
    report = run_regression(extractor.extract_function(), generation, cases)
    outcome = report.to_dict(fingerprint)
    with store.transaction() as session:
        generations = GenerationRepository(session)
        before = generations.ensure(generation, label).status
        if before == GenerationStatus.ACTIVE:
            if report.passed:  # an active generation that fails stays active, checked again
                generations.record_regression(generation, outcome)
        elif report.passed:
            generations.promote(generation, outcome)
        else:
            generations.fail(generation, outcome)
        after = generations.get(generation)
    status = after.status.value if after else "unknown"
    return _regression_result(context, generation, status, outcome, report)


# a generation whose outcome stands while what it depended on is unchanged
_DECIDED = (GenerationStatus.ACTIVE, GenerationStatus.FAILED)


def _regression_result(
    context: dg.AssetCheckExecutionContext,
    generation: str,
    status: str,
    outcome: dict[str, Any],
    report: RegressionReport | None = None,
) -> dg.AssetCheckResult:
    """The check's result from a regression outcome (``RegressionReport.to_dict``): of the
    ``report`` run now, or kept by the generation from a run under the same fingerprint."""
    failures = [CaseOutcome(**case) for case in outcome.get("failed") or []]
    passed, cases = bool(outcome.get("passed")), int(outcome.get("cases", 0))
    how = "ran" if report is not None else "unchanged since the last run: outcome kept"
    table = (report or RegressionReport(generation, failures)).markdown()
    if passed:
        context.log.info(f"generation {generation} passed ({how}); status {status}")
    else:
        context.log.error(
            f"generation {generation} failed {len(failures)} of {cases} regression cases "
            f"({how}); status {status}: " + ", ".join(o.id for o in failures)
        )
    return dg.AssetCheckResult(
        passed=passed,
        severity=ERROR,
        description=(
            f"generation {generation}: {status}"
            if passed
            else f"generation {generation} failed {len(failures)} case(s) and is {status}"
        ),
        metadata={
            "generation": generation,  # one id per generation (the label is kept in the store)
            "generation_status": status,
            "cases": cases,
            "failed_cases": len(failures),
            "regression": how,
            "cases_table": dg.MetadataValue.md(table),
        },
    )


ASSET_CHECKS = [
    source_files_readable,
    quotes_match_source_text,
    quantities_have_canonical_units,
    edges_point_to_existing_claims,
    conflict_regression,
]


def _integrity_result(
    context: dg.AssetCheckExecutionContext,
    store: ClaimStore,
    extractor: ExtractorResource,
    probe: Callable[[Session, Sequence[str] | None, str], tuple[int, list[integrity.Problem]]],
    checked_label: str,
) -> dg.AssetCheckResult:
    """Run one integrity probe over this run's versions as a check result.

    One bad document must not stop the edges of every other one. When the problems belong
    to known versions, those versions' claims of this generation are taken out of the store
    (the graph never reads them), the check fails at WARN severity naming each document and
    listing them in ``failed_documents`` (the runner reports exactly those; the store no
    longer counts them as extracted, so the next run of their shard retries them), and the
    rest of the run, the other documents of their shards included, proceeds. When they
    cannot be set apart, the check fails at ERROR severity and blocks the graph, as before.
    """
    generation, _ = extractor.generation()
    version_ids = _run_version_ids(context, store)
    with store.transaction() as session:
        checked, problems = probe(session, version_ids, generation)
    metadata: dict[str, Any] = {
        checked_label: checked,
        "problems": dg.MetadataValue.md(_problems_md(problems)),
    }
    if not problems:
        return dg.AssetCheckResult(passed=True, severity=ERROR, metadata=metadata)
    try:
        with store.transaction() as session:
            bad = integrity.versions_of_problems(session, problems)
            documents = corpus.describe_versions(session, bad)
            if not bad or len(documents) != len(bad):
                raise LookupError("problems not tied to stored versions")
            removed = integrity.quarantine_claims(session, sorted(bad), generation)
    except (LookupError, SQLAlchemyError):
        return dg.AssetCheckResult(
            passed=False,
            severity=ERROR,
            description="problems that cannot be tied to single documents; the graph waits",
            metadata=metadata,
        )
    names = "; ".join(f"{d.source_id} v{d.number} ({d.origin_path})" for d in documents)
    return dg.AssetCheckResult(
        passed=False,
        severity=dg.AssetCheckSeverity.WARN,  # not blocking: the other documents go on
        description=f"{len(documents)} document(s) failed, their {removed} claim(s) were "
        f"not kept: {names}",
        metadata={
            **metadata,
            "failed_documents": dg.MetadataValue.json(
                {d.version_key: "its claims were not kept" for d in documents}
            ),
            "claims_removed": removed,
        },
    )
