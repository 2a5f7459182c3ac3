"""Claim identity (issue 12): the entity a claim is about and the attribute it states.

Sentences are our own, worded the way people write handbooks, guides and emails.
"""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
import yaml
from sqlalchemy import select
from typer.testing import CliRunner

from claimledger.cli import app
from claims.check import check_texts
from claims.edges.facts import facts_from_claim
from claims.edges.materiality import MaterialitySettings, is_high_risk
from claims.extraction import extract, parse_question
from claims.extraction.keys import fold_word
from claims.models import Claim, Relation
from claims.store import ClaimRepository, GenerationRepository, SourceRepository, transaction
from claims.store.engine import make_engine
from claims.tables import ClaimRow
from pipeline.resources import ClaimStore, SourcesResource
from pipeline.runner import run_pipeline
from tests.store_template import upgrade  # a copy of a store migrated once


def only(text: str, **kwargs: str | None) -> Claim:
    (claim,) = [c for c in extract(text, **kwargs) if c.kind.value == "quantity"]  # type: ignore[arg-type]
    return claim


# ----------------------------------------------------------------- lead-ins and greetings


def test_a_lead_in_before_a_colon_never_becomes_the_key() -> None:
    plain = only("Contractors are paid within 45 days of the invoice date.")
    led = only(
        "Friendly note ahead of the holidays: contractors are paid within 45 days of the "
        "invoice date."
    )
    assert led.claim_key == plain.claim_key
    assert not {"friendly", "note", "holiday", "ahead"} & set(led.claim_key.split())
    assert led.scope == plain.scope == {"party": "contractor"}


def test_a_lead_in_with_a_preposition_leaves_the_subject_whole() -> None:
    plain = only("Our payment terms for contractors are 30 days from the invoice date.")
    led = only(
        "Quick reminder ahead of the holidays: our payment terms for contractors are 45 days "
        "from the invoice date."
    )
    assert led.claim_key == plain.claim_key == "payment term"
    assert led.scope == plain.scope == {"party": "contractor"}


def test_active_and_passive_payment_terms_share_a_key() -> None:
    active = only("We pay contractors within 30 days of the invoice date.")
    passive = only("Contractors are paid within 45 days of the invoice date.")
    assert active.claim_key == passive.claim_key == "pay"
    assert active.scope == passive.scope == {"party": "contractor"}
    result = check_texts(
        "We pay contractors within 30 days of the invoice date.",
        "Friendly note ahead of the holidays: contractors are paid within 45 days of the "
        "invoice date.",
    )
    assert result.relation in (Relation.CONFLICT, Relation.AMBIGUOUS)


def test_a_label_before_a_colon_still_scopes_the_claim() -> None:
    claim = only("Revision 2: interactive output limit is 500 tokens.")
    assert claim.claim_key == "output limit"
    assert claim.scope == {"request_type": "interactive"}


def test_greetings_and_salutations_are_dropped() -> None:
    expected = only("The notice period is 30 days.").claim_key
    for text in (
        "Hi all, the notice period is 30 days.",
        "Dear team,\nthe notice period is 30 days.",
        "Hello everyone, the notice period is 30 days.",
        "Thanks, the notice period is 30 days.",
    ):
        assert only(text).claim_key == expected == "notice period", text


def test_a_sign_off_states_nothing() -> None:
    assert extract("Best,\nDana") == []
    assert extract("Kind regards, Sam") == []


# ----------------------------------------------------------------- entity and attribute


def test_a_possessive_owner_is_the_entity() -> None:
    lasts = only("The P-9 router's battery lasts 11 hours.")
    assert (lasts.entity, lasts.attribute) == ("p-9 router", "battery life")
    assert lasts.claim_key == "p-9 router battery life"
    has = only("The P-9 router has a battery life of 9 hours.")
    assert (has.entity, has.attribute, has.claim_key) == (
        lasts.entity,
        lasts.attribute,
        lasts.claim_key,
    )


def test_a_contrast_after_the_value_does_not_scope_it() -> None:
    email = (
        "Short version: the P-9 router battery lasts 10 hours in eco mode, not the figure we "
        "have been quoting to customers."
    )
    claim = only(email)
    assert (claim.claim_key, claim.scope) == ("p-9 router battery life", {})
    spec = only("The battery life of the P-9 router is 14 hours in eco mode.")
    assert (spec.claim_key, spec.scope) == (claim.claim_key, claim.scope)


def test_a_generic_or_scope_subject_is_not_an_entity() -> None:
    claim = only("The interactive assistant has a 250-token output limit.")
    assert claim.entity is None
    assert (claim.attribute, claim.claim_key) == ("output limit", "output limit")
    assert claim.scope == {"request_type": "interactive"}


def test_named_words_split_from_the_attribute() -> None:
    claim = only("The Acme notice period is 30 days.")
    assert (claim.entity, claim.attribute) == ("acme", "notice period")
    owner = only("Lakeview's population is 12,000.")
    of_name = only("The population of Lakeview is 12,000.")
    assert owner.entity == of_name.entity == "lakeview"
    assert owner.claim_key == of_name.claim_key == "lakeview population"


