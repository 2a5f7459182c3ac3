"""Source repository: sources (register metadata) and their immutable versions."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime

from sqlalchemy import Connection, delete, func, insert, select, text, update
from sqlalchemy.orm import Session

from claims.ids import sha256_hex, stable_id
from claims.models import Source, SourceVersion, SupersedesRef
from claims.store.batches import batches
from claims.tables import (
    SourceFileStatRow,
    SourceGrantRow,
    SourceRow,
    SourceSupersedesRow,
    SourceVersionRow,
)

PLAIN_TEXT = "utf-8-text"  # the converter of .txt and .md (claims.documents.converters.plain)


def converted_text_sha256(converter: str, text: str) -> str | None:
    """The checksum a converted version's text is checked against (None: the text is the
    file's own UTF-8, which the version's ``sha256`` covers)."""
    return None if converter == PLAIN_TEXT else sha256_hex(text.encode("utf-8"))


def version_id(source_id: str, sha256: str) -> str:
    return stable_id("sv", source_id, sha256)


@dataclass(frozen=True)
class NewVersion:
    """Bytes offered as a version of ``source_id`` (``text`` is their decoded form)."""

    source_id: str
    text: str
    raw: bytes
    media_type: str = "text/plain"
    origin_path: str | None = None
    label: str | None = None
    converter: str = "utf-8-text"  # what made ``text`` from ``raw`` (claims/documents)
    converter_version: str = "1"


@dataclass(frozen=True)
class VersionOutcome:
    """What ``add_versions`` did with one offered version."""

    version_id: str
    source_id: str
    number: int
    sha256: str
    created: bool
    latest_number: int  # the source's newest version number after the whole batch


@dataclass(frozen=True)
class VersionInfo:
    """A stored version without its text (for listings)."""

    id: str
    source_id: str
    number: int
    sha256: str
    size_bytes: int
    media_type: str
    origin_path: str | None
    ingested_at: datetime
    converter: str = PLAIN_TEXT  # what made the version's text from its bytes
    converter_version: str = "1"


def _trusted_fields(source: Source) -> tuple[object, ...]:
    """What a register entry controls, comparable between a stored source and an entry."""
    return (
        source.title,
        source.authority_tier,
        tuple(sorted(set(source.access_groups))),
        tuple(
            sorted(
                ((r.source_id, r.version, r.effective_from) for r in source.supersedes),
                key=lambda ref: ref[0],
            )
        ),
        source.effective_from,
        source.effective_to,
        source.withdrawn,
    )


def row_to_version(row: SourceVersionRow) -> SourceVersion:
    """The domain model of a stored source version."""
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
        converter=row.converter,
        converter_version=row.converter_version,
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

    def apply_register_entry(self, source: Source) -> bool:
        """Replace the trusted metadata of ``source.id`` with the register's entry.

        Sources named in ``supersedes`` are created bare if they are not stored yet. Returns
        whether anything changed (a new source counts as a change).
        """
        return self.replace_register_metadata(source)[1]

    def replace_register_metadata(self, source: Source) -> tuple[Source | None, bool]:
        """``apply_register_entry`` that also returns the metadata before (None: new source)."""
        before = self.get(source.id)
        row = self.ensure(source.id)
        row.title = source.title
        row.authority_tier = source.authority_tier
        row.effective_from = source.effective_from
        row.effective_to = source.effective_to
        row.withdrawn = source.withdrawn
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
        changed = before is None or _trusted_fields(before) != _trusted_fields(source)
        if changed:
            row.updated_at = datetime.now(UTC)
            self.session.flush()
        return before, changed

    def all_with_metadata(self) -> list[Source]:
        """Every source with its groups and supersedes, in three queries (for listings)."""
        groups: dict[str, list[str]] = {}
        for source_id, group in self.session.execute(
            select(SourceGrantRow.source_id, SourceGrantRow.group_name).order_by(
                SourceGrantRow.group_name
            )
        ):
            groups.setdefault(source_id, []).append(group)
        supersedes: dict[str, list[SupersedesRef]] = {}
        for s in self.session.scalars(
            select(SourceSupersedesRow).order_by(SourceSupersedesRow.supersedes_source_id)
        ):
            supersedes.setdefault(s.source_id, []).append(
                SupersedesRef(
                    source_id=s.supersedes_source_id,
                    version=s.supersedes_version,
                    effective_from=s.effective_from,
                )
            )
        return [
            self._build_source(row, groups.get(row.id, []), supersedes.get(row.id, []))
            for row in self.session.scalars(select(SourceRow).order_by(SourceRow.id))
        ]

    def ids(self) -> set[str]:
        """Every stored source id."""
        return set(self.session.scalars(select(SourceRow.id)))

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
        return self._build_source(
            row,
            list(groups),
            [
                SupersedesRef(
                    source_id=s.supersedes_source_id,
                    version=s.supersedes_version,
                    effective_from=s.effective_from,
                )
                for s in supersedes
            ],
        )

    @staticmethod
    def _build_source(row: SourceRow, groups: list[str], supersedes: list[SupersedesRef]) -> Source:
        return Source(
            id=row.id,
            title=row.title,
            authority_tier=row.authority_tier,
            access_groups=groups,
            supersedes=supersedes,
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
            return row_to_version(existing), False
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
        return row_to_version(row), True

    def add_versions(self, offered: Sequence[NewVersion]) -> list[VersionOutcome]:
        """Store each offered version unless its bytes are stored for that source already.

        The batch form of ``add_version``: a few queries per 500 sources instead of several
        per file. Outcomes come back in the order offered.
        """
        source_ids = list(dict.fromkeys(item.source_id for item in offered))
        known: dict[str, dict[str, tuple[str, int]]] = {sid: {} for sid in source_ids}
        latest: dict[str, int] = dict.fromkeys(source_ids, 0)
        existing_sources: set[str] = set()
        for start in range(0, len(source_ids), 500):
            chunk = source_ids[start : start + 500]
            existing_sources.update(
                self.session.scalars(select(SourceRow.id).where(SourceRow.id.in_(chunk)))
            )
            for sid, sha, vid, number in self.session.execute(
                select(
                    SourceVersionRow.source_id,
                    SourceVersionRow.sha256,
                    SourceVersionRow.id,
                    SourceVersionRow.number,
                ).where(SourceVersionRow.source_id.in_(chunk))
            ):
                known[sid][sha] = (vid, number)
                latest[sid] = max(latest[sid], number)
        now = datetime.now(UTC)
        new_sources = [sid for sid in source_ids if sid not in existing_sources]
        self.session.add_all(
            SourceRow(id=sid, withdrawn=False, created_at=now, updated_at=now)
            for sid in new_sources
        )
        if new_sources:
            self.session.flush()  # versions reference their source
        rows: list[SourceVersionRow] = []
        decided: list[tuple[str, str, int, str, bool]] = []
        for item in offered:
            digest = sha256_hex(item.raw)
            stored = known[item.source_id].get(digest)
            if stored is not None:
                decided.append((stored[0], item.source_id, stored[1], digest, False))
                continue
            number = latest[item.source_id] + 1
            latest[item.source_id] = number
            vid = version_id(item.source_id, digest)
            known[item.source_id][digest] = (vid, number)
            rows.append(
                SourceVersionRow(
                    id=vid,
                    source_id=item.source_id,
                    number=number,
                    label=item.label,
                    sha256=digest,
                    size_bytes=len(item.raw),
                    media_type=item.media_type,
                    origin_path=item.origin_path,
                    text=item.text,
                    ingested_at=now,
                    converter=item.converter,
                    converter_version=item.converter_version,
                    text_sha256=converted_text_sha256(item.converter, item.text),
                )
            )
            decided.append((vid, item.source_id, number, digest, True))
        self.session.add_all(rows)
        self.session.flush()
        return [
            VersionOutcome(vid, sid, number, digest, created, latest[sid])
            for vid, sid, number, digest, created in decided
        ]

    def version(self, version_id_: str) -> SourceVersion | None:
        row = self.session.get(SourceVersionRow, version_id_)
        return row_to_version(row) if row else None

    def versions(self, source_id: str) -> list[SourceVersion]:
        rows = self.session.scalars(
            select(SourceVersionRow)
            .where(SourceVersionRow.source_id == source_id)
            .order_by(SourceVersionRow.number)
        )
        return [row_to_version(r) for r in rows]

    def latest_number(self, source_id: str) -> int | None:
        """The newest version number of ``source_id`` (None when it has no version)."""
        return self.session.scalar(
            select(func.max(SourceVersionRow.number)).where(SourceVersionRow.source_id == source_id)
        )

    def latest_version(self, source_id: str) -> SourceVersion | None:
        versions = self.versions(source_id)
        return versions[-1] if versions else None

    def version_index(self) -> dict[str, list[VersionInfo]]:
        """Every stored version without its text, per source id, oldest first."""
        index: dict[str, list[VersionInfo]] = {}
        stmt = select(
            SourceVersionRow.id,
            SourceVersionRow.source_id,
            SourceVersionRow.number,
            SourceVersionRow.sha256,
            SourceVersionRow.size_bytes,
            SourceVersionRow.media_type,
            SourceVersionRow.origin_path,
            SourceVersionRow.ingested_at,
            SourceVersionRow.converter,
            SourceVersionRow.converter_version,
        ).order_by(SourceVersionRow.source_id, SourceVersionRow.number)
        for row in self.session.execute(stmt):
            index.setdefault(row.source_id, []).append(VersionInfo(**row._asdict()))
        return index

    def count_versions(self) -> int:
        return self.session.scalar(select(func.count()).select_from(SourceVersionRow)) or 0


def record_profiles(session: Session, profiles: Mapping[str, str]) -> int:
    """Store the profile each source's claims are read with (source id -> profile name);
    returns how many sources changed profile."""
    changed = 0
    for chunk in batches(sorted(profiles)):
        query = select(SourceRow.id, SourceRow.profile).where(SourceRow.id.in_(chunk))
        for source_id, stored in session.execute(query).all():
            if stored != profiles[source_id]:
                session.execute(
                    update(SourceRow)
                    .where(SourceRow.id == source_id)
                    .values(profile=profiles[source_id])
                )
                changed += 1
    return changed


# The distinct profiles by a loose scan of ix_sources_profile: each step seeks the next
# profile after the last one, so the read costs one index seek per profile in use, whatever
# the number of sources (a DISTINCT walked every source: 22 ms at 200,000 on SQLite). The
# same SQL on PostgreSQL, whose min() over an indexed column is an index seek too.
_PROFILES_IN_USE = text(
    "WITH RECURSIVE used(profile) AS ("
    " SELECT min(profile) FROM sources"
    " UNION ALL"
    " SELECT (SELECT min(s.profile) FROM sources s WHERE s.profile > used.profile)"
    " FROM used WHERE used.profile IS NOT NULL"
    ") SELECT profile FROM used WHERE profile IS NOT NULL"
)


def profiles_in_use(executor: Session | Connection) -> set[str]:
    """The profiles the store's sources are read with (one index seek per profile)."""
    return set(executor.execute(_PROFILES_IN_USE).scalars())


