"""Structural readers over the shipped parser, on sentences written the way office documents
put things. Each test parses real text with the real model; nothing is hand-annotated."""

from __future__ import annotations

import pytest

from claims.parser import syntax


def parse(text: str):
    return syntax.parse_sentences([text])[0]


def test_batch_keeps_order_and_parses_each_text_as_one_sentence():
    texts = [
        "The gym opens at 6 am. Members need a card.",
        "Parking is free for guests.",
    ]
    docs = syntax.parse_sentences(texts)
    assert [d.text for d in docs] == texts
    assert len(list(docs[0].sents)) == 1


def test_possessive_subject_gives_head_noun_and_owner():
    subj = syntax.subject(parse("The P-9 router's battery lasts 11 hours."))
    assert subj is not None
    assert subj.head.text == "battery"
    assert subj.owner is not None and subj.owner.head == "router"
    assert subj.phrase.text == "The P-9 router's battery"


def test_of_phrase_owner():
    subj = syntax.subject(parse("The capacity of the new water tank is 40 litres."))
    assert subj is not None and not subj.passive
    assert subj.head.text == "capacity"
    assert subj.owner is not None and subj.owner.text == "water tank"


def test_passive_subject():
    subj = syntax.subject(parse("Contractors are paid within 45 days of the invoice date."))
    assert subj is not None and subj.passive and subj.head.text == "Contractors"


def test_compound_head_keeps_its_compounds():
    subj = syntax.subject(parse("The notice period is three months."))
    assert subj is not None and subj.head.text == "notice period"


def test_predicate_of_copular_and_verbal_clauses():
    pred = syntax.predicate(parse("The licence is transferable."))
    assert (pred.word.text, pred.copula, pred.negated) == ("transferable", "is", False)
    pred = syntax.predicate(parse("Attrition went up in May."))
    assert (pred.word.head_lemma, pred.particle) == ("go", "up")


def test_not_negates_the_whole_copular_clause():
    doc = parse("The licence is not transferable.")
    assert syntax.predicate(doc).negated
    licence = next(t for t in doc if t.text == "licence")
    assert syntax.is_negated(licence)
    [negation] = syntax.negations(doc)
    assert negation.cue.text == "not" and "transferable" in negation.scope.text


@pytest.mark.parametrize(
    "text",
    [
        "The hotel does not include breakfast.",
        "Visitors may never park on the lawn.",
        "No refunds are given after the first week.",
        "The course isn't a prerequisite for the diploma.",
        "There is no parking at the north entrance.",
        "The warehouse no longer ships orders to Canada.",
        "The shop is no longer open on Sundays.",
    ],
)
def test_negation_cues_reach_the_main_predicate(text):
    assert syntax.predicate(parse(text)).negated


def test_negation_inside_a_relative_clause_stays_there():
    doc = parse("The invoice that was not paid is still open.")
    assert not syntax.predicate(doc).negated
    paid = next(t for t in doc if t.text == "paid")
    assert syntax.is_negated(paid)


def test_positive_statement_has_no_negation():
    doc = parse("The licence is transferable to a family member.")
    assert syntax.negations(doc) == []
    assert not any(syntax.is_negated(t) for t in doc)


def test_asserted_value_is_the_duration_not_a_date():
    doc = parse("Contractors are paid within 45 days of the invoice date.")
    value = syntax.asserted_value(doc)
    assert value is not None and value.number.text == "45"
    assert value.attached_to is not None and value.attached_to.head == "days"


def test_asserted_value_of_a_verb_with_a_measure():
    value = syntax.asserted_value(parse("The P-9 router's battery lasts 11 hours."))
    assert value is not None and value.number.text == "11"


def test_day_of_month_and_year_are_dates_not_the_value():
    doc = parse("On 3 May 2024 the board approved a budget of 40 million euros.")
    roles = {r.number.text: r.role for r in syntax.number_roles(doc)}
    assert roles["3"] == "date" and roles["2024"] == "date"
    value = syntax.asserted_value(doc)
    assert value is not None and value.number.text == "40 million"


def test_numbers_inside_names_are_not_the_value():
    doc = parse("The FTSE 100 closed 40 points higher on Friday.")
    roles = {r.number.text: r.role for r in syntax.number_roles(doc)}
    assert roles["100"] == "name"
    assert syntax.asserted_value(doc).number.text == "40"


def test_parenthetical_and_list_marker_numbers_are_not_the_value():
    doc = parse("The deposit (see clause 4) is 500 euros.")
    roles = {r.number.text: r.role for r in syntax.number_roles(doc)}
    assert roles["4"] == "parenthetical"
    assert syntax.asserted_value(doc).number.text == "500"
    doc = parse("2) Staff receive 25 days of annual leave.")
    roles = {r.number.text: r.role for r in syntax.number_roles(doc)}
    assert roles["2"] == "list_marker"
    assert syntax.asserted_value(doc).number.text == "25"


def test_change_verb_with_amount_and_direction():
    [change] = syntax.changes(parse("Sales climbed 7% in May."))
    assert change.direction == "up" and change.verb.head_lemma == "climb"
    assert change.by is not None and change.by.text == "7%"
    [change] = syntax.changes(parse("Attrition went down in May."))
    assert change.direction == "down" and change.by is None


def test_change_from_and_to_levels():
    [change] = syntax.changes(parse("The error rate fell from 5% to 3% after the update."))
    assert change.direction == "down"
    assert change.source is not None and change.source.text == "5%"
    assert change.to is not None and change.to.text == "3%"


def test_comparisons_with_than_and_er_adjectives():
    [cmp] = syntax.comparisons(parse("Refunds take more than 10 working days."))
    assert cmp.word.text == "more" and cmp.value is not None and cmp.value.text == "10"
    [cmp] = syntax.comparisons(parse("The new kettle is lighter than the old one."))
    assert cmp.word.text == "lighter"
    assert cmp.than is not None and "old one" in cmp.than.text


def test_coordinated_list_items_are_separate_phrases():
    doc = parse("Each room has a desk, a kettle and a small safe.")
    [coordination] = syntax.coordinations(doc)
    assert [i.text for i in coordination.items] == ["a desk", "a kettle", "a small safe"]
    assert coordination.conjunction == "and"


def test_listed_numbers_are_each_read():
    doc = parse("The fees are 10, 20 and 30 euros.")
    numbers = [r.number.text for r in syntax.number_roles(doc)]
    assert numbers == ["10", "20", "30"]


def test_pronoun_subject_is_flagged_for_the_document_subject():
    subj = syntax.subject(parse("It lasts about 9 hours on a single charge."))
    assert subj is not None and subj.pronoun and subj.head.text == "It"


def test_name_number_beside_a_measured_value():
    doc = parse("Route 66 is 3940 km long.")
    roles = {r.number.text: r.role for r in syntax.number_roles(doc)}
    assert roles == {"66": "name", "3940": "asserted"}
