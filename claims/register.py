"""The source register: what the application owner trusts about each source.

A register is a YAML file (schema in docs/REGISTER.md) kept by the application owner, never
derived from document text. ``load_register(path)`` reads and validates it without touching
the store and raises ``RegisterError`` naming the file, the line and the field of the first
problem. ``Register.check_references`` validates ``supersedes`` against the sources that
exist (in the register, in the store, or in the files being ingested), and
``apply_register`` writes the entries through ``SourceRepository`` inside the caller's
transaction.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, NoReturn

import yaml
from sqlalchemy.orm import Session
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from claims import audit_log
from claims.errors import RegisterError
from claims.models import Source, SupersedesRef
from claims.profiles import DEFAULT_PROFILE, PROFILE_NAMES, known_profile
from claims.yaml_files import one_line, read_config_text, reject_tags

TOP_LEVEL_KEYS = (
    "tiers",
    "default_access_groups",
    "default_profile",
    "profiles",
    "glossary",
    "sources",
)
ENTRY_KEYS = (
    "title",
    "profile",
    "tier",
    "access_groups",
    "supersedes",
    "effective_from",
    "effective_to",
    "withdrawn",
    "path",
)
SUPERSEDES_KEYS = ("source", "version", "effective_from")
# Version numbers are INTEGER columns: the largest PostgreSQL (and any SQL database) stores.
MAX_VERSION_NUMBER = 2**31 - 1
MAX_SOURCE_ID_LENGTH = 512  # the width of sources.id
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True)
class RegisterEntry:
    """One source of the register, as the domain model plus where it was written."""

    source: Source
    line: int
    path: Path | None = None  # the file this entry names explicitly (resolved), if any
    supersedes_lines: tuple[int, ...] = ()  # line of each ``supersedes`` item, same order


@dataclass(frozen=True)
class Register:
    """A validated register. ``entries`` keeps the file's order."""

    path: Path
    tiers: tuple[str, ...]
    default_access_groups: tuple[str, ...] = ()
    entries: dict[str, RegisterEntry] = field(default_factory=dict)
    default_profile: str = DEFAULT_PROFILE
    # (folder of source ids ending in "/", profile), the longest folder first
    folder_profiles: tuple[tuple[str, str], ...] = ()

    def profile_for(self, source_id: str) -> str:
        """The profile a source is read with: its entry's ``profile``, else that of the
        longest folder of ``profiles`` holding it, else ``default_profile``."""
        entry = self.entries.get(source_id)
        if entry is not None and entry.source.profile:
            return entry.source.profile
        for folder, profile in self.folder_profiles:
            if source_id.startswith(folder):
                return profile
        return self.default_profile

    @cached_property
    def profile_rules(self) -> str:
        """The register's profile choices as one stable string ("" when it makes none): part
        of the extractor generation, so changing a choice re-derives the claims."""
        rules = []
        if self.default_profile != DEFAULT_PROFILE:
            rules.append(f"default={self.default_profile}")
        rules += [f"folder {folder}={profile}" for folder, profile in sorted(self.folder_profiles)]
        rules += [
            f"source {sid}={entry.source.profile}"
            for sid, entry in sorted(self.entries.items())
            if entry.source.profile
        ]
        return "\n".join(rules)

    # the organization's glossary (YAML ``term: other words``), relative to the register
    glossary: Path | None = None

    @property
    def source_ids(self) -> set[str]:
        return set(self.entries)

    @cached_property
    def _ids_by_path(self) -> dict[Path, str]:
        return {e.path: sid for sid, e in self.entries.items() if e.path is not None}

    def source_id_for(self, file: Path) -> str | None:
        """The source id the register assigns to ``file`` through a ``path`` field, if any."""
        if not self._ids_by_path:
            return None
        return self._ids_by_path.get(file.resolve())

    def tier_rank(self, tier: str | None) -> int:
        """0 for the highest tier; sources without a tier rank below every declared one."""
        return self.tiers.index(tier) if tier in self.tiers else len(self.tiers)

    def check_references(self, known_source_ids: Collection[str]) -> None:
        """Raise ``RegisterError`` if a ``supersedes`` names a source that exists nowhere.

        ``known_source_ids`` are the stored sources plus the ones being ingested; the
        register's own entries count as known too.
        """
        for source_id, entry in self.entries.items():
            for ref, line in zip(entry.source.supersedes, entry.supersedes_lines, strict=True):
                if ref.source_id in self.entries or ref.source_id in known_source_ids:
                    continue
                raise RegisterError(
                    f"sources.{source_id}.supersedes: unknown source {ref.source_id!r}; it is "
                    "not in the register, not in the store and not among the files being "
                    "ingested. Fix the id, add an entry for it, or ingest it in the same command",
                    location=f"{self.path}:{line}",
                )