def sources_judged_as_pages(session: Session) -> set[str]:
    """The sources read with a profile that lends the edge builder a namesake-page judge
    (``claims.profiles``: the reference profile's pages)."""
    from claims.profiles import profile_named

    judging = sorted(p for p in profiles_in_use(session) if profile_named(p).edge_judges)
    if not judging:
        return set()
    query = select(SourceRow.id).where(SourceRow.profile.in_(judging))
    return set(session.execute(query).scalars())


def register_titles(session: Session, source_ids: set[str]) -> dict[str, str]:
    """Register titles of these sources (sources without a title are absent)."""
    titles: dict[str, str] = {}
    for chunk in batches(sorted(source_ids)):
        rows = session.execute(select(SourceRow.id, SourceRow.title).where(SourceRow.id.in_(chunk)))
        titles.update({source_id: title for source_id, title in rows if title})
    return titles


def register_dates(session: Session, source_ids: set[str]) -> dict[str, date]:
    """The register's effective-from dates of these sources (sources without one are absent):
    the year a date written without one ("by March 31") falls in, when the text gives none."""
    dates: dict[str, date] = {}
    for chunk in batches(sorted(source_ids)):
        query = select(SourceRow.id, SourceRow.effective_from).where(SourceRow.id.in_(chunk))
        dates.update({source_id: day for source_id, day in session.execute(query) if day})
    return dates


