"""Supersession between source versions, modelled apart from conflict.

Two trusted origins: version lineage (version n+1 of a source id replaces version n) and the
source register (``supersedes``, optionally only one version, optionally from a date). Text
that says "this document replaces X" is only ever a *candidate* for a reviewer
(``supersession_candidates``): a passage cannot appoint itself the authority.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from claims.edges.facts import ClaimFacts
from claims.ids import stable_id
from claims.models import (
    Source,
    SourceVersionSupersession,
    Span,
    SupersessionCandidate,
    SupersessionOrigin,
)


@dataclass(frozen=True, slots=True)
class VersionRef:
    """The identity of a source version, as the supersession rules need it."""

    id: str
    source_id: str
    number: int


@dataclass(frozen=True, slots=True)
class RegisterSupersedes:
    """One register entry: ``source_id`` replaces ``supersedes_source_id``."""

    source_id: str
    supersedes_source_id: str
    supersedes_version: int | None = None
    effective_from: date | None = None


def supersession_id(newer_version_id: str, older_version_id: str) -> str:
    return stable_id("vs", newer_version_id, older_version_id)


def derive_version_supersessions(
    versions: Iterable[VersionRef], register: Iterable[RegisterSupersedes]
) -> list[SourceVersionSupersession]:
    """Every version-level supersession implied by lineage and the register, sorted by id.

    Lineage links each version to the one before it (transitivity gives the rest); a register
    entry links every version of the replacing source to each targeted version of the
    replaced one. A lineage link wins over a register link between the same two versions.
    """
    by_source: dict[str, list[VersionRef]] = defaultdict(list)
    for version in versions:
        by_source[version.source_id].append(version)
    for chain in by_source.values():
        chain.sort(key=lambda v: v.number)
    rows: dict[tuple[str, str], SourceVersionSupersession] = {}
    for entry in register:
        if entry.source_id == entry.supersedes_source_id:
            continue
        targets = [
            v
            for v in by_source.get(entry.supersedes_source_id, [])
            if entry.supersedes_version is None or v.number == entry.supersedes_version
        ]
        for newer in by_source.get(entry.source_id, []):
            for older in targets:
                rows[(newer.id, older.id)] = SourceVersionSupersession(
                    id=supersession_id(newer.id, older.id),
                    newer_version_id=newer.id,
                    older_version_id=older.id,
                    origin=SupersessionOrigin.REGISTER,
                    effective_from=entry.effective_from,
                )
    for chain in by_source.values():
        for older, newer in zip(chain, chain[1:], strict=False):
            rows[(newer.id, older.id)] = SourceVersionSupersession(
                id=supersession_id(newer.id, older.id),
                newer_version_id=newer.id,
                older_version_id=older.id,
                origin=SupersessionOrigin.LINEAGE,
            )
    return sorted(rows.values(), key=lambda r: r.id)


@dataclass(frozen=True, slots=True)
class SupersessionLink:
    """``newer`` replaces ``older`` (possibly through a chain); origin of the first hop."""

    origin: SupersessionOrigin
    effective_from: date | None


class SupersessionIndex:
    """Answers "does version X replace version Y?" (transitively) and "is Y replaced?"."""

    def __init__(self, rows: Iterable[SourceVersionSupersession] = ()) -> None:
        self.rows = list(rows)
        self._newer: dict[str, list[tuple[str, SourceVersionSupersession]]] = defaultdict(list)
        for row in self.rows:
            self._newer[row.older_version_id].append((row.newer_version_id, row))
        self._memo: dict[tuple[str, str], SupersessionLink | None] = {}

    def __bool__(self) -> bool:
        return bool(self._newer)

    def replaced(self, version_id: str) -> bool:
        return version_id in self._newer

    def newer_versions(self, older: str) -> set[str]:
        """Every version that replaces ``older``, directly or through a chain."""
        found: set[str] = set()
        frontier = [older]
        while frontier:
            version = frontier.pop()
            for successor, _ in self._newer.get(version, ()):
                if successor not in found:
                    found.add(successor)
                    frontier.append(successor)
        return found

    def link(self, newer: str, older: str) -> SupersessionLink | None:
        """How ``newer`` replaces ``older``, if it does (following chains of replacements)."""
        if not self._newer or newer == older:
            return None
        key = (newer, older)
        if key not in self._memo:
            self._memo[key] = self._search(newer, older)
        return self._memo[key]

    def _search(self, newer: str, older: str) -> SupersessionLink | None:
        # breadth-first from the older version towards newer ones; the graph is a few hops deep
        seen = {older}
        frontier: list[tuple[str, SourceVersionSupersession | None]] = [(older, None)]
        while frontier:
            next_frontier: list[tuple[str, SourceVersionSupersession | None]] = []
            for version, first in frontier:
                for successor, row in self._newer.get(version, ()):
                    hop = first or row
                    if successor == newer:
                        return SupersessionLink(hop.origin, hop.effective_from)
                    if successor not in seen:
                        seen.add(successor)
                        next_frontier.append((successor, hop))
            frontier = next_frontier
        return None

    def claim_superseded(self, facts: ClaimFacts) -> bool:
        """Whether the claim's version is replaced for the time the claim covers.

        A register replacement with an effective date leaves claims that end before that date
        in force (the old rule still governed that period).
        """
        rows = self._newer.get(facts.version_id)
        if not rows:
            return False
        for _, row in rows:
            if row.effective_from is None or facts.t_end >= row.effective_from.toordinal():
                return True
        return False


# ----------------------------------------------------------------- candidates from text

_TOKEN = re.compile(r"[\W_]+", re.UNICODE)
_LEADING_ARTICLE = re.compile(r"^(?:the|a|an|our|this|that)\s+")


def _loose(name: str) -> str:
    return _LEADING_ARTICLE.sub("", _TOKEN.sub(" ", name.casefold()).strip())


def match_source(target_text: str, sources: Sequence[Source]) -> str | None:
    """The known source id the text names (by id or title, loosely), if exactly one matches."""
    wanted = _loose(target_text)
    if not wanted:
        return None
    hits = {
        s.id for s in sources if _loose(s.id) == wanted or (s.title and _loose(s.title) == wanted)
    }
    if len(hits) != 1:
        # also accept the target naming the id inside longer words ("the Policy hr-2019")
        hits = hits or {s.id for s in sources if f" {_loose(s.id)} " in f" {wanted} "}
    return next(iter(hits)) if len(hits) == 1 else None


def supersession_candidate(
    source_version_id: str,
    *,
    start: int,
    end: int,
    quote: str,
    target_text: str,
    sources: Sequence[Source],
) -> SupersessionCandidate:
    """A reviewer-facing candidate for one "replaces X" mention (never applied by itself)."""
    return SupersessionCandidate(
        id=stable_id("sc", source_version_id, start, end, target_text),
        source_version_id=source_version_id,
        target_text=target_text,
        target_source_id=match_source(target_text, sources),
        span=Span(start=start, end=end),
        quote=quote,
    )
