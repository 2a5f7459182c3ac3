"""The organization's words: a glossary file and a small built-in lexicon of office synonyms.

Both are read as pairs of words (or phrases) that mean one thing; they are applied both ways,
to a question's words and to the words a claim carries alike, so "vacation" in a question
meets "annual leave" in a handbook and the other way round. The glossary file is YAML,
``term: other words`` (a string or a list), named by ``CLAIMS_GLOSSARY_FILE`` or by the
register's ``glossary:`` key (``CLAIMS_REGISTER_FILE``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import yaml

from claims.errors import InputError

_LEXICON = Path(__file__).parent / "data" / "office_synonyms.yaml"
_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")


def fold(word: str) -> str:
    """A word as compared: casefolded, a plain English plural made singular."""
    w = word.casefold()
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w


def words(text: str) -> list[str]:
    """The folded words of ``text``, in order."""
    return [fold(w) for w in _WORD.findall(text)]


def _pairs(entries: dict[object, object], where: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for term, others in entries.items():
        if not isinstance(term, str) or not term.strip():
            raise InputError(f"{where}: every entry needs a word or phrase before ':'")
        listed = [others] if isinstance(others, str) else others
        if not isinstance(listed, list) or not all(isinstance(o, str) for o in listed):
            raise InputError(
                f"{where}: entry {term!r} must name its other words as text or a list of text"
            )
        key = " ".join(words(term))
        for other in listed:
            folded = " ".join(words(other))
            if folded and folded != key:
                out.setdefault(key, set()).add(folded)
                out.setdefault(folded, set()).add(key)
    return out


def _read(path: Path, section: str | None) -> dict[str, set[str]]:
    try:
        loaded = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except OSError as error:
        raise InputError(f"cannot read the glossary {path}: {error.strerror}") from error
    except yaml.YAMLError as error:
        raise InputError(f"{path}: not valid YAML ({error}); write `term: other words`") from error
    entries = loaded.get(section, {}) if section and isinstance(loaded, dict) else loaded
    if not isinstance(entries, dict):
        raise InputError(f"{path}: expected `term: other words` lines")
    return _pairs(entries, str(path))


@lru_cache(maxsize=8)
def _synonyms(glossary: str | None, _stamp: int = 0) -> dict[str, frozenset[str]]:
    merged = _read(_LEXICON, "synonyms")
    if glossary:
        for term, others in _read(Path(glossary).expanduser(), None).items():
            merged.setdefault(term, set()).update(others)
    return {term: frozenset(others) for term, others in merged.items()}


def configured_glossary() -> str | None:
    """The glossary file the settings name: ``CLAIMS_GLOSSARY_FILE``, else the register's
    ``glossary:`` key; None without either."""
    from claims.settings import get_settings

    settings = get_settings()
    if settings.glossary_file is not None:
        return str(settings.glossary_file)
    if settings.register_file is None:
        return None
    register = Path(settings.register_file).expanduser()
    try:
        stamp = register.stat().st_mtime_ns
    except OSError:
        return None  # a missing register is reported by the commands that apply it
    return _register_glossary(str(register), stamp)


@lru_cache(maxsize=4)
def _register_glossary(register: str, _stamp: int) -> str | None:
    from claims.register import load_register

    named = load_register(Path(register)).glossary
    return str(named) if named is not None else None


def synonyms(glossary: str | None = None) -> dict[str, frozenset[str]]:
    """Every folded word or phrase and what it may be written as: the built-in lexicon and
    the glossary file (``glossary``, else the configured one)."""
    named = glossary or configured_glossary()
    file = Path(named).expanduser() if named else None
    # the file's modification time keys the cache: an edited glossary is read again
    return _synonyms(named, file.stat().st_mtime_ns if file and file.exists() else 0)


def expand(terms: list[str], glossary: str | None = None) -> dict[str, str]:
    """Each of ``terms`` (folded words; adjacent pairs are tried as phrases too) and every
    word its synonyms are written with, mapped to the question term it stands for."""
    table = synonyms(glossary)
    out = {t: t for t in terms}
    phrases = terms + [f"{a} {b}" for a, b in zip(terms, terms[1:], strict=False)]
    for term in phrases:
        for other in table.get(term, ()):
            for word in other.split():
                out.setdefault(word, term)
    return out
