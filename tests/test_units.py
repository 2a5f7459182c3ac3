"""Unit normalisation: one pint registry, a surface lexicon, cached factors (issue 3, point 4)."""

from __future__ import annotations

import math

import pytest

from claims.units import (
    application_registry,
    conversion,
    currency_for_prefix,
    lookup,
    normalize,
)


@pytest.mark.parametrize(
    ("value", "unit", "canonical", "canonical_unit", "dimension"),
    [
        (250, "ms", 0.25, "s", "time"),
        (30, "days", 2_592_000, "s", "time"),
        (30, "日", 2_592_000, "s", "time"),
        (30, "天", 2_592_000, "s", "time"),
        (30, "நாட்கள்", 2_592_000, "s", "time"),
        (30, "يوما", 2_592_000, "s", "time"),
        (30, "రోజులు", 2_592_000, "s", "time"),
        (1, "MiB", 1_048_576, "B", "data"),
        (1, "MB", 1_000_000, "B", "data"),
        (12, "cents", 0.12, "USD", "USD"),
        (12, "cents per share", 0.12, "USD/share", "USD/share"),
        (3, "€", 3, "EUR", "EUR"),
        (25, "bp", 0.25, "%", "percent"),
        (60, "requests per minute", 1, "request/s", "request/time"),
        (5, "mg/kg", 5, "mg/kg", "dosage"),
        (500, "mL", 0.5, "L", "volume"),
        (212, "°F", 100, "degC", "temperature"),
        (2, "kg", 2000, "g", "mass"),
    ],
)
def test_known_units_normalise_to_their_canonical_unit(
    value: float, unit: str, canonical: float, canonical_unit: str, dimension: str
) -> None:
    result = normalize(value, unit)
    assert result is not None
    assert math.isclose(result.canonical_value, canonical, rel_tol=1e-9)
    assert result.canonical_unit == canonical_unit
    assert result.dimension == dimension


def test_currencies_are_separate_dimensions() -> None:
    usd, eur, gbp = lookup("dollars"), lookup("euros"), lookup("pence")
    assert usd is not None and eur is not None and gbp is not None
    assert {usd.dimension, eur.dimension, gbp.dimension} == {"USD", "EUR", "GBP"}
    assert currency_for_prefix("$") == "USD"
    assert currency_for_prefix("US$") == "USD"
    assert currency_for_prefix("£") == "GBP"


def test_bp_is_a_basis_point_not_a_typographic_point() -> None:
    entry = lookup("bp")
    assert entry is not None and entry.dimension == "percent"


def test_unknown_surfaces_are_never_free_parsed_by_pint() -> None:
    # pint would happily parse all of these; the lexicon does not know them.
    for surface in ["meter * 5", "kilometer ** 2", "furlong", "2 meters", "", "   ", "per"]:
        assert lookup(surface) is None
        assert normalize(1.0, surface) is None


def test_overflowing_values_do_not_normalise() -> None:
    assert normalize(1e308, "km") is None
    assert normalize(float("inf"), "ms") is None


def test_conversion_is_cached_so_normalisation_is_a_multiply() -> None:
    first = conversion("ms")
    assert first is conversion("ms")
    assert first is not None and first.factor == 0.001 and first.offset == 0.0


def test_registry_knows_project_units() -> None:
    registry = application_registry()
    assert registry.Quantity(100, "US_cent").to("USD").magnitude == 1
    assert str(registry.Quantity(1, "token").dimensionality) == "[token]"
