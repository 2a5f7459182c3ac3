"""Which source versions need a run, grouped into as few runs as is safe.

Shared by the sensor, the nightly schedule and ``claims run`` so the three agree. What
needs doing comes from the store alone (``claims.planning.compare``: versions on disk it
lacks, stored versions not extracted in the generation); Dagster's partitions only name
the runs. Versions are batched into runs of contiguous partition keys (one run covers many
partitions: 10k new files are ten runs, not ten thousand); every bad file gets a run of its
own, so its failure names it and blocks nothing else.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from claims.planning import StoreProgress, VersionRef, compare
from claims.retention import erased_pairs
from pipeline.corpus import CorpusFile, CorpusScan, stored_keys
from pipeline.partitions import partition_key, range_tags

NEW = "new"  # on disk, not in the store
INVALID = "invalid"  # a bad file: a run of its own, which fails naming it
EXTRACT = "extract"  # in the store, not extracted in the configured generation yet


@dataclass(frozen=True)
class RunBatch:
    """Partition keys one run covers (contiguous in the partition order), and why."""

    keys: tuple[str, ...]
    reason: str

    @property
    def tags(self) -> dict[str, str]:
        return {**range_tags(self.keys[0], self.keys[-1]), "claimledger/reason": self.reason}

    def run_key(self, *parts: str) -> str:
        digest = hashlib.sha256("\n".join((*parts, self.reason, *self.keys)).encode())
        return f"{self.reason}-{digest.hexdigest()[:20]}"


@dataclass
class RunPlan:
    add_keys: list[str] = field(default_factory=list)  # partitions Dagster lacks
    batches: list[RunBatch] = field(default_factory=list)
    bad: list[CorpusFile] = field(default_factory=list)
    unkeyed: list[str] = field(default_factory=list)

    @property
    def versions(self) -> int:
        return sum(len(b.keys) for b in self.batches)


def store_progress(session: Session, scan: CorpusScan, generation: str) -> StoreProgress:
    """The store compared with the good files of ``scan`` (``claims.planning.compare``)."""
    on_disk = [VersionRef(f.source_id, f.sha256) for f in scan.good]
    return compare(session, on_disk, generation)


def plan_runs(
    scan: CorpusScan,
    known_keys: Sequence[str],
    progress: StoreProgress,
    *,
    batch_size: int,
    exclude: Iterable[str] = (),
) -> RunPlan:
    """Runs for what the store lacks (``progress``), and every bad file on its own.

    ``known_keys`` are Dagster's partitions, in partition order: only to name runs by
    contiguous ranges, never to decide what is done. Partitions are added (``add_keys``)
    for the files to store, the bad files and every stored version Dagster lacks, so the UI
    reflects the store; new keys go after the known ones in the order of ``scan``, which
    is how the sensor adds them. ``exclude``: keys a queued or running run already covers.
    """
    known = set(known_keys)
    skip = set(exclude)
    to_store = {partition_key(r.source_id, r.sha256) for r in progress.to_store}
    new_good = [f.key for f in scan.good if f.key in to_store and f.key not in skip]
    bad = [f.key for f in scan.bad if f.key not in skip]
    stored = [partition_key(r.source_id, r.sha256) for r in progress.stored]
    plan = RunPlan(unkeyed=list(scan.unkeyed))
    plan.add_keys = [k for k in dict.fromkeys([*new_good, *stored, *bad]) if k not in known]
    order = {key: index for index, key in enumerate([*known_keys, *plan.add_keys])}

    plan.batches += _contiguous(new_good, order, batch_size, NEW)
    extract = [partition_key(r.source_id, r.sha256) for r in progress.to_extract]
    plan.batches += _contiguous([k for k in extract if k not in skip], order, batch_size, EXTRACT)
    for key in bad:
        plan.batches.append(RunBatch((key,), INVALID))
        plan.bad.append(scan.files[key])
    return plan


def _contiguous(
    keys: Sequence[str], order: dict[str, int], batch_size: int, reason: str
) -> list[RunBatch]:
    batches: list[RunBatch] = []
    current: list[str] = []
    last = -2
    for key in sorted(keys, key=order.__getitem__):
        index = order[key]
        if current and (index != last + 1 or len(current) >= batch_size):
            batches.append(RunBatch(tuple(current), reason))
            current = []
        current.append(key)
        last = index
    if current:
        batches.append(RunBatch(tuple(current), reason))
    return batches


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


def store_gap(session: Session, remembered: Iterable[str], corpus: CorpusScan) -> StoreGap:
    """Versions ``remembered`` as stored (materialized ``source_versions`` partitions) that
    the store lacks; one query for the store's keys, no per-version lookups."""
    stored = stored_keys(session)
    # an erased version is lacking on purpose (claims/retention.py)
    erased = {partition_key(source_id, sha) for source_id, sha in erased_pairs(session)}
    missing = [key for key in remembered if key not in stored and key not in erased]
    restorable = [
        key for key in missing if key in corpus.files and corpus.files[key].error is None
    ]
    return StoreGap(restorable=restorable, lost=len(missing) - len(restorable))