def check_register_references(
    session: Session, register: Register, ingesting: Collection[str] = ()
) -> None:
    """The one reference check of every command that reads a register (ingest, run, the
    sensor, the ``source_register`` asset): each ``supersedes`` must name a source of the
    register, of the store, or among the files being ingested (``ingesting``), else
    ``RegisterError`` naming the file, line and field, and nothing is written."""
    from claims.store.sources import SourceRepository

    register.check_references(SourceRepository(session).ids() | set(ingesting))


def apply_register(
    session: Session, register: Register, *, ingesting: Collection[str] = ()
) -> list[str]:
    """Write every entry's trusted metadata to the store; returns the ids that changed.

    Checks the register's references first (``check_register_references``; ``ingesting``
    are the source ids of the files stored along with it): a ``supersedes`` naming a
    source that exists nowhere raises ``RegisterError`` before anything is written, never
    a phantom source. Each change is appended to the audit log (action ``register.apply``,
    before and after), in the same transaction. Sources the register does not list keep
    what they had: removing an entry never clears metadata (mark a source ``withdrawn``).
    """
    check_register_references(session, register, ingesting)
    return _apply(session, register, [entry.source for entry in register.entries.values()])


def apply_default_groups(session: Session, register: Register, source_ids: Iterable[str]) -> None:
    """Give new sources the register does not list its ``default_access_groups`` (audited)."""
    if register.default_access_groups:
        groups = list(register.default_access_groups)
        _apply(session, register, [Source(id=sid, access_groups=groups) for sid in source_ids])


def _apply(session: Session, register: Register, sources: Iterable[Source]) -> list[str]:
    from claims.store.changes import record_source_changes
    from claims.store.sources import SourceRepository

    repository = SourceRepository(session)
    changed: list[str] = []
    unlinked: list[str] = []  # sources the old entries replaced: their claims change too
    now = datetime.now(UTC)
    for source in sources:
        before, was_changed = repository.replace_register_metadata(source)
        if not was_changed:
            continue
        changed.append(source.id)
        unlinked += [ref.source_id for ref in (before.supersedes if before else [])]
        audit_log.append(
            session,
            at=now,
            actor=f"register:{register.path}",
            action="register.apply",
            entity_type="source",
            entity_id=source.id,
            before=trusted_metadata(before) if before is not None else None,
            after=trusted_metadata(source),
        )
    session.flush()
    record_source_changes(session, changed, also=unlinked)  # the change feed, same transaction
    return changed


def trusted_metadata(source: Source) -> dict[str, Any]:
    """What the register controls about a source, as JSON-ready data (audit before/after)."""
    return {
        "title": source.title,
        "tier": source.authority_tier,
        "access_groups": sorted(source.access_groups),
        "supersedes": [
            {
                "source_id": ref.source_id,
                "version": ref.version,
                "effective_from": ref.effective_from.isoformat() if ref.effective_from else None,
            }
            for ref in sorted(source.supersedes, key=lambda ref: ref.source_id)
        ],
        "effective_from": source.effective_from.isoformat() if source.effective_from else None,
        "effective_to": source.effective_to.isoformat() if source.effective_to else None,
        "withdrawn": source.withdrawn,
    }


