"""The whole pipeline (register, source versions, claims, edges, checks) over generated corpora.

Usage: python bench/bench_pipeline.py [--version-floor] [--no-baseline]
                                      [--instance sqlite|memory|postgres|postgres-stock]
                                      [--store sqlite|postgres|both]
                                      [--subjects K] [--tables-share S] [N ...]
       (default: --instance sqlite, --store sqlite, subjects N/25 (at least 40),
       sizes 1000 10000)

For each N: writes N documents of realistic policy / filing / SLA sentences about a pool of
subjects (systems, teams, entities), each with ten facts (about 176 whitespace tokens per
document, 1.76M for 10k documents; every sentence restates a fact other documents state,
and 15% contradict it). ``--tables-share S`` (default 0) makes that share of the documents
Markdown files that also hold a small office table after their prose: either one subject's
terms (``| Term | Value |``, four rows) or three subjects side by side (``| Team | Notice
period | Refund window |``), stating the same facts as the sentences (15% contradicting).
By default the pool grows with the corpus (one subject per 25 documents, at least 40),
so each fact is stated about 40 times whatever N is; ``--subjects 40`` keeps 40 subjects
at every size, so at 10k each fact is restated about 450 times (a stress case: the
disagreement edges of a key grow with the square of its claims until the star limit).
Then, through ``pipeline.runner.run_pipeline`` on a fresh SQLite claim store and a
Dagster instance (see --instance below), what ``claims run`` does:

- full run: files/s, claims/s, wall time, peak memory (max RSS of this process);
- incremental run after editing one file, against the full run (the target: under 5%);
- a run with nothing changed (the same run again).

The baselines measured in the same run are extraction alone (``claims.extraction.extract``
over the same texts, no store, no Dagster): the pipeline's overhead is the ratio; and
Dagster's bookkeeping alone: the runs and shard partitions the full run's plan makes (since
session 8 partitions are shards of the source set, ``pipeline/partitions.py``), through two
assets that do nothing, on a fresh in-memory instance. ``--version-floor`` also times the
floor before session 8 (a partition per source version, about 100 s at 10k).

``--instance sqlite`` keeps Dagster's history in SQLite files on disk, configured as
``claims run`` and ``claims ui`` configure them (``pipeline.instance.dagster_home``);
``--instance memory`` keeps it in memory for the process, which isolates the cost of
Dagster's per-partition event bookkeeping from the pipeline's own work; ``--instance
postgres`` keeps Dagster's storage in PostgreSQL with claimledger's pooled event log
(``pipeline.instance.POSTGRES_DAGSTER_YAML``), ``--instance postgres-stock`` with
dagster-postgres's own storage (what deploy/dagster.yaml used before session 6). Both need
``DAGSTER_POSTGRES_URL`` naming an empty database, or ``CLAIMS_TEST_POSTGRES_URL`` naming a
server where the bench may create (and afterwards drop) one: ``scripts/with-postgres.sh
.venv/bin/python bench/bench_pipeline.py --instance postgres 1000`` starts a throwaway one.

``--store`` picks the claim store (apart from Dagster's instance): ``sqlite`` (default) a
fresh SQLite file, ``postgres`` a fresh database on the server of ``CLAIMS_TEST_POSTGRES_URL``
(psycopg 3, created before and dropped after the size; ``scripts/with-postgres.sh`` starts a
throwaway server), ``both`` the two back to back on the same generated corpus in one process,
then the ratio PostgreSQL / SQLite of each figure (full run, each step, incremental, nothing
changed) and whether the two rows digests are equal. The machine is shared: ratios measured in
one run are what can be read. Extraction alone (no store) is timed once per size;
``--no-baseline`` skips it (two stores benched by two processes side by side, each under the
other's load, need it once at most).
"""

from __future__ import annotations

import heapq
import itertools
import os
import random
import resource
import sys
import tempfile
import time
import uuid
import warnings
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
warnings.filterwarnings("ignore")

import dagster as dg  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from claims.extraction import extract, get_pipeline  # noqa: E402
from claims.run_summary import store_summary  # noqa: E402
from claims.settings import get_settings  # noqa: E402
from claims.store.migrate import upgrade  # noqa: E402
from pipeline.instance import local_instance, postgres_home  # noqa: E402
from pipeline.partitions import SHARDS, range_tags, shard_of  # noqa: E402
from pipeline.resources import ClaimStore, ExtractorResource, SourcesResource  # noqa: E402
from pipeline.runner import asset_events_in_batches, run_pipeline  # noqa: E402

