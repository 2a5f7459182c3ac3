"""Ingest: files and directories become immutable, versioned sources.

Two steps, so the pipeline can reuse them without the CLI:

- ``scan_sources(paths, register)`` reads and validates files (no store access) and returns a
  ``SourceScan``: the good ``SourceFile``s and a ``RejectedFile`` for each bad one. Given the
  store's records of what each file's status was when it was read (``records``), it reads only
  the files whose status changed, as git's index does; the others are ``KnownFile``s.
- ``ingest(session, files, register)`` writes them inside the caller's transaction: it checks
  the register's ``supersedes`` against what exists, applies the register, stores new
  versions (same bytes again is a no-op) and returns an ``IngestReport``.

Rules (docs/INGEST.md): ``.txt``/``.md`` (UTF-8, not empty, not binary), ``.docx``, ``.pdf``
and ``.html``/``.htm`` (converted to text by ``claims.documents.converters``), at most
``CLAIMS_MAX_SOURCE_BYTES``; other types inside a folder are counted as not read.
Source id = path relative to the ingest root without its extension (a file named directly:
its stem), unless the register maps the file to an id.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from claims.documents.converters import MEDIA_TYPES, SUFFIXES, Converted, convert
from claims.documents.converters.plain import (
    decode_source_text as decode_source_text,  # re-exported: the .txt/.md rules
)
from claims.errors import InputError
from claims.files import read_bounded, real_path, sha256_of_regular_file
from claims.ids import sha256_hex
from claims.register import Register, apply_default_groups, apply_register, source_id_problem
from claims.retention import erased_pairs, skip_message
from claims.source_bounds import SourceBounds
from claims.source_walk import INODE_BITS, RACY_NS, walk
from claims.source_walk import stat_path as stat_path  # re-exported: the records' path
from claims.store.sources import FileStat, NewVersion, SourceRepository

_VISIBLE_CONTROLS = {
    **{code: f"\\x{code:02x}" for code in [*range(32), 127]},
    ord("\n"): "\\n",
    ord("\r"): "\\r",
    ord("\t"): "\\t",
}


@dataclass(frozen=True)
class SourceFile:
    """One readable source file: its id, its exact bytes and their text (the bytes as
    UTF-8, or the converter's Markdown-flavoured text of a .docx, .pdf or .html file)."""

    source_id: str
    path: Path
    data: bytes
    text: str
    media_type: str
    # the file's status taken just before it was read: recorded once its version is stored
    stat: FileStat | None = field(default=None, compare=False, repr=False)
    converter: str = "utf-8-text"  # what made ``text`` (claims/documents/converters)
    converter_version: str = "1"

    @property
    def sha256(self) -> str:
        return sha256_hex(self.data)


@dataclass(frozen=True)
class KnownFile:
    """A file whose status matches the store's record of it: not read, its version is the
    recorded checksum (``read_known_file`` reads it when its bytes are needed)."""

    source_id: str
    path: Path
    sha256: str
    media_type: str
    record: FileStat


@dataclass(frozen=True)
class RejectedFile:
    """A file that cannot be ingested, and why (the message names what to do)."""

    path: Path
    reason: str
    line: int | None = None  # where in the file the problem is, when there is such a place
    # The id and checksum the file would have had, when they can be told (a pipeline can
    # then fail exactly that source version); None for a missing file or an unusable name.
    source_id: str | None = None
    sha256: str | None = None

    def __str__(self) -> str:
        # One line per file, whatever its name holds: a newline in a path is shown as \n.
        path = str(self.path).translate(_VISIBLE_CONTROLS)
        where = f"{path}:{self.line}" if self.line is not None else path
        return f"{where}: {self.reason.translate(_VISIBLE_CONTROLS)}"


@dataclass
class SourceScan:
    """What ``scan_sources`` found: readable files in a stable order, and rejected ones."""

    files: list[SourceFile] = field(default_factory=list)
    rejected: list[RejectedFile] = field(default_factory=list)
    known: list[KnownFile] = field(default_factory=list)  # unchanged since recorded: not read
    # files inside a scanned folder whose type is not read (.xlsx, .png...): named, not errors
    not_read: list[Path] = field(default_factory=list)

    def raise_for_rejected(self) -> None:
        """Raise one ``InputError`` listing every rejected file, if there is any."""
        if self.rejected:
            raise InputError(_rejection_message(self.rejected, ingested=None))


@dataclass(frozen=True)
class IngestedFile:
    """The outcome for one file: the version it is, and whether this ingest created it."""

    source_id: str
    path: str
    version_id: str
    number: int
    sha256: str
    created: bool
    latest_number: int  # the source's newest version after this ingest

    @property
    def matches_older_version(self) -> bool:
        """True when the bytes equal an earlier version, not the newest one (a revert)."""
        return not self.created and self.number != self.latest_number


@dataclass
class IngestReport:
    """What one ingest did; ``to_dict`` is the ``--json`` shape."""

    files: list[IngestedFile] = field(default_factory=list)
    rejected: list[RejectedFile] = field(default_factory=list)
    register: str | None = None
    register_entries: int = 0
    register_changed: list[str] = field(default_factory=list)
    # files skipped because their source was erased with these bytes (claims/retention.py)
    erased: list[str] = field(default_factory=list)
    not_read: list[str] = field(default_factory=list)  # files of a type claims does not read

    @property
    def sources(self) -> int:
        return len({f.source_id for f in self.files})

    @property
    def new_versions(self) -> int:
        return sum(1 for f in self.files if f.created)

    @property
    def unchanged(self) -> int:
        return sum(1 for f in self.files if not f.created)

    @property
    def new_version_ids(self) -> list[str]:
        return [f.version_id for f in self.files if f.created]

    def summary(self) -> str:
        text = (
            f"{len(self.files)} files, {self.sources} sources: "
            f"{self.new_versions} new versions, {self.unchanged} unchanged"
        )
        if self.register:
            text += (
                f"; register {self.register}: {self.register_entries} entries, "
                f"{len(self.register_changed)} changed"
            )
        if self.rejected:
            text += f"; {len(self.rejected)} rejected"
        if self.erased:
            text += f"; {len(self.erased)} skipped (source erased)"
        if self.not_read:
            text += f"; {len(self.not_read)} not read (type)"
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "sources": self.sources,
            "new_versions": self.new_versions,
            "unchanged": self.unchanged,
            "rejected": [
                {"path": str(r.path), "line": r.line, "source_id": r.source_id, "reason": r.reason}
                for r in self.rejected
            ],
            "erased": self.erased,
            "not_read": self.not_read,
            "register": (
                {
                    "path": self.register,
                    "entries": self.register_entries,
                    "changed": self.register_changed,
                }
                if self.register
                else None
            ),
            "files": [
                {
                    "source_id": f.source_id,
                    "path": f.path,
                    "version_id": f.version_id,
                    "version": f.number,
                    "latest_version": f.latest_number,
                    "sha256": f.sha256,
                    "status": "new" if f.created else "unchanged",
                }
                for f in self.files
            ],
        }


