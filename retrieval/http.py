"""HTTP API of the retrieval layer: ``POST /api/answer``, ``GET /api/status``, ``/metrics``.

Every route needs ``Authorization: Bearer <token>``; the token's sha256 is looked up in the
access file (``retrieval.access``). Errors have one shape, ``{"error": {"code", "message"}}``,
and a hidden thing answers exactly like a missing one (404, same message). Bodies and query
strings are parsed here rather than by FastAPI so that malformed input gets that same
shape instead of FastAPI's own validation format.

Routes that touch the store or the access file are plain ``def``: FastAPI runs them in its
thread pool, so one slow status (a large key, a store locked by a writer) never holds up
the event loop and every other request with it. Only the body of ``POST /api/answer`` is
read on the event loop, as a stream that stops at ``MAX_BODY_BYTES`` (a ``Content-Length``
over the limit is refused before reading anything; ``claimledger.limits`` does the same for
every route of the app).

An access file that fails to load is logged for the operator and answered with a generic
503: its content (principals, groups, token-hash prefixes) never reaches a caller.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Query, Request, Security
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import Engine

from claims.errors import ClaimLedgerError, InputError
from claims.models import Requester
from claims.settings import Settings
from claims.store.engine import make_engine
from retrieval.access import AccessConfig, load_access_config
from retrieval.answer import answer
from retrieval.contract import Answer, AnswerStatus, ErrorBody, ErrorResponse, StatusReport
from retrieval.evidence import AsOf
from retrieval.key_summary import KeySummaries
from retrieval.metrics import retrieval_metrics
from retrieval.signals import status_with_provenance
from retrieval.status import (
    MAX_PAGE_LIMIT,
    status_of_claim,
    status_of_key,
    status_of_source,
)

MAX_BODY_BYTES = 64 * 1024
# A status by key over HTTP lists 25 claims unless ``limit`` asks for more (at most
# MAX_PAGE_LIMIT): a page of 100, the in-process default, was 365 KiB and about a third of
# the call's time at a 10,000-claim key (docs/RETRIEVAL.md, "session 7"). A client pages
# with ``offset`` = ``page.next_offset``.
HTTP_PAGE_LIMIT = 25


class AnswerRequest(BaseModel):
    """Body of ``POST /api/answer``."""

    model_config = ConfigDict(extra="forbid")

    question: str = Field(description="The question, in words (at most the configured limit).")
    effective: date | None = Field(None, description="Answer as the facts held on this date.")
    known_at: datetime | None = Field(None, description="Answer as the store knew it then.")


class ForbiddenError(ClaimLedgerError):
    http_status = 403


class PayloadTooLargeError(ClaimLedgerError):
    http_status = 413


class UnavailableError(ClaimLedgerError):
    http_status = 503


_CODES = {
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    413: "payload_too_large",
    503: "unavailable",
}
LOG = logging.getLogger("claimledger.retrieval")
ACCESS_UNAVAILABLE = (
    "the service cannot check credentials right now; the operator has been told "
    "(the server log names the problem)"
)
_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorResponse, "description": code} for status, code in _CODES.items()
}
_ERRORS[422] = {"model": ErrorResponse, "description": "invalid_request"}


def error_response(error: ClaimLedgerError) -> Response:
    status = error.http_status
    body = ErrorResponse(
        error=ErrorBody(code=_CODES.get(status, "invalid_request"), message=str(error))
    )
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return Response(
        body.model_dump_json(), status_code=status, media_type="application/json", headers=headers
    )


def _json(model: BaseModel) -> Response:
    return Response(model.model_dump_json(), media_type="application/json")


class _AccessFile:
    """The access config, re-read when the file changes (token rotation needs no restart)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: tuple[float, int, int] | None = None
        self._config: AccessConfig | None = AccessConfig()

    def get(self) -> AccessConfig:
        """The current config; ``UnavailableError`` (503, generic) while the file is invalid."""
        try:
            stat = self.path.stat()
            stamp: tuple[float, int, int] | None = (stat.st_mtime, stat.st_size, stat.st_ino)
        except OSError:
            stamp = None
        if stamp != self._stamp:
            try:
                self._config = load_access_config(self.path if stamp else None)
            except ClaimLedgerError as error:
                # Logged once per change of the file; callers only learn that it failed.
                LOG.error("access file rejected, answering 503 until it is fixed: %s", error)
                self._config = None
            self._stamp = stamp
        if self._config is None:
            raise UnavailableError(ACCESS_UNAVAILABLE)
        return self._config


