"""Re-deriving a stored version's text when the converter of its format has changed.

A version is its file's bytes (``sha256``); its text is what the converter of its format
made of them, stamped with the converter's name and version. A newer converter does not
make a new version: like a new extractor generation it re-derives what the store holds.
``claims.planning.compare`` lists the stored versions whose stamp is not the current
converter's and whose file is still on disk with the same bytes (``to_rederive``); the
``source_versions`` asset converts those files again and ``rederive`` stores the text:

- same text: only the stamp changes (the claims still point into the same text);
- other text: the text, its checksum and the stamp change, and the version's claims go
  with what depended on them (``retention.drop_version_claims``: edges, review items and
  their resolutions), so the next extraction reads the new text. An audit event
  (``source.rederive``) records the old and new converter and what was taken out.

A version whose file is gone or changed keeps its text and stamp: the store's copy of the
text is all there is, and it stays consistent with its claims.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy.orm import Session

from claims import audit_log
from claims.retention import drop_version_claims
from claims.store.sources import converted_text_sha256
from claims.tables import SourceVersionRow

REDERIVE = "source.rederive"


@dataclass(frozen=True)
class Rederived:
    """What ``rederive`` did to one version."""

    version_id: str
    text_changed: bool
    claims_removed: int
    review_items_removed: int


def rederive(
    session: Session,
    version_id: str,
    text: str,
    converter: str,
    converter_version: str,
    *,
    actor: str = "pipeline",
) -> Rederived | None:
    """Store ``text`` (made from the version's own bytes by ``converter``) as the version's
    text, in the caller's transaction; None when the version is not stored."""
    row = session.get(SourceVersionRow, version_id)
    if row is None:
        return None
    before = {"converter": row.converter, "converter_version": row.converter_version}
    changed = row.text != text
    row.converter, row.converter_version = converter, converter_version
    row.text_sha256 = converted_text_sha256(converter, text)
    if not changed:
        session.flush()
        return Rederived(version_id, False, 0, 0)
    row.text = text
    session.flush()
    now = datetime.now(UTC)
    removed = drop_version_claims(session, [version_id], at=now)
    audit_log.append(
        session,
        at=now,
        actor=actor,
        action=REDERIVE,
        entity_type="source",
        entity_id=row.source_id,
        before={**before, "version": row.number},
        after={
            "converter": converter,
            "converter_version": converter_version,
            "version": row.number,
            "claims_removed": removed.claims,
            "edges_deleted": removed.edges_deleted,
            "review_items_deleted": removed.review_items,
        },
    )
    return Rederived(version_id, True, removed.claims, len(removed.review_items))