# --------------------------------------------------------------------------- scanning


def scan_sources(
    paths: Iterable[Path | str],
    register: Register | None = None,
    *,
    max_source_bytes: int | None = None,
    records: Mapping[str, FileStat] | None = None,
    bounds: SourceBounds | None = None,
) -> SourceScan:
    """Read and validate (and convert) every file of a type claims reads under ``paths``
    (no store access).

    ``bounds`` (default: the settings' ``SourceBounds``) rejects, unread, a file whose
    links lead outside the folder being ingested or into the store's own data.

    A directory is walked recursively (hidden entries are skipped, files of other types are
    listed in ``not_read``) and
    is the root its files' ids are relative to; a file named directly gets its stem as id.
    A file reached twice is read once (the first way it was reached names it). Two files
    that would get the same source id are both rejected.

    ``records``: the store's records of each file's status when it was read, by absolute
    path (``claims.store.sources.file_stats``). A file whose size, modification and change
    times and inode are still the recorded ones, and whose record was not taken within
    ``RACY_NS`` of its last change, is not read: it becomes a ``KnownFile`` with the
    recorded checksum. Like git, an edit that keeps the size and both times is not seen;
    the change time cannot be set back by a user, so only a clock set back could do that.
    """
    limit = max_source_bytes if max_source_bytes is not None else _default_max_bytes()
    bounds = bounds if bounds is not None else SourceBounds.from_settings()
    scan = SourceScan()
    seen: set[str] = set()
    for given in paths:
        given = Path(given)
        folder = str(real_path(given)) if given.is_dir() else None
        missing: list[Path] = []
        for walked, root, resolved, recorded_as in walk(given, scan.not_read, missing):
            if resolved in seen:
                continue
            file = Path(walked)
            taken_ns = time.time_ns()
            status = _regular_status(file)  # not a regular file: reading it says what it is
            problem = bounds.problem(file, folder, resolved) if status is not None else None
            if problem is not None:  # never read, not even to hash it; the target named
                scan.rejected.append(_refused(file, problem, root, register))  # on its own
                continue  # way (another folder given) is still read
            seen.add(resolved)
            if records and status is not None:
                record = records.get(recorded_as)
                file_limit = _file_limit(file, limit)[0]
                unchanged = _unchanged_file(file, root, register, record, status, file_limit)
                if unchanged is not None:
                    scan.known.append(unchanged)
                    continue
            try:
                source = read_source_file(file, root, register, max_source_bytes=limit)
            except InputError as error:
                scan.rejected.append(_rejection(file, error, root, register))
                continue
            if status is not None:
                stat_now = _file_stat(recorded_as, source.sha256, status, taken_ns)
                source = replace(source, stat=stat_now)
            scan.files.append(source)
        scan.rejected += [RejectedFile(path, "no such file or directory") for path in missing]
    _reject_duplicate_ids(scan)
    return scan


