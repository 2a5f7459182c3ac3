"""The sources directory seen as source versions, each in the shard of its source.

Wraps ``claims.ingest`` (scan, validate, store) and ``claims.register`` for the pipeline:
every file, good or bad, gets a version key from its source id and raw bytes, so a bad
file can be named with the ingest error while the other files of its shard go ahead.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy.orm import Session

from claims.files import real_path
from claims.ingest import RejectedFile, SourceFile, ingest, scan_sources
from claims.models import SourceVersion
from claims.register import Register, apply_register, load_register
from claims.store.sources import version_checksums, version_origins, versions_of_sources
from pipeline.partitions import shard_of, split_version_key, version_key

__all__ = [
    "CorpusFile",
    "CorpusScan",
    "apply_register",
    "file_sha256",
    "load_register",
    "scan",
    "store_files",
    "versions_for_keys",
]


@dataclass(frozen=True)
class CorpusFile:
    """One file of the sources directory under its version key; ``error`` if it is bad."""

    key: str
    source_id: str
    path: Path
    sha256: str
    error: str | None = None
    source: SourceFile | None = None

    @property
    def shard(self) -> str:
        return shard_of(self.source_id)


@dataclass
class CorpusScan:
    """Every file found, good and bad, by version key; files without any key are listed."""

    register: Register | None
    files: dict[str, CorpusFile] = field(default_factory=dict)
    unkeyed: list[str] = field(default_factory=list)  # "path: reason" of files with no key

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


def scan(paths: Sequence[Path], register_path: Path | None) -> CorpusScan:
    """Read and validate every source file under ``paths`` (no store access)."""
    found = _pinned.get(_scan_key(paths, register_path))
    if found is not None:
        return found
    register = load_register(register_path) if register_path is not None else None
    result = scan_sources(paths, register)
    corpus = CorpusScan(register=register)
    for source in result.files:
        key = version_key(source.source_id, source.sha256)
        corpus.files[key] = CorpusFile(
            key, source.source_id, source.path, source.sha256, None, source
        )
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
