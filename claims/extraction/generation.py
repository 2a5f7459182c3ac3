"""The extractor generation: a stable hash of the extraction, units and document-structure
code and data files (the structure reader in ``claims/documents`` decides which reader reads
which line, so a change there changes claims too).

Any change to a pattern, lexicon or rule gives a new generation, so claims made by old
rules are never mixed silently with claims made by new ones.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from claims.ids import stable_id

_ROOTS = (Path(__file__).parent, Path(__file__).parent.parent / "units")
# the structure reader and its model (not the converters: a converter's own name and
# version stamp the text it makes, claims/documents/converters)
_DOCUMENTS = Path(__file__).parent.parent / "documents"
_STRUCTURE_FILES = tuple(
    _DOCUMENTS / name for name in ("model.py", "pipe_tables.py", "structure.py")
)
_SUFFIXES = {".py", ".yaml", ".yml", ".txt", ".jsonl", ".json"}


def _files() -> list[Path]:
    files = []
    for root in _ROOTS:
        for path in root.rglob("*"):
            if path.is_file() and path.suffix in _SUFFIXES and "__pycache__" not in path.parts:
                files.append(path)
    files.extend(path for path in _STRUCTURE_FILES if path.is_file())
    return sorted(files, key=lambda p: (p.parent.name, p.relative_to(p.parent.parent).as_posix()))


@lru_cache(maxsize=1)
def current_generation() -> tuple[str, str]:
    """(generation id, human label "gen-<8hex>") for the code and data files as they are now."""
    digest = hashlib.sha256()
    for path in _files():
        rel = f"{path.parent.parent.name}/{path.parent.name}/{path.name}"
        digest.update(rel.encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    hexdigest = digest.hexdigest()
    return stable_id("gen", hexdigest), f"gen-{hexdigest[:8]}"
