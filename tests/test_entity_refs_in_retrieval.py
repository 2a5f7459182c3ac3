"""Retrieval reads who a claim is about from its stored ``EntityRef`` (name, qualifier, the
source it is local to), never by parsing the readable entity (issue 29, point 2).

A bracket that is part of an office name ("Router (Model B)", "Leave Policy (in draft)")
is neither a disambiguator nor a mark of a subject known only in one document; a subject
stored as local to its source is still read as such, with no mark in any string.
"""

from __future__ import annotations

from sqlalchemy import Engine, update

from claims.models import EntityRef, Requester
from claims.tables import ClaimRow
from retrieval.answer import answer
from retrieval.candidates import EXACT_ENTITY, PARTIAL_ENTITY, entity_fit, question_fit
from retrieval.contract import AnswerStatus
from retrieval.subjects import claim_entities, is_local
from tests.retrieval_corpus import Corpus

ANYONE = Requester(principal="anyone", groups=[])


def _store(engine: Engine, claims: dict[str, tuple[str, str, float, EntityRef]]) -> dict[str, str]:
    """One source per claim: name -> (sentence, attribute, kg, reference); the claim ids."""
    corpus = Corpus()
    ids: dict[str, str] = {}
    for name, (sentence, attribute, kilograms, ref) in claims.items():
        corpus.source(name, ())
        version = corpus.version(name, sentence)
        ids[name] = corpus.claim(
            version, f"{ref.text} {attribute}", kilograms, "kg", quote=sentence
        )
    corpus.write(engine)
    with engine.begin() as conn:
        for name, (_, attribute, _, ref) in claims.items():
            conn.execute(
                update(ClaimRow)
                .where(ClaimRow.id == ids[name])
                .values(
                    entity=ref.text,
                    entity_name=ref.name,
                    entity_qualifier=ref.qualifier,
                    entity_local_to=ref.local_to,
                    attribute=attribute,
                    coarse_key=attribute.split()[-1],
                    canonical_unit="g",
                    canonical_value=ClaimRow.value_number * 1000,
                    dimension="mass",
                )
            )
    return ids


def test_one_readable_entity_is_local_only_when_its_stored_reference_says_so(
    engine: Engine,
) -> None:
    # both read "leave policy (in draft)"; only the second is a subject local to a source
    named = EntityRef(name="leave policy (in draft)")
    local = EntityRef(name="leave policy", local_to="draft")
    assert named.text == local.text
    ids = _store(
        engine,
        {
            "handbook": ("The Leave Policy (in draft) binder weighs 2 kg.", "weight", 2, named),
            "draft": ("The leave policy binder weighs 3 kg.", "weight", 3, local),
        },
    )
    with engine.connect() as conn:
        read = claim_entities(conn, [ids["handbook"], ids["draft"]])
    assert read[ids["handbook"]] == named and not is_local(read[ids["handbook"]])
    assert read[ids["draft"]] == local and is_local(read[ids["draft"]])
    # the name with its bracket is the asked name itself; the local subject fits no better
    # than a titled namesake
    assert entity_fit("leave policy (in draft)", read[ids["handbook"]]) == EXACT_ENTITY
    assert entity_fit("leave policy", read[ids["draft"]]) == PARTIAL_ENTITY


def test_a_bracket_in_a_product_name_is_no_disambiguation_the_question_can_state() -> None:
    words = ["router", "model", "b", "weigh"]
    # a stored qualifier the question states makes the titled entity the asked one ...
    titled = EntityRef(name="router", qualifier="model b")
    assert question_fit("router", titled, words) == EXACT_ENTITY
    # ... a bracket that is part of the product's name does not
    product = EntityRef(name="router (model b)")
    assert question_fit("router", product, words) == PARTIAL_ENTITY
    assert question_fit("router", "router (model b)", words) == PARTIAL_ENTITY


def test_two_products_with_brackets_in_their_names_are_not_namesakes(engine: Engine) -> None:
    # "Router (Model A)" and "Router (Model B)" are two products of two names: a question
    # naming neither gets a conflict naming both, not one answer per "router" namesake
    _store(
        engine,
        {
            "catalogue": (
                "The Router (Model A) weighs 1.2 kg.",
                "weight",
                1.2,
                EntityRef(name="router (model a)"),
            ),
            "spec": (
                "The Router (Model B) weighs 1.5 kg.",
                "weight",
                1.5,
                EntityRef(name="router (model b)"),
            ),
        },
    )
    result = answer(engine, "What is the weight of the Router?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT, result.reason
    assert "'router (model a)' or 'router (model b)'" in result.reason
    assert all(side.entity is None for side in result.sides)


def test_titled_namesakes_stored_as_qualifiers_are_still_answered_apart(engine: Engine) -> None:
    # the same two things, their brackets stored as qualifiers: two things called "router"
    _store(
        engine,
        {
            "catalogue": (
                "The Router (Model A) weighs 1.2 kg.",
                "weight",
                1.2,
                EntityRef(name="router", qualifier="model a"),
            ),
            "spec": (
                "The Router (Model B) weighs 1.5 kg.",
                "weight",
                1.5,
                EntityRef(name="router", qualifier="model b"),
            ),
        },
    )
    result = answer(engine, "What is the weight of the Router?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert {side.entity for side in result.sides} == {"router (model a)", "router (model b)"}
