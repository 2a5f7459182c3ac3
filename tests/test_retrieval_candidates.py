"""Candidate keys for a question: by attribute, by entity, by quote text; visible ones only."""

from __future__ import annotations

from sqlalchemy import update

from claims.models import EntityRef
from claims.store.engine import make_engine
from claims.tables import ClaimRow
from retrieval.answer_type import AnswerType
from retrieval.candidates import (
    EXACT_ENTITY,
    PARTIAL_ENTITY,
    candidate_keys,
    entity_fit,
)
from tests.retrieval_corpus import GENERATION, Corpus


def _write(url: str) -> dict[str, str]:
    corpus = Corpus()
    corpus.source("atlas", ())
    corpus.source("gazette", ())
    corpus.source("memo", ("planning",))
    atlas = corpus.version("atlas", "Springfield, Illinois had 114,394 residents in 2020.")
    gazette = corpus.version("gazette", "Springfield, Massachusetts is home to 155,929 people.")
    memo = corpus.version("memo", "Shelbyville has 60,000 inhabitants, the memo says.")
    ids = {
        "illinois": corpus.claim(
            atlas,
            "springfield, illinois population",
            114394,
            None,
            quote="Springfield, Illinois had 114,394 residents in 2020.",
        ),
        "illinois-route": corpus.claim(
            atlas,
            "springfield, illinois route",
            66,
            None,
            quote="Route 66 runs through Springfield, Illinois.",
        ),
        "mass": corpus.claim(
            gazette,
            "springfield, massachusetts population",
            155929,
            None,
            quote="Springfield, Massachusetts is home to 155,929 people.",
        ),
        "shelby": corpus.claim(
            memo,
            "shelbyville population",
            60000,
            None,
            quote="Shelbyville has 60,000 inhabitants, the memo says.",
        ),
        "fare": corpus.claim(
            gazette,
            "springfield, massachusetts bus fare",
            2,
            "USD",
            quote="The bus fare in Springfield, Massachusetts is 2 dollars.",
        ),
    }
    identity = {
        "illinois": ("springfield, illinois", "population"),
        "illinois-route": ("springfield, illinois", "route"),
        "mass": ("springfield, massachusetts", "population"),
        "shelby": ("shelbyville", "population"),
        "fare": ("springfield, massachusetts", "bus fare"),
    }
    engine = make_engine(url)
    try:
        corpus.write(engine)
        with engine.begin() as conn:
            for name, (entity, attribute) in identity.items():
                conn.execute(
                    update(ClaimRow)
                    .where(ClaimRow.id == ids[name])
                    .values(entity=entity, attribute=attribute, coarse_key=attribute.split()[-1])
                )
    finally:
        engine.dispose()
    return ids


def _keys(url: str, *, entity: str | None, groups: tuple[str, ...] = (), words=()) -> list:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return candidate_keys(
                conn,
                entity=entity,
                attribute="population",
                attribute_class="population",
                words=list(words),
                asked=AnswerType.COUNT,
                generation=GENERATION,
                groups=groups,
            )
    finally:
        engine.dispose()


def test_entity_fit_reads_partial_names_but_never_another_thing() -> None:
    assert entity_fit("springfield", "springfield") == EXACT_ENTITY
    assert entity_fit("springfield", "springfield, illinois") == PARTIAL_ENTITY
    assert entity_fit("springfield", "springfieldia") == 0.0
    assert entity_fit("springfield, illinois", "springfield, massachusetts") == 0.0


def test_a_partial_name_finds_both_towns_and_nothing_incidental(migrated_url: str) -> None:
    _write(migrated_url)
    found = _keys(migrated_url, entity="springfield")
    keys = [c.claim_key for c in found]
    # both Springfields, equally good: the question does not say which
    assert keys == ["springfield, illinois population", "springfield, massachusetts population"]
    assert found[0].score == found[1].score
    # Route 66 is not a population, the fare is money, Shelbyville is another town
    assert "springfield, illinois route" not in keys
    assert all("shelbyville" not in k for k in keys)


def test_a_full_name_picks_one_town(migrated_url: str) -> None:
    _write(migrated_url)
    found = _keys(migrated_url, entity="springfield, illinois")
    assert [c.claim_key for c in found] == ["springfield, illinois population"]
    assert "entity" in found[0].describe()


def test_hidden_claims_take_no_rank(migrated_url: str) -> None:
    _write(migrated_url)
    public = _keys(migrated_url, entity="shelbyville", words=["inhabitants", "shelbyville"])
    planning = _keys(
        migrated_url,
        entity="shelbyville",
        groups=("planning",),
        words=["inhabitants", "shelbyville"],
    )
    assert public == []
    assert [c.claim_key for c in planning] == ["shelbyville population"]


def test_quote_search_finds_a_key_the_attribute_read_misses(migrated_url: str) -> None:
    _write(migrated_url)
    engine = make_engine(migrated_url)
    try:
        with engine.connect() as conn:
            found = candidate_keys(
                conn,
                entity=None,
                attribute="fare",
                attribute_class=None,
                words=["fare"],
                asked=AnswerType.MONEY,
                generation=GENERATION,
                groups=(),
            )
    finally:
        engine.dispose()
    assert [(c.claim_key, c.found_by) for c in found] == [
        ("springfield, massachusetts bus fare", "quote search")
    ]


def test_a_stored_page_local_reference_fits_no_better_than_a_titled_namesake() -> None:
    # the reference says where the subject is known, as data: no "(in ...)" mark is read
    local = EntityRef(name="harwick mill", local_to="src-field-notes")
    titled = EntityRef(name="harwick mill", qualifier="cotton mill")
    assert entity_fit("harwick mill", EntityRef(name="harwick mill")) == EXACT_ENTITY
    assert entity_fit("harwick mill", local) == PARTIAL_ENTITY
    assert entity_fit("harwick mill", titled) == PARTIAL_ENTITY
    assert entity_fit("harwick mill", EntityRef(name="oldham mill", local_to="src-x")) == 0.0


def test_candidate_keys_read_the_stored_entity_reference(migrated_url: str) -> None:
    corpus = Corpus()
    corpus.source("notes", ())
    version = corpus.version("notes", "Harwick Mill employed 140 weavers in its first year.")
    claim_id = corpus.claim(version, "harwick mill (in notes) population", 140, None)
    engine = make_engine(migrated_url)
    try:
        corpus.write(engine)
        with engine.begin() as conn:
            conn.execute(
                update(ClaimRow)
                .where(ClaimRow.id == claim_id)
                .values(
                    entity="harwick mill (in notes)",
                    entity_name="harwick mill",
                    entity_local_to="notes",
                    attribute="population",
                    coarse_key="population",
                )
            )
    finally:
        engine.dispose()
    found = _keys(migrated_url, entity="harwick mill")
    # known only inside its page: found, but at a titled namesake's fit, not as the name
    assert [c.claim_key for c in found] == ["harwick mill (in notes) population"]
    assert found[0].entity_fit == PARTIAL_ENTITY