def read_known_file(file: KnownFile, *, max_source_bytes: int | None = None) -> SourceFile | None:
    """The file a scan took from its record, read now (to store its bytes); None when they
    are no longer the recorded ones or it cannot be read: it changed after the scan, and
    the next scan sees it as changed."""
    limit = max_source_bytes if max_source_bytes is not None else _default_max_bytes()
    try:
        file_limit, setting = _file_limit(file.path, limit)
        data = read_bounded(file.path, file_limit, setting=setting)
        if sha256_hex(data) != file.sha256:
            return None
        converted = _bounded(convert(data, file.path), limit, file.path)
    except InputError:
        return None
    return _source_file(file.source_id, file.path, data, converted, file.record)


def _source_file(
    source_id: str, path: Path, data: bytes, converted: Converted, status: FileStat | None
) -> SourceFile:
    return SourceFile(
        source_id=source_id,
        path=path,
        data=data,
        text=converted.text,
        media_type=converted.media_type,
        stat=status,
        converter=converted.converter,
        converter_version=converted.converter_version,
    )


def _regular_status(path: Path) -> os.stat_result | None:
    try:
        status = os.stat(path)  # follows links: a link's record is its target's status
    except OSError:
        return None
    return status if stat.S_ISREG(status.st_mode) else None


def _file_stat(path: str, sha256: str, status: os.stat_result, taken_ns: int) -> FileStat:
    return FileStat(
        path=path,
        sha256=sha256,
        size=status.st_size,
        mtime_ns=status.st_mtime_ns,
        ctime_ns=status.st_ctime_ns,
        inode=status.st_ino & INODE_BITS,
        recorded_ns=taken_ns,
    )


def _unchanged_file(
    path: Path,
    root: Path | None,
    register: Register | None,
    record: FileStat | None,
    status: os.stat_result,
    limit: int,
) -> KnownFile | None:
    """``path`` as a ``KnownFile`` when its record can be trusted, else None (read it)."""
    if (
        record is None
        or (record.size, record.mtime_ns, record.ctime_ns, record.inode)
        != (status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino & INODE_BITS)
        or max(record.mtime_ns, record.ctime_ns) + RACY_NS >= record.recorded_ns
        or not 0 < status.st_size <= limit  # the limit may have been lowered since
    ):
        return None
    media_type = MEDIA_TYPES.get(path.suffix.lower())
    if media_type is None:
        return None
    try:
        source_id = _source_id(path, root, register)  # the register may map it anew
    except InputError:
        return None  # reading it names the problem
    return KnownFile(source_id, path, record.sha256, media_type, record)


