"""Dagster resources: the claim store, the extractor (NLP) and where the sources live.

Each is a ``ConfigurableResource`` whose fields are bound to ``CLAIMS_*`` environment
variables in ``definitions.py`` (``dg.EnvVar``), so the UI shows where a value comes from
and the launchpad can override it per run. Engines are created per process in
``setup_for_execution``, never at import, so the multiprocess executor works.

A run holds the store's run lock (``claims.store.locks``) while it uses the store, like
``claims run``: a run the sensor, the schedule or the UI launches waits for a ``claims run``
on the same store, and the other way round. ``claims run`` takes the lock itself before it
starts its runs and tags them (``RUN_LOCK_TAG``), so they do not wait for their own
launcher. With the in-process executor the lock is held from the run's first step to its
last; with a process per step (multiprocess, Celery), each step holds it while it works,
the ``claims`` asset's extraction steps shared (they work side by side; every other step and
``claims run`` exclude them and each other).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import dagster as dg
from pydantic import Field, PrivateAttr
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from claims.ids import stable_id
from claims.models import Claim
from claims.store import make_engine, transaction
from claims.store.locks import run_lock
from claims.store.migrate import upgrade
from pipeline.partitions import is_extraction_part

Extractor = Callable[..., list[Claim]]

# A run tagged with RUN_LOCK_TAG = LAUNCHER_HOLDS_LOCK was started by a process that holds
# the store's run lock for it (``pipeline.runner`` under ``claims run``).
RUN_LOCK_TAG = "claimledger/run-lock"
LAUNCHER_HOLDS_LOCK = "held-by-launcher"


class ClaimStore(dg.ConfigurableResource):
    """The SQL database every asset writes through (SQLite file or PostgreSQL)."""

    database_url: str = Field(
        description="SQLAlchemy URL: sqlite:////abs/path/claims.db or "
        "postgresql+psycopg://user:pass@host/db (env CLAIMS_DATABASE_URL)."
    )
    migrate: bool = Field(True, description="Upgrade the schema to head before the first use.")

    _engine: Engine | None = PrivateAttr(default=None)
    _lock: ExitStack | None = PrivateAttr(default=None)

    def setup_for_execution(self, context: dg.InitResourceContext) -> None:
        run = context.run  # None outside a run: a sensor's or a schedule's evaluation
        if run is not None and run.tags.get(RUN_LOCK_TAG) != LAUNCHER_HOLDS_LOCK:
            log = context.log
            stack = ExitStack()
            step = str((log.metadata.get("step_key") if log is not None else None) or "")
            stack.enter_context(
                run_lock(
                    self.database_url,
                    on_wait=log.info if log is not None else None,
                    # None with the in-process executor: the resource serves the whole run
                    shared=is_extraction_part(step),
                )
            )
            self._lock = stack
        self.prepare()

    def prepare(self) -> None:
        """Migrate the schema (when ``migrate``) and open the engine of this process."""
        if self.migrate:
            upgrade(self.database_url)
        if self._engine is None:
            self._engine = make_engine(self.database_url)

    def teardown_after_execution(self, context: dg.InitResourceContext) -> None:
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    @property
    def engine(self) -> Engine:
        if self._engine is None:  # used outside a run (a sensor's direct call, a test)
            self._engine = make_engine(self.database_url)
        return self._engine

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """One unit of work: everything in it commits together or not at all."""
        with transaction(self.engine) as session:
            yield session


class ExtractorResource(dg.ConfigurableResource):
    """Which claim extractor runs, and so which extractor generation the claims carry.

    Empty ``extractor`` means the built-in spaCy + rules extractor. A dotted path
    ``package.module:function`` plugs in another one with the same signature
    (``extract(text, *, source_id, source_version_id) -> list[Claim]``). Its generation is
    the function's ``generation`` attribute ``(id, label)``, else its module's
    ``current_generation()``, else an id derived from the built-in generation and the path,
    so its claims never mix with the built-in's.
    """

    extractor: str = Field("", description="module:function of a custom extractor, or empty.")
    workers: int = Field(
        0,
        description="Processes that run the built-in extractor in a run of many versions: "
        "0 = CLAIMS_EXTRACT_WORKERS, else 1 (in the step's own process; on a quiet 2-core "
        "machine two workers did not pay, docs/PIPELINE.md 'Session 9, quiet machine'). "
        "A custom extractor always runs in the step's process.",
    )
    register_file: str = Field(
        "",
        description="Source register YAML whose profile choices (docs/REGISTER.md, "
        "'Profiles') are part of the generation: changing one re-derives the claims. Empty: "
        "no register, every source read with the office profile.",
    )
    pool_min_versions: int = Field(
        0,
        description="Fewest versions a run sends to worker processes (0 = the built-in rule: "
        "50 once this process has started its workers' fork server, 500 before; smaller runs "
        "extract in the step's own process).",
    )

    def worker_count(self) -> int:
        """The extraction processes a run uses (``workers``, else the environment's
        ``CLAIMS_EXTRACT_WORKERS``, else one: the step's own process). Measured on a quiet
        2-core machine, two workers cut the 10k run's ``claims`` step by 6% and made the 2k
        one slower (docs/PIPELINE.md, "Session 9, quiet machine"), so the pool is opt-in."""
        if self.workers > 0:
            return self.workers
        configured = os.environ.get("CLAIMS_EXTRACT_WORKERS", "").strip()
        if configured:
            try:
                count = int(configured)
            except ValueError:
                count = 0
            if count < 1:
                raise dg.Failure(
                    f"CLAIMS_EXTRACT_WORKERS={configured!r} must be a whole number of "
                    "processes, 1 or more (1 = extract in the step's own process)"
                )
            return count
        return 1

    def extract_function(self) -> Extractor:
        if not self.extractor:
            from claims.extraction import extract

            return extract
        return _load_callable(self.extractor)

    def profile_rules(self) -> str:
        """The register's profile choices ("" when it makes none, or there is no register)."""
        if not self.register_file:
            return ""
        from claims.register import register_as_on_disk

        return register_as_on_disk(Path(self.register_file).expanduser()).profile_rules

    def generation(self) -> tuple[str, str]:
        """(generation id, human label) of the configured extractor and the register's
        profile choices: claims read under other profiles are never mixed with these."""
        gen_id, label = self._extractor_generation()
        rules = self.profile_rules()
        if not rules:
            return gen_id, label
        mark = stable_id("p", rules)[-6:]
        return stable_id("gen", gen_id, "profiles", rules), f"{label}+profiles-{mark}"

    def generation_of_code(self) -> str:
        """The generation id of the extractor alone, without the register's choices."""
        return self._extractor_generation()[0]

    def _extractor_generation(self) -> tuple[str, str]:
        from claims.extraction import current_generation

        if not self.extractor:
            return current_generation()
        function = _load_callable(self.extractor)
        declared = getattr(function, "generation", None)
        if declared is None:
            module = importlib.import_module(self.extractor.partition(":")[0])
            own = getattr(module, "current_generation", None)
            declared = own() if callable(own) else None
        if declared is not None:
            gen_id, label = declared
            return str(gen_id), str(label)
        base_id, base_label = current_generation()
        return stable_id("gen", base_id, self.extractor), f"{base_label}+{self.extractor}"


class SourcesResource(dg.ConfigurableResource):
    """Where the sensor and the ``source_versions`` asset find files and the register."""

    sources_dir: str = Field(
        description="Directory of source files, or several joined with the path separator "
        "(env CLAIMS_SOURCES_DIR)."
    )
    register_file: str = Field(
        "", description="Source register YAML; empty means no register (env CLAIMS_REGISTER_FILE)."
    )
    follow_outside_links: bool = Field(
        False,
        description="Read symbolic links whose target is outside the sources folder (env "
        "CLAIMS_FOLLOW_OUTSIDE_LINKS=true also allows them). The store's own files are "
        "never read.",
    )

    def sources_paths(self) -> list[Path]:
        return [
            Path(part).expanduser().resolve()
            for part in self.sources_dir.split(os.pathsep)
            if part.strip()
        ]

    def register_path(self) -> Path | None:
        return Path(self.register_file).expanduser().resolve() if self.register_file else None


def _load_callable(path: str) -> Any:
    module_name, _, attr = path.partition(":")
    if not module_name or not attr:
        raise dg.Failure(f"extractor {path!r} must look like 'package.module:function'")
    return getattr(importlib.import_module(module_name), attr)


def configured_policy_file(override: str = "") -> Path | None:
    """The authority policy file a run applies: ``override``, else CLAIMS_POLICY_FILE, else
    None (the policy applied last stays, or the bundled default on a fresh store)."""
    from claims.settings import get_settings

    configured = override or get_settings().policy_file
    return Path(configured).expanduser() if configured else None
