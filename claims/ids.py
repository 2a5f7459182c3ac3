"""Deterministic identifiers: the same inputs always give the same id, so re-runs are idempotent."""

from __future__ import annotations

import hashlib


def stable_id(prefix: str, *parts: object) -> str:
    """``prefix_`` plus 24 hex chars of sha256 over the parts (``None`` and ``""`` differ)."""
    digest = hashlib.sha256()
    for part in parts:
        encoded = b"\x00none" if part is None else str(part).encode("utf-8")
        digest.update(len(encoded).to_bytes(8, "big"))
        digest.update(encoded)
    return f"{prefix}_{digest.hexdigest()[:24]}"


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