FACTS = [
    ("The {e} notice period is {n} days.", (14, 30, 60, 90)),
    ("The {e} invoice retention period is {n} years.", (5, 7, 10)),
    ("The {e} portal upload limit is {n} MB.", (100, 250, 500, 1000)),
    ("The {e} checkout API p99 latency is {n} ms.", (300, 600, 900, 1200)),
    ("The {e} board declared a dividend of {n} cents per share for Q1 2024.", (12, 18, 30)),
    ("The {e} refund window is {n} days.", (14, 30, 45)),
    ("The {e} payments availability target is {n}%.", (99.0, 99.5, 99.9)),
    ("The {e} remote work allowance is {n} days per week.", (2, 3, 4)),
    ("The {e} interactive output limit is {n} tokens.", (250, 500, 1000)),
    ("The {e} maximum session length is {n} minutes.", (15, 30, 60)),
]
FILLER = [
    "This document was reviewed by the policy office last spring.",
    "Questions about it should be sent to the owning team through the usual channel.",
    "Earlier drafts of this text are kept in the archive for reference.",
    "Managers are expected to explain these rules to new colleagues during onboarding.",
]
SYLLABLES = [
    "au",
    "ro",
    "ra",
    "bo",
    "re",
    "al",
    "ce",
    "dar",
    "el",
    "va",
    "ny",
    "or",
    "ion",
    "ka",
    "ti",
    "mo",
    "sa",
    "lu",
    "ne",
    "the",
]


def entity_names(count: int, rng: random.Random) -> list[str]:
    names: set[str] = set()
    while len(names) < count:
        names.add("".join(rng.choice(SYLLABLES) for _ in range(3)).capitalize())
    return sorted(names)


# rows of a subject's terms table: (row label, cell written from the fact's value, FACTS index)
TABLE_FACTS = [
    ("Notice period", "{n} days", 0),
    ("Invoice retention period", "{n} years", 1),
    ("Portal upload limit", "{n} MB", 2),
    ("Refund window", "{n} days", 5),
    ("Payments availability target", "{n}%", 6),
    ("Maximum session length", "{n} minutes", 9),
]


def _stated(
    truth: dict[tuple[str, int], object], entity: str, fact: int, rng: random.Random
) -> object:
    """The value a document states for a fact: the truth, or 15% of the time another."""
    value = truth[(entity, fact)]
    if rng.random() < 0.15:  # a contradiction of what the other documents say
        value = rng.choice([v for v in FACTS[fact][1] if v != value])
    return value


def office_table(
    entities: list[str], truth: dict[tuple[str, int], object], rng: random.Random
) -> str:
    """A small table as people put in office documents, in Markdown: one subject's terms,
    or three subjects side by side."""
    if rng.random() < 0.5:
        entity = rng.choice(entities)
        rows = rng.sample(TABLE_FACTS, 4)
        lines = [f"## {entity}", "", "| Term | Value |", "|---|---|"]
        for label, cell, fact in rows:
            lines.append(f"| {label} | {cell.format(n=_stated(truth, entity, fact, rng))} |")
    else:
        lines = ["## Terms by team", "", "| Team | Notice period | Refund window |"]
        lines.append("|---|---|---|")
        for entity in rng.sample(entities, 3):
            notice, refund = _stated(truth, entity, 0, rng), _stated(truth, entity, 5, rng)
            lines.append(f"| {entity} | {notice} days | {refund} days |")
    return "\n".join(lines) + "\n"


def generate(
    root: Path, count: int, subjects: int = 40, seed: int = 11, tables_share: float = 0.0
) -> int:
    """Write ``count`` documents, ``tables_share`` of them Markdown with a table; returns the
    number of whitespace tokens written."""
    rng = random.Random(seed)
    # Many documents state each subject's facts: that is what makes them restate and
    # contradict each other.
    entities = entity_names(subjects, rng)
    truth = {(e, i): rng.choice(values) for e in entities for i, (_, values) in enumerate(FACTS)}
    tokens = 0
    for index in range(count):
        folder = root / f"unit-{index % 40:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        sentences = []
        for _ in range(16):  # with the filler, about 200 tokens a document
            entity = rng.choice(entities)
            fact = rng.randrange(len(FACTS))
            template, values = FACTS[fact]
            value = truth[(entity, fact)]
            if rng.random() < 0.15:  # a contradiction of what the other documents say
                value = rng.choice([v for v in values if v != value])
            sentences.append(template.format(e=entity, n=value))
        sentences += rng.sample(FILLER, 3)
        rng.shuffle(sentences)
        text = f"Operating note {index}\n\n" + " ".join(sentences) + "\n"
        suffix = ".txt"
        if int((index + 1) * tables_share) > int(index * tables_share):  # spread evenly
            text = f"# {text}\n" + office_table(entities, truth, rng)
            suffix = ".md"
        tokens += len(text.split())
        (folder / f"note-{index:05d}{suffix}").write_text(text, encoding="utf-8")
    return tokens


