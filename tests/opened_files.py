"""Which files a block of code opens, seen through Python's audit hooks.

Every ``open()``, ``io.open()`` and ``os.open()`` raises an ``open`` audit event with the
path, so a test can tell which source files a scan or a run read: an observation of the real
code, not a stand-in for it. (Tests run as root here, so a file made unreadable with
``chmod 000`` would still be read; and chmod changes the file's ctime, which the scan checks.)
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

_listening: list[set[str]] = []


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if event != "open" or not _listening or not args:
        return
    path = args[0]
    if isinstance(path, (str, bytes, os.PathLike)):  # not a descriptor being wrapped
        name = os.path.abspath(os.fsdecode(path))
        for paths in _listening:
            paths.add(name)


sys.addaudithook(_hook)  # hooks cannot be removed; it does nothing outside `opened()`


@contextmanager
def opened() -> Iterator[set[str]]:
    """The absolute paths opened inside the block."""
    paths: set[str] = set()
    _listening.append(paths)
    try:
        yield paths
    finally:
        _listening.remove(paths)


def opened_under(paths: set[str], folder: Path) -> set[str]:
    """The opened paths inside ``folder``, relative to it (as posix strings)."""
    root = str(folder.absolute()) + os.sep
    return {p[len(root) :].replace(os.sep, "/") for p in paths if p.startswith(root)}
