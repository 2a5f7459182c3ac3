"""``claims check A B`` reports exactly the edges the store draws between two files A and B.

Issue 29, point 3: one engine. The store side is the store's own path (versions and claims
written to a migrated SQLite store, ``recompute_edges`` over it, the live edge rows read
back) and, for a few pairs, ``claims run`` itself on a folder of the two files. Edges are
compared by id, kind and rule: the ids hash the claims' ids, which hash the version (source
id + the file's bytes) and the span, so equal ids mean the same claims were linked.
"""

from __future__ import annotations

import tempfile
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, create_engine, select
from sqlalchemy.orm import aliased
from typer.testing import CliRunner

from claimledger.cli import app
from claims.check import LEFT_SOURCE, RIGHT_SOURCE, check_texts
from claims.documents.converters import convert
from claims.settings import get_settings
from claims.store.engine import make_engine
from claims.tables import ClaimRow, EdgeRow
from tests.edge_stores import recompute, store_documents
from tests.store_template import upgrade as upgrade_from_template

OFFICE = Path(__file__).resolve().parents[1] / "samples" / "office" / "corpus"

Edge = tuple[str, str, str]  # (edge id, kind, rule)


def edges_between(engine: Engine, a: str, b: str) -> set[Edge]:
    """The live edges of the store with one claim in source ``a`` and one in source ``b``."""
    left, right = aliased(ClaimRow), aliased(ClaimRow)
    with engine.connect() as conn:
        rows = conn.execute(
            select(EdgeRow.id, EdgeRow.kind, EdgeRow.rule, left.source_id, right.source_id)
            .join(left, left.id == EdgeRow.left_claim_id)
            .join(right, right.id == EdgeRow.right_claim_id)
            .where(EdgeRow.retired_at.is_(None))
        ).all()
    return {(i, kind, rule) for i, kind, rule, x, y in rows if {x, y} == {a, b}}


def stored(left_text: str, right_text: str) -> set[Edge]:
    """What the store draws between the two texts stored as sources ``left`` and ``right``."""
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'claims.db'}"
        upgrade_from_template(url)
        engine = make_engine(url)
        try:
            store_documents(engine, {LEFT_SOURCE: left_text, RIGHT_SOURCE: right_text})
            recompute(engine)
            return edges_between(engine, LEFT_SOURCE, RIGHT_SOURCE)
        finally:
            engine.dispose()


def checked(left_text: str, right_text: str) -> set[Edge]:
    result = check_texts(left_text, right_text)
    return {(p.edge_id, kind_of(p.relation.value), p.rule) for p in result.pairs}


def kind_of(relation: str) -> str:
    return {
        "conflict": "conflicts",
        "ambiguous": "ambiguous",
        "corroboration": "corroborates",
        "compatible": "compatible",
    }[relation]


# -- generated pairs: a few things, a few measured attributes, values that may differ --------

THINGS = ["The Alder Street depot", "The K7 blender", "The night ferry", "The staff canteen"]
STATEMENTS = [
    "{thing} weighs {n} kg.",
    "{thing} costs {n} EUR.",
    "{thing} has {n} employees.",
    "{thing} opens at {h} am.",
    "The notice period for {lower} is {n} days.",
    "The warranty of {lower} lasts {n} months.",
    "It was built in {year}.",
    "{thing} is not open on Sundays.",
]


@st.composite
def sentence(draw: st.DrawFn) -> str:
    thing = draw(st.sampled_from(THINGS))
    form = draw(st.sampled_from(STATEMENTS))
    return form.format(
        thing=thing,
        lower=thing[0].lower() + thing[1:],
        n=draw(st.sampled_from([3, 12, 14, 40, 250])),
        h=draw(st.integers(min_value=6, max_value=10)),
        year=draw(st.sampled_from([1998, 2004, 2011])),
    )


texts = st.lists(sentence(), min_size=1, max_size=4).map(" ".join)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(texts, texts)
def test_check_reports_the_edges_the_store_draws_for_generated_pairs(left: str, right: str) -> None:
    assert checked(left, right) == stored(left, right)


def test_check_reports_the_edges_the_store_draws_for_every_pair_of_office_documents() -> None:
    # every format, as ingest reads it: the converter's text is what both engines see
    documents = {p.name: convert(p.read_bytes(), p).text for p in sorted(OFFICE.iterdir())}
    assert len(documents) >= 10
    differing = []
    linked = 0
    for a, b in combinations(sorted(documents), 2):
        mine, store = checked(documents[a], documents[b]), stored(documents[a], documents[b])
        linked += bool(store)
        if mine != store:
            differing.append((a, b, sorted(mine ^ store)))
    assert not differing, differing
    assert linked >= 5  # the corpus is linked enough for the comparison to say something


RUN_PAIRS = [
    (
        "The notice period is 30 days. The probation period lasts 6 months.",
        "The notice period is 60 days. The probation period lasts 6 months.",
    ),
    (
        "The Alder Street depot weighs 14 kg. The night ferry costs 12 EUR.",
        "The night ferry costs 40 EUR. It was built in 2004.",
    ),
]


@pytest.mark.parametrize("left,right", RUN_PAIRS)
def test_check_reports_what_claims_run_stores_between_the_two_files(
    cli_env: Path, tmp_path: Path, left: str, right: str
) -> None:
    folder = tmp_path / "two"
    folder.mkdir()
    (folder / f"{LEFT_SOURCE}.txt").write_bytes(left.encode("utf-8"))
    (folder / f"{RIGHT_SOURCE}.txt").write_bytes(right.encode("utf-8"))
    result = CliRunner().invoke(app, ["run", str(folder)])
    assert result.exit_code == 0, result.output
    engine = create_engine(get_settings().resolved_database_url)
    try:
        store = edges_between(engine, LEFT_SOURCE, RIGHT_SOURCE)
    finally:
        engine.dispose()
    assert store  # each pair shares a figure: the comparison is not of two empty sets
    assert checked(left, right) == store


def test_a_row_written_before_entity_refs_reads_back_with_its_entity_as_the_name() -> None:
    from types import SimpleNamespace

    from claims.store.claims import entity_ref_of

    old = SimpleNamespace(
        entity="devata (1941 film)", entity_name=None, entity_qualifier=None, entity_local_to=None
    )
    ref = entity_ref_of(old)
    assert ref is not None
    assert (ref.name, ref.qualifier, ref.local_to, ref.text) == (
        "devata (1941 film)",
        None,
        None,
        "devata (1941 film)",
    )