def versions_of_sources(session: Session, source_ids: Sequence[str]) -> list[SourceVersion]:
    """Every stored version of these sources."""
    found: list[SourceVersion] = []
    for chunk in batches(source_ids):
        query = select(SourceVersionRow).where(SourceVersionRow.source_id.in_(chunk))
        found += [row_to_version(row) for row in session.scalars(query)]
    return found


def stored_pairs(session: Session, source_ids: Collection[str]) -> list[tuple[str, str]]:
    """(source id, sha256) of the stored versions of ``source_ids`` (by the source index)."""
    found: list[tuple[str, str]] = []
    for chunk in batches(sorted(source_ids)):
        rows = session.execute(
            select(SourceVersionRow.source_id, SourceVersionRow.sha256).where(
                SourceVersionRow.source_id.in_(chunk)
            )
        )
        found += [(source_id, sha) for source_id, sha in rows]
    return found


def stored_source_ids(session: Session) -> list[str]:
    """Every source id with a stored version (reads the source index only)."""
    return list(session.scalars(select(SourceVersionRow.source_id).distinct()))


def version_checksums(session: Session) -> list[tuple[str, str, str]]:
    """(version id, source id, sha256) of every stored version."""
    rows = session.execute(
        select(SourceVersionRow.id, SourceVersionRow.source_id, SourceVersionRow.sha256)
    )
    return [(vid, source_id, sha) for vid, source_id, sha in rows]


