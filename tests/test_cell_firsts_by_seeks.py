"""A key's cell firsts and coarse keys read by index seeks (``claims.edge_delta``,
``claims.edge_refresh``) are the ones the windowed and grouped reads of the whole key give."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text
from test_full_refresh_in_batches import _fresh, _load, _refresh
from test_incremental_edits_equal_full_refresh import _corpus

import claims.edge_delta as edge_delta
import claims.edge_refresh as edge_refresh
from claims.store import transaction


def test_cell_firsts_by_seeks_equal_the_windowed_ranking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = _fresh(tmp_path, "cells")
    generation = _load(engine, _corpus(40, seed=3))
    _refresh(engine, generation, None)
    with transaction(engine) as session:
        keys = session.execute(
            text(
                "SELECT v.claim_key, count(DISTINCT v.value_group_id) * count(DISTINCT c.quote),"
                " min(c.id), max(c.id) FROM value_group_claims v JOIN claims c"
                " ON c.id = v.claim_id GROUP BY v.claim_key"
            )
        ).all()
        several = [key for key, cells, _, _ in keys if 1 < cells <= edge_delta.CELL_SEEKS_MAX]
        assert several, "the corpus makes keys of several cells read by seeks"
        for key, _cells, low, high in keys:
            for skipped in (set(), {low, high}):
                by_seeks = edge_delta._cell_firsts(session, generation, key, skipped)
                monkeypatch.setattr(edge_delta, "CELL_SEEKS_MAX", 0)
                windowed = edge_delta._cell_firsts(session, generation, key, skipped)
                monkeypatch.undo()
                assert by_seeks == windowed, key


def test_coarse_keys_by_seeks_equal_the_grouped_read(tmp_path: Path) -> None:
    engine = _fresh(tmp_path, "coarse")
    generation = _load(engine, _corpus(40, seed=5))
    _refresh(engine, generation, None)
    with transaction(engine) as session:
        keys = sorted(session.execute(text("SELECT DISTINCT claim_key FROM claims")).scalars())
        grouped = edge_refresh._coarse_keys_grouped(session, generation, keys)
        by_seeks = {
            key: found
            for key in keys
            if (found := edge_refresh._coarse_keys_of(session, generation, key))
        }
        assert any(grouped.values())
        assert by_seeks == dict(grouped)
