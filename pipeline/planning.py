"""Which shards need a run, and how they are grouped into runs.

Shared by the sensor, the nightly schedule and ``claims run`` so the three agree. What
needs doing comes from the store alone (``claims.planning.compare``: versions on disk it
lacks, stored versions not extracted in the generation); Dagster's partitions are shards
of the source set (``pipeline.partitions``) and only name the runs. The shards with work
are grouped, in shard order, into runs of at most ``batch_size`` versions (a shard is never
split; the idle shards between two busy ones ride along at the price of two empty
partition events). A bad file rides in its shard's run: ``source_versions`` stores the
other files of the shard and names it in a failed check.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from claims.planning import StoreProgress, VersionRef, compare
from claims.retention import erased_pairs
from claims.store.sources import stored_pairs, stored_source_ids
from pipeline.corpus import CorpusFile, CorpusScan
from pipeline.partitions import SHARDS, range_tags, shard_of, split_version_key, version_key

NEW = "new"  # on disk, not in the store
INVALID = "invalid"  # only bad files: their shard's run names them
EXTRACT = "extract"  # in the store, not extracted in the configured generation yet
REDERIVE = "rederive"  # in the store, its text made by an older converter (claims/rederive.py)
REFLECT = "reflect"  # nothing to do; Dagster's history lacks the shard (lost or new history)


@dataclass
class ShardWork:
    """What the store lacks in one shard, by version key."""

    shard: str
    to_store: list[str] = field(default_factory=list)
    to_extract: list[str] = field(default_factory=list)
    bad: list[str] = field(default_factory=list)
    to_rederive: list[str] = field(default_factory=list)

    @property
    def size(self) -> int:
        """Versions to store, re-derive or extract (bad files are named, not processed)."""
        return len(self.to_store) + len(set(self.to_extract) | set(self.to_rederive))


@dataclass(frozen=True)
class RunBatch:
    """Shards one run covers (a contiguous range), the versions planned in them, and why."""

    shards: tuple[str, ...]
    versions: tuple[str, ...]  # version keys to store, extract or name as bad
    work: int  # versions to store or extract
    reason: str

    @property
    def tags(self) -> dict[str, str]:
        return {**range_tags(self.shards[0], self.shards[-1]), "claimledger/reason": self.reason}

    def run_key(self, *parts: str) -> str:
        """Stable while the planned versions are the same: a run that failed is not asked
        for again until something in its shards changes."""
        digest = hashlib.sha256("\n".join((*parts, self.reason, *self.versions)).encode())
        return f"{self.reason}-{digest.hexdigest()[:20]}"


@dataclass
class RunPlan:
    batches: list[RunBatch] = field(default_factory=list)
    bad: list[CorpusFile] = field(default_factory=list)
    unkeyed: list[str] = field(default_factory=list)

    @property
    def versions(self) -> int:
        """Versions the runs take up: to store, to extract, or bad files to name again."""
        return sum(len(b.versions) for b in self.batches)


def store_progress(session: Session, scan: CorpusScan, generation: str) -> StoreProgress:
    """The store compared with the good files of ``scan`` (``claims.planning.compare``)."""
    on_disk = [VersionRef(f.source_id, f.sha256) for f in scan.good]
    return compare(session, on_disk, generation)


def stored_keys(progress: StoreProgress) -> set[str]:
    """The version keys of every version the store held when ``progress`` was taken."""
    return {version_key(ref.source_id, ref.sha256) for ref in progress.stored}


def shard_work(
    scan: CorpusScan, progress: StoreProgress, exclude_shards: Iterable[str] = ()
) -> dict[str, ShardWork]:
    """What each shard lacks (shards with nothing to do are absent)."""
    skip = set(exclude_shards)
    work: dict[str, ShardWork] = {}

    def of(source_id: str) -> ShardWork | None:
        shard = shard_of(source_id)
        if shard in skip:
            return None
        return work.setdefault(shard, ShardWork(shard))

    for ref in progress.to_store:
        if (entry := of(ref.source_id)) is not None:
            entry.to_store.append(version_key(ref.source_id, ref.sha256))
    for ref in progress.to_extract:
        if (entry := of(ref.source_id)) is not None:
            entry.to_extract.append(version_key(ref.source_id, ref.sha256))
    for ref in progress.to_rederive:
        if (entry := of(ref.source_id)) is not None:
            entry.to_rederive.append(version_key(ref.source_id, ref.sha256))
    for file in scan.bad:
        if (entry := of(file.source_id)) is not None:
            entry.bad.append(file.key)
    return work


def plan_runs(
    scan: CorpusScan,
    progress: StoreProgress,
    *,
    batch_size: int,
    exclude_shards: Iterable[str] = (),
    reflect_shards: Iterable[str] = (),
) -> RunPlan:
    """Runs for what the store lacks (``progress``), grouped by shard.

    ``exclude_shards``: shards a queued or running run already covers (it does their work
    when it gets there, since its assets read what the store lacks then).
    ``reflect_shards``: shards to run even with nothing to do, so that Dagster's partitions
    show what the store holds (``claims run`` passes the shards its history lacks).
    """
    work = shard_work(scan, progress, exclude_shards)
    for shard in reflect_shards:
        if shard not in set(exclude_shards):
            work.setdefault(shard, ShardWork(shard))
    plan = RunPlan(unkeyed=list(scan.unkeyed))
    plan.bad = [f for f in scan.bad if f.shard in work]
    current: list[ShardWork] = []
    for shard in SHARDS:
        entry = work.get(shard)
        if entry is None:
            continue
        if current and sum(w.size for w in current) + entry.size > max(1, batch_size):
            plan.batches.append(_batch(current))
            current = []
        current.append(entry)
    if current:
        plan.batches.append(_batch(current))
    return plan


def _batch(entries: list[ShardWork]) -> RunBatch:
    first, last = SHARDS.index(entries[0].shard), SHARDS.index(entries[-1].shard)
    versions = {
        key for w in entries for key in (*w.to_store, *w.to_extract, *w.to_rederive, *w.bad)
    }
    if any(w.to_store for w in entries):
        reason = NEW
    elif any(w.to_rederive for w in entries):
        reason = REDERIVE
    elif any(w.to_extract for w in entries):
        reason = EXTRACT
    elif any(w.bad for w in entries):
        reason = INVALID
    else:
        reason = REFLECT
    return RunBatch(
        shards=tuple(SHARDS[first : last + 1]),
        versions=tuple(sorted(versions)),
        work=sum(w.size for w in entries),
        reason=reason,
    )


@dataclass(frozen=True)
class StoreGap:
    """Source versions Dagster's history says were stored, but the store does not hold.

    It happens when the store is deleted or ``CLAIMS_DATABASE_URL`` points at a new
    database while Dagster's history (``DAGSTER_HOME``) is kept. Runs are planned from the
    store, so they store the ``restorable`` versions again (their file is still there)
    anyway; this only tells the user, and names the ``lost`` ones (their file changed or
    went away since, and the old store held the only copy).
    """

    restorable: list[str]
    lost: int

    def __bool__(self) -> bool:
        return bool(self.restorable) or self.lost > 0

    def message(self) -> str:
        text = (
            f"the store lacks {len(self.restorable) + self.lost} source version(s) that "
            "Dagster's history remembers (a deleted or new store?)"
        )
        if self.restorable:
            text += f"; {len(self.restorable)} ingested again and the graph refreshed in full"
        if self.lost:
            text += (
                f"; {self.lost} cannot be restored (their file changed or is gone, and the "
                "store kept no copy)"
            )
        return text


def store_gap(
    session: Session,
    remembered: Iterable[str],
    corpus: CorpusScan,
    known_stored: Collection[str] = (),
) -> StoreGap:
    """Versions ``remembered`` as stored (the version keys each shard's latest
    ``source_versions`` materialization listed) that the store lacks. ``known_stored``: keys
    the caller already knows the store holds (``stored_keys`` of its comparison); only the
    other remembered keys (files changed or gone since, or a new store) are looked up, by
    source id, so an unchanged corpus reads nothing here."""
    unknown = [key for key in remembered if key not in known_stored]
    if not unknown:
        return StoreGap(restorable=[], lost=0)
    wanted = {split_version_key(key)[0] for key in unknown}
    stored = {version_key(source_id, sha) for source_id, sha in stored_pairs(session, wanted)}
    # an erased version is lacking on purpose (claims/retention.py)
    erased = {version_key(source_id, sha) for source_id, sha in erased_pairs(session)}
    missing = [key for key in unknown if key not in stored and key not in erased]
    restorable = [key for key in missing if key in corpus.files and corpus.files[key].error is None]
    return StoreGap(restorable=restorable, lost=len(missing) - len(restorable))


def stored_shards(session: Session) -> set[str]:
    """The shards holding any stored version (read when Dagster's history lacks shards)."""
    return {shard_of(source_id) for source_id in stored_source_ids(session)}
