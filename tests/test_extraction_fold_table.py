"""The digit folding table is built fast and still maps every decimal digit of Unicode."""

from __future__ import annotations

import unicodedata

from claims.extraction.resources import _fold_table


def test_every_decimal_digit_folds_to_its_ascii_digit() -> None:
    table = _fold_table()
    for code in range(0x80, 0x30000):
        digit = unicodedata.decimal(chr(code), None)
        if digit is not None:
            assert table.get(code) == ord("0") + digit, hex(code)
    # and nothing that is not a digit folds to one
    digits = {code for code, folded in table.items() if chr(folded).isdigit()}
    assert all(unicodedata.decimal(chr(code), None) is not None for code in digits)
    assert "١٢٣ ५० ௮".translate(table) == "123 50 8"