def read_source_file(
    path: Path,
    root: Path | None = None,
    register: Register | None = None,
    *,
    max_source_bytes: int | None = None,
) -> SourceFile:
    """One validated source file; raises ``InputError`` naming the file and the problem.

    ``root`` is the directory the id is relative to (None: the id is the file's stem).
    """
    limit = max_source_bytes if max_source_bytes is not None else _default_max_bytes()
    if path.suffix.lower() not in MEDIA_TYPES:
        raise InputError(
            f"unsupported file type {path.suffix or '(none)'!r}; claims ingests "
            f"{', '.join(SUFFIXES)} files (save it in one of these formats first)",
            location=str(path),
        )
    # Regular files only, never more than limit + 1 bytes: a named pipe, a link to a device
    # or a link loop is a per-file error, not a hang or an exhausted memory (claims/files.py).
    file_limit, setting = _file_limit(path, limit)
    data = read_bounded(path, file_limit, setting=setting)
    # .txt/.md: the UTF-8 text; others: converted, their text within the text limit
    converted = _bounded(convert(data, path), limit, path)
    source_id = _source_id(path, root, register)
    return _source_file(source_id, path, data, converted, None)


def _source_id(path: Path, root: Path | None, register: Register | None) -> str:
    if register is not None:
        mapped = register.source_id_for(path)
        if mapped is not None:
            return mapped
    text, prefix = str(path), f"{root}{os.sep}"
    if root is not None and text.startswith(prefix):  # what the walk yields: no pathlib
        source_id = os.path.splitext(text[len(prefix) :])[0].replace(os.sep, "/")
    else:
        relative = path.relative_to(root) if root is not None else Path(path.name)
        source_id = relative.with_suffix("").as_posix()
    problem = source_id_problem(source_id)
    if problem:
        raise InputError(
            f"cannot make a source id from this path ({problem}); rename the file or map it "
            "to an id with `path` in the register",
            location=str(path),
        )
    return source_id


def _reject_duplicate_ids(scan: SourceScan) -> None:
    by_id: dict[str, list[SourceFile | KnownFile]] = {}
    found: list[SourceFile | KnownFile] = [*scan.files, *scan.known]
    for file in found:
        by_id.setdefault(file.source_id, []).append(file)
    clashes = {sid: group for sid, group in by_id.items() if len(group) > 1}
    if not clashes:
        return
    for source_id, group in clashes.items():
        for file in group:
            others = ", ".join(str(f.path) for f in group if f is not file)
            scan.rejected.append(
                RejectedFile(
                    file.path,
                    f"source id {source_id!r} is also the id of {others}; rename one of them "
                    "or map one to another id with `path` in the register",
                    source_id=source_id,
                    sha256=file.sha256,
                )
            )
    scan.files = [f for f in scan.files if f.source_id not in clashes]
    scan.known = [f for f in scan.known if f.source_id not in clashes]


def _rejection(
    path: Path, error: InputError, root: Path | None, register: Register | None
) -> RejectedFile:
    """The error as a rejection: the reason without the location, the line kept apart."""
    message, line = str(error), None
    location = error.location or ""
    if location and message.startswith(f"{location}: "):
        message = message[len(location) + 2 :]
        tail = location[len(str(path)) + 1 :] if location.startswith(f"{path}:") else ""
        line = int(tail) if tail.isdigit() else None
    try:
        source_id: str | None = _source_id(path, root, register)
    except InputError:
        source_id = None
    # Never hash a pipe or a device: a rejected special file has no checksum.
    return RejectedFile(path, message, line, source_id, sha256_of_regular_file(path))


def _refused(path: Path, reason: str, root: Path | None, register: Register | None) -> RejectedFile:
    try:
        source_id: str | None = _source_id(path, root, register)
    except InputError:
        source_id = None
    return RejectedFile(path, reason, None, source_id, None)


