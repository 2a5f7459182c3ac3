"""Converters: a file's bytes become the Markdown-flavoured text a source version holds.

Public surface: ``convert(data, path) -> Converted``, ``media_type_for(path)``,
``SUFFIXES``, ``current_converter(media_type)``.

Every format is rendered into one text form (``markdown_text``): ``#`` headings, ``- `` and
``1. `` list items, pipe tables, paragraphs between blank lines, ``\\f`` page breaks. That
text is what evidence offsets point into; ``.md`` and ``.txt`` are their own text. Each
result names its converter and the converter's version (our rules' revision and the
library's version): a version converted by an older converter is re-derived from its file
(docs/INGEST.md, "Converters"). Libraries are imported on first use only.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

from claims.errors import InputError


@dataclass(frozen=True)
class Converted:
    """A file's text as a source version holds it, and what made it."""

    text: str
    converter: str
    converter_version: str
    media_type: str


@dataclass(frozen=True)
class _Format:
    media_type: str
    module: str  # claims.documents.converters.<module>: NAME, VERSION, LIBRARY, convert()
    what: str  # how an error names the file's kind
    hint: str  # what to do when the file cannot be read


_TEXT_HINT = "convert it to UTF-8 text"
_FORMATS: dict[str, _Format] = {
    ".txt": _Format("text/plain", "plain", "text file", _TEXT_HINT),
    ".md": _Format("text/markdown", "plain", "Markdown file", _TEXT_HINT),
    ".docx": _Format(
        # the registered type (...officedocument.wordprocessingml.document) is 71
        # characters, over the store's 64: the short form other tools use too
        "application/docx",
        "docx",
        "Word (.docx) file",
        "open it in Word or LibreOffice and save it again as .docx",
    ),
    ".pdf": _Format(
        "application/pdf",
        "pdf",
        "PDF file",
        "open it in a PDF viewer and print or export it to a new PDF",
    ),
    ".html": _Format("text/html", "html", "HTML file", "save the page again as HTML"),
    ".htm": _Format("text/html", "html", "HTML file", "save the page again as HTML"),
}
SUFFIXES: tuple[str, ...] = tuple(_FORMATS)
MEDIA_TYPES: dict[str, str] = {suffix: f.media_type for suffix, f in _FORMATS.items()}
BINARY_MEDIA_TYPES = frozenset(
    f.media_type for f in _FORMATS.values() if f.module in {"docx", "pdf"}
)


def known_media_type(media_type: str) -> bool:
    """Whether a converter reads this media type (a stored version's ``media_type``)."""
    return any(f.media_type == media_type for f in _FORMATS.values())


def media_type_for(path: Path | str) -> str | None:
    """The media type a file of this name is stored as; None for a type not read."""
    return MEDIA_TYPES.get(Path(path).suffix.lower())


def convert(data: bytes, path: Path) -> Converted:
    """The text of ``data`` (the bytes of ``path``), or ``InputError`` naming the file,
    what is wrong and what to do. Never any other exception: a file the library cannot
    read is reported as damaged."""
    suffix = path.suffix.lower()
    fmt = _FORMATS.get(suffix)
    if fmt is None:
        raise InputError(
            f"unsupported file type {path.suffix or '(none)'!r}; claims reads "
            f"{', '.join(SUFFIXES)} files",
            location=str(path),
        )
    module = _module(fmt.module)
    if not data:
        raise InputError("the file is empty; there is nothing to ingest", location=str(path))
    try:
        text = module.convert(data, path)
    except InputError:
        raise
    except RecursionError:
        raise InputError(
            f"the {fmt.what} is nested too deeply to read; {fmt.hint}", location=str(path)
        ) from None
    except Exception as error:  # a library's own error on a damaged file
        detail = " ".join(str(error).split())[:160] or type(error).__name__
        raise InputError(
            f"the {fmt.what} is damaged or not really a {fmt.what} ({detail}); {fmt.hint}",
            location=str(path),
        ) from None
    if not text.strip():
        raise InputError(
            f"the {fmt.what} holds no text; there is nothing to ingest", location=str(path)
        )
    name, version = current_converter(fmt.media_type)
    return Converted(text, name, version, fmt.media_type)


@cache
def current_converter(media_type: str) -> tuple[str, str]:
    """(name, version) of the converter that reads ``media_type`` now."""
    fmt = next(f for f in _FORMATS.values() if f.media_type == media_type)
    module = _module(fmt.module)
    version = str(module.VERSION)
    library = getattr(module, "LIBRARY", None)
    if library:
        version += f" ({library} {metadata.version(library)})"
    return str(module.NAME), version


@cache
def _module(name: str) -> _ConverterModule:
    return importlib.import_module(f"{__name__}.{name}")  # type: ignore[return-value]


class _ConverterModule:  # the shape of each converter module (for the type checker)
    NAME: str
    VERSION: str
    convert: Callable[[bytes, Path], str]
