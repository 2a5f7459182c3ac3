"""Look-alike text folded where claim keys are made; the quote keeps the exact text.

A zero-width space before "The", or a Cyrillic "е" inside "dividend", leaves a sentence
that reads the same and makes another claim key: the conflict, the high-risk rule and the
answer miss it. ``fold_lookalikes`` gives the text extraction reads (``claims.extraction``
``claims_with`` and ``parse_question``, and the authority policy's key patterns): invisible
characters removed, and inside a word that also holds Latin letters, each non-Latin letter
that looks like a Latin one replaced by it. The table is data
(``claims/extraction/data/lookalikes.yaml``: common Cyrillic and Greek look-alikes, and the
format / default-ignorable characters). ``Folded.original_span`` maps offsets in the folded
text back to the exact text, so claims keep spans and quotes of what the document says.
``mixed_script_words`` finds what a reviewer should be told about.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import yaml

DATA = Path(__file__).parent / "extraction" / "data" / "lookalikes.yaml"


# Where Unicode puts format characters (category Cf): the BMP and a few supplementary
# blocks (Brahmi/Kaithi number signs, Egyptian format controls, shorthand format controls,
# musical symbol controls, tags). Searching them, not all 1.1M code points, costs ~40 ms.
_FORMAT_BLOCKS = (
    range(0x10000),
    range(0x11000, 0x11100),
    range(0x13430, 0x13460),
    range(0x1BCA0, 0x1BCB0),
    range(0x1D170, 0x1D180),
    range(0xE0000, 0xE0080),
)


@dataclass(frozen=True)
class LookalikeTable:
    letters: dict[str, str]
    invisible: frozenset[str]
    category: str
    visible: frozenset[str]

    @cached_property
    def trigger_characters(self) -> frozenset[str]:
        """Every character that may need folding: a look-alike letter or an invisible one."""
        found = set(self.letters) | set(self.invisible)
        for block in _FORMAT_BLOCKS:
            found.update(chr(c) for c in block if self.is_invisible(chr(c)))
        return frozenset(found)

    @cached_property
    def trigger(self) -> re.Pattern[str]:
        """A character of ``trigger_characters``, as a regular expression."""
        codes = sorted(ord(ch) for ch in self.trigger_characters)
        return re.compile("[" + "".join(_ranges(codes)) + "]")

    @property
    def scripts(self) -> frozenset[str]:
        """The scripts the look-alike letters come from (CYRILLIC, GREEK...)."""
        return frozenset(_script(ch) for ch in self.letters)

    def is_invisible(self, ch: str) -> bool:
        if ch in self.invisible:
            return True
        return unicodedata.category(ch) == self.category and ch not in self.visible


def _ranges(codes: list[int]) -> list[str]:
    """A character class's parts, consecutive code points as one range (a class of single
    characters is searched one entry at a time, ~20x slower on a long text)."""
    parts: list[str] = []
    i = 0
    while i < len(codes):
        j = i
        while j + 1 < len(codes) and codes[j + 1] == codes[j] + 1:
            j += 1
        first, last = re.escape(chr(codes[i])), re.escape(chr(codes[j]))
        parts.append(first if i == j else f"{first}-{last}")
        i = j + 1
    return parts


@lru_cache(maxsize=1)
def table() -> LookalikeTable:
    data = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    letters = {str(k): str(v) for k, v in data["letters"].items()}
    invisible = data["invisible"]
    return LookalikeTable(
        letters=letters,
        invisible=frozenset(str(c) for c in invisible.get("also", [])),
        category=str(invisible["category"]),
        visible=frozenset(str(c) for c in invisible.get("visible_format_characters", [])),
    )


@dataclass(frozen=True)
class Folded:
    """The folded text, and for each of its characters the index of the original one
    (``None``: nothing was folded, the text is the original)."""

    text: str
    origin: tuple[int, ...] | None = None

    @property
    def changed(self) -> bool:
        return self.origin is not None

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the original text that ``[start, end)`` of the folded text covers."""
        if self.origin is None:
            return start, end
        if not self.origin:
            return 0, 0
        first = self.origin[start] if start < len(self.origin) else self.origin[-1] + 1
        last = self.origin[end - 1] + 1 if end > start else first
        return first, last