# --------------------------------------------------------------------------- loading


def register_as_on_disk(path: Path | str) -> Register:
    """``load_register``, read again only when the file's size or times changed (the
    extractor generation asks for the register's profile choices at every step)."""
    stat = Path(path).stat()
    return _register_at(str(path), stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)


@lru_cache(maxsize=4)
def _register_at(path: str, size: int, mtime_ns: int, ctime_ns: int) -> Register:
    return load_register(path)


def load_register(path: Path | str) -> Register:
    """Read and validate the register at ``path`` (no store access)."""
    path = Path(path)
    if not path.exists() and not path.is_symlink():
        raise RegisterError("no such register file", location=str(path))
    # A regular file, bounded, UTF-8 (a UTF-16 file is named as such): claims/yaml_files.py.
    text = read_config_text(path, RegisterError, "register")
    return parse_register(text, path)


def parse_register(text: str, path: Path) -> Register:
    """Validate register ``text``; ``path`` names it in errors and anchors ``path`` fields."""
    reader = _NodeReader(path)
    reject_tags(text, path, RegisterError)  # a tag would be silently ignored by the reader
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = error.problem or error.context or "unreadable"
        if error.context and error.context_mark is not None and error.problem:
            problem += f" ({error.context} at line {error.context_mark.line + 1})"
        raise RegisterError(f"invalid YAML: {problem}", location=f"{path}:{line}") from None
    except yaml.YAMLError as error:
        raise RegisterError(f"invalid YAML: {one_line(str(error))}", location=str(path)) from None
    if root is None:
        raise RegisterError(
            "the register is empty; it needs `tiers` and `sources` (see docs/REGISTER.md)",
            location=f"{path}:1",
        )
    top = reader.mapping(root, "register")
    for key, (key_node, _) in top.items():
        if key not in TOP_LEVEL_KEYS:
            reader.fail(key_node, key, f"unknown key; expected one of {', '.join(TOP_LEVEL_KEYS)}")
    for required in ("tiers", "sources"):
        if required not in top:
            reader.fail(root, required, "missing; the register needs `tiers` and `sources`")

    tiers_node = top["tiers"][1]
    tiers = reader.names(tiers_node, "tiers")
    if not tiers:
        reader.fail(tiers_node, "tiers", "declare at least one authority tier")
    defaults: list[str] = []
    if "default_access_groups" in top:
        defaults = reader.names(top["default_access_groups"][1], "default_access_groups")
    default_profile = DEFAULT_PROFILE
    if "default_profile" in top:
        default_profile = _profile(reader, top["default_profile"][1], "default_profile")
    folders = _folder_profiles(reader, top["profiles"][1]) if "profiles" in top else ()

    glossary: Path | None = None
    if "glossary" in top:
        named = reader.text(top["glossary"][1], "glossary").strip()
        if not named:
            reader.fail(top["glossary"][1], "glossary", "name a YAML file of `term: other words`")
        glossary = (path.parent / Path(named).expanduser()).resolve()

    sources_node = top["sources"][1]
    entries: dict[str, RegisterEntry] = {}
    claimed_paths: dict[Path, str] = {}
    for source_id, (key_node, value_node) in reader.mapping(sources_node, "sources").items():
        _check_source_id(reader, key_node, source_id, "sources")
        entry = _entry(reader, source_id, key_node, value_node, tiers, defaults)
        if entry.path is not None:
            if entry.path in claimed_paths:
                reader.fail(
                    key_node,
                    f"sources.{source_id}.path",
                    f"the same file is already the path of {claimed_paths[entry.path]!r}",
                )
            claimed_paths[entry.path] = source_id
        entries[source_id] = entry
    register = Register(
        path=path,
        tiers=tuple(tiers),
        default_access_groups=tuple(defaults),
        entries=entries,
        default_profile=default_profile,
        folder_profiles=folders,
        glossary=glossary,
    )
    _check_cycles(register)
    return register


