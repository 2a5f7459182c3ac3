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
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from claims.documents.converters import current_converter, known_media_type
from claims.models import GenerationStatus
from claims.retention import erased_pairs
from claims.store.batches import batches
from claims.store.generations import GenerationRepository
from claims.tables import SourceVersionRow, VersionExtractionRow


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
    stored: list[VersionRef] = field(default_factory=list)  # the stored ones among on disk
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
    What it reads grows with ``on_disk`` and with what is left to extract, not with the
    store: the versions on disk are looked up by source id (a few hundred per query), and
    the versions not extracted yet come from one anti-join in SQL (issue 33: the ``claims``
    step asked this once per run of a first load, and read every stored version each time).
    ``stored`` lists the stored versions among ``on_disk``.
    """
    disk = list(dict.fromkeys(on_disk))
    state = GenerationRepository(session).get(generation)
    progress = StoreProgress(generation_status=state.status.value if state is not None else None)
    if disk:
        # an erased source's file stays out until readmitted (claims/retention.py)
        erased = erased_pairs(session)
        rows = _stored_rows(session, {ref.source_id for ref in disk})
        stored = {
            (source_id, sha): (media, name, version)
            for source_id, sha, media, name, version in rows
        }
        progress.to_store = [
            ref
            for ref in disk
            if (ref.source_id, ref.sha256) not in stored
            and (ref.source_id, ref.sha256) not in erased
        ]
        progress.erased = [ref for ref in disk if (ref.source_id, ref.sha256) in erased]
        on_disk_stored = [ref for ref in disk if (ref.source_id, ref.sha256) in stored]
        progress.stored = sorted(on_disk_stored)
        progress.to_rederive = sorted(
            ref for ref in on_disk_stored if _outdated(*stored[(ref.source_id, ref.sha256)])
        )
    if state is None or state.status != GenerationStatus.FAILED:
        progress.to_extract = sorted(
            VersionRef(source_id, sha)
            for source_id, sha in unextracted_versions(session, generation)
        )
    return progress


def _outdated(media_type: str, name: str | None, version: str | None) -> bool:
    """Whether a stored version's text was made by an older converter than today's."""
    return known_media_type(media_type) and current_converter(media_type) != (name, version)


# Below this many sources on disk they are looked up by id; above it every stored version is
# read in one query (a full scan of a large corpus: fewer round trips than thousands of
# lookups, and nothing but plain tuples is built).
_LOOKUP_SOURCES = 5000


def _stored_rows(session: Session, source_ids: set[str]) -> list[tuple[Any, ...]]:
    """(source id, sha256, media type, converter, converter version) of the stored versions
    of ``source_ids``."""
    v = SourceVersionRow.__table__.c
    columns = (v.source_id, v.sha256, v.media_type, v.converter, v.converter_version)
    if len(source_ids) > _LOOKUP_SOURCES:
        return [tuple(r) for r in session.execute(select(*columns)) if r[0] in source_ids]
    rows: list[tuple[Any, ...]] = []
    for chunk in batches(sorted(source_ids)):
        rows += [tuple(r) for r in session.execute(select(*columns).where(v.source_id.in_(chunk)))]
    return rows


def unextracted_versions(session: Session, generation: str) -> list[tuple[str, str]]:
    """(source id, sha256) of the stored versions ``generation`` has not extracted: one
    anti-join over the extraction records' primary key, whatever the store's size."""
    v = SourceVersionRow.__table__.c
    e = VersionExtractionRow.__table__.c
    done = select(e.source_version_id).where(
        e.source_version_id == v.id, e.generation == generation
    )
    rows = session.execute(select(v.source_id, v.sha256).where(~done.exists()))
    return [(source_id, sha) for source_id, sha in rows]