def dagster_floor(source_ids: list[str], batch_size: int) -> tuple[float, int, int]:
    """Seconds Dagster alone needs for the runs and shard partitions of a full run.

    Two assets partitioned by shard like ``source_versions`` and ``claims``, doing nothing,
    run over the same shard ranges the pipeline's plan makes for ``source_ids`` (shards
    grouped in order up to ``batch_size`` versions a run): the planned and materialization
    events and the runs the pipeline pays, with none of the work. Returns (seconds, runs,
    shard partitions materialized).
    """
    shards = dg.StaticPartitionsDefinition(SHARDS)
    policy = dg.BackfillPolicy.single_run()

    @dg.asset(partitions_def=shards, backfill_policy=policy)
    def floor_sources(context) -> dg.MaterializeResult:  # type: ignore[no-untyped-def]
        return dg.MaterializeResult(metadata={"shards": len(context.partition_keys)})

    @dg.asset(partitions_def=shards, backfill_policy=policy, deps=[floor_sources])
    def floor_claims(context) -> dg.MaterializeResult:  # type: ignore[no-untyped-def]
        return dg.MaterializeResult(metadata={"shards": len(context.partition_keys)})

    job = dg.Definitions(
        assets=[floor_sources, floor_claims],
        jobs=[dg.define_asset_job("floor", selection=[floor_sources, floor_claims])],
    ).resolve_job_def("floor")
    instance = dg.DagsterInstance.ephemeral()
    sizes = Counter(shard_of(source_id) for source_id in source_ids)
    ranges: list[list[str]] = []
    for shard in SHARDS:  # as pipeline.planning.plan_runs groups them
        if not sizes[shard]:
            continue
        if ranges and sum(sizes[s] for s in ranges[-1]) + sizes[shard] > batch_size:
            ranges.append([])
        if not ranges:
            ranges.append([])
        ranges[-1].append(shard)
    quiet = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}
    started = time.perf_counter()
    partitions = 0
    for covered in ranges:
        first, last = SHARDS.index(covered[0]), SHARDS.index(covered[-1])
        partitions += last - first + 1
        with asset_events_in_batches(batch_size):
            job.execute_in_process(
                run_config=quiet, instance=instance, tags=range_tags(covered[0], covered[-1])
            )
    return time.perf_counter() - started, len(ranges), partitions


def dagster_floor_per_version(count: int, batch_size: int) -> float:
    """Before session 8: a dynamic partition per source version, batches of ``batch_size``
    (``--version-floor``; about 10 ms per version, so 100 s at 10k)."""
    partitions = dg.DynamicPartitionsDefinition(name="floor_versions")
    policy = dg.BackfillPolicy.single_run()

    @dg.asset(partitions_def=partitions, backfill_policy=policy)
    def floor_sources(context) -> dg.MaterializeResult:  # type: ignore[no-untyped-def]
        return dg.MaterializeResult(metadata={"versions": len(context.partition_keys)})

    @dg.asset(partitions_def=partitions, backfill_policy=policy, deps=[floor_sources])
    def floor_claims(context) -> dg.MaterializeResult:  # type: ignore[no-untyped-def]
        return dg.MaterializeResult(metadata={"versions": len(context.partition_keys)})

    job = dg.Definitions(
        assets=[floor_sources, floor_claims],
        jobs=[dg.define_asset_job("floor", selection=[floor_sources, floor_claims])],
    ).resolve_job_def("floor")
    instance = dg.DagsterInstance.ephemeral()
    keys = [f"floor-{index:06d}" for index in range(count)]
    instance.add_dynamic_partitions("floor_versions", keys)
    quiet = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}
    started = time.perf_counter()
    previous = os.environ.get("DAGSTER_EMIT_PARTITION_SUBSET_IN_PLANNED_EVENTS")
    os.environ["DAGSTER_EMIT_PARTITION_SUBSET_IN_PLANNED_EVENTS"] = "true"  # as it was then
    try:
        for start in range(0, count, batch_size):
            last = keys[min(start + batch_size, count) - 1]
            with asset_events_in_batches(batch_size):
                job.execute_in_process(
                    run_config=quiet, instance=instance, tags=range_tags(keys[start], last)
                )
    finally:
        if previous is None:
            os.environ.pop("DAGSTER_EMIT_PARTITION_SUBSET_IN_PLANNED_EVENTS", None)
        else:
            os.environ["DAGSTER_EMIT_PARTITION_SUBSET_IN_PLANNED_EVENTS"] = previous
    return time.perf_counter() - started