def _entry(
    reader: _NodeReader,
    source_id: str,
    key_node: Node,
    node: Node,
    tiers: list[str],
    defaults: list[str],
) -> RegisterEntry:
    where = f"sources.{source_id}"
    if isinstance(node, ScalarNode) and node.value in ("", "~", "null"):
        fields: dict[str, tuple[Node, Node]] = {}  # `id:` with nothing after it: all defaults
    else:
        fields = reader.mapping(node, where)
    for key, (field_key, _) in fields.items():
        if key not in ENTRY_KEYS:
            reader.fail(
                field_key, f"{where}.{key}", f"unknown key; expected one of {', '.join(ENTRY_KEYS)}"
            )

    def value(name: str) -> Node | None:
        return fields[name][1] if name in fields else None

    title = reader.optional_text(value("title"), f"{where}.title")
    profile_node = value("profile")
    profile = _profile(reader, profile_node, f"{where}.profile") if profile_node else None
    tier = reader.optional_text(value("tier"), f"{where}.tier")
    tier_node = value("tier")
    if tier is not None and tier not in tiers and tier_node is not None:
        reader.fail(
            tier_node,
            f"{where}.tier",
            f"unknown tier {tier!r}; declared tiers are {', '.join(tiers)}. "
            "Use one of them or add it to `tiers`",
        )
    groups_node = value("access_groups")
    groups = (
        reader.names(groups_node, f"{where}.access_groups")
        if groups_node is not None
        else list(defaults)
    )
    effective_from = reader.optional_date(value("effective_from"), f"{where}.effective_from")
    effective_to = reader.optional_date(value("effective_to"), f"{where}.effective_to")
    to_node = value("effective_to")
    if effective_from and effective_to and effective_to < effective_from and to_node is not None:
        reader.fail(
            to_node,
            f"{where}.effective_to",
            f"{effective_to.isoformat()} is before effective_from {effective_from.isoformat()}",
        )
    withdrawn = False
    withdrawn_node = value("withdrawn")
    if withdrawn_node is not None:
        flag = reader.scalar(withdrawn_node, f"{where}.withdrawn")
        if not isinstance(flag, bool):
            reader.fail(withdrawn_node, f"{where}.withdrawn", "must be true or false")
        withdrawn = bool(flag)
    file_path: Path | None = None
    path_node = value("path")
    if path_node is not None:
        relative = reader.optional_text(path_node, f"{where}.path")
        if relative:
            file_path = (reader.path.parent / relative).resolve()
    supersedes, lines = _supersedes(reader, source_id, value("supersedes"))
    source = Source(
        id=source_id,
        title=title,
        profile=profile,
        authority_tier=tier,
        access_groups=sorted(set(groups)),
        supersedes=supersedes,
        effective_from=effective_from,
        effective_to=effective_to,
        withdrawn=withdrawn,
    )
    return RegisterEntry(
        source=source,
        line=key_node.start_mark.line + 1,
        path=file_path,
        supersedes_lines=tuple(lines),
    )


def _profile(reader: _NodeReader, node: Node, where: str) -> str:
    """A profile name (``claims.profiles``), refused at its line when no profile has it."""
    name = reader.optional_text(node, where)
    if not name or not known_profile(name):
        reader.fail(
            node,
            where,
            f"unknown profile {name!r}; use one of: {', '.join(PROFILE_NAMES)} "
            "(docs/REGISTER.md, 'Profiles')",
        )
    return name


