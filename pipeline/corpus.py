"""The sources directory seen as source versions, each in the shard of its source.

Wraps ``claims.ingest`` (scan, validate, store) and ``claims.register`` for the pipeline:
every file, good or bad, gets a version key from its source id and raw bytes, so a bad
file can be named with the ingest error while the other files of its shard go ahead.

The scan reads only what changed: given the store's records of each file's status when it
was read (``recorded_stats``), a file whose status is unchanged keeps its recorded checksum
unread (``claims.ingest.scan_sources``). ``record_stats`` writes the status of the files a
scan did read once their versions are stored, and forgets the files that are gone.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Collection, Container, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy.orm import Session

from claims.files import real_path
from claims.ingest import (
    KnownFile,
    RejectedFile,
    SourceFile,
    ingest,
    read_known_file,
    scan_sources,
    stat_path,
)
from claims.models import SourceVersion
from claims.register import Register, apply_register, load_register
from claims.store.sources import (
    FileStat,
    file_stats,
    record_file_stats,
    version_checksums,
    version_origins,
    versions_of_sources,
)
from pipeline.partitions import shard_of, split_version_key, version_key

__all__ = [
    "CorpusFile",
    "CorpusScan",
    "apply_register",
    "file_sha256",
    "load_register",
    "record_stats",
    "recorded_stats",
    "scan",
    "store_files",
    "versions_for_keys",
]


@dataclass(frozen=True)
class CorpusFile:
    """One file of the sources directory under its version key; ``error`` if it is bad.

    A good file was either read (``source``: its bytes) or taken unread from the store's
    record of its status (``known``; ``load`` reads it when its bytes are needed).
    """

    key: str
    source_id: str
    path: Path
    sha256: str
    error: str | None = None
    source: SourceFile | None = None
    known: KnownFile | None = None

    @property
    def shard(self) -> str:
        return shard_of(self.source_id)

    @property
    def recorded_as(self) -> str:
        """The path the store records this file's status under."""
        if self.known is not None:
            return self.known.record.path
        if self.source is not None and self.source.stat is not None:
            return self.source.stat.path
        return stat_path(self.path)

    def load(self) -> SourceFile | None:
        """The file's bytes as scanned; None for a bad file, or an unread one whose bytes
        changed since the scan (the next scan sees the change)."""
        if self.source is not None:
            return self.source
        return read_known_file(self.known) if self.known is not None else None


@dataclass
class CorpusScan:
    """Every file found, good and bad, by version key; files without any key are listed."""

    register: Register | None
    files: dict[str, CorpusFile] = field(default_factory=dict)
    unkeyed: list[str] = field(default_factory=list)  # "path: reason" of files with no key
    records: Mapping[str, FileStat] = field(default_factory=dict)  # the scan was given
    roots: list[str] = field(default_factory=list)  # scanned paths, as records name them
    seen: set[str] = field(default_factory=set)  # paths of the good files found
    not_read: list[str] = field(default_factory=list)  # files of a type claims does not read

    @property
    def read(self) -> list[CorpusFile]:
        """The good files whose bytes the scan read (the others it took from records)."""
        return [f for f in self.files.values() if f.source is not None]

    def stale_records(self) -> list[str]:
        """Recorded paths under the scanned folders (or named) that hold no good file now:
        deleted, renamed or bad files."""
        prefixes = tuple(root.rstrip(os.sep) + os.sep for root in self.roots)
        return [
            path
            for path in self.records
            if path not in self.seen and (path.startswith(prefixes) or path in self.roots)
        ]

    @property
    def good(self) -> list[CorpusFile]:
        return [f for f in self.files.values() if f.error is None]

    @property
    def bad(self) -> list[CorpusFile]:
        return [f for f in self.files.values() if f.error is not None]

    def in_shards(self, shards: Collection[str]) -> list[CorpusFile]:
        """The files, good and bad, whose source belongs to one of ``shards``."""
        return [f for f in self.files.values() if f.shard in shards]


_pinned: dict[tuple[tuple[str, ...], str], CorpusScan] = {}


def _scan_key(paths: Sequence[Path], register_path: Path | None) -> tuple[tuple[str, ...], str]:
    return tuple(str(Path(p).resolve()) for p in paths), str(register_path or "")


@contextmanager
def pinned(found: CorpusScan, paths: Sequence[Path], register_path: Path | None) -> Iterator[None]:
    """Inside the block, ``scan`` of the same paths returns ``found`` instead of reading
    every file again.

    ``claims run`` pins the scan it planned its runs from: the assets of those in-process
    runs then store exactly the bytes the version keys were computed from (a file edited
    meanwhile waits for the next run instead of failing), and 10k files are
    read once, not once per batch.
    """
    key = _scan_key(paths, register_path)
    _pinned[key] = found
    try:
        yield
    finally:
        _pinned.pop(key, None)


def pinned_scan(paths: Sequence[Path], register_path: Path | None) -> CorpusScan | None:
    """The scan ``pinned`` for these paths, if a ``claims run`` pinned one."""
    return _pinned.get(_scan_key(paths, register_path))


