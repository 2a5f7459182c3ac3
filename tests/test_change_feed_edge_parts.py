"""The edge step tells the status step which keys it evaluated in part (issue 33).

``record_edge_changes`` writes a key evaluated in part once per changed version, as the
claims step writes claims, and every other key whole; the status step reads the versions
from its pending changes (``Pending.versions``) and evaluates only those keys in part
(``retrieval.status_delta``). Any other change of the key in the same window (a review
item opened or decided, a register entry) sends it whole.
"""

from __future__ import annotations

from sqlalchemy import Engine

from claims.store import changes, transaction
from pipeline.changes import STATUS_KINDS

STATUS = "status-under-test"


def _pending(engine: Engine) -> changes.Pending:
    with transaction(engine) as session:
        return changes.pending(session, STATUS, kinds=STATUS_KINDS)


def _start(engine: Engine) -> None:
    with transaction(engine) as session:
        changes.acknowledge(session, STATUS, changes.newest_change_id(session))


def test_a_key_evaluated_in_part_reaches_the_status_step_with_its_versions(
    engine: Engine,
) -> None:
    _start(engine)
    with transaction(engine) as session:
        keys = changes.record_edge_changes(
            session,
            {"archive copy keep", "badge renewal"},
            {"archive copy keep": {"sv_b", "sv_a"}},
            "gen_x",
        )
    assert keys == 2
    todo = _pending(engine)
    assert todo.keys == {"archive copy keep", "badge renewal"}
    assert todo.changed_versions("archive copy keep") == {"sv_a", "sv_b"}
    assert todo.changed_versions("badge renewal") is None  # evaluated whole


def test_a_review_change_at_the_same_key_sends_its_statuses_whole(engine: Engine) -> None:
    _start(engine)
    with transaction(engine) as session:
        changes.record_edge_changes(
            session, {"archive copy keep"}, {"archive copy keep": {"sv_a"}}, "gen_x"
        )
        changes.record_review_changes(session, ["archive copy keep"])
    assert _pending(engine).changed_versions("archive copy keep") is None


def test_a_full_evaluation_is_recorded_as_every_key(engine: Engine) -> None:
    _start(engine)
    with transaction(engine) as session:
        changes.record_edge_changes(session, [changes.ALL_KEYS], {}, "gen_x")
    todo = _pending(engine)
    assert todo.keys is None and todo.mode == "full"
