"""Nothing new on disk since the last clean run: told by the files' status and the store's
counts, without reading a file record or comparing a version.

``claims run`` stats every file of its paths (``claims.source_walk.source_status``: one
``stat`` each, nothing opened). A run that ended clean (no failure, no bad file) keeps a
stamp for its paths: that status digest, the files changed too recently for their status to
vouch for their bytes (with the sha256 of the bytes the store holds), the environment the
scan and the plan depend on (extractor generation, converters, size limits, the paths never
read) and the store's counts of versions and of versions extracted in the generation. When
all of it is the same at the next run and each recent file still hashes as kept, the store
holds every file on disk in this generation: that run reads and plans nothing, and its
graph steps answer from the change feed as ever. Any other run forgets the stamp first and
plans the ordinary way (docs/PIPELINE.md, "Session 19: nothing changed").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from claims.documents.converters import MEDIA_TYPES, current_converter
from claims.files import sha256_of_regular_file
from claims.ids import sha256_hex
from claims.source_walk import SourceStatus
from claims.store.run_stamps import forget_stamp, keep_stamp, stamp_of, store_counts


@dataclass(frozen=True)
class RunStamp:
    """What a clean run over one set of paths left (``keep``), or what a run finds now."""

    digest: str
    environment: str
    counts: tuple[int, int]  # stored versions, versions extracted in the generation
    recent: Mapping[str, str] = field(default_factory=dict)  # recorded path -> sha256 kept
    dagster_run: str = ""  # the run that left it: a lost Dagster history plans the old way

    def state(self) -> dict[str, Any]:
        return {
            "environment": self.environment,
            "versions": self.counts[0],
            "extracted": self.counts[1],
            "recent": dict(self.recent),
            "dagster_run": self.dagster_run,
        }

    @classmethod
    def from_kept(cls, digest: str, state: Mapping[str, Any]) -> RunStamp:
        return cls(
            digest=digest,
            environment=str(state.get("environment", "")),
            counts=(int(state.get("versions", -1)), int(state.get("extracted", -1))),
            recent={str(path): str(sha) for path, sha in (state.get("recent") or {}).items()},
            dagster_run=str(state.get("dagster_run", "")),
        )

    def holds(self, now: RunStamp) -> bool:
        """Whether ``now`` (this run's digest, environment and counts) finds the disk and the
        store as this stamp left them: every recent file is read and hashed again."""
        if (self.digest, self.environment, self.counts) != (
            now.digest,
            now.environment,
            now.counts,
        ):
            return False
        return all(sha256_of_regular_file(Path(path)) == sha for path, sha in self.recent.items())


def scope_of(paths: Sequence[Path], register: Path | None, follow_outside_links: bool) -> str:
    """The key of a stamp: the paths a run covers, its register and whether it follows
    links outside its folders (a run over other paths keeps its own stamp)."""
    parts = [*sorted(str(p) for p in paths), f"register={register or ''}"]
    parts.append(f"follow_outside_links={follow_outside_links}")
    return sha256_hex("\n".join(parts).encode("utf-8", "surrogateescape"))


def environment_of(generation: str, follow_outside_links: bool) -> str:
    """What the scan and the plan depend on besides the files: the extractor generation,
    each media type's converter, the size limits and the paths never read as sources."""
    from claims.settings import get_settings

    settings = get_settings()
    parts = [
        generation,
        f"follow_outside_links={settings.follow_outside_links or follow_outside_links}",
        f"max_source_bytes={settings.max_source_bytes}",
        f"max_document_bytes={settings.max_document_bytes}",
        *(f"protected={path}" for path in settings.protected_paths()),
        *(f"{media}={current_converter(media)}" for media in sorted(set(MEDIA_TYPES.values()))),
    ]
    return sha256_hex("\n".join(parts).encode("utf-8", "surrogateescape"))


def stamp_now(
    session: Session, status: SourceStatus, environment: str, generation: str
) -> RunStamp:
    """This run's status digest, environment and the store's counts, to compare with the
    kept stamp (``RunStamp.holds``)."""
    return RunStamp(status.digest, environment, store_counts(session, generation))


def kept(session: Session, scope: str) -> RunStamp | None:
    found = stamp_of(session, scope)
    return RunStamp.from_kept(*found) if found is not None else None


def keep(session: Session, scope: str, stamp: RunStamp) -> None:
    keep_stamp(session, scope, stamp.digest, stamp.state())


def forget(session: Session, scope: str) -> None:
    """Forget ``scope``'s stamp: a run that plans the ordinary way keeps a new one only if
    it ends clean."""
    forget_stamp(session, scope)
