"""What a run has to do, found by comparing the store with the files on disk.

The store is the one record of progress: a file's version is done when the store holds it
(``source_versions``) and it was extracted in the configured extractor generation
(``version_extractions``, written with its claims). Nothing here asks Dagster, so a deleted
store is filled again from the files, and a store kept after Dagster's history is lost is
neither emptied nor redone. ``claims run``, the sensor and the nightly schedule all plan
with ``compare``; the pipeline turns its answer into partitions and runs. A stored version
whose text an older converter made, and whose file is on disk with the same bytes, is to
be re-derived (claims/rederive.py), like a version a new extractor generation has to read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from claims.documents.converters import current_converter, known_media_type
from claims.models import GenerationStatus
from claims.retention import erased_pairs
from claims.store.changes import extracted_versions
from claims.store.generations import GenerationRepository
from claims.tables import SourceVersionRow


@dataclass(frozen=True, order=True)
class VersionRef:
    """A version by what it is: its source id and the sha256 of its bytes."""

    source_id: str
    sha256: str


@dataclass
class StoreProgress:
    """What the store lacks compared with the disk, for one extractor generation."""

    to_store: list[VersionRef] = field(default_factory=list)  # on disk, not in the store
    to_extract: list[VersionRef] = field(default_factory=list)  # stored, not extracted yet
    stored: list[VersionRef] = field(default_factory=list)  # every stored version
    generation_status: str | None = None  # None: the generation never ran on this store
    erased: list[VersionRef] = field(default_factory=list)  # on disk, erased: not stored
    # stored and on disk, their text made by an older converter: converted again
    to_rederive: list[VersionRef] = field(default_factory=list)

    @property
    def nothing_to_do(self) -> bool:
        return not self.to_store and not self.to_extract and not self.to_rederive


def compare(session: Session, on_disk: Iterable[VersionRef], generation: str) -> StoreProgress:
    """The versions on disk the store lacks, and the stored versions ``generation`` still
    has to extract (none when that generation failed its regression check: it would fail
    again; a new extractor makes a new generation).

    A stored version is extracted even when its file has gone: the store keeps its text.
    Two queries whatever the corpus size, no per-version lookups.
    """
    rows = session.execute(
        select(
            SourceVersionRow.id,
            SourceVersionRow.source_id,
            SourceVersionRow.sha256,
            SourceVersionRow.media_type,
            SourceVersionRow.converter,
            SourceVersionRow.converter_version,
        )
    ).all()
    stored = {VersionRef(source_id, sha): vid for vid, source_id, sha, *_ in rows}
    state = GenerationRepository(session).get(generation)
    # an erased source's file stays out until readmitted (claims/retention.py)
    erased = {VersionRef(source_id, sha) for source_id, sha in erased_pairs(session)}
    disk = list(dict.fromkeys(on_disk))
    progress = StoreProgress(
        to_store=[ref for ref in disk if ref not in stored and ref not in erased],
        erased=[ref for ref in disk if ref in erased],
        stored=sorted(stored),
        generation_status=state.status.value if state is not None else None,
    )
    on_disk_now = set(disk)
    progress.to_rederive = sorted(
        VersionRef(source_id, sha)
        for _, source_id, sha, media_type, name, version in rows
        if VersionRef(source_id, sha) in on_disk_now
        and known_media_type(media_type)
        and current_converter(media_type) != (name, version)
    )
    if state is None or state.status != GenerationStatus.FAILED:
        done = extracted_versions(session, generation)
        progress.to_extract = sorted(ref for ref, vid in stored.items() if vid not in done)
    return progress
