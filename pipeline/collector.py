"""Fewer passes of Python's cyclic garbage collector while the pipeline works.

Extraction, the edge build and the read model allocate millions of short-lived objects
(tokens, claims, edge rows) while the process also holds large long-lived ones (the claims
of a block, Dagster's run state). With the default thresholds (a young pass every 700 net
allocations) the collector re-scanned them 10,000 times in a 3k-file run: 8.3 s of a 51 s
run, measured with ``gc.callbacks``; with the thresholds below, 2.1 s. Reference counting
still frees almost everything at once; only objects in reference cycles wait longer.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

YOUNG, MIDDLE, OLD = 10_000, 50, 100

P = ParamSpec("P")
R = TypeVar("R")


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Raise the collector's thresholds (never lower them) and restore them on exit."""
    before = gc.get_threshold()
    if before[0] == 0:  # the collector is disabled: leave it so
        yield
        return
    gc.set_threshold(max(before[0], YOUNG), max(before[1], MIDDLE), max(before[2], OLD))
    try:
        yield
    finally:
        gc.set_threshold(*before)


def with_fewer_collections(fn: Callable[P, R]) -> Callable[P, R]:
    """Run ``fn`` under ``fewer_collections`` (the signature Dagster inspects is kept)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with fewer_collections():
            return fn(*args, **kwargs)

    return wrapper


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic collector off for the block, on again after (as it was: a collector
    already off stays off).

    For the graph steps of a full run (``claim_edges``, ``review_queue``,
    ``conflict_status``): they hold a batch of facts, edges, sets or statuses at a time and
    free it by reference counting when the batch ends, so the collector only traverses what
    is about to go anyway. On the 10,000-file bench store their passes cost 21.6 s of 278.9 s
    (8%); with the collector off the steps took 214.3 s against 249.4 s and the process
    peaked where it did (727 / 724 MB; docs/PIPELINE.md, "Session 19: full run linear").
    Cyclic garbage made in the step waits for the first collection after it.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def with_collector_paused(fn: Callable[P, R]) -> Callable[P, R]:
    """Run ``fn`` under ``collector_paused`` (the signature Dagster inspects is kept)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with collector_paused():
            return fn(*args, **kwargs)

    return wrapper
