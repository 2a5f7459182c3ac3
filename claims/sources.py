"""Read side of sources: what the store holds per source, as plain JSON-ready data."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from claims.store.sources import SourceRepository


def source_listing(session: Session) -> list[dict[str, Any]]:
    """Every source (sorted by id) with its register metadata and its versions, oldest first.

    Versions carry number, full sha256, size, media type, origin path, ingested_at (ISO
    8601) and the converter (name and version) that made their text; never the text. A
    source the register names but no file has provided yet has an empty ``versions`` list.
    """
    repository = SourceRepository(session)
    versions = repository.version_index()
    listing: list[dict[str, Any]] = []
    for source in repository.all_with_metadata():
        listing.append(
            {
                "id": source.id,
                "title": source.title,
                "tier": source.authority_tier,
                "access_groups": list(source.access_groups),
                "public": not source.access_groups,
                "supersedes": [
                    {
                        "source_id": ref.source_id,
                        "version": ref.version,
                        "effective_from": (
                            ref.effective_from.isoformat() if ref.effective_from else None
                        ),
                    }
                    for ref in source.supersedes
                ],
                "effective_from": (
                    source.effective_from.isoformat() if source.effective_from else None
                ),
                "effective_to": source.effective_to.isoformat() if source.effective_to else None,
                "withdrawn": source.withdrawn,
                "versions": [
                    {
                        "id": v.id,
                        "number": v.number,
                        "sha256": v.sha256,
                        "size_bytes": v.size_bytes,
                        "media_type": v.media_type,
                        "origin_path": v.origin_path,
                        "ingested_at": _utc(v.ingested_at).isoformat(),
                        "converter": v.converter,
                        "converter_version": v.converter_version,
                    }
                    for v in versions.get(source.id, [])
                ],
            }
        )
    return listing


def _utc(moment: datetime) -> datetime:
    """Stored times are UTC; SQLite hands them back without a zone, PostgreSQL with one."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
