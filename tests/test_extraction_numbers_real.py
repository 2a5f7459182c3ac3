"""Numbers in real prose that are not the asserted value, and value spans as people write them.

Issue 12 point 5: a day of the month, a list number, a reference marker, a coordinate or a
number inside a name is never the value of a claim; bound words, ranges, "±" and scientific
units belong to the value's span. Every sentence here is our own.
"""

from __future__ import annotations

import pytest

from claims.extraction import extract
from claims.extraction.mentions import MentionScanner


def _values(text: str) -> list[tuple[str, str | None]]:
    """(value span text, unit) of every quantity claim."""
    out = []
    for claim in extract(text):
        if claim.kind.value == "quantity" and claim.value_span is not None:
            out.append((text[claim.value_span.start : claim.value_span.end], claim.unit))
    return out


def _spans(text: str) -> list[str]:
    return [span for span, _ in _values(text)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("The rollout starts on 3 May and the trial lasts 14 days.", "14 days"),
        ("On March 31 the backlog stood at 412 tickets.", "412 tickets"),
        ("Staff get 25 days of leave [12], as the 2023 survey asked.", "25 days"),
        ("Churn fell to 4% (see refs. 3, 7 and 9) after the change.", "4%"),
        ("The hut sits at 51.5°N 0.12°W and sleeps 8 people.", "8 people"),
        ("The FTSE 100 fell 120 points on Tuesday.", "120 points"),
        ("Our Boeing 747 carries 416 passengers on this route.", "416 passengers"),
        ("Laptops still on Windows 11 need 16 GB of memory.", "16 GB"),
        ("Traffic on Route 66 grew by 12% last summer.", "12%"),
        ("Under Section 4 the notice period is 30 days.", "30 days"),
        ("During COVID-19 the office held 40 desks.", "40 desks"),
        ("Phases 3, 5 and 7 each took 6 weeks.", "6 weeks"),
        ("As Figs. 2 and 3 show, the rate reached 7.5 mg.", "7.5 mg"),
        ("Lead levels in the Mg(ClO4)2 samples stayed below 2 ppm.", "below 2 ppm"),
        ("The sensor drifted by 2σ, which is roughly 0.3 °C.", "roughly 0.3 °C"),
        ("Revenue rose 9%, as reported in earlier work [4,17-19].", "9%"),
        ("Attendance doubled (26,29) to about 300 guests.", "about 300 guests"),
    ],
)
def test_incidental_numbers_are_not_values(text: str, value: str) -> None:
    assert _spans(text) == [value]


def test_list_item_numbers_start_no_quantity() -> None:
    text = (
        "Steps for the night shift:\n1. Check the 3 pumps.\n2) Log every alarm within 5 minutes.\n"
    )
    assert _spans(text) == ["3 pumps", "within 5 minutes"]


def test_footnote_marker_after_a_word_is_not_a_value() -> None:
    assert _spans("The deposit is 200 euros^3 per tenant.") == ["200 euros"]
    assert _spans("Refunds take 10 days, as stated^2.") == ["10 days"]


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("Venous blood was taken after at least 5 hours of fasting.", "at least 5 hours"),
        ("Pore diameters were > 10 nm in every sample.", "> 10 nm"),
        ("The flux reached ~1500 kg s−1 at the peak.", "~1500 kg s−1"),
        ("The film contained 80 vol% of the polymer.", "80 vol%"),
        ("Sulphate made up 1.0–1.7 wt.% of the soil.", "1.0–1.7 wt.%"),
        ("Grains were 100 μm across.", "100 μm"),
        ("The gas was heated to 1200 K before cooling.", "1200 K"),
        ("Young's modulus was 3.19 ± 0.10 GPa for the coating.", "3.19 ± 0.10 GPa"),
        ("A decline of 1.5‰ was recorded in the core.", "1.5‰"),
        ("The density was 1 g cm−3 throughout.", "1 g cm−3"),
        ("The band appeared at 1091 cm−1 in both spectra.", "1091 cm−1"),
        ("Temperatures ranged from 10 °C to 25 °C over the day.", "from 10 °C to 25 °C"),
        ("The pressure was 1×10−5 Torr in the chamber.", "1×10−5 Torr"),
        ("Output rose 3.7-fold after the upgrade.", "3.7-fold"),
    ],
)
def test_scientific_value_spans_include_bound_and_unit(text: str, span: str) -> None:
    assert span in _spans(text)


