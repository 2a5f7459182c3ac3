"""The walk of a sources folder, and the status of every file it finds in one digest.

``walk`` is the one walk of the files a scan considers: ``claims.ingest.scan_sources`` reads
what it yields, and ``source_status`` only takes each file's status (one ``stat``), so both
see the same files in the same order. The status digest covers each file's path, size,
modification and change times and inode, as the store's per-file records do; a run that left
the store holding every file keeps it (``claims.store.run_stamps``), and the next run with
the same digest has nothing to read (docs/PIPELINE.md, "Session 19: nothing changed").
"""

from __future__ import annotations

import hashlib
import operator
import os
import stat
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from claims.documents.converters import MEDIA_TYPES
from claims.files import real_path

# A status taken this soon after the file's last change is not trusted: a second change in
# the same tick of the file system's clock would leave the same times (git's "racy" index
# entries). Two seconds covers the coarsest common granularity (FAT) and a file server
# whose clock is a little off.
RACY_NS = 2_000_000_000
INODE_BITS = 0x7FFF_FFFF_FFFF_FFFF  # inodes are unsigned 64-bit; the store keeps signed


class Candidate(NamedTuple):
    file: str  # the path as walked (the folder given, joined with the names below it)
    root: Path | None  # the folder its id is relative to (None: named directly)
    resolved: str  # the file with links resolved: a file reached twice is read once
    recorded_as: str  # ``stat_path(file)``: the key of its status record


def stat_path(path: Path) -> str:
    """The path a file's status is recorded under: absolute, links not resolved."""
    return str(path.absolute())


def walk(given: Path, not_read: list[Path], missing: list[Path]) -> Iterator[Candidate]:
    """Every file of a type claims reads under ``given`` (a folder, walked in name order,
    hidden entries skipped and linked folders not entered, as ``os.walk`` does), or
    ``given`` itself when it is a file; files of other types go to ``not_read``, a path
    that does not exist to ``missing``.

    Links and the absolute path are worked out once per folder (``real_path`` walks every
    part of a path), links again only for a file that is a link itself.
    """
    if given.is_dir():
        yield from _folder(given, str(given), not_read)
    elif given.exists() or given.is_symlink():  # a dangling link or a loop: read says which
        yield Candidate(str(given), None, str(real_path(given)), stat_path(given))
    else:
        missing.append(given)


def _folder(root: Path, directory: str, not_read: list[Path]) -> Iterator[Candidate]:
    try:
        with os.scandir(directory) as listing:
            entries = sorted(listing, key=_NAME)
    except OSError:  # a folder that cannot be listed is passed over, as os.walk does
        return
    folders: list[str] = []
    real_folder = absolute_folder = ""  # each with a separator at its end: os.path.join's
    for entry in entries:
        name = entry.name
        if name.startswith("."):  # .git, .claims, editor files
            continue
        if _is_dir(entry):
            if not entry.is_symlink():  # a linked folder is not entered
                folders.append(entry.path)
            continue
        if os.path.splitext(name)[1].lower() not in MEDIA_TYPES:
            not_read.append(Path(directory, name))  # named in the summary
            continue
        absolute_folder = absolute_folder or _with_sep(stat_path(Path(directory)))
        recorded_as = absolute_folder + name
        if entry.is_symlink():  # Path.resolve raises on a loop; real_path does not
            yield Candidate(entry.path, root, str(real_path(Path(entry.path))), recorded_as)
            continue
        real_folder = real_folder or _with_sep(str(real_path(Path(directory))))
        yield Candidate(entry.path, root, real_folder + name, recorded_as)
    for folder in folders:
        yield from _folder(root, folder, not_read)


_NAME = operator.attrgetter("name")


def _with_sep(folder: str) -> str:
    """``folder`` ending in a separator, so that joining a name is one concatenation (what
    ``os.path.join`` gives, without its cost per file)."""
    return folder if folder.endswith(os.sep) else folder + os.sep


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()  # follows links, as os.walk's listing does
    except OSError:
        return False


@dataclass
class SourceStatus:
    """The status of the files a scan considers: one digest of every file's path, size,
    times and inode in walk order, the files changed within ``RACY_NS`` before the walk
    began (their status alone cannot vouch for their bytes), and the files not read."""

    digest: str
    files: int
    racy: list[str] = field(default_factory=list)
    not_read: list[Path] = field(default_factory=list)


def source_status(paths: Sequence[Path], also: Sequence[Path] = ()) -> SourceStatus | None:
    """The status of every file a scan of ``paths`` considers, and of the files ``also``
    (the register), without reading any; None when a path given is missing or a file is
    not a regular file (a scan names such files as bad, and reads them every time)."""
    taken_ns = time.time_ns()  # before any stat: racy is judged against the earliest time
    digest = hashlib.sha256()
    status = SourceStatus(digest="", files=0)
    missing: list[Path] = []
    seen: set[str] = set()
    for given in paths:
        for candidate in walk(Path(given), status.not_read, missing):
            if candidate.resolved in seen:
                continue
            seen.add(candidate.resolved)
            if not _add(digest, status, candidate.file, candidate.recorded_as, taken_ns):
                return None
            status.files += 1
    for path in also:
        if not _add(digest, status, str(path), stat_path(path), taken_ns):
            return None
    if missing:
        return None
    status.digest = digest.hexdigest()
    return status


def _add(
    digest: hashlib._Hash, status: SourceStatus, file: str, recorded_as: str, taken_ns: int
) -> bool:
    """Add one file's status to ``digest`` (False: it is gone or not a regular file)."""
    try:
        found = os.stat(file)  # follows links: a link's status is its target's
    except OSError:
        return False
    if not stat.S_ISREG(found.st_mode):
        return False
    digest.update(
        f"{recorded_as}\0{found.st_size}\0{found.st_mtime_ns}\0{found.st_ctime_ns}\0"
        f"{found.st_ino & INODE_BITS}\n".encode("utf-8", "surrogateescape")
    )
    if max(found.st_mtime_ns, found.st_ctime_ns) + RACY_NS >= taken_ns:
        status.racy.append(recorded_as)
    return True