@lru_cache(maxsize=4096)
def _script(ch: str) -> str:
    """LATIN, CYRILLIC, GREEK... of a letter (the first word of its Unicode name)."""
    name = unicodedata.name(ch, "")
    return name.split(" ", 1)[0] if name else ""


def _in_word(ch: str, rules: LookalikeTable) -> bool:
    return ch.isalpha() or unicodedata.category(ch).startswith("M") or rules.is_invisible(ch)


def fold_lookalikes(text: str) -> Folded:
    """``text`` as keys are made from it (see the module docstring); text without anything
    to fold is returned as it is, after one regular-expression search."""
    if text.isascii():
        return Folded(text)
    rules = table()
    if rules.trigger_characters.isdisjoint(text):  # one pass in C, no regex over the text
        return Folded(text)
    out: list[str] = []
    origin: list[int] = []
    done = 0  # text[:done] is in ``out``
    for match in rules.trigger.finditer(text):
        at = match.start()
        if at < done:
            continue  # inside a word already folded
        start, end = at, at + 1
        while start > done and _in_word(text[start - 1], rules):
            start -= 1
        while end < len(text) and _in_word(text[end], rules):
            end += 1
        out.append(text[done:start])
        origin.extend(range(done, start))
        _fold_word(text, start, end, rules, out, origin)
        done = end
    out.append(text[done:])
    origin.extend(range(done, len(text)))
    folded = "".join(out)
    return Folded(text) if folded == text else Folded(folded, tuple(origin))


def _fold_word(
    text: str, start: int, end: int, rules: LookalikeTable, out: list[str], origin: list[int]
) -> None:
    """Fold ``text[start:end]`` (one word) onto ``out``: invisible characters dropped, and
    look-alike letters made Latin when the word holds a Latin letter."""
    word = text[start:end]
    latin = any(ch.isalpha() and _script(ch) == "LATIN" for ch in word)
    for index, ch in enumerate(word, start=start):
        if rules.is_invisible(ch):
            continue
        out.append((rules.letters.get(ch) if latin else None) or ch)
        origin.append(index)


def fold_key(text: str) -> str:
    """The folded form of a key or a key pattern someone wrote."""
    return fold_lookalikes(text).text


def mixed_script_words(text: str) -> list[str]:
    """The words of ``text`` that mix Latin letters with letters of a look-alike script
    (Cyrillic, Greek, Armenian) or hold invisible characters, as written, each once: what
    a reviewer should be told about."""
    if text.isascii():
        return []
    rules = table()
    found: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if not _in_word(text[i], rules):
            i += 1
            continue
        j = i
        while j < n and _in_word(text[j], rules):
            j += 1
        word = text[i:j]
        scripts = {_script(ch) for ch in word if ch.isalpha()}
        mixed = "LATIN" in scripts and bool(scripts & rules.scripts)
        hidden = any(rules.is_invisible(ch) for ch in word)
        if (mixed or hidden) and word not in found:
            found.append(word)
        i = j
    return found


def lookalike_note(text: str, limit: int = 5) -> str:
    """A note for a reviewer when ``text`` holds look-alike or invisible characters inside
    words (empty otherwise): each such word, the characters that are not what they seem,
    and what the claim key reads."""
    words = mixed_script_words(text)
    if not words:
        return ""
    rules = table()
    parts = []
    for word in words[:limit]:
        odd = sorted(
            {
                f"U+{ord(ch):04X} {unicodedata.name(ch, 'UNNAMED')}"
                for ch in word
                if rules.is_invisible(ch) or (ch.isalpha() and _script(ch) in rules.scripts)
            }
        )
        parts.append(f'"{word}" holds {", ".join(odd)} (the key reads "{fold_key(word)}")')
    more = f"; and {len(words) - limit} more" if len(words) > limit else ""
    return "mixed scripts or hidden characters: " + "; ".join(parts) + more