def version_origins(
    session: Session, version_ids: Iterable[str]
) -> list[tuple[str, int, str | None, str]]:
    """(source id, number, origin path, sha256) of the stored versions among ``version_ids``."""
    found: list[tuple[str, int, str | None, str]] = []
    for chunk in batches(sorted(set(version_ids))):
        rows = session.execute(
            select(
                SourceVersionRow.source_id,
                SourceVersionRow.number,
                SourceVersionRow.origin_path,
                SourceVersionRow.sha256,
            ).where(SourceVersionRow.id.in_(chunk))
        )
        found += [(source_id, number, origin, sha) for source_id, number, origin, sha in rows]
    return found


# --------------------------------------------------------------------------- file stats


@dataclass(frozen=True)
class FileStat:
    """A source file's status when its bytes (checksum ``sha256``) were read.

    ``path`` is the file's absolute path as the scan reached it (a link's own path; the
    status is its target's). ``recorded_ns`` is the wall clock just before the stat was
    taken: a file changed within the file system's time granularity of it could keep the
    same times, so the scan does not trust such a record (claims/ingest.py).
    """

    path: str
    sha256: str
    size: int
    mtime_ns: int
    ctime_ns: int
    inode: int
    recorded_ns: int


def file_stats(session: Session) -> dict[str, FileStat]:
    """Every recorded file status, by path (none in a new or an old store)."""
    rows = session.execute(
        select(
            SourceFileStatRow.path,
            SourceFileStatRow.sha256,
            SourceFileStatRow.size_bytes,
            SourceFileStatRow.mtime_ns,
            SourceFileStatRow.ctime_ns,
            SourceFileStatRow.inode,
            SourceFileStatRow.recorded_ns,
        )
    )
    return {row.path: FileStat(*row) for row in rows}


def record_file_stats(
    session: Session, stats: Iterable[FileStat], *, forget: Iterable[str] = ()
) -> int:
    """Record ``stats`` (replacing the record of the same path) and drop the records of the
    paths in ``forget`` (files that are gone), in the caller's transaction. Returns the
    number of records written."""
    by_key = {_path_key(stat.path): stat for stat in stats}
    gone = [_path_key(path) for path in forget]
    for chunk in batches([*by_key, *gone]):
        session.execute(delete(SourceFileStatRow).where(SourceFileStatRow.path_key.in_(chunk)))
    if by_key:
        session.execute(
            insert(SourceFileStatRow),
            [
                {
                    "path_key": key,
                    "path": stat.path,
                    "sha256": stat.sha256,
                    "size_bytes": stat.size,
                    "mtime_ns": stat.mtime_ns,
                    "ctime_ns": stat.ctime_ns,
                    "inode": stat.inode,
                    "recorded_ns": stat.recorded_ns,
                }
                for key, stat in by_key.items()
            ],
        )
    return len(by_key)


def _path_key(path: str) -> str:
    return sha256_hex(path.encode("utf-8", "surrogateescape"))
