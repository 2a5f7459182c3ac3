"""Units seen in news and reports, number words, vague amounts, and the promise that no text
can produce a unit without a canonical unit (the pipeline's blocking canonical-unit check).

Every sentence here is our own, written the way a reporter or an analyst would.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claims.extraction import extract
from claims.units import normalize
from claims.units.counted import singular
from claims.units.lexicon import lexicon, lookup


def _quantity(text: str):  # noqa: ANN202 - a Claim
    claims = [c for c in extract(text) if c.kind.value == "quantity"]
    assert len(claims) == 1, [(c.value, c.unit) for c in claims]
    return claims[0]


@pytest.mark.parametrize(
    ("text", "value", "canonical_value", "canonical_unit"),
    [
        ("The new hatchback has a 300 hp engine.", 300, 300 * 745.6998715822702, "W"),
        ("Its diesel twin makes 150 bhp.", 150, 150 * 745.6998715822702, "W"),
        ("The FTSE 100 fell 120 points on Monday.", 120, 120, "point"),
        ("A pint of milk now costs 45p.", 45, 0.45, "GBP"),
        ("A day pass costs ¥1,200 in Osaka.", 1200, 1200, "JPY"),
        ("The takeover is worth $3bn.", 3e9, 3e9, "USD"),
        ("Profits rose to £45m last year.", 45e6, 45e6, "GBP"),
        ("The fund holds €2.5 bn in bonds.", 2.5e9, 2.5e9, "EUR"),
        ("The speed limit here is 60kph.", 60, 60 / 3.6, "m/s"),
        ("The coastal path is 5km long.", 5, 5000, "m"),
        ("Take 10mg with water.", 10, 0.01, "g"),
        ("The phone ships with 3GB of memory.", 3, 3e9, "B"),
        ("Inflation eased to 2.1 per cent in June.", 2.1, 2.1, "%"),
        ("The broadband plan offers 500 Mbps downloads.", 500, 500e6 / 8, "B/s"),
    ],
)
def test_news_units(text: str, value: float, canonical_value: float, canonical_unit: str) -> None:
    claim = _quantity(text)
    assert claim.value == pytest.approx(value)
    assert claim.canonical_value == pytest.approx(canonical_value)
    assert claim.canonical_unit == canonical_unit


def test_percentage_points_are_their_own_unit() -> None:
    points = _quantity("The central bank raised rates by 0.25 percentage points.")
    percent = _quantity("Unemployment stands at 4.2 per cent.")
    assert points.canonical_unit == "pp" and points.dimension == "percentage_point"
    assert percent.canonical_unit == "%" and percent.dimension == "percent"
    assert normalize(25, "basis points") is not None


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("The firm hired three hundred people in March.", 300, "people"),
        ("The city has two million residents.", 2e6, "residents"),
        ("Around a quarter of a million people marched on Saturday.", 250_000, "people"),
        ("Half a million households lost power.", 500_000, "households"),
        ("The council approved twenty-five new homes.", 25, "homes"),
        ("Two hundred and fifty staff signed the letter.", 250, "staff"),
    ],
)
def test_number_words_with_multipliers(text: str, value: float, unit: str) -> None:
    claim = _quantity(text)
    assert claim.value == pytest.approx(value)
    assert claim.unit == unit
    assert claim.canonical_unit is not None


@pytest.mark.parametrize(
    "text",
    [
        "One of the drivers left early.",
        "No one answered the phone.",
        "The two of them met in May.",
        "They said one thing and did another.",
    ],
)
def test_number_words_without_a_counted_noun_are_no_quantity(text: str) -> None:
    assert [c for c in extract(text) if c.kind.value == "quantity"] == []


@pytest.mark.parametrize(
    ("text", "low", "high", "canonical_unit"),
    [
        ("The scheme cost hundreds of millions of euros.", 1e8, 1e9, "EUR"),
        ("Dozens of staff left after the merger.", 24, 144, "people"),
        ("Thousands of people signed the petition.", 1e3, 1e4, "people"),
        ("Tens of thousands of fans filled the square.", 1e4, 1e5, "fan"),
    ],
)
def test_vague_amounts_are_approximate_ranges(
    text: str, low: float, high: float, canonical_unit: str
) -> None:
    claim = _quantity(text)
    assert claim.bound.value == "range" and claim.approximate
    assert (claim.low, claim.high) == (pytest.approx(low), pytest.approx(high))
    assert claim.canonical_unit == canonical_unit


def test_vague_words_without_a_unit_are_no_quantity() -> None:
    assert [c for c in extract("Thousands of them came.") if c.kind.value == "quantity"] == []


def test_every_lexicon_surface_converts() -> None:
    lex = lexicon()
    for surface in list(lex.exact) + list(lex.folded):
        entry = lookup(surface)
        assert entry is not None, surface
        assert normalize(1.0, surface) is not None, surface


def test_units_with_powers_meet_their_spelled_forms() -> None:
    assert lookup("g cm−3").dimension == lookup("g/cm3").dimension == "mass/volume"
    assert lookup("g cm−3").factor == pytest.approx(lookup("g/cm3").factor)
    assert lookup("m s−1").dimension == lookup("km/h").dimension == lookup("kph").dimension
    assert lookup("mmol L−1").factor == pytest.approx(lookup("mM").factor)
    assert lookup("euros^3") is None


def test_plural_folding_of_counted_nouns() -> None:
    assert singular("cases") == "case" and singular("classes") == "class"
    assert singular("batches") == "batch" and singular("houses") == "house"


_WORDS = [
    "the",
    "a",
    "to",
    "in",
    "more",
    "less",
    "fell",
    "rose",
    "is",
    "was",
    "of",
    "and",
    "per",
    "cent",
    "points",
    "p",
    "hp",
    "bn",
    "m",
    "k",
    "kph",
    "mg",
    "GB",
    "days",
    "staff",
    "people",
    "hundreds",
    "thousands",
    "two",
    "three",
    "million",
    "a quarter of a",
    "half a",
    "about",
    "up to",
    "-",
    "–",
    "±",
    "×10",
    "^",
    "°",
    "°C",
    "N",
    "May",
    "Route",
    "FTSE",
    "[3]",
    "(2,4)",
    "1.",
    "2)",
    "\n",
    "\n\n",
    "## ",
    "- ",
    "$",
    "£",
    "€",
    "¥",
    "%",
    "wt%",
    "cm−3",
    "s−1",
    "so-called",
    "well-known",
    "x",
    "/",
    "per year",
    "a day",
    "\u00ad",
    "\u200b",
]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(_WORDS),
            st.integers(min_value=0, max_value=100_000).map(str),
            st.floats(min_value=0, max_value=1e6, allow_nan=False).map(lambda f: f"{f:.2f}"),
        ),
        min_size=1,
        max_size=25,
    ),
    st.sampled_from([" ", "", "  "]),
)
def test_no_prose_yields_a_unit_without_a_canonical_unit(words: list[str], glue: str) -> None:
    text = glue.join(words) + "."
    for claim in extract(text):
        if claim.kind.value == "quantity" and claim.unit is not None:
            assert claim.canonical_unit, (text, claim.unit)
