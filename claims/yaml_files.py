"""Strict YAML for the files people write by hand (register, authority policy).

PyYAML's ``safe_load`` keeps the last of two equal keys, honours tags (``!!str``,
``!!binary``, ``!!set``...) and reads ``version: 3.10`` as the float 3.1. Hand-written
configuration needs the opposite: a key given twice is an error (which of the two did the
author mean?), a tag is an error (nothing here needs one, and an ignored tag would silently
change a value), and a value under a "text key" such as ``version`` is kept exactly as
written. Every error names the file and line and never holds a raw newline.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, ScalarNode

from claims.errors import InputError
from claims.files import CONFIG_FILE_LIMIT, foreign_encoding, read_bounded

_STR_TAG = "tag:yaml.org,2002:str"


def one_line(text: str) -> str:
    """``text`` on one line: YAML's messages and user values may hold newlines."""
    return " ".join(str(text).split())


def read_config_text(path: Path, error: type[InputError], what: str) -> str:
    """The UTF-8 text of a configuration file (regular, bounded), or ``error`` saying why."""
    try:
        raw = read_bounded(path, CONFIG_FILE_LIMIT, what=what)
    except InputError as problem:
        reason = str(problem).removeprefix(f"{path}: ")
        raise error(reason, location=str(path)) from None
    encoding = foreign_encoding(raw)  # before decoding: ASCII in UTF-16 is "valid" UTF-8
    if encoding:
        raise error(f"the {what} is {encoding}, not UTF-8; save it as UTF-8", location=str(path))
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as problem:
        line = raw[: problem.start].count(b"\n") + 1
        raise error(
            f"the {what} is not valid UTF-8 (byte 0x{raw[problem.start]:02x}); save it as UTF-8",
            location=f"{path}:{line}",
        ) from None


def reject_tags(text: str, where: Path | str, error: type[InputError]) -> None:
    """Raise ``error`` at the first explicit YAML tag (``!!str``, ``!custom``...) in ``text``."""
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if isinstance(token, yaml.TagToken):
                handle, suffix = token.value
                tag = f"{handle or ''}{suffix}"
                raise error(
                    f"YAML tags are not accepted here ({tag}); write the plain value",
                    location=f"{where}:{token.start_mark.line + 1}",
                )
    except yaml.YAMLError:
        return  # not even scannable: the parser after this says where and why


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses duplicate keys and keeps ``text_keys`` values as written."""

    text_keys: frozenset[str] = frozenset()

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=True)
            if key in seen:
                raise _DuplicateKey(key, key_node.start_mark.line + 1)
            seen.add(key)
            plain = isinstance(value_node, ScalarNode) and value_node.style is None
            if key in self.text_keys and plain and value_node.value not in ("", "~", "null"):
                value_node.tag = _STR_TAG  # `version: 3.10` stays "3.10"
        return super().construct_mapping(node, deep=deep)


class _DuplicateKey(Exception):
    def __init__(self, key: Any, line: int) -> None:
        super().__init__(key, line)
        self.key, self.line = key, line


def load_strict_yaml(
    text: str,
    where: Path | str,
    error: type[InputError],
    *,
    text_keys: frozenset[str] = frozenset(),
) -> Any:
    """Parse ``text``: no duplicate keys, no tags, ``text_keys`` values kept as strings."""
    reject_tags(text, where, error)
    loader_class = type("_Loader", (_StrictLoader,), {"text_keys": text_keys})
    loader = loader_class(text)
    try:
        return loader.get_single_data()
    except _DuplicateKey as duplicate:
        raise error(
            f"key {one_line(str(duplicate.key))!r} is given twice in one mapping; keep one",
            location=f"{where}:{duplicate.line}",
        ) from None
    except yaml.MarkedYAMLError as problem:
        mark = problem.problem_mark or problem.context_mark
        line = f":{mark.line + 1}" if mark is not None else ""
        reason = one_line(problem.problem or problem.context or "unreadable")
        raise error(f"not valid YAML: {reason}", location=f"{where}{line}") from None
    except yaml.YAMLError as problem:
        raise error(f"not valid YAML: {one_line(str(problem))}", location=str(where)) from None
    finally:
        loader.dispose()