def _parse_date(name: str, raw: str | None) -> date | None:
    if raw is None or raw == "":
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise InputError(f"{name} must be a date like 2026-03-01, got {raw[:40]!r}") from None


def _parse_moment(name: str, raw: str | None) -> datetime | None:
    if raw is None or raw == "":
        return None
    try:
        moment = datetime.fromisoformat(raw)
    except ValueError:
        raise InputError(
            f"{name} must be an ISO time like 2026-03-01T12:00:00Z, got {raw[:40]!r}"
        ) from None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def _parse_int(name: str, raw: str | None) -> int | None:
    if raw is None or raw == "":
        return None
    if not raw.isdigit() or len(raw) > 9:
        raise InputError(f"{name} must be a non-negative integer, got {raw[:40]!r}")
    return int(raw)


class RetrievalService:
    """The state behind the routes: one engine, the access file, Prometheus instruments."""

    def __init__(self, settings: Settings, engine: Engine | None = None) -> None:
        self.settings = settings
        self._engine = engine
        self.access = _AccessFile(settings.resolved_access_file)
        # a status by key reuses the key's cells while the store says it has not changed
        self.key_summaries = KeySummaries()
        self.registry = CollectorRegistry()
        self.answers = Counter(
            "claimledger_answers_total",
            "Answers served over HTTP, by answer status.",
            ["status"],
            registry=self.registry,
        )
        self.citations_per_side = Histogram(
            "claimledger_answer_citations_per_side",
            "Citations on each side of a served answer (conflicts have two or more sides).",
            ["status"],
            buckets=(1, 2, 3, 5, 10, 20),
            registry=self.registry,
        )
        self.latency = Histogram(
            "claimledger_retrieval_request_seconds",
            "Time spent computing a retrieval response, by route.",
            ["route"],
            buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5),
            registry=self.registry,
        )
        self.registry.register(_StoreCollector(self))

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            self._engine = make_engine(self.settings.resolved_database_url)
        return self._engine

    def requester(self, credentials: HTTPAuthorizationCredentials | None) -> Requester:
        token = credentials.credentials if credentials is not None else None
        return self.access.get().requester_for_token(token)

    def record(self, result: Answer) -> None:
        self.answers.labels(result.status.value).inc()
        for side in result.sides if result.status is not AnswerStatus.NOT_FOUND else []:
            self.citations_per_side.labels(result.status.value).observe(len(side.citations))


class _StoreCollector:
    """Store-derived gauges: review metrics and, per principal of the access file,
    visible-evidence coverage and citations per side. They scan every conflict key, so
    they are recomputed at most every ``ttl`` seconds and served from memory in between."""

    def __init__(self, service: RetrievalService, ttl: float = 60.0) -> None:
        self.service = service
        self.ttl = ttl
        self._cached: tuple[float, list[GaugeMetricFamily]] | None = None

    def describe(self) -> list[Any]:
        return []  # computed lazily at scrape time; nothing to pre-register

    def collect(self) -> Iterator[GaugeMetricFamily]:
        now = time.monotonic()
        if self._cached is None or now - self._cached[0] > self.ttl:
            self._cached = (now, list(self._compute()))
        yield from self._cached[1]

    def _compute(self) -> Iterator[GaugeMetricFamily]:
        from claims.store import transaction
        from review.metrics import review_metrics
        from review.policy import active_policy

        coverage = GaugeMetricFamily(
            "claimledger_visible_evidence_coverage",
            "Share of the store's claims the principal may use as evidence.",
            labels=["principal"],
        )
        conflicts = GaugeMetricFamily(
            "claimledger_visible_conflicts",
            "Unresolved conflicts the principal can see (two visible sides at least).",
            labels=["principal"],
        )
        per_side = GaugeMetricFamily(
            "claimledger_conflict_citations_per_side",
            "Mean citations per side over the principal's visible unresolved conflicts.",
            labels=["principal"],
        )
        config = self.service.access.get()
        with self.service.engine.connect() as conn:
            for name, requester in sorted(config.principals.items()):
                figures = retrieval_metrics(conn, requester)
                coverage.add_metric([name], figures.visible_evidence_coverage or 0.0)
                conflicts.add_metric([name], figures.visible_conflicts)
                per_side.add_metric([name], figures.citations_per_side_mean or 0.0)
        yield from (coverage, conflicts, per_side)
        with transaction(self.service.engine) as session:
            try:
                policy = active_policy(session)
            except ClaimLedgerError:
                policy = None
            review = review_metrics(session, policy).as_dict()
        for key, value in sorted(review.items()):
            if isinstance(value, bool) or not isinstance(value, int | float):
                continue  # nested breakdowns stay in `claims metrics --json`
            gauge = GaugeMetricFamily(f"claimledger_review_{key}", f"Review metric {key}.")
            gauge.add_metric([], float(value))
            yield gauge


