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

# the extractor, the units, and the profiles' readers (claims/profiles, claims/reference)
_CLAIMS = Path(__file__).parent.parent
_ROOTS = ("extraction", "units", "profiles", "reference")
# the structure reader and its model (not the converters: a converter's own name and
# version stamp the text it makes, claims/documents/converters)
_STRUCTURE_FILES = ("documents/model.py", "documents/pipe_tables.py", "documents/structure.py")
# outside the package but read by it: the folding of look-alike text (its table is data here)
_ALSO = ("lookalikes.py",)
_SUFFIXES = {".py", ".yaml", ".yml", ".txt", ".jsonl", ".json"}


def _files(claims_root: Path) -> list[Path]:
    files = [claims_root / name for name in _ALSO]
    for root in _ROOTS:
        for path in (claims_root / root).rglob("*"):
            if path.is_file() and path.suffix in _SUFFIXES and "__pycache__" not in path.parts:
                files.append(path)
    files.extend(claims_root / name for name in _STRUCTURE_FILES if (claims_root / name).is_file())
    return sorted(files, key=lambda p: p.relative_to(claims_root).as_posix())


def generation_digest(claims_root: Path = _CLAIMS) -> str:
    """The sha256 of the files that decide claims, each named by its path inside the
    ``claims`` package: the folder a checkout lives in never changes the generation."""
    digest = hashlib.sha256()
    for path in _files(claims_root):
        digest.update(path.relative_to(claims_root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


@lru_cache(maxsize=1)
def current_generation() -> tuple[str, str]:
    """(generation id, human label "gen-<8hex>") for the code and data files as they are now."""
    hexdigest = generation_digest()
    return stable_id("gen", hexdigest), f"gen-{hexdigest[:8]}"
