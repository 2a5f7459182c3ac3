"""Extraction of many source versions on every core: a pool of worker processes, results in
version order.

Extraction is pure CPU work over one text at a time, so a run's versions are spread over
worker processes; the caller (the pipeline's ``claims`` step) keeps every store write,
since SQLite takes one writer, and consumes the results in the order of the versions given
as they arrive, so its writes overlap the extraction of the versions after them. The claims
are the ones ``extract`` gives in the caller's process: same claims, same ids, same order.

Why the fork server, not fork or spawn: forking the caller copies a process that has
threads (Dagster's, SQLAlchemy's pool), and a lock one of them held at the fork stays held
in the child forever; spawn starts each worker from a new interpreter, which pays the
imports (spaCy, the caller's main module) and the pipeline build in every worker of every
run. The fork server is a new, single-threaded interpreter started once per caller process:
it imports the caller's main module and ``claims.extract_warm`` (which builds the
pipeline) once, and each worker is a fork of it, with the pipeline already built (and
shared copy-on-write).

What a worker cannot know by itself is passed to it: the caller's ``CLAIMS_*`` environment
(the fork server keeps the one it started with). The workers run the code the fork server
imported, which is not the caller's when the extraction files were edited in between (a
working tree being edited): the pool asks a worker its generation first, and when it
differs from the caller's, the caller extracts in its own process, now and for the rest of
its life, so the claims are always the caller's generation's.

Few versions stay in the caller's process (``POOL_MIN_VERSIONS``): a one-file edit or a
one-file run must not pay for starting processes.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Generator, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import date
from typing import Any

from claims.extraction.generation import current_generation
from claims.extraction.supersession import find_supersession_mentions
from claims.models import Claim
from claims.store.claims import claim_row

# Below this many versions the pool does not pay: forking two workers from a running fork
# server costs about as much as extracting this many versions on one core; the first pool of
# a process also starts the server (imports, the pipeline build: seconds), which only a run
# of COLD_POOL_MIN_VERSIONS or more repays (docs/PIPELINE.md, "Session 9").
POOL_MIN_VERSIONS = 50
COLD_POOL_MIN_VERSIONS = 500
# Versions a worker takes at a time: large enough that the inter-process traffic is a few
# messages per second, small enough that the caller's first write starts early and both
# workers finish together.
CHUNK_VERSIONS = 8
# Modules the fork server imports before it forks any worker.
_PRELOAD = ["__main__", "claims.extract_pool", "claims.extract_warm"]


@dataclass(frozen=True)
class VersionText:
    """One source version to extract: its key (for the caller's names) and its text."""

    key: str
    text: str
    source_id: str
    version_id: str
    document_subject: str | None = None
    # the built-in extractor's extras: how the text is written ("text/plain" reads title
    # lines), and the register's effective date (the year of dates written without one)
    media_type: str | None = None
    document_date: date | None = None


@dataclass
class Extracted:
    """A version's claims as store rows (``claims.store.claims.claim_row`` tuples, in the
    extractor's order), whether its text says it replaces another document, or, when its
    extraction raised, the error (then no claim of it is given)."""

    key: str
    rows: list[tuple[Any, ...]]
    mentions: bool
    error: str | None = None


class ExtractionPoolBroken(RuntimeError):
    """A worker process died (killed, out of memory, a crash in native code): the versions
    it held are lost, so the run stops instead of waiting for them."""


def extract_versions(
    versions: Sequence[VersionText],
    *,
    workers: int,
    min_versions: int | None = None,
    notify: Callable[[str], None] | None = None,
) -> Generator[Extracted, None, None]:
    """The default extractor's result for each of ``versions``, in their order.

    ``workers`` processes when there is more than one and at least ``min_versions``
    versions (None: ``POOL_MIN_VERSIONS``, or ``COLD_POOL_MIN_VERSIONS`` before this process
    has started its fork server), else in this process. Raises ``ExtractionPoolBroken``
    (after every result that arrived before it was given) when a worker process dies.
    """
    if not _pays(len(versions), workers, min_versions):
        from claims.extraction import extract

        yield from in_process(versions, extract)
        return
    yield from _in_pool(versions, workers, notify)


def uses_pool(count: int, workers: int, min_versions: int | None = None) -> bool:
    """Whether ``extract_versions`` of ``count`` versions goes to worker processes."""
    return _pays(count, workers, min_versions)


def _pays(count: int, workers: int, min_versions: int | None) -> bool:
    if workers <= 1 or count < 1 or _server["stale"]:
        return False
    if min_versions is not None:
        return count >= min_versions
    return count >= (POOL_MIN_VERSIONS if _server["started"] else COLD_POOL_MIN_VERSIONS)


# Whether this process has started the fork server (it lives as long as the process).
# "stale": its workers' code differs from this process's (files edited since it started).
_server = {"started": False, "stale": False}


def extract_one(version: VersionText, extract: object) -> Extracted:
    """``extract`` (the default or a custom extractor) on one version; an error is kept,
    named, in the result instead of raised, so the other versions go on."""
    try:
        kwargs = {"source_id": version.source_id, "source_version_id": version.version_id}
        if version.document_subject is not None:
            kwargs["document_subject"] = version.document_subject
        if version.media_type is not None:
            kwargs["media_type"] = version.media_type
        if version.document_date is not None:
            kwargs["document_date"] = version.document_date  # type: ignore[assignment]
        found: list[Claim] = extract(version.text, **kwargs)  # type: ignore[operator]
        rows = [claim_row(claim) for claim in found]
        mentions = bool(find_supersession_mentions(version.text))
    except Exception as error:  # name the version; none of its claims is written
        return Extracted(version.key, [], False, str(error))
    return Extracted(version.key, rows, mentions)


def _in_pool(
    versions: Sequence[VersionText], workers: int, notify: Callable[[str], None] | None
) -> Generator[Extracted, None, None]:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(_PRELOAD)  # no effect once the server runs: it keeps its own
    _server["started"] = True
    environment = {k: v for k, v in os.environ.items() if k.startswith("CLAIMS_")}
    generation = current_generation()[0]
    pool = ProcessPoolExecutor(
        max_workers=min(workers, len(versions)),
        mp_context=context,
        initializer=_start_worker,
        initargs=(environment, generation),
    )
    given = 0
    try:
        workers_generation = pool.submit(_worker_generation).result()
        if workers_generation != generation:
            # The files changed between this process's imports and the fork server's: the
            # workers run other code. This process's own code is the run's generation, so
            # it extracts, now and for the rest of its life (the server stays as it is).
            _server["stale"] = True
            if notify is not None:
                notify(
                    "the extraction code on disk changed after this process started "
                    f"(generation {workers_generation} in the worker processes, {generation} "
                    "in this run): extracting in this process; a new process uses every core"
                )
            pool.shutdown(wait=True, cancel_futures=True)
            from claims.extraction import extract

            yield from in_process(versions, extract)
            return
        for result in pool.map(_extract_in_worker, versions, chunksize=CHUNK_VERSIONS):
            given += 1
            yield result
    except BrokenProcessPool as error:
        raise ExtractionPoolBroken(
            f"an extraction worker process died (killed, out of memory or crashed) while "
            f"extracting; {given} of {len(versions)} version(s) were extracted before it, "
            f"the others were not: run again (the store keeps what was written and the "
            f"next run extracts only the rest), or set the extractor's workers to 1 to "
            f"extract in the run's own process ({error})"
        ) from error
    finally:
        # a caller that stops early (its own write failed) does not wait for the rest
        pool.shutdown(wait=True, cancel_futures=True)


# In each worker: the caller's generation, and this worker's if it differs.
_worker: dict[str, str] = {}


def _start_worker(environment: dict[str, str], generation: str) -> None:
    for name in [k for k in os.environ if k.startswith("CLAIMS_")]:
        if name not in environment:
            del os.environ[name]
    os.environ.update(environment)
    from claims.settings import get_settings

    get_settings.cache_clear()
    _worker["expected"] = generation
    _worker["own"] = current_generation()[0]


def _worker_generation() -> str:
    return _worker["own"]


def _extract_in_worker(version: VersionText) -> Extracted:
    if _worker["own"] != _worker["expected"]:
        return Extracted(
            version.key,
            [],
            False,
            "the extraction code on disk changed after this run started (generation "
            f"{_worker['own']} in the worker, {_worker['expected']} in the run): run again",
        )
    from claims.extraction import extract

    return extract_one(version, extract)


def in_process(
    versions: Iterable[VersionText], extract: object
) -> Generator[Extracted, None, None]:
    """``extract``'s results, in this process: a custom extractor (it may not be importable
    by a worker, and it owns its own speed), or the built-in one when the pool does not pay."""
    for version in versions:
        yield extract_one(version, extract)
