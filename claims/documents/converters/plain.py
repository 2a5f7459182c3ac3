"""``.txt`` and ``.md``: the file's UTF-8 text is the version's text, markup included."""

from __future__ import annotations

from pathlib import Path

from claims.errors import InputError
from claims.files import foreign_encoding

NAME = "utf-8-text"
VERSION = "1"
_BOM = "\ufeff"


def decode_source_text(data: bytes, path: Path) -> str:
    """The text of ``data``; raises ``InputError`` if it is empty, binary or not UTF-8."""
    if not data:
        raise InputError("the file is empty; there is nothing to ingest", location=str(path))
    encoding = foreign_encoding(data)
    if encoding:  # its zero bytes are not "binary": say what it is
        raise InputError(
            f"the file is {encoding}, not UTF-8; convert it to UTF-8", location=str(path)
        )
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data[:nul].count(b"\n") + 1
        raise InputError(
            f"the file looks binary (NUL byte at line {line}, byte offset {nul}); "
            "only UTF-8 text can be ingested",
            location=f"{path}:{line}",
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise InputError(
            f"the file is not valid UTF-8 (byte 0x{data[error.start]:02x} at line {line}, "
            f"byte offset {error.start}); convert it to UTF-8",
            location=f"{path}:{line}",
        ) from None
    # A UTF-8 byte order mark is not text: offsets into the text must not count it.
    text = text.removeprefix(_BOM)
    if not text.strip():
        raise InputError(
            "the file holds only whitespace; there is nothing to ingest", location=str(path)
        )
    return text


def convert(data: bytes, path: Path) -> str:
    return decode_source_text(data, path)