def create_router(settings: Settings, engine: Engine | None = None) -> APIRouter:
    """The retrieval API router (mounted by ``claimledger.web.create_app``)."""
    service = RetrievalService(settings, engine)
    bearer = HTTPBearer(auto_error=False, description="A token listed (as sha256) in access.yaml")
    router = APIRouter(tags=["retrieval"])
    setattr(router, "retrieval_service", service)  # noqa: B010  (tests and the bench)

    def guarded(route: str, work: Callable[[], Response]) -> Response:
        started = time.perf_counter()
        try:
            return work()
        except ClaimLedgerError as error:
            return error_response(error)
        finally:
            service.latency.labels(route).observe(time.perf_counter() - started)

    @router.post(
        "/api/answer",
        response_model=Answer,
        responses=_ERRORS,
        summary="Answer a question from the evidence the caller may see (seed-004 contract)",
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": AnswerRequest.model_json_schema()}},
            }
        },
    )
    async def post_answer(
        request: Request,
        credentials: HTTPAuthorizationCredentials | None = Security(bearer),
    ) -> Response:
        try:
            # Who asks first (no body is read for a bad token), off the event loop.
            requester = await run_in_threadpool(service.requester, credentials)
            body = await read_body(request, MAX_BODY_BYTES)
        except ClaimLedgerError as error:
            return error_response(error)

        def work() -> Response:
            payload = _answer_request(body)
            result = answer(
                service.engine,
                payload.question,
                requester,
                AsOf(effective=payload.effective, known_at=payload.known_at),
                max_chars=settings.max_question_chars,
            )
            service.record(result)
            return _json(result)

        return await run_in_threadpool(guarded, "answer", work)

    @router.get(
        "/api/status",
        response_model=StatusReport,
        responses=_ERRORS,
        summary="Conflict status of a claim, a source version, a passage or a claim key",
    )
    def get_status(
        claim: str | None = Query(None, description="A claim id."),
        source: str | None = Query(None, description="A source id (latest version by default)."),
        key: str | None = Query(None, description="A claim key."),
        version: str | None = Query(None, description="Source version number."),
        start: str | None = Query(None, description="Passage start offset (with end)."),
        end: str | None = Query(None, description="Passage end offset (with start)."),
        effective: str | None = Query(None, description="Date the facts should hold at."),
        known_at: str | None = Query(None, description="System time to read the store as of."),
        offset: str | None = Query(None, description="Status by key: first claim listed."),
        limit: str | None = Query(
            None,
            description=f"Status by key: claims listed (default {HTTP_PAGE_LIMIT}, "
            f"at most {MAX_PAGE_LIMIT}).",
        ),
        credentials: HTTPAuthorizationCredentials | None = Security(bearer),
    ) -> Response:
        def work() -> Response:
            query = _StatusQuery(claim, source, key, version, start, end, effective, known_at)
            page = (offset, limit)
            return _json(_status_report(service, service.requester(credentials), query, page))

        return guarded("status", work)

    @router.get(
        "/metrics",
        response_class=Response,
        responses={**_ERRORS, 200: {"content": {CONTENT_TYPE_LATEST: {}}}},
        summary="Prometheus metrics (callers in a metrics group of the access file)",
    )
    def get_metrics(
        credentials: HTTPAuthorizationCredentials | None = Security(bearer),
    ) -> Response:
        return _metrics(service, credentials)

    return router


