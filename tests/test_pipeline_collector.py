"""The pipeline raises the garbage collector's thresholds while it works, and only then."""

from __future__ import annotations

import gc
import inspect
from collections.abc import Iterator

import pytest

from pipeline.collector import (
    OLD,
    YOUNG,
    collector_paused,
    fewer_collections,
    with_collector_paused,
    with_fewer_collections,
)


@pytest.fixture(autouse=True)
def default_thresholds() -> Iterator[None]:
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*before)


def test_thresholds_are_raised_inside_and_restored_after_even_on_error() -> None:
    with pytest.raises(RuntimeError), fewer_collections():
        assert gc.get_threshold() == (YOUNG, 50, OLD)
        raise RuntimeError("a failing step")
    assert gc.get_threshold() == (700, 10, 10)


def test_nesting_and_higher_settings_are_kept() -> None:
    gc.set_threshold(50_000, 10, 10)
    with fewer_collections():
        with fewer_collections():
            assert gc.get_threshold() == (50_000, 50, OLD)
        assert gc.get_threshold() == (50_000, 50, OLD)
    assert gc.get_threshold() == (50_000, 10, 10)


def test_a_disabled_collector_stays_disabled() -> None:
    gc.set_threshold(0)
    with fewer_collections():
        assert gc.get_threshold()[0] == 0


def test_the_decorated_asset_keeps_its_signature_and_runs_inside() -> None:
    seen: list[tuple[int, int, int]] = []

    @with_fewer_collections
    def step(context: object, *, store: str) -> str:
        seen.append(gc.get_threshold())
        return store

    assert list(inspect.signature(step).parameters) == ["context", "store"]
    assert step(None, store="db") == "db"
    assert seen == [(YOUNG, 50, OLD)]
    assert gc.get_threshold() == (700, 10, 10)


def test_the_collector_is_off_inside_a_paused_block_and_on_after_even_on_error() -> None:
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_paused():
        assert not gc.isenabled()
        raise RuntimeError("a failing graph step")
    assert gc.isenabled()


def test_a_collector_already_off_stays_off_after_a_paused_block() -> None:
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_graph_steps_of_a_full_run_run_with_the_collector_paused() -> None:
    from pipeline.assets.edges import claim_edges
    from pipeline.assets.review import review_queue
    from pipeline.assets.status import conflict_status

    seen: list[bool] = []

    @with_collector_paused
    def probe() -> None:
        seen.append(gc.isenabled())

    probe()
    assert seen == [False] and gc.isenabled()
    for asset in (claim_edges, review_queue, conflict_status):
        step = asset.op.compute_fn.decorated_fn  # type: ignore[union-attr]
        assert step.__code__ is probe.__code__, asset.key  # the same wrapper
