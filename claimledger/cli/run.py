"""``claims run`` (the whole pipeline in-process) and ``claims ui`` (Dagster's UI)."""

from __future__ import annotations

import json
import os
import shutil
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from claimledger.cli.app import (
    app,
    console,
    err_console,
    print_table,
    settings,
    storage_full_error,
)
from claims.documents.converters import SUFFIXES
from claims.errors import ClaimLedgerError, InputError
from claims.run_summary import not_read_by_type
from claims.settings import get_settings
from claims.store.locks import run_lock

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def _absolute_database_url() -> str:
    """The store URL with a SQLite path made absolute (Dagster processes run elsewhere)."""
    from sqlalchemy.engine import make_url

    url = make_url(settings().resolved_database_url)
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        url = url.set(database=str(Path(url.database).resolve()))
    return url.render_as_string(hide_password=False)


def _sources(paths: list[Path] | None, register: Path | None) -> tuple[list[Path], Path | None]:
    given = list(paths or [])
    if not given and settings().sources_dir:
        given = [settings().sources_dir]  # type: ignore[list-item]
    if not given:
        raise InputError("give the sources to run on (PATHS) or set CLAIMS_SOURCES_DIR")
    for path in given:
        if not path.exists():
            raise InputError("no such file or directory", location=str(path))
    register = register or settings().register_file
    if register is not None and not register.exists():
        raise InputError("no such register file", location=str(register))
    return [p.resolve() for p in given], register.resolve() if register else None


def _pipeline_environment(paths: list[Path], register: Path | None) -> dict[str, str]:
    return {
        "CLAIMS_DATABASE_URL": _absolute_database_url(),
        "CLAIMS_SOURCES_DIR": os.pathsep.join(str(p) for p in paths),
        "CLAIMS_REGISTER_FILE": str(register) if register else "",
    }


