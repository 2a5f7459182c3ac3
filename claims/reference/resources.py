"""The reference profile's data files (``claims/reference/data``), read like the extractor's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claims.extraction.resources import DATA_DIR as CORE_DATA_DIR
from claims.extraction.resources import read_yaml as read_data_file

DATA_DIR = Path(__file__).parent / "data"


def read_yaml(name: str) -> dict[str, Any]:
    """A word list of the reference profile, or of the extractor when the profile has none
    of that name (question frames, attributes: shared with the core)."""
    return read_data_file(name, DATA_DIR if (DATA_DIR / name).exists() else CORE_DATA_DIR)