@dataclass(frozen=True)
class _StatusQuery:
    """The query parameters of ``GET /api/status`` as given (text; parsed by
    ``_status_report``)."""

    claim: str | None
    source: str | None
    key: str | None
    version: str | None
    start: str | None
    end: str | None
    effective: str | None
    known_at: str | None


def _status_report(
    service: RetrievalService,
    requester: Requester,
    query: _StatusQuery,
    page: tuple[str | None, str | None],
) -> StatusReport:
    """The status report ``GET /api/status`` asks for: of exactly one claim, source (or a
    passage of one of its versions) or claim key (a page of its claims)."""
    chosen = [
        name
        for name, value in (("claim", query.claim), ("source", query.source), ("key", query.key))
        if value
    ]
    if len(chosen) != 1:
        raise InputError("give exactly one of the query parameters claim, source, key")
    as_of = AsOf(
        effective=_parse_date("effective", query.effective),
        known_at=_parse_moment("known_at", query.known_at),
    )
    span_start, span_end = _parse_int("start", query.start), _parse_int("end", query.end)
    if (span_start is None) != (span_end is None):
        raise InputError("a passage needs both start and end offsets")
    if query.claim:
        report = status_of_claim(service.engine, query.claim, requester, as_of)
    elif query.key:
        page_offset, page_limit = _parse_int("offset", page[0]), _parse_int("limit", page[1])
        return status_of_key(  # (a key's report is read with its provenance)
            service.engine,
            query.key,
            requester,
            as_of,
            offset=page_offset or 0,
            limit=HTTP_PAGE_LIMIT if page_limit is None else page_limit,
            summaries=service.key_summaries,
            provenance=True,
        )
    else:
        span = (span_start, span_end) if span_start is not None else None
        report = status_of_source(
            service.engine,
            query.source or "",
            requester,
            version=_parse_int("version", query.version),
            span=span,  # type: ignore[arg-type]
            as_of=as_of,
        )
    with service.engine.connect() as conn:  # the three confidences, kept apart
        return status_with_provenance(conn, report)


def _metrics(
    service: RetrievalService, credentials: HTTPAuthorizationCredentials | None
) -> Response:
    """Prometheus metrics, for callers in a metrics group of the access file."""
    try:
        requester = service.requester(credentials)
        if not service.access.get().may_read_metrics(requester):
            raise ForbiddenError("metrics include store totals; ask for a token in a metrics group")
    except ClaimLedgerError as error:
        return error_response(error)
    # A plain ``def`` route: the store-derived gauges (seconds to recompute) run in the
    # thread pool, never on the event loop.
    return Response(generate_latest(service.registry), media_type=CONTENT_TYPE_LATEST)


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, refused with 413 as soon as it is known to exceed ``limit``: by its
    declared ``Content-Length`` before reading, or while streaming a chunked body (what
    was read is dropped; the rest is never read)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise PayloadTooLargeError(
            f"the request body declares {declared[:20]} bytes; the limit is {limit}"
        )
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise PayloadTooLargeError(f"the request body exceeds the limit of {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def _answer_request(body: bytes) -> AnswerRequest:
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(
            f'the body is not valid JSON ({error}); send {{"question": "..."}}'
        ) from None
    except RecursionError:
        # Thousands of nested brackets exhaust the parser's stack: bad input, not a crash.
        raise InputError(
            'the body nests arrays or objects too deeply; send {"question": "..."}'
        ) from None
    if not isinstance(data, dict):
        raise InputError('the body must be a JSON object like {"question": "..."}')
    try:
        return AnswerRequest.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "body"
        raise InputError(f"{where}: {first['msg']}") from None