@app.command("run")
def run(
    paths: list[Path] = typer.Argument(None, help="Source files or directories."),
    register: Path | None = typer.Option(None, "--register", help="Source register YAML."),
    full: bool = typer.Option(
        False,
        "--full",
        help="Re-read and hash every source file (not only those whose size or times "
        "changed) and re-evaluate every claim key's edges.",
    ),
    rescan: bool = typer.Option(
        False,
        "--rescan",
        help="Read and hash every source file, trusting neither the status each file had "
        "when it was last read nor the last run's stamp (after restoring the sources from a "
        "backup, or on a file system whose times cannot be trusted).",
    ),
    no_wait: bool = typer.Option(
        False,
        "--no-wait",
        help="If another `claims run` is working on this store, exit (code 4) instead of "
        "waiting for it.",
    ),
    policy: Path | None = typer.Option(
        None,
        "--policy",
        help="Authority policy to apply before routing conflicts (default: CLAIMS_POLICY_FILE; "
        "neither: the active policy, else the built-in one where every conflict needs a person).",
    ),
    follow_outside_links: bool = typer.Option(
        False,
        "--follow-outside-links",
        help="Read symbolic links whose target is outside the sources folder (default: a "
        "per-file error). The store's own data folder is never read.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Run the whole pipeline in-process (ingest, extract, edges) and print a summary.

    One run per store at a time: a second `claims run` on the same store waits for the
    first (or, with --no-wait, exits with code 4).
    """
    warnings.filterwarnings("ignore", module="dagster")  # beta/preview notices, not for users
    sources_paths, register_path = _sources(paths, register)
    with _policy_setting(policy):
        _run(
            sources_paths,
            register_path,
            full=full,
            rescan=rescan,
            no_wait=no_wait,
            as_json=as_json,
            follow_outside_links=follow_outside_links,
        )


@contextmanager
def _policy_setting(policy: Path | None) -> Iterator[None]:
    """CLAIMS_POLICY_FILE for this run only: ``--policy`` wins over the environment."""
    if policy is None:
        yield
        return
    from review.policy import load_policy

    load_policy(policy)  # a bad file is an error naming it before anything runs
    saved = os.environ.get("CLAIMS_POLICY_FILE")
    os.environ["CLAIMS_POLICY_FILE"] = str(policy.resolve())
    get_settings.cache_clear()
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("CLAIMS_POLICY_FILE", None)
        else:
            os.environ["CLAIMS_POLICY_FILE"] = saved
        get_settings.cache_clear()


def _run(
    sources_paths: list[Path],
    register_path: Path | None,
    *,
    full: bool,
    no_wait: bool,
    as_json: bool,
    follow_outside_links: bool = False,
    rescan: bool = False,
) -> None:
    from claimledger.cli.startup import loading

    with loading():  # about 2,000 modules: Dagster, spaCy, the store
        from pipeline.instance import local_instance
        from pipeline.resources import ClaimStore, ExtractorResource, SourcesResource
        from pipeline.runner import run_pipeline
        from pipeline.settings import get_pipeline_settings

    environment = _pipeline_environment(sources_paths, register_path)
    store = ClaimStore(database_url=environment["CLAIMS_DATABASE_URL"])
    sources = SourcesResource(
        sources_dir=environment["CLAIMS_SOURCES_DIR"],
        register_file=environment["CLAIMS_REGISTER_FILE"],
        follow_outside_links=follow_outside_links,
    )
    extractor = ExtractorResource()
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with (
        run_lock(
            environment["CLAIMS_DATABASE_URL"],
            wait=not no_wait,
            on_wait=lambda message: err_console.print(
                f"[yellow]note[/] {escape(message)}", markup=True
            ),
        ),
        Progress(*columns, console=err_console, transient=False) as progress,
    ):
        # Under the lock: two processes creating Dagster's SQLite history at once collide.
        with loading():  # the instance and its storages live as long as the process
            instance = local_instance(settings().data_dir)
        task = progress.add_task("pipeline", total=None)

        def advance(done: int, total: int, label: str) -> None:
            progress.update(
                task, completed=done if total else 1, total=max(total, 1), description=label
            )

        outcome = run_pipeline(
            instance,
            store=store,
            sources=sources,
            extractor=extractor,
            batch_size=get_pipeline_settings().batch_size,
            progress=advance,
            full_graph=full,
            log_level="CRITICAL",
            rescan=rescan,
        )
        # The summary is read under the lock too, so it is this run's, not a half of the next.
        progress.stop()
        _summarize(store, extractor, outcome, as_json=as_json)


def _summarize(store, extractor, outcome, *, as_json: bool = False) -> None:  # type: ignore[no-untyped-def]
    from claims.run_summary import store_summary
    from claims.store import GenerationRepository

    generation, _label = extractor.generation()  # shown by its id: one id per generation
    with store.transaction() as session:
        active = GenerationRepository(session).active()
        summary = store_summary(session, active.id if active else None)
        status = summary.generations.get(generation, "unknown")
    if as_json:
        print(json.dumps(_summary_json(summary, outcome, generation, status), indent=2))
    else:
        _print_summary(summary, outcome, generation, status)
    for failure in outcome.failures:  # a step that met a full disk: say it once, exit 6
        full = storage_full_error(RuntimeError(failure.message))
        if full is not None:
            raise full
    if outcome.failures:
        code = 2 if any(f.what not in ("graph", "register") for f in outcome.failures) else 1
        raise typer.Exit(code)
    if outcome.not_read and not outcome.files_found:
        # Files were there but none of a type claims reads: say so and fail, or a folder
        # of spreadsheets would look like an empty success. A stray image beside documents
        # that were read is only named (a scheduled run must not fail forever on it).
        err_console.print(
            f"[bold red]error[/] none of the {len(outcome.not_read)} file(s) found is of a "
            f"type claims reads ({', '.join(SUFFIXES)}); save them in one of these formats",
            markup=True,
        )
        raise typer.Exit(2)


def _summary_json(summary, outcome, generation: str, status: str) -> dict[str, object]:  # type: ignore[no-untyped-def]
    """The summary for scripts: the table's figures plus what failed."""
    return {
        "sources": summary.sources,
        "versions": summary.versions,
        "versions_processed": outcome.versions_processed,
        "claims": summary.claims,
        "claims_by_kind": dict(sorted(summary.claims_by_kind.items())),
        "edges_by_kind": dict(sorted(summary.edges_by_kind.items())),
        "extractor_generation": {"id": generation, "status": status},
        "dagster_runs": outcome.runs,
        "sources_unchanged": outcome.sources_unchanged,
        "failures": [{"what": f.what, "message": f.message} for f in outcome.failures],
        "check_failures": list(outcome.check_failures),
        "bounded": list(outcome.bounded),
        "not_read": {"by_type": not_read_by_type(outcome.not_read), "files": outcome.not_read},
    }


def _print_summary(summary, outcome, generation: str, status: str) -> None:  # type: ignore[no-untyped-def]
    rows = [
        ["sources", str(summary.sources)],
        ["versions", str(summary.versions)],
        ["versions processed now", str(outcome.versions_processed)],
    ]
    by_kind = ", ".join(f"{k} {v}" for k, v in sorted(summary.claims_by_kind.items()))
    rows.append(["claims", f"{summary.claims}" + (f" ({by_kind})" if by_kind else "")])
    for kind in ("conflicts", "ambiguous", "corroborates", "supersedes", "compatible"):
        rows.append([f"edges: {kind}", str(summary.edges_by_kind.get(kind, 0))])
    for kind, count in sorted(summary.edges_by_kind.items()):
        if kind not in ("conflicts", "ambiguous", "corroborates", "supersedes", "compatible"):
            rows.append([f"edges: {kind}", str(count)])
    if outcome.sources_unchanged:
        rows.append(["scan", f"{outcome.files_found} files unchanged since the last run"])
    rows.append(["extractor generation", f"{generation} ({status})"])
    rows.append(["dagster runs", str(outcome.runs)])
    if outcome.not_read:
        types = ", ".join(f"{t} {n}" for t, n in not_read_by_type(outcome.not_read).items())
        rows.append(["files not read (type)", f"{len(outcome.not_read)} ({types})"])
    print_table(["what", "count"], rows, title="claimledger pipeline", show_header=False)
    if status == "failed":
        err_console.print(
            f"[bold red]generation {escape(generation)} failed the conflict regression check[/]; "
            "readers keep the previous generation",
            markup=True,
        )
    for failure in outcome.failures:
        err_console.print(
            f"[bold red]failed[/] {escape(failure.what)}: {escape(failure.message)}", markup=True
        )
    for check in outcome.check_failures:
        err_console.print(f"[bold yellow]check failed[/] {escape(check)}", markup=True)
    if outcome.store_gap:
        err_console.print(f"[yellow]note[/] {escape(outcome.store_gap)}", markup=True)
    for line in outcome.bounded:
        err_console.print(f"[yellow]bounded[/] {escape(line)}", markup=True)
    for line in outcome.plan.unkeyed:
        err_console.print(f"[yellow]skipped[/] {escape(line)}", markup=True)
    for path in outcome.not_read[:_NOT_READ_SHOWN]:
        err_console.print(
            f"[yellow]not read[/] {escape(path)}: not a type claims reads", markup=True
        )
    if len(outcome.not_read) > _NOT_READ_SHOWN:
        err_console.print(
            f"[yellow]not read[/] and {len(outcome.not_read) - _NOT_READ_SHOWN} more file(s) "
            "(--json lists them all)",
            markup=True,
        )


_NOT_READ_SHOWN = 20  # files named one per line; --json lists every one


@app.command("ui")
def ui(
    paths: list[Path] = typer.Argument(None, help="Source directories the sensor watches."),
    register: Path | None = typer.Option(None, "--register", help="Source register YAML."),
    host: str = typer.Option("127.0.0.1", "--host"),
    port: int = typer.Option(3000, "--port"),
    follow_outside_links: bool = typer.Option(
        False,
        "--follow-outside-links",
        help="Read symbolic links whose target is outside the sources folder (default: a "
        "per-file error). The store's own data folder is never read.",
    ),
) -> None:
    """Start Dagster's UI and daemon (`dagster dev`) on this project's code location."""
    from pipeline.instance import dagster_home

    sources_paths, register_path = _sources(paths, register)
    if register_path is not None:  # a broken register: said now, not by the sensor later
        from claims.register import load_register

        load_register(register_path)
    home = dagster_home(settings().data_dir)
    workspace = PROJECT_ROOT / "workspace.yaml"
    if not workspace.exists():
        raise ClaimLedgerError(f"no workspace.yaml at {workspace}; run from a source checkout")
    dagster = shutil.which("dagster", path=str(Path(sys.executable).parent)) or "dagster"
    environment = {
        **os.environ,
        "DAGSTER_HOME": str(home),
        **_pipeline_environment(sources_paths, register_path),
    }
    if follow_outside_links:  # the sensor's and the runs' SourcesResource read it
        environment["CLAIMS_FOLLOW_OUTSIDE_LINKS"] = "true"
    console.print(f"dagster dev on http://{host}:{port} (DAGSTER_HOME={home})")
    os.chdir(PROJECT_ROOT)
    os.execvpe(
        dagster,
        [dagster, "dev", "-w", str(workspace), "-h", host, "-p", str(port)],
        environment,
    )
