"""A near miss touching a key sends its status to the claim-by-claim reading (issue 14.1).

"The parking fee for trucks" and "the visitor parking fee" are two claim keys of one coarse
key ("fee"): the edge builder links their claims in the block "~fee", which value groups do
not say. The aggregate reading finds the coarse keys of the key's visible claims in its
grouped read and declines when an edge of their blocks touches the key; the report is the
claim-by-claim one either way, for every reader.
"""

from __future__ import annotations

from test_retrieval_status_aggregate import (
    KEY,
    PAGES,
    READERS,
    _answers,
    _both,
    _branch_notes,
    _notes,
)


def test_a_near_miss_edge_makes_the_aggregate_reading_decline(migrated_url: str) -> None:
    engine = _notes(migrated_url, _branch_notes(12), [])
    try:
        # nothing touches the key from outside its value groups: the aggregate answers
        assert all(_answers(engine, KEY, reader) for reader in READERS)
    finally:
        engine.dispose()
    trucks = {
        "id": "depot/trucks",
        "text": "Depot notice.\n\nThe parking fee for trucks is 12 EUR per day.\n",
        "groups": ["legal"],
        "tier": "official",
    }
    engine = _notes(migrated_url, [trucks], [])  # the same store, one note more
    try:
        with engine.connect() as conn:
            near = conn.exec_driver_sql(
                "SELECT count(*) FROM edges WHERE claim_key = '~fee' AND retired_at IS NULL"
            ).scalar()
        assert near  # the builder linked the two keys in their coarse key's block
        for reader in READERS:
            # the edges touch claims of the key every reader sees
            assert not _answers(engine, KEY, reader)
            for offset, limit in PAGES[:4]:
                fast, slow = _both(engine, KEY, reader, offset, limit)
                assert fast == slow, (reader, offset, limit)
    finally:
        engine.dispose()