def _folder_profiles(reader: _NodeReader, node: Node) -> tuple[tuple[str, str], ...]:
    """``profiles: {"folder/": profile}``: every source whose id starts with the folder."""
    folders: list[tuple[str, str]] = []
    for folder, (key_node, value_node) in reader.mapping(node, "profiles").items():
        if not folder.endswith("/") or folder.startswith("/"):
            reader.fail(
                key_node,
                f"profiles.{folder}",
                'a folder of source ids ending in "/" (such as "encyclopedia/"); give one '
                "source's profile on its entry in `sources`",
            )
        folders.append((folder, _profile(reader, value_node, f"profiles.{folder}")))
    return tuple(sorted(folders, key=lambda item: (-len(item[0]), item[0])))


def _supersedes(
    reader: _NodeReader, source_id: str, node: Node | None
) -> tuple[list[SupersedesRef], list[int]]:
    where = f"sources.{source_id}.supersedes"
    if node is None:
        return [], []
    if not isinstance(node, SequenceNode):
        reader.fail(
            node, where, "must be a list of source ids or {source, version, effective_from}"
        )
    refs: list[SupersedesRef] = []
    lines: list[int] = []
    seen: set[str] = set()
    for item in node.value:
        if isinstance(item, ScalarNode):
            target = reader.text(item, where)
            _check_source_id(reader, item, target, where)
            ref = SupersedesRef(source_id=target)
        else:
            fields = reader.mapping(item, where)
            for key, (field_key, _) in fields.items():
                if key not in SUPERSEDES_KEYS:
                    reader.fail(
                        field_key,
                        f"{where}.{key}",
                        f"unknown key; expected one of {', '.join(SUPERSEDES_KEYS)}",
                    )
            if "source" not in fields:
                reader.fail(item, f"{where}.source", "missing; name the source id it replaces")
            target = reader.text(fields["source"][1], f"{where}.source")
            _check_source_id(reader, fields["source"][1], target, f"{where}.source")
            version: int | None = None
            if "version" in fields:
                version_node = fields["version"][1]
                number = reader.scalar(version_node, f"{where}.version")
                if (
                    isinstance(number, bool)
                    or not isinstance(number, int)
                    or not 1 <= number <= MAX_VERSION_NUMBER
                ):
                    reader.fail(
                        version_node,
                        f"{where}.version",
                        f"must be a version number from 1 to {MAX_VERSION_NUMBER}",
                    )
                version = number
            since = None
            if "effective_from" in fields:
                since = reader.optional_date(fields["effective_from"][1], f"{where}.effective_from")
            ref = SupersedesRef(source_id=target, version=version, effective_from=since)
        if ref.source_id == source_id:
            reader.fail(item, where, "a source cannot supersede itself")
        if ref.source_id in seen:
            reader.fail(item, where, f"{ref.source_id!r} is listed twice")
        seen.add(ref.source_id)
        refs.append(ref)
        lines.append(item.start_mark.line + 1)
    return refs, lines


def _check_source_id(reader: _NodeReader, node: Node, source_id: str, where: str) -> None:
    problem = source_id_problem(source_id)
    if problem:
        reader.fail(node, where, f"invalid source id {source_id!r}: {problem}")


def source_id_problem(source_id: str) -> str | None:
    """Why ``source_id`` cannot be a source id, or None if it can."""
    if not source_id.strip():
        return "it is empty"
    if len(source_id) > MAX_SOURCE_ID_LENGTH:
        return f"it is longer than {MAX_SOURCE_ID_LENGTH} characters"
    if _CONTROL.search(source_id):
        return "it contains a control character"
    if source_id != source_id.strip():
        return "it starts or ends with whitespace"
    if source_id.startswith("/") or source_id.endswith("/") or "\\" in source_id:
        return "use forward slashes between parts, none at the start or the end"
    if any(part in ("", ".", "..") for part in source_id.split("/")):
        return "empty, '.' and '..' parts are not allowed"
    return None


