"""The one application pint registry: pint's defaults plus the project definitions file."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pint

DATA_DIR = Path(__file__).parent / "data"
DEFINITIONS_FILE = DATA_DIR / "definitions.txt"


@lru_cache(maxsize=1)
def application_registry() -> pint.UnitRegistry:
    """The process-wide registry (built once: loading definitions costs ~0.2 s)."""
    registry: pint.UnitRegistry = pint.UnitRegistry(autoconvert_offset_to_baseunit=False)
    registry.load_definitions(str(DEFINITIONS_FILE))
    return registry
