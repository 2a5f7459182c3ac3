"""The one application pint registry: pint's defaults plus the project definitions file.

Building it (importing pint, parsing its definitions and ours) costs about 0.7 s of CPU, at
every start of a command that meets a unit. The only thing the lexicon asks of it is a
conversion factor per (unit, canonical unit) pair, so those factors are kept in a small file
in the user's cache directory, named by a fingerprint of everything they depend on (pint's
version and the project definitions file): a process whose pairs are all there never builds the
registry. A pair that is missing is computed by pint and added to the file. The file is an
optimisation only: unreadable, unwritable or corrupt, it is ignored.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pint

DATA_DIR = Path(__file__).parent / "data"
DEFINITIONS_FILE = DATA_DIR / "definitions.txt"


@lru_cache(maxsize=1)
def application_registry() -> pint.UnitRegistry:
    """The process-wide registry (built once, on first use)."""
    import pint  # imported here: most starts take their factors from the cache file

    registry: pint.UnitRegistry = pint.UnitRegistry(autoconvert_offset_to_baseunit=False)
    registry.load_definitions(str(DEFINITIONS_FILE))
    return registry


def conversion_factor(pint_name: str, canonical_pint: str) -> tuple[float, float]:
    """(factor, offset) from ``pint_name`` to ``canonical_pint``: ``canonical = v * f + o``."""
    known = _factors()
    key = f"{pint_name} -> {canonical_pint}"
    if key not in known:
        registry = application_registry()
        unit = registry.parse_units(pint_name)
        target = registry.parse_units(canonical_pint)
        zero = registry.Quantity(0.0, unit).to(target).magnitude
        one = registry.Quantity(1.0, unit).to(target).magnitude
        known[key] = (float(one - zero), float(zero))
        _save(known)
    return known[key]


@lru_cache(maxsize=1)
def _factors() -> dict[str, tuple[float, float]]:
    path = _cache_file()
    if path is None:
        return {}
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
        return {str(k): (float(v[0]), float(v[1])) for k, v in stored.items()}
    except (OSError, ValueError, TypeError, IndexError, AttributeError):
        return {}


def _save(known: dict[str, tuple[float, float]]) -> None:
    path = _cache_file()
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # written whole and renamed: a concurrent reader sees the old file or the new one
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".unit-factors-")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump({k: list(v) for k, v in sorted(known.items())}, out)
        os.replace(temporary, path)
    except OSError:
        return


@lru_cache(maxsize=1)
def _cache_file() -> Path | None:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if not base or base.startswith("~"):
        return None  # no home directory to keep a cache in
    try:
        pint_version = metadata.version("pint")
        fingerprint = hashlib.sha256(pint_version.encode() + b"\0" + DEFINITIONS_FILE.read_bytes())
    except (OSError, metadata.PackageNotFoundError):
        return None
    return Path(base) / "claimledger" / f"unit-factors-{fingerprint.hexdigest()[:16]}.json"