def _check_cycles(register: Register) -> None:
    """A supersedes chain that comes back to its start can never be applied."""
    graph = {sid: [r.source_id for r in e.source.supersedes] for sid, e in register.entries.items()}
    finished: set[str] = set()
    for start in graph:
        if start in finished:
            continue
        # Iterative depth-first walk; `trail` is the chain from `start` to the current node.
        trail: list[str] = [start]
        pending: list[list[str]] = [list(graph[start])]
        while trail:
            if not pending[-1]:
                finished.add(trail.pop())
                pending.pop()
                continue
            nxt = pending[-1].pop()
            if nxt in trail:
                cycle = trail[trail.index(nxt) :] + [nxt]
                raise RegisterError(
                    f"sources.{cycle[0]}.supersedes: supersedes cycle {' -> '.join(cycle)}; "
                    "a source cannot (indirectly) replace itself",
                    location=f"{register.path}:{register.entries[cycle[0]].line}",
                )
            if nxt in finished or nxt not in graph:
                continue
            trail.append(nxt)
            pending.append(list(graph[nxt]))


class _NodeReader:
    """Turns YAML nodes into values, failing with file, line and field."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._constructor = yaml.SafeLoader("")

    def fail(self, node: Node, where: str, message: str) -> NoReturn:
        raise RegisterError(
            f"{where}: {message}", location=f"{self.path}:{node.start_mark.line + 1}"
        )

    def mapping(self, node: Node, where: str) -> dict[str, tuple[Node, Node]]:
        if not isinstance(node, MappingNode):
            self.fail(node, where, "must be a mapping (key: value lines)")
        out: dict[str, tuple[Node, Node]] = {}
        for key_node, value_node in node.value:
            key = self.text(key_node, where)
            if key in out:
                self.fail(key_node, f"{where}.{key}", "is given twice")
            out[key] = (key_node, value_node)
        return out

    def scalar(self, node: Node, where: str) -> Any:
        if not isinstance(node, ScalarNode):
            self.fail(node, where, "must be a single value, not a list or mapping")
        try:
            return self._constructor.construct_object(node, deep=True)
        except (ValueError, yaml.YAMLError) as error:
            return self.fail(node, where, f"unreadable value {node.value!r} ({error})")

    def text(self, node: Node, where: str) -> str:
        if not isinstance(node, ScalarNode):
            self.fail(node, where, "must be text, not a list or mapping")
        return str(node.value)

    def optional_text(self, node: Node | None, where: str) -> str | None:
        if node is None:
            return None
        value = self.scalar(node, where)
        if value is None:
            return None
        if not isinstance(value, str):
            # a title like `2019` is meant as text; keep what was written
            return str(node.value) if isinstance(node, ScalarNode) else str(value)
        return value

    def names(self, node: Node, where: str) -> list[str]:
        """A list of unique non-empty names (tiers, access groups)."""
        if isinstance(node, ScalarNode) and node.value in ("", "~", "null") and not node.style:
            return []
        if not isinstance(node, SequenceNode):
            self.fail(node, where, "must be a list, e.g. [a, b] (an empty list is [])")
        names: list[str] = []
        for item in node.value:
            name = self.text(item, where).strip()
            if not name or _CONTROL.search(name):
                self.fail(item, where, f"invalid name {item.value!r}")
            if name in names:
                self.fail(item, where, f"{name!r} is listed twice")
            names.append(name)
        return names

    def optional_date(self, node: Node | None, where: str) -> date | None:
        if node is None:
            return None
        if not isinstance(node, ScalarNode):
            self.fail(node, where, "must be a date like 2026-01-31")
        value: Any
        try:
            value = self._constructor.construct_object(node, deep=True)
        except (ValueError, yaml.YAMLError):
            value = node.value
        if value is None:
            return None
        if isinstance(value, datetime):
            self.fail(node, where, f"{node.value!r} has a time of day; give a date like 2026-01-31")
        if isinstance(value, date):
            return value
        try:
            return date.fromisoformat(str(value))
        except ValueError:
            return self.fail(node, where, f"{node.value!r} is not a valid date like 2026-01-31")
