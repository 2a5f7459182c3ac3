"""Deterministic identifiers: the same inputs always give the same id, so re-runs are idempotent."""

from __future__ import annotations

import hashlib
from collections.abc import Callable


def stable_id(prefix: str, *parts: object) -> str:
    """``prefix_`` plus 24 hex chars of sha256 over the parts (``None`` and ``""`` differ)."""
    digest = hashlib.sha256()
    for part in parts:
        encoded = b"\x00none" if part is None else str(part).encode("utf-8")
        digest.update(len(encoded).to_bytes(8, "big"))
        digest.update(encoded)
    return f"{prefix}_{digest.hexdigest()[:24]}"


def _encoded(part: object) -> bytes:
    encoded = b"\x00none" if part is None else str(part).encode("utf-8")
    return len(encoded).to_bytes(8, "big") + encoded


def stable_id_maker(prefix: str, *leading: object) -> Callable[..., str]:
    """``rest -> stable_id(prefix, *leading, *rest)``, hashing ``leading`` once (extraction
    makes one id per claim, all sharing source version and generation)."""
    head = hashlib.sha256(b"".join([_encoded(part) for part in leading]))

    def make(*rest: object) -> str:
        digest = head.copy()
        digest.update(b"".join([_encoded(part) for part in rest]))
        return f"{prefix}_{digest.hexdigest()[:24]}"

    return make


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
