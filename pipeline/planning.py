"""Which source versions need a run, grouped into as few runs as is safe.

Shared by the sensor, the nightly schedule and ``claims run`` so the three agree. Good new
versions are batched into runs of contiguous partition keys (one run covers many
partitions: 10k new files are ten runs, not ten thousand); every bad file gets a run of its
own, so its failure names it and blocks nothing else.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from claims.models import GenerationStatus
from claims.store import GenerationRepository
from claims.tables import ClaimRow
from pipeline.corpus import CorpusFile, CorpusScan, stored_keys
from pipeline.partitions import range_tags

NEW = "new"
INVALID = "invalid"
REGENERATE = "regenerate"
RETRY = "retry"
RESTORE = "restore"


@dataclass(frozen=True)
class RunBatch:
    """Partition keys one run covers (contiguous in the partition order), and why."""

    keys: tuple[str, ...]
    reason: str

    @property
    def tags(self) -> dict[str, str]:
        return {**range_tags(self.keys[0], self.keys[-1]), "claimledger/reason": self.reason}

    def run_key(self, generation: str) -> str:
        digest = hashlib.sha256("\n".join((generation, self.reason, *self.keys)).encode())
        return f"{self.reason}-{digest.hexdigest()[:20]}"


@dataclass
class RunPlan:
    add_keys: list[str] = field(default_factory=list)
    batches: list[RunBatch] = field(default_factory=list)
    bad: list[CorpusFile] = field(default_factory=list)
    unkeyed: list[str] = field(default_factory=list)

    @property
    def versions(self) -> int:
        return sum(len(b.keys) for b in self.batches)


def plan_runs(
    corpus: CorpusScan,
    known_keys: Sequence[str],
    *,
    batch_size: int,
    extra_keys: Iterable[str] = (),
    extra_reason: str = REGENERATE,
    restore_keys: Iterable[str] = (),
) -> RunPlan:
    """Runs for every file whose key is not a partition yet, plus ``extra_keys``.

    ``known_keys`` are the partitions that exist, in partition order; new keys are appended
    after them in the order of ``corpus`` (good files first), which is how the sensor adds
    them, so ranges computed here are the ranges Dagster will see.
    """
    known = set(known_keys)
    bad_keys = {f.key for f in corpus.bad}
    new_good = [f.key for f in corpus.good if f.key not in known]
    new_bad = [f.key for f in corpus.bad if f.key not in known]
    plan = RunPlan(add_keys=new_good + new_bad, unkeyed=list(corpus.unkeyed))
    order = {key: index for index, key in enumerate([*known_keys, *plan.add_keys])}

    plan.batches += _contiguous(new_good, order, batch_size, NEW)
    extra = [k for k in dict.fromkeys(extra_keys) if k in order and k not in set(new_good)]
    plan.batches += _contiguous(
        [k for k in extra if k not in bad_keys], order, batch_size, extra_reason
    )
    planned = {k for batch in plan.batches for k in batch.keys}
    restore = [k for k in dict.fromkeys(restore_keys) if k in order and k not in planned]
    plan.batches += _contiguous(
        [k for k in restore if k not in bad_keys], order, batch_size, RESTORE
    )
    for key in [*new_bad, *(k for k in extra if k in bad_keys)]:
        plan.batches.append(RunBatch((key,), INVALID))
        plan.bad.append(corpus.files[key])
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


def keys_missing_generation(session: Session, generation: str) -> list[str]:
    """Stored versions without claims in ``generation``, when it still needs computing.

    Empty when the generation is active (its claims are kept current by the normal runs) or
    failed (recomputing it would fail again); otherwise the versions to re-extract so the
    candidate is computed beside the active one over the whole corpus.
    """
    state = GenerationRepository(session).get(generation)
    if state is not None and state.status in (GenerationStatus.ACTIVE, GenerationStatus.FAILED):
        return []
    done = set(
        session.scalars(
            select(ClaimRow.source_version_id).where(ClaimRow.generation == generation).distinct()
        )
    )
    return [key for key, version_id in stored_keys(session).items() if version_id not in done]


@dataclass(frozen=True)
class StoreGap:
    """Source versions Dagster's history says were stored, but the store does not hold.

    It happens when the store is deleted or ``CLAIMS_DATABASE_URL`` points at a new
    database while Dagster's history (``DAGSTER_HOME``) is kept: every partition looks done,
    so without this check a run would ingest nothing and exit 0. ``restorable`` are the
    versions whose file is still there (runs store them again); ``lost`` the ones whose
    file changed or went away since.
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
    missing = [key for key in remembered if key not in stored]
    restorable = [
        key for key in missing if key in corpus.files and corpus.files[key].error is None
    ]
    return StoreGap(restorable=restorable, lost=len(missing) - len(restorable))