def scan(
    paths: Sequence[Path],
    register_path: Path | None,
    records: Mapping[str, FileStat] | None = None,
) -> CorpusScan:
    """Read and validate every source file under ``paths`` (no store access) whose status
    differs from its entry in ``records`` (``recorded_stats``; None or empty: every file)."""
    found = pinned_scan(paths, register_path)
    if found is not None:
        return found
    register = load_register(register_path) if register_path is not None else None
    result = scan_sources(paths, register, records=records)
    corpus = CorpusScan(
        register=register,
        records=records or {},
        roots=[stat_path(Path(p)) for p in paths],
        not_read=[str(path) for path in result.not_read],
    )
    for source in result.files:
        key = version_key(source.source_id, source.sha256)
        corpus.files[key] = CorpusFile(
            key, source.source_id, source.path, source.sha256, None, source
        )
    for known in result.known:
        key = version_key(known.source_id, known.sha256)
        corpus.files[key] = CorpusFile(
            key, known.source_id, known.path, known.sha256, None, None, known
        )
    corpus.seen = {f.recorded_as for f in corpus.files.values()}
    roots = [p.resolve() for p in paths if p.is_dir()]
    for rejected in result.rejected:
        keyed = _key_for_rejected(rejected, roots, register)
        if keyed is None:
            corpus.unkeyed.append(f"{rejected.path}: {rejected.reason}")
            continue
        source_id, sha = keyed
        key = version_key(source_id, sha)
        corpus.files[key] = CorpusFile(key, source_id, rejected.path, sha, str(rejected), None)
    return corpus


def recorded_stats(session: Session) -> dict[str, FileStat]:
    """The store's records of each source file's status when it was read, by path."""
    return file_stats(session)


def record_stats(
    session: Session,
    corpus: CorpusScan,
    stored: Container[str],
    shards: Collection[str] | None = None,
) -> int:
    """Record the status of every file ``corpus`` read whose version key is ``stored``
    (in ``shards``, or all of them), so the next scan need not read it; with every shard,
    also forget the records of files that are gone. Returns the records written."""
    chosen = [
        f.source.stat
        for f in corpus.read
        if f.source is not None
        and f.source.stat is not None
        and f.key in stored
        and (shards is None or f.shard in shards)
    ]
    forget = corpus.stale_records() if shards is None else []
    if not chosen and not forget:
        return 0
    return record_file_stats(session, chosen, forget=forget)


def store_files(session: Session, corpus: CorpusScan, files: Sequence[SourceFile]) -> int:
    """Store ``files`` (and apply the register) in the caller's transaction; new versions."""
    return ingest(session, files, corpus.register).new_versions


def versions_for_keys(session: Session, keys: Iterable[str]) -> dict[str, SourceVersion]:
    """The stored versions among ``keys`` (keys not stored yet are absent)."""
    by_source: dict[str, list[tuple[str, str]]] = {}
    for key in keys:
        source_id, sha_prefix = split_version_key(key)
        by_source.setdefault(source_id, []).append((key, sha_prefix))
    found: dict[str, SourceVersion] = {}
    for version in versions_of_sources(session, list(by_source)):
        for key, prefix in by_source[version.source_id]:
            if version.sha256.startswith(prefix):
                found[key] = version
    return found


def stored_keys(session: Session) -> dict[str, str]:
    """Partition key -> version id of every stored version."""
    return {version_key(source_id, sha): vid for vid, source_id, sha in version_checksums(session)}


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _key_for_rejected(
    rejected: RejectedFile, roots: Sequence[Path], register: Register | None
) -> tuple[str, str] | None:
    """(source id, sha256) of a rejected file, named the way ingest would name it.

    The checksum is the one the scan took (a regular file's bytes). A pipe, a device or a
    link loop has no bytes to hash: its key hashes the reason instead, so it still fails a
    key of its own, named, and is never read here (that would hang or never end).
    """
    path = rejected.path
    sha = rejected.sha256
    if sha is None:
        sha = hashlib.sha256(f"unreadable: {rejected.reason}".encode()).hexdigest()
    source_id = rejected.source_id
    if source_id is None and register is not None:
        source_id = register.source_id_for(path)
    if source_id is None:
        # The folder resolved, not the file: a link's own name is the id, not its target's.
        resolved = real_path(path.parent) / path.name
        root = next((r for r in roots if resolved.is_relative_to(r)), None)
        relative = resolved.relative_to(root) if root is not None else Path(path.name)
        source_id = relative.with_suffix("").as_posix()
    if not source_id or "..." in source_id or any(ord(c) < 32 for c in source_id):
        return None
    return source_id, sha


@dataclass(frozen=True)
class VersionLabel:
    """How a check names a document: source, version number, file, version key."""

    source_id: str
    number: int
    origin_path: str | None
    version_key: str


def describe_versions(session: Session, version_ids: Iterable[str]) -> list[VersionLabel]:
    """Labels of the stored versions among ``version_ids``, sorted by source and number."""
    return sorted(
        (
            VersionLabel(source_id, number, origin, version_key(source_id, sha))
            for source_id, number, origin, sha in version_origins(session, version_ids)
        ),
        key=lambda label: (label.source_id, label.number),
    )
