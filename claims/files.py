"""Reading user files safely: regular files only, never more than a bound.

Sources, the register and the policy are paths a user (or a shared folder) hands us. A named
pipe blocks ``open`` until someone writes to it, ``/dev/zero`` never ends, a symbolic link
loop cannot be opened at all. So a path is read only when it names a regular file (after
following links), it is opened without blocking, the opened descriptor is checked again (the
path may have changed in between), and at most ``limit + 1`` bytes are read: one more than
allowed is enough to tell "too big" without holding the rest.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from pathlib import Path

from claims.errors import InputError

# A policy or register larger than this is not a hand-written file.
CONFIG_FILE_LIMIT = 4 * 1024 * 1024

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class FileReadError(InputError):
    """The path cannot be read as a regular file; ``special`` when it is not one at all."""

    def __init__(self, message: str, *, location: str, special: bool = False) -> None:
        super().__init__(message, location=location)
        self.special = special


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _not_regular(path: Path, mode: int) -> FileReadError:
    what = _kind(mode)
    if os.path.islink(path):
        what = f"a symbolic link to {os.path.realpath(path)}, which is {what}"
    return FileReadError(
        f"{what}, not a regular file; only regular files are read (replace it with "
        "the file itself, or move it out of the folder)",
        location=str(path),
        special=True,
    )


def _open_error(path: Path, error: OSError) -> FileReadError:
    if error.errno == errno.ELOOP:
        return FileReadError(
            "a symbolic link loop (the link leads back to itself); fix or remove the link",
            location=str(path),
            special=True,
        )
    if error.errno == errno.ENOENT and os.path.islink(path):
        return FileReadError(
            f"a symbolic link to a missing file ({os.readlink(path)}); fix or remove the link",
            location=str(path),
            special=True,
        )
    if error.errno == errno.ENOENT:
        return FileReadError("no such file", location=str(path))
    return FileReadError(f"cannot read the file: {error.strerror}", location=str(path))


def _open_regular(path: Path) -> tuple[int, os.stat_result]:
    """A descriptor on the regular file at ``path`` and its status, or ``FileReadError``."""
    try:
        before = os.stat(path)  # follows links; never opens a pipe or device
    except OSError as error:
        raise _open_error(path, error) from None
    if not stat.S_ISREG(before.st_mode):
        raise _not_regular(path, before.st_mode)
    try:
        # O_NONBLOCK: if the path became a pipe since the stat, open returns instead of waiting.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        raise _open_error(path, error) from None
    status = os.fstat(fd)
    if not stat.S_ISREG(status.st_mode):
        os.close(fd)
        raise _not_regular(path, status.st_mode)
    return fd, status


def read_bounded(path: Path, limit: int, *, what: str = "file", setting: str = "") -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    Raises ``FileReadError`` (an ``InputError`` located at the path) for a missing file, a
    link loop, a pipe, a device or a directory, and for a file over ``limit`` bytes, whether
    its size says so up front or it grows while being read. ``setting`` names the knob that
    sets the limit, for the message.
    """
    fd, status = _open_regular(path)
    knob = f" ({setting})" if setting else ""
    too_big = f"the {what} is over the limit of {limit} bytes{knob}; split it or raise the limit"
    with os.fdopen(fd, "rb") as stream:
        if status.st_size > limit:
            raise FileReadError(
                f"the {what} is {status.st_size} bytes, over the limit of {limit} bytes{knob}; "
                "split it or raise the limit",
                location=str(path),
            )
        data = stream.read(limit + 1)
    if len(data) > limit:  # it grew between the stat and the read
        raise FileReadError(too_big, location=str(path))
    return data


def sha256_of_regular_file(path: Path) -> str | None:
    """The sha256 of a regular file's bytes (streamed, any size); None if it is not one."""
    try:
        fd, _ = _open_regular(path)
    except FileReadError:
        return None
    with os.fdopen(fd, "rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()


def foreign_encoding(data: bytes) -> str | None:
    """The name of a UTF-16/UTF-32 encoding ``data`` is in, told by its byte order mark or,
    without one, by the zero bytes every ASCII character gets; None otherwise."""
    marks = (
        (b"\xff\xfe\x00\x00", "UTF-32 (little-endian)"),
        (b"\x00\x00\xfe\xff", "UTF-32 (big-endian)"),
        (b"\xff\xfe", "UTF-16 (little-endian)"),
        (b"\xfe\xff", "UTF-16 (big-endian)"),
    )
    for mark, name in marks:
        if data.startswith(mark):
            return name
    sample = data[:512]
    if len(sample) >= 4 and len(sample) % 2 == 0:
        even, odd = sample[0::2], sample[1::2]
        if odd.count(0) >= len(odd) * 0.9 and even.count(0) == 0:
            return "UTF-16 (little-endian)"
        if even.count(0) >= len(even) * 0.9 and odd.count(0) == 0:
            return "UTF-16 (big-endian)"
    return None


def real_path(path: Path) -> Path:
    """``path`` with links resolved as far as they go; never raises on a link loop."""
    return Path(os.path.realpath(path))