def test_a_verb_naming_the_attribute_keeps_it_past_a_trailing_phrase() -> None:
    # the words after the value qualify the weight; they never become the attribute
    bare = only("The Corvid R4 drone weighs 1.2 kg.")
    tail = only("The Corvid R4 drone weighs 1,150 g without its spare propellers.")
    assert bare.attribute == tail.attribute == "weight"
    assert bare.claim_key == tail.claim_key
    assert check_texts(
        "The Corvid R4 drone weighs 1.2 kg.",
        "The Corvid R4 drone weighs 1,150 g without its spare propellers.",
    ).relation in (Relation.CONFLICT, Relation.AMBIGUOUS)


def test_different_entities_get_different_keys_and_never_conflict() -> None:
    acme = only("Acme has a 30-day return window.")
    globex = only("Globex has a 45-day return window.")
    assert (acme.entity, globex.entity) == ("acme", "globex")
    assert acme.attribute == globex.attribute == "return window"
    result = check_texts("Acme has a 30-day return window.", "Globex has a 45-day return window.")
    assert result.relation != Relation.CONFLICT


def test_a_name_with_a_label_is_still_a_claim_about_the_name() -> None:
    (claim,) = [c for c in extract("Lakeview is a market town.") if c.kind.value == "categorical"]
    assert (claim.entity, claim.claim_key) == ("lakeview", "lakeview")
    assert claim.value == "a market town"


def test_legal_form_suffixes_are_one_entity() -> None:
    corp = only("The Acme Corp notice period is 30 days.")
    plain = only("The Acme notice period is 45 days.")
    assert corp.entity == plain.entity == "acme"


# ----------------------------------------------------------------- the document's subject


def test_it_and_the_company_refer_to_the_register_title() -> None:
    text = "It has a battery life of 9 hours.\nThe company employs 250 people."
    battery, staff = extract(text, document_subject="P-9 Router User Guide")
    # a model code's kind word is no part of its name: the title names the P-9
    assert (battery.entity, battery.attribute) == ("p-9", "battery life")
    assert battery.claim_key == only("The P-9's battery lasts 11 hours.").claim_key
    assert (staff.entity, staff.attribute) == ("p-9", "headcount")


def test_without_a_title_the_first_heading_is_the_subject() -> None:
    text = "# Acme Employee Handbook (2026 edition)\n\nWe employ 250 people.\n"
    (claim,) = extract(text)
    assert (claim.entity, claim.attribute) == ("acme", "headcount")


def test_a_pronoun_without_any_subject_names_no_entity() -> None:
    claim = only("It has a battery life of 9 hours.")
    assert claim.entity is None
    assert claim.claim_key == "battery life"


def test_a_topic_title_is_not_an_entity() -> None:
    text = "It has a battery life of 9 hours."
    for title in ("Leave policy", "Interim report Q1 (original filing)", "Leaving the company"):
        assert only(text, document_subject=title).entity is None, title


def test_a_sentence_that_names_its_entity_ignores_the_title() -> None:
    claim = only("Globex has a 45-day return window.", document_subject="Acme Handbook")
    assert claim.entity == "globex"


# ----------------------------------------------------------------- synonyms and lemmas


def test_attribute_synonyms_share_one_attribute() -> None:
    population = {
        only(t).claim_key
        for t in (
            "Lakeview has 12,000 inhabitants.",
            "Lakeview has 12,000 residents.",
            "Lakeview's population is 12,000.",
        )
    }
    assert population == {"lakeview population"}
    leave = {
        only(t).attribute
        for t in (
            "Employees get 25 days of annual leave.",
            "Staff receive 25 vacation days per year.",
            "Employees are entitled to 25 days of paid time off.",
        )
    }
    assert leave == {"leave"}
    money = {
        only(t).attribute
        for t in ("Turnover was $5 million in 2024.", "Sales were $5 million in 2024.")
    }
    assert money == {"revenue"}
    heads = {
        only(t).attribute
        for t in ("The number of employees is 250.", "The company employs 250 people.")
    }
    assert heads == {"headcount"}


def test_irregular_forms_fold_to_their_lemma() -> None:
    assert {fold_word(w) for w in ("grew", "grows", "growing", "grow")} == {"grow"}
    assert fold_word("sold") == "sell"
    assert fold_word("children") == "child"
    assert fold_word("policies") == "policy"
    assert fold_word("data") == "data"  # not the table's "datum"
    assert fold_word("series") == "series"  # not the suffix rule's "sery"
    assert fold_word("Acme's") == "acme"
    # a word the table does not know still folds its plural
    assert fold_word("anonymises") == "anonymise"


# ----------------------------------------------------------------- invisible characters