INSTANCES = ("sqlite", "memory", "postgres", "postgres-stock")
VERSION_FLOOR = False  # --version-floor: also time the per-version floor of session 7
NOT_TIMED = (float("nan"), 0)  # --no-baseline: extraction alone is not timed
# dagster-postgres's own storage, the baseline the pooled event log is measured against
STOCK_POSTGRES_YAML = """\
storage:
  postgres:
    postgres_url:
      env: DAGSTER_POSTGRES_URL
telemetry:
  enabled: false
"""


def dagster_instance(kind: str, home: Path) -> dg.DagsterInstance:
    """``sqlite``: SQLite files in ``home`` (what ``claims run`` uses); ``memory``: in memory;
    ``postgres``: PostgreSQL with the pooled event log; ``postgres-stock``: dagster-postgres's own
    storage (``STOCK_POSTGRES_YAML``); both in the database ``DAGSTER_POSTGRES_URL`` names."""
    if kind == "sqlite":
        return local_instance(home.parent)  # <home.parent>/dagster, as `claims run` makes it
    if kind == "memory":
        return dg.DagsterInstance.ephemeral()
    if kind == "postgres":
        return dg.DagsterInstance.from_config(str(postgres_home(home)))
    if kind == "postgres-stock":
        (home / "dagster.yaml").write_text(STOCK_POSTGRES_YAML, encoding="utf-8")
        return dg.DagsterInstance.from_config(str(home))
    raise SystemExit(f"--instance must be one of {', '.join(INSTANCES)}, not {kind!r}")


@contextmanager
def dagster_database(kind: str) -> Iterator[None]:
    """For the PostgreSQL instances: ``DAGSTER_POSTGRES_URL`` as given, else a new database
    on the server of ``CLAIMS_TEST_POSTGRES_URL`` (scripts/with-postgres.sh), dropped after."""
    if not kind.startswith("postgres") or os.environ.get("DAGSTER_POSTGRES_URL"):
        yield
        return
    admin_url = os.environ.get("CLAIMS_TEST_POSTGRES_URL")
    if not admin_url:
        raise SystemExit(
            f"--instance {kind} needs DAGSTER_POSTGRES_URL (postgresql+psycopg2://user:password"
            "@host:port/empty_database), or run it under scripts/with-postgres.sh"
        )
    with new_database(admin_url, "bench_dagster", "postgresql+psycopg2") as url:
        os.environ["DAGSTER_POSTGRES_URL"] = url
        try:
            yield
        finally:
            os.environ.pop("DAGSTER_POSTGRES_URL", None)


@contextmanager
def new_database(admin_url: str, prefix: str, driver: str | None = None) -> Iterator[str]:
    """A new database on the server of ``admin_url``, its URL with ``driver`` (else the
    admin URL's); dropped after."""
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(admin_url).set(database=name)
    if driver:
        url = url.set(drivername=driver)
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


# What the graph steps store, without ids' creation times: the same corpus must give the same
# rows whatever the code's speed (issue 33: compare the digest with a run of the code before).
STORED_ROWS = {
    "edges": "SELECT id, kind, rule, reason, claim_key, material, retired_at IS NULL FROM edges",
    "value groups": "SELECT claim_id, value_group_id FROM value_group_claims",
    "group relations": "SELECT id, kind, rule, material, retired_at IS NULL "
    "FROM value_group_relations",
    "statuses": "SELECT claim_id, status, review_item_id, resolution_id, "
    "superseded_by_version_id FROM claim_status",
    "review items": "SELECT ri.claim_key, ri.state, ric.claim_id FROM review_items ri "
    "JOIN review_item_claims ric ON ric.review_item_id = ri.id",
}


