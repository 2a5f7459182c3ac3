"""Source repository: sources (register metadata) and their immutable versions."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from claims.ids import sha256_hex, stable_id
from claims.models import Source, SourceVersion, SupersedesRef
from claims.tables import SourceGrantRow, SourceRow, SourceSupersedesRow, SourceVersionRow


def version_id(source_id: str, sha256: str) -> str:
    return stable_id("sv", source_id, sha256)


def _row_to_version(row: SourceVersionRow) -> SourceVersion:
    return SourceVersion(
        id=row.id,
        source_id=row.source_id,
        number=row.number,
        label=row.label,
        sha256=row.sha256,
        size_bytes=row.size_bytes,
        media_type=row.media_type,
        origin_path=row.origin_path,
        text=row.text,
        ingested_at=row.ingested_at,
    )


class SourceRepository:
    """Sources and versions within one session (the caller owns the transaction)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    # ----------------------------------------------------------------- sources

    def get(self, source_id: str) -> Source | None:
        row = self.session.get(SourceRow, source_id)
        return self._to_source(row) if row else None

    def all(self) -> list[Source]:
        rows = self.session.scalars(select(SourceRow).order_by(SourceRow.id))
        return [self._to_source(r) for r in rows]

    def ensure(self, source_id: str) -> SourceRow:
        """The source row for ``source_id``, created bare (no register metadata) if new."""
        row = self.session.get(SourceRow, source_id)
        if row is None:
            now = datetime.now(UTC)
            row = SourceRow(id=source_id, withdrawn=False, created_at=now, updated_at=now)
            self.session.add(row)
            self.session.flush()
        return row

    def apply_register_entry(self, source: Source) -> None:
        """Replace the trusted metadata of ``source.id`` with the register's entry."""
        row = self.ensure(source.id)
        row.title = source.title
        row.authority_tier = source.authority_tier
        row.effective_from = source.effective_from
        row.effective_to = source.effective_to
        row.withdrawn = source.withdrawn
        row.updated_at = datetime.now(UTC)
        self.session.execute(delete(SourceGrantRow).where(SourceGrantRow.source_id == source.id))
        self.session.execute(
            delete(SourceSupersedesRow).where(SourceSupersedesRow.source_id == source.id)
        )
        self.session.flush()
        self.session.add_all(
            SourceGrantRow(source_id=source.id, group_name=group)
            for group in sorted(set(source.access_groups))
        )
        for ref in source.supersedes:
            self.ensure(ref.source_id)
            self.session.add(
                SourceSupersedesRow(
                    source_id=source.id,
                    supersedes_source_id=ref.source_id,
                    supersedes_version=ref.version,
                    effective_from=ref.effective_from,
                )
            )
        self.session.flush()

    def _to_source(self, row: SourceRow) -> Source:
        groups = self.session.scalars(
            select(SourceGrantRow.group_name)
            .where(SourceGrantRow.source_id == row.id)
            .order_by(SourceGrantRow.group_name)
        )
        supersedes = self.session.scalars(
            select(SourceSupersedesRow)
            .where(SourceSupersedesRow.source_id == row.id)
            .order_by(SourceSupersedesRow.supersedes_source_id)
        )
        return Source(
            id=row.id,
            title=row.title,
            authority_tier=row.authority_tier,
            access_groups=list(groups),
            supersedes=[
                SupersedesRef(
                    source_id=s.supersedes_source_id,
                    version=s.supersedes_version,
                    effective_from=s.effective_from,
                )
                for s in supersedes
            ],
            effective_from=row.effective_from,
            effective_to=row.effective_to,
            withdrawn=row.withdrawn,
            created_at=row.created_at,
            updated_at=row.updated_at,
        )

    # ----------------------------------------------------------------- versions

    def add_version(
        self,
        source_id: str,
        text: str,
        *,
        raw: bytes | None = None,
        media_type: str = "text/plain",
        origin_path: str | None = None,
        label: str | None = None,
    ) -> tuple[SourceVersion, bool]:
        """Store ``text`` as the next version of ``source_id``; same bytes again is a no-op.

        Returns the version and whether it was newly created.
        """
        data = raw if raw is not None else text.encode("utf-8")
        digest = sha256_hex(data)
        existing = self.session.scalars(
            select(SourceVersionRow).where(
                SourceVersionRow.source_id == source_id, SourceVersionRow.sha256 == digest
            )
        ).first()
        if existing is not None:
            return _row_to_version(existing), False
        self.ensure(source_id)
        number = (
            self.session.scalar(
                select(func.max(SourceVersionRow.number)).where(
                    SourceVersionRow.source_id == source_id
                )
            )
            or 0
        ) + 1
        row = SourceVersionRow(
            id=version_id(source_id, digest),
            source_id=source_id,
            number=number,
            label=label,
            sha256=digest,
            size_bytes=len(data),
            media_type=media_type,
            origin_path=origin_path,
            text=text,
            ingested_at=datetime.now(UTC),
        )
        self.session.add(row)
        self.session.flush()
        return _row_to_version(row), True

    def version(self, version_id_: str) -> SourceVersion | None:
        row = self.session.get(SourceVersionRow, version_id_)
        return _row_to_version(row) if row else None

    def versions(self, source_id: str) -> list[SourceVersion]:
        rows = self.session.scalars(
            select(SourceVersionRow)
            .where(SourceVersionRow.source_id == source_id)
            .order_by(SourceVersionRow.number)
        )
        return [_row_to_version(r) for r in rows]

    def latest_version(self, source_id: str) -> SourceVersion | None:
        versions = self.versions(source_id)
        return versions[-1] if versions else None

    def count_versions(self) -> int:
        return self.session.scalar(select(func.count()).select_from(SourceVersionRow)) or 0
