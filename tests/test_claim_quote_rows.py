"""The quote rows a writer of claims makes: ids in the order of the versions written, each
version's quotes in text order, rows already stored found and not made twice (on SQLite
through the driver's cursor, on PostgreSQL in one statement of two arrays)."""

from __future__ import annotations

from sqlalchemy import func, select

from claims.store.engine import make_engine, transaction
from claims.store.quotes import quote_ids
from claims.tables import ClaimQuoteRow


def test_new_quote_rows_are_numbered_version_by_version_in_the_order_given(
    migrated_url: str,
) -> None:
    engine = make_engine(migrated_url)
    wanted = {
        ("ver-west", "The west depot opens at seven."),
        ("ver-east", "Deliveries stop at noon on Fridays."),
        ("ver-west", "Forklifts are inspected monthly."),
        ("ver-east", "A second dock opened in March."),
    }
    with transaction(engine) as session:
        found = quote_ids(session, wanted, versions=["ver-west", "ver-east"])
    assert found is not None
    in_id_order = sorted(found, key=found.__getitem__)
    assert in_id_order == [
        ("ver-west", "Forklifts are inspected monthly."),
        ("ver-west", "The west depot opens at seven."),
        ("ver-east", "A second dock opened in March."),
        ("ver-east", "Deliveries stop at noon on Fridays."),
    ]
    engine.dispose()


def test_quote_rows_already_stored_keep_their_ids_and_are_not_made_again(
    migrated_url: str,
) -> None:
    engine = make_engine(migrated_url)
    first = {("ver-north", "Visitors sign in at the gate."), ("ver-north", "Parking is free.")}
    with transaction(engine) as session:
        before = quote_ids(session, first, versions=["ver-north"])
    later = first | {("ver-north", "The canteen closes at three."), ("ver-south", "No pets.")}
    with transaction(engine) as session:
        after = quote_ids(session, later, versions=["ver-south", "ver-north"])
        rows = session.execute(select(func.count()).select_from(ClaimQuoteRow)).scalar()
    assert before is not None and after is not None
    assert {key: after[key] for key in first} == before
    assert rows == 4
    # the new rows come after the old ones, in the order of the versions given
    assert after[("ver-south", "No pets.")] < after[("ver-north", "The canteen closes at three.")]
    assert after[("ver-south", "No pets.")] > max(before.values())
    engine.dispose()