def _cell(value: object) -> str:
    """A stored value as text, the same whatever the backend: SQLite hands booleans back as
    1 / 0 (and ``x IS NULL`` as an integer), PostgreSQL as True / False."""
    return str(int(value)) if isinstance(value, bool) else str(value)


def rows_digest(url: str) -> str:
    """sha256 over the sorted rows of ``STORED_ROWS`` (12 hex), with each part's count.

    The rows are streamed from the database and sorted in runs of ``DIGEST_RUN`` written to
    files, then merged: the same digest as one sort in memory, with memory flat in the
    store's size (at 100,000 files 3.4 million edges, which the process held whole, driver
    buffer and sorted copy, when the peak memory figure is taken)."""
    import hashlib

    engine = create_engine(url)
    parts = []
    with engine.connect() as conn, tempfile.TemporaryDirectory(prefix="digest-") as folder:
        for name, sql in STORED_ROWS.items():
            digest = hashlib.sha256()
            rows = conn.execution_options(yield_per=DIGEST_RUN).execute(text(sql))
            count = 0
            for line in _sorted_lines(("\t".join(map(_cell, row)) for row in rows), Path(folder)):
                digest.update(line.encode() + b"\n")
                count += 1
            parts.append(f"{name} {count:,} {digest.hexdigest()[:12]}")
    engine.dispose()
    return "; ".join(parts)


DIGEST_RUN = 200_000  # rows the digest sorts in memory at a time


def _sorted_lines(lines: Iterator[str], folder: Path) -> Iterator[str]:
    """``lines`` in sorted order: runs of ``DIGEST_RUN`` sorted and spilled to files in
    ``folder`` (a line each, escaped to ASCII), then merged."""
    runs: list[Path] = []
    while chunk := sorted(itertools.islice(lines, DIGEST_RUN)):
        if len(chunk) < DIGEST_RUN and not runs:
            yield from chunk  # small: no file at all
            return
        path = folder / f"run-{len(runs)}"
        with path.open("w", encoding="ascii") as out:
            out.writelines(line.encode("unicode_escape").decode("ascii") + "\n" for line in chunk)
        runs.append(path)
    files = [path.open(encoding="ascii") for path in runs]
    try:
        yield from heapq.merge(*(map(_unescaped, f) for f in files))
    finally:
        for f in files:
            f.close()
        for path in runs:
            path.unlink()


def _unescaped(line: str) -> str:
    """A spilled line back as it was (``_sorted_lines``)."""
    return line[:-1].encode("ascii").decode("unicode_escape")


STORES = ("sqlite", "postgres", "both")


@contextmanager
def claim_store_url(kind: str, root: Path) -> Iterator[str]:
    """The URL of a fresh claim store: a SQLite file in ``root``, or a new database on the
    server of ``CLAIMS_TEST_POSTGRES_URL`` (psycopg 3), dropped afterwards."""
    if kind == "sqlite":
        yield f"sqlite:///{root / 'claims.db'}"
        return
    admin_url = os.environ.get("CLAIMS_TEST_POSTGRES_URL")
    if not admin_url:
        raise SystemExit(
            "--store postgres needs CLAIMS_TEST_POSTGRES_URL naming a PostgreSQL server where "
            "the bench may create and drop a database (postgresql+psycopg://user@host:port/"
            "postgres), or run it under scripts/with-postgres.sh"
        )
    with new_database(admin_url, "bench_claims", "postgresql+psycopg") as url:
        yield url


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _documents(corpus: Path) -> list[Path]:
    return sorted(p for p in corpus.rglob("*") if p.suffix in (".txt", ".md"))


def extraction_alone(corpus: Path) -> tuple[float, int]:
    """Seconds and claims of ``claims.extraction.extract`` over the corpus, no store."""
    # each file read as the pipeline reads it: .txt as plain text, .md as Markdown
    texts = [
        (p.read_text("utf-8"), "text/plain" if p.suffix == ".txt" else "text/markdown")
        for p in _documents(corpus)
    ]
    start = time.perf_counter()
    claims = sum(
        len(extract(t, source_id="bench", source_version_id=None, media_type=media))
        for t, media in texts
    )
    return time.perf_counter() - start, claims