def _rejection_message(rejected: Sequence[RejectedFile], *, ingested: int | None) -> str:
    head = (
        f"{len(rejected)} file(s) rejected, nothing was ingested"
        if ingested is None
        else f"{len(rejected)} file(s) rejected; the other {ingested} were ingested"
    )
    return head + ":\n" + "\n".join(f"  {r}" for r in rejected)


def rejection_error(report: IngestReport) -> InputError | None:
    """The error ``--keep-going`` ends with when files were rejected (None when all were fine)."""
    if not report.rejected:
        return None
    return InputError(_rejection_message(report.rejected, ingested=len(report.files)))


def _file_limit(path: Path, text_limit: int) -> tuple[int, str]:
    """The most bytes a file of this type may have, and the setting that says so: a .docx,
    .pdf or .html file's own limit (images and markup are most of their bytes)."""
    if path.suffix.lower() in _DOCUMENT_SUFFIXES:
        from claims.settings import get_settings

        return get_settings().max_document_bytes, "CLAIMS_MAX_DOCUMENT_BYTES"
    return text_limit, "CLAIMS_MAX_SOURCE_BYTES"


_DOCUMENT_SUFFIXES = frozenset({".docx", ".pdf", ".html", ".htm"})


def _bounded(converted: Converted, text_limit: int, path: Path) -> Converted:
    """``converted`` if its text is within the text limit, else ``InputError``."""
    size = len(converted.text.encode("utf-8"))
    if converted.converter != "utf-8-text" and size > text_limit:
        raise InputError(
            f"the file's text is {size} bytes, over the limit of {text_limit} bytes "
            "(CLAIMS_MAX_SOURCE_BYTES); split the document or raise the limit",
            location=str(path),
        )
    return converted


def _default_max_bytes() -> int:
    from claims.settings import get_settings

    return get_settings().max_source_bytes


# --------------------------------------------------------------------------- writing


def ingest(
    session: Session,
    files: Sequence[SourceFile],
    register: Register | None = None,
    *,
    rejected: Sequence[RejectedFile] = (),
    not_read: Sequence[Path] = (),
) -> IngestReport:
    """Store ``files`` (and apply ``register``) inside the caller's transaction.

    Raises ``RegisterError`` before writing anything if a ``supersedes`` names a source that
    is neither in the register, nor stored, nor among ``files``. ``rejected`` is carried into
    the report unchanged so one report describes the whole command, and so is ``not_read``
    (the scan's files of types not read).
    """
    repository = SourceRepository(session)
    report = IngestReport(rejected=list(rejected), not_read=[str(p) for p in not_read])
    # An erased source stays out until readmitted: the same bytes are skipped, said so.
    erased = erased_pairs(session)
    if erased:
        report.erased = [
            skip_message(f.source_id, str(f.path))
            for f in files
            if (f.source_id, f.sha256) in erased
        ]
        files = [f for f in files if (f.source_id, f.sha256) not in erased]
    if register is not None:
        stored = repository.ids()
        ingesting = {f.source_id for f in files}
        report.register = str(register.path)
        report.register_entries = len(register.entries)
        report.register_changed = apply_register(session, register, ingesting=ingesting)
        # A new source the register does not list gets the register's default groups, so
        # "restricted unless said otherwise" also covers files the owner forgot to list.
        unlisted = {f.source_id for f in files} - stored - register.source_ids
        apply_default_groups(session, register, sorted(unlisted))
    outcomes = repository.add_versions(
        [
            NewVersion(
                source_id=file.source_id,
                text=file.text,
                raw=file.data,
                media_type=file.media_type,
                origin_path=str(file.path),
                converter=file.converter,
                converter_version=file.converter_version,
            )
            for file in files
        ]
    )
    for file, outcome in zip(files, outcomes, strict=True):
        report.files.append(
            IngestedFile(
                source_id=outcome.source_id,
                path=str(file.path),
                version_id=outcome.version_id,
                number=outcome.number,
                sha256=outcome.sha256,
                created=outcome.created,
                latest_number=outcome.latest_number,
            )
        )
    return report
