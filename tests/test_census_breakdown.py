"""A census sentence's breakdown and its estimate (issue 13, session 14).

"a total population of 18,412 of whom 9,307 are men" counts the men after "of whom": the
breakdown is a list of its own, so its items are not more values of the total (with or
without the comma before "of whom"); "of which 11.9 square miles is land" likewise. An
"estimated population" is the population (the estimate is how the figure was got, as a
census is)."""

from __future__ import annotations

from claims.extraction import extract
from claims.models import Claim, ValueKind


def _counts(text: str) -> list[tuple[str | None, str, float]]:
    claims: list[Claim] = extract(text, source_id="doc01")
    return [
        (c.entity, c.attribute, float(c.value))  # type: ignore[arg-type]
        for c in claims
        if c.kind is ValueKind.QUANTITY
    ]


def test_men_after_of_whom_are_no_population() -> None:
    counts = _counts(
        "Kettleby is a market town in Leicestershire. In 2011 it had a total population of "
        "6,210 of whom 3,020 were men and 3,190 were women."
    )
    assert [v for _, attribute, v in counts if attribute == "population"] == [6210.0]


def test_land_after_of_which_is_no_area() -> None:
    counts = _counts(
        "Kettleby is a market town in Leicestershire. The parish has a total area of 12.3 "
        "square miles of which 11.9 square miles is land."
    )
    assert [v for _, attribute, v in counts if attribute == "area"] == [12.3]


def test_the_comma_before_of_whom_reads_the_same() -> None:
    # near miss: the comma already ended the total's list
    counts = _counts(
        "Kettleby is a market town in Leicestershire. In 2011 it had a total population of "
        "6,210, of whom 3,020 were men."
    )
    assert [v for _, attribute, v in counts if attribute == "population"] == [6210.0]


def test_an_estimated_population_is_the_population() -> None:
    counts = _counts(
        "Kettleby is a market town in Leicestershire. It has an estimated total population "
        "of 6,210."
    )
    assert ("kettleby", "population", 6210.0) in counts


def test_each_part_of_the_breakdown_keys_what_it_counts() -> None:
    counts = _counts(
        "Kettleby is a market town in Leicestershire. In 2011 it had a total population of "
        "6,210 of whom 3,020 were men and 3,190 women; 880 were urban dwellers."
    )
    assert ("kettleby", "man", 3020.0) in counts
    assert ("kettleby", "woman", 3190.0) in counts


def test_a_later_part_with_its_own_copula_is_not_the_first_parts() -> None:
    counts = _counts(
        "Kettleby is a market town in Leicestershire. The parish had 6,210 people, of whom "
        "3,190 are women and 3,020 are men."
    )
    assert ("kettleby", "man", 3020.0) in counts


def test_a_noun_after_the_last_item_is_still_shared() -> None:
    # near miss: no item says what it counts, so "versions" names every item
    claims = extract(
        "The Kestrel phone comes in 16 GB, 32 GB and 64 GB versions.", source_id="doc01"
    )
    keys = {c.attribute for c in claims if c.kind is ValueKind.QUANTITY}
    assert len(keys) == 1


def test_a_page_reference_is_no_figure() -> None:
    # a citation's "p. 45" names a page, like "page 45" and "No. 5": no claim of its own
    claims = extract(
        "Kettleby is a market town in Leicestershire. Its market charter dates from the "
        "reign of Henry III. Brennan (2017), p. 45.",
        source_id="doc01",
    )
    assert 45.0 not in {c.value for c in claims if c.kind is ValueKind.QUANTITY}