def bench(
    count: int,
    instance_kind: str,
    subjects: int | None,
    tables_share: float = 0.0,
    store_kind: str = "sqlite",
    baseline_timed: tuple[float, int] | None = None,
) -> dict[str, object]:
    """One size on one claim store; prints the figures and returns them (``figures``)."""
    subjects = subjects or max(40, count // 25)
    with (
        tempfile.TemporaryDirectory(prefix="bench-pipeline-") as tmp,
        claim_store_url(store_kind, Path(tmp)) as url,
    ):
        root = Path(tmp)
        corpus = root / "corpus"
        tokens = generate(corpus, count, subjects=subjects, tables_share=tables_share)
        tabled = sum(1 for _ in corpus.rglob("*.md"))
        upgrade(url)
        store = ClaimStore(database_url=url)
        sources = SourcesResource(sources_dir=str(corpus), register_file="")
        home = root / "dagster"
        home.mkdir()
        instance = dagster_instance(instance_kind, home)

        print(
            f"== {count} files, claim store {store_kind}: start, load average "
            f"{os.getloadavg()[0]:.1f}",
            flush=True,
        )
        baseline, baseline_claims = baseline_timed or extraction_alone(corpus)
        # the full run starts with an empty sentence cache, as `claims run` in a new process
        # does; else it would replay the sentences the baseline read
        get_pipeline(get_settings().spacy_model).get_pipe(
            "claim_assembler"
        ).assembler.sentences.clear()

        source_ids = [p.relative_to(corpus).with_suffix("").as_posix() for p in _documents(corpus)]
        floor, floor_runs, floor_partitions = dagster_floor(source_ids, 1000)
        version_floor = dagster_floor_per_version(count, 1000) if VERSION_FLOOR else None

        steps: list[dict[str, float]] = []

        def run() -> float:
            started = time.perf_counter()
            outcome = run_pipeline(
                instance,
                store=store,
                sources=sources,
                extractor=ExtractorResource(),
                batch_size=1000,
                log_level="CRITICAL",
            )
            if outcome.failures:
                raise SystemExit(f"pipeline failed: {outcome.failures}")
            steps.append(outcome.step_seconds)
            return time.perf_counter() - started

        full = run()
        with store.transaction() as session:
            summary = store_summary(session, ExtractorResource().generation()[0])
            stored_rows = {
                table: int(session.execute(text(f"SELECT count(*) FROM {table}")).scalar() or 0)
                for table in (
                    "edges",
                    "value_group_claims",
                    "value_group_relations",
                    "value_group_slots",
                )
            }
        digest_full = rows_digest(url)
        (edited,) = (corpus / "unit-07").glob("note-00007.*")
        edited.write_text(
            edited.read_text("utf-8") + "The Zzz notice period is 21 days.\n", encoding="utf-8"
        )
        incremental = run()
        same = run()
        # A second sample of the incremental cost: the same edit to a note that states no
        # dividend (the sentence whose key was shared by every subject until the actor
        # entered the key; docs/EXTRACTION.md).
        plain = next(p for p in _documents(corpus) if "dividend" not in p.read_text("utf-8"))
        plain.write_text(
            plain.read_text("utf-8") + "The Zzz notice period is 21 days.\n", encoding="utf-8"
        )
        incremental_plain = run()

        digest_end = rows_digest(url)
        print(
            f"== {count} files ({tabled} with a table), {tokens:,} tokens, {subjects} subjects, "
            f"claim store: {store_kind}, Dagster instance: {instance_kind}; load average at the "
            f"end {', '.join(f'{x:.1f}' for x in os.getloadavg())}"
        )
        print(f"  extraction alone (baseline): {baseline:7.1f} s  {baseline_claims:,} claims")
        print(
            f"  full pipeline:               {full:7.1f} s  {count / full:7.1f} files/s  "
            f"{summary.claims / full:8.0f} claims/s  {tokens / full:9.0f} tokens/s  "
            f"({full / baseline:.1f}x extraction alone)"
        )
        print(
            f"  Dagster bookkeeping alone:   {floor:7.1f} s  ({floor_runs} runs over "
            f"{floor_partitions} shard partitions x 2 empty assets, as the full run plans "
            f"them; {100 * floor / full:.1f}% of the full run)"
        )
        if version_floor is not None:
            print(
                f"  before session 8 (a partition per version): {version_floor:7.1f} s  "
                f"({count:,} partitions x 2 empty assets)"
            )
        print(f"  claims {summary.claims:,}, edges {summary.edges_by_kind}")
        per_claim = ", ".join(
            f"{table} {rows:,} ({rows / max(1, summary.claims):.2f}/claim)"
            for table, rows in stored_rows.items()
        )
        print(f"  stored rows (issue 14.1: O(claims)): {per_claim}")
        print(
            f"  incremental (1 file edited): {incremental:7.2f} s  "
            f"= {100 * incremental / full:.1f}% of the full run"
        )
        print(
            f"  incremental, a second note (no dividend) edited: {incremental_plain:7.2f} s"
            f"  = {100 * incremental_plain / full:.1f}%"
        )
        print(f"  same run again (no change):  {same:7.2f} s  = {100 * same / full:.1f}%")
        print(f"  stored rows after the full run (digest): {digest_full}")
        print(f"  stored rows at the end (digest): {digest_end}")
        print(f"  load average at the end: {os.getloadavg()[0]:.1f}")
        print(f"  peak memory (max RSS):       {peak_rss_mb():7.0f} MB")
        labels = ("full", "incremental", "same", "second incremental")
        for label, timing in zip(labels, steps, strict=True):
            top = sorted(timing.items(), key=lambda kv: -kv[1])[:6]
            print(f"  {label} run steps: " + ", ".join(f"{k} {v:.1f}s" for k, v in top))
        sys.stdout.flush()
        return {
            "baseline": (baseline, baseline_claims),
            "figures": {
                "full run": full,
                **{f"  full: {step}": seconds for step, seconds in steps[0].items()},
                "incremental (1 file)": incremental,
                **{f"  incremental: {step}": seconds for step, seconds in steps[1].items()},
                "incremental (2nd file)": incremental_plain,
                "nothing changed": same,
            },
            "digests": (digest_full, digest_end),
        }


def print_ratios(count: int, sqlite: dict[str, Any], postgres: dict[str, Any]) -> None:
    """PostgreSQL against SQLite, figure by figure, measured back to back in this process."""
    print(
        f"== {count} files, claim store PostgreSQL / SQLite (same corpus, back to back); "
        f"load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    for label, lite in sqlite["figures"].items():
        pg = postgres["figures"].get(label)
        if pg is None or max(lite, pg) < 0.1:  # the asset checks and steps that do nothing
            continue
        ratio = f"{pg / lite:5.2f}x" if lite >= 0.005 else "    -"
        print(f"  {label:42s} sqlite {lite:8.2f} s  postgres {pg:8.2f} s  {ratio}")
    for when, lite, pg in zip(
        ("after the full run", "at the end"), sqlite["digests"], postgres["digests"], strict=True
    ):
        same = "equal" if lite == pg else f"DIFFER: sqlite {lite} / postgres {pg}"
        print(f"  rows digest {when}: {same}")


def main() -> None:
    args = sys.argv[1:]
    instance_kind = "sqlite"
    subjects: int | None = None
    global VERSION_FLOOR
    if "--version-floor" in args:
        VERSION_FLOOR = True
        args.remove("--version-floor")
    skip_baseline = "--no-baseline" in args
    if skip_baseline:
        args.remove("--no-baseline")
    tables_share = 0.0
    store_kind = "sqlite"
    while args[:1] in (["--instance"], ["--store"], ["--subjects"], ["--tables-share"]):
        if args[0] == "--instance":
            instance_kind = args[1]
        elif args[0] == "--store":
            store_kind = args[1]
            if store_kind not in STORES:
                raise SystemExit(f"--store must be one of {', '.join(STORES)}, not {args[1]!r}")
        elif args[0] == "--tables-share":
            tables_share = float(args[1])
            if not 0.0 <= tables_share <= 1.0:
                raise SystemExit(f"--tables-share {args[1]}: give a share between 0 and 1")
        else:
            subjects = int(args[1])
        args = args[2:]
    sizes = [int(arg) for arg in args] or [1000, 10000]
    for count in sizes:
        kinds = ("sqlite", "postgres") if store_kind == "both" else (store_kind,)
        results: dict[str, dict[str, Any]] = {}
        for kind in kinds:
            baseline = next(iter(results.values()))["baseline"] if results else None
            baseline = NOT_TIMED if skip_baseline else baseline
            with dagster_database(instance_kind):
                results[kind] = bench(count, instance_kind, subjects, tables_share, kind, baseline)
        if len(results) == 2:
            print_ratios(count, results["sqlite"], results["postgres"])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