def test_invisible_characters_never_split_a_key_and_quotes_stay_verbatim() -> None:
    plain = only("The dividend for the period was 12 cents per share.")
    for mark in ("\u00ad", "\u200b", "\u200e", "\u2060"):
        text = f"The divi{mark}dend for the period was 12 cents per share."
        claim = only(text)
        assert claim.claim_key == plain.claim_key == "dividend", repr(mark)
        assert claim.subject == "dividend"
        assert claim.quote == text  # the source's exact characters
        assert mark in claim.quote


def test_a_soft_hyphen_does_not_hide_a_conflict() -> None:
    result = check_texts(
        "The dividend for the period was 12 cents per share.",
        "The divi\u00addend for the period was 30 cents per share.",
    )
    assert result.relation == Relation.CONFLICT


def test_a_soft_hyphen_does_not_escape_a_high_risk_phrase() -> None:
    settings = MaterialitySettings(high_risk_predicates=["dividend"])
    for text in (
        "The divi\u00addend for the period was 12 cents per share.",
        "The Moallu board declared a divi\u200bdend of 12 cents per share.",
    ):
        assert is_high_risk(facts_from_claim(only(text)), settings), repr(text)


def test_questions_are_read_through_invisible_characters() -> None:
    assert parse_question("What was the divi\u00addend for the period?").claim_key == "dividend"
    assert parse_question("What is the notice\u200b period?").claim_key != ""


# ----------------------------------------------------------------- questions


def test_questions_in_different_words_ask_for_the_same_attribute() -> None:
    life = parse_question("What is the P-9's battery life?")
    last = parse_question("How long does the P-9 router's battery last?")
    assert life.attribute == last.attribute == "battery life"
    assert (life.entity, last.entity) == ("p-9", "p-9 router")
    assert parse_question("What is the population of Lakeview?").entity == "lakeview"
    assert parse_question("How many inhabitants does Lakeview have?").attribute == "population"
    leave = parse_question("How many days of annual leave do employees get?")
    assert leave.attribute == "leave"
    assert leave.scope == {"period": "annual", "party": "employee"}


# ----------------------------------------------------------------- the wire and the store


def test_extract_json_lists_entity_and_attribute(tmp_path: Path) -> None:
    source = tmp_path / "guide.md"
    source.write_text("# P-9 Router User Guide\n\nIt has a battery life of 9 hours.\n")
    result = CliRunner().invoke(app, ["extract", str(source), "--json"])
    assert result.exit_code == 0, result.output
    (claim,) = json.loads(result.output)
    assert (claim["entity"], claim["attribute"]) == ("p-9", "battery life")
    schema = CliRunner().invoke(app, ["schema"])
    fields = json.loads(schema.output)["$defs"]["Claim"]["properties"]
    assert {"entity", "attribute"} <= set(fields)


def test_entity_and_attribute_survive_the_store(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'claims.db'}"
    upgrade(url)
    engine = make_engine(url)
    text = "# P-9 Router User Guide\n\nIt has a battery life of 9 hours. Batch jobs cost $4."
    try:
        with transaction(engine) as session:
            version, _ = SourceRepository(session).add_version("guide", text)
            claims = extract(text, source_id="guide", source_version_id=version.id)
            GenerationRepository(session).ensure(claims[0].generation, "test")
            ClaimRepository(session).add_all(claims)  # the bulk insert path
        with transaction(engine) as session:
            rows = session.execute(select(ClaimRow.id, ClaimRow.entity, ClaimRow.attribute)).all()
            repository = ClaimRepository(session)
            back = [repository.by_id(c.id) for c in claims]
    finally:
        engine.dispose()
    assert {(r.entity, r.attribute) for r in rows} == {(c.entity, c.attribute) for c in claims}
    assert [(c.entity, c.attribute) for c in back if c] == [(c.entity, c.attribute) for c in claims]
    assert ("p-9", "battery life") in {(c.entity, c.attribute) for c in claims}


def test_the_pipeline_passes_the_register_title_as_the_subject(tmp_path: Path) -> None:
    corpus = tmp_path / "sources"
    corpus.mkdir()
    (corpus / "guide.txt").write_text("It has a battery life of 9 hours.\n")
    (corpus / "leaflet.txt").write_text("Its battery lasts 11 hours.\n")
    register = tmp_path / "register.yaml"
    register.write_text(
        yaml.safe_dump(
            {
                "tiers": ["official"],
                "sources": {
                    "guide": {"title": "P-9 Router User Guide", "tier": "official"},
                    "leaflet": {"title": "P-9 Router leaflet", "tier": "official"},
                },
            }
        )
    )
    url = f"sqlite:///{tmp_path / 'claims.db'}"
    upgrade(url)
    store = ClaimStore(database_url=url)
    run_pipeline(
        dg.DagsterInstance.ephemeral(),
        store=store,
        sources=SourcesResource(sources_dir=str(corpus), register_file=str(register)),
    )
    with store.transaction() as session:
        rows = session.execute(select(ClaimRow.source_id, ClaimRow.claim_key)).all()
    assert sorted(rows) == [
        ("guide", "p-9 battery life"),
        ("leaflet", "p-9 battery life"),
    ]