def test_plus_minus_is_a_range_around_the_value() -> None:
    claim = next(c for c in extract("The fibre strength was 3.19 ± 0.10 GPa.") if c.unit)
    assert claim.low == pytest.approx(3.09)
    assert claim.high == pytest.approx(3.29)
    assert claim.canonical_unit == "Pa"


def test_times_ten_to_the_power() -> None:
    claim = next(c for c in extract("The chamber held 1×10−5 Torr of argon."))
    assert claim.value == pytest.approx(1e-5)
    assert claim.unit == "Torr"


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("We surveyed 12 members of the board.", "members"),
        ("The warehouse holds 1200 pallets.", "pallets"),
        ("The team hired 40 people this year.", "people"),
    ],
)
def test_counted_nouns_stay_units(text: str, unit: str) -> None:
    assert [u for _, u in _values(text)] == [unit]


@pytest.mark.parametrize(
    "text",
    [
        "Of the applicants, 30 passed and 5 more are waiting.",
        "Prices moved from 5 to 10 in a week.",
        "Only 3 remain, says the manager.",
    ],
)
def test_no_verb_preposition_or_adverb_becomes_a_unit(text: str) -> None:
    for _, unit in _values(text):
        assert unit is None


def test_invisible_characters_inside_numbers_keep_offsets() -> None:
    scanner = MentionScanner()
    for text in (
        "The fee is 1\u00ad000 dollars.",
        "The fee is 1\u200b000 dollars.",
        "Wait 30\u200b days.",
    ):
        mentions = scanner.scan(text)
        assert len(mentions.quantities) == 1, text
        q = mentions.quantities[0]
        assert q.value in (1000.0, 30.0)
        assert text[q.end - 1] == "s"
        assert text[q.start].isdigit()


def test_invisible_characters_in_extract_quote_the_original_text() -> None:
    text = "The annual fee is 1\u00ad250 dollars per seat."
    claim = extract(text)[0]
    assert claim.value == 1250.0
    assert text[claim.value_span.start : claim.value_span.end] == "1\u00ad250 dollars per seat"


@pytest.mark.parametrize(
    ("text", "span", "low", "high"),
    [
        (
            "The carbon shift was −27.2 to −23.1‰ across the boundary.",
            "−27.2 to −23.1‰",
            -27.2,
            -23.1,
        ),
        ("Background values sat at ∼−25.9 to −26.5‰ before it.", "∼−25.9 to −26.5‰", -26.5, -25.9),
    ],
)
def test_ranges_of_negative_numbers(text: str, span: str, low: float, high: float) -> None:
    claim = next(c for c in extract(text) if c.kind.value == "quantity")
    assert text[claim.value_span.start : claim.value_span.end] == span
    assert (claim.low, claim.high) == (pytest.approx(low), pytest.approx(high))


def test_decimals_without_a_leading_zero_and_tolerances() -> None:
    assert _spans("The effect held, p < .001, in both years.") == ["< .001"]
    assert _spans("Readings carry a tolerance of ±5% in the lab.") == ["±5%"]
    assert _spans("Markers of TRA-1–60 stayed high in 9 samples.") == ["9 samples"]


def test_a_day_of_the_month_is_a_time_without_dates() -> None:
    (claim,) = extract("By April 6, the clinic had reported 392 cases.")
    assert claim.value == 392.0 and "april" not in claim.claim_key
    assert claim.time.text == "By April 6" and claim.time.start is None


def test_dates_written_with_a_spaced_comma() -> None:
    (claim,) = extract("As of April 26 , 2012 , the film had grossed $12,389,530 at home.")
    assert claim.value == 12_389_530
    assert claim.time.start is not None and claim.time.start.isoformat() == "2012-04-26"
