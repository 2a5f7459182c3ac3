"""The layer rules of ARCHITECTURE.md and issue 15, checked over the source's imports (every
import statement, function-level ones included), so a new module cannot quietly break them."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("claims", "review", "retrieval", "pipeline", "claimledger", "migrations")


def _module(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> dict[str, set[str]]:
    found: dict[str, set[str]] = defaultdict(set)
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            module = _module(path)
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Import):
                    found[module].update(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    found[module].add(node.module)
    return found


def _top(name: str) -> str:
    return name.split(".")[0]


def _unit(name: str) -> str:
    """claims' subpackages and modules are units of their own; other packages are one unit."""
    parts = name.split(".")
    return ".".join(parts[:2]) if parts[0] == "claims" and len(parts) > 1 else parts[0]


def test_each_layer_imports_only_layers_below_it() -> None:
    forbidden = {
        "claims": {"review", "retrieval", "pipeline", "claimledger", "dagster", "fastapi"},
        "review": {"retrieval", "pipeline", "claimledger", "dagster"},
        "retrieval": {"pipeline", "claimledger", "dagster"},
    }
    offenders = sorted(
        f"{module} imports {name}"
        for module, names in _imports().items()
        for name in names
        if _top(name) in forbidden.get(_top(module), set())
    )
    assert offenders == []


def test_only_the_pipeline_imports_dagster() -> None:
    offenders = sorted(
        module
        for module, names in _imports().items()
        if _top(module) != "pipeline"
        and any(_top(n) in ("dagster", "dagster_webserver") for n in names)
    )
    assert offenders == []


def test_no_two_units_import_each_other() -> None:
    # the cycles issue 15 names: claims.store <-> claims.edges, claims.store.migrate <->
    # migrations, pipeline.definitions <-> pipeline.jobs (modules, checked separately below)
    edges: set[tuple[str, str]] = set()
    for module, names in _imports().items():
        for name in names:
            if _top(name) in PACKAGES and _unit(module) != _unit(name):
                edges.add((_unit(module), _unit(name)))
    cycles = sorted(f"{a} <-> {b}" for a, b in edges if (b, a) in edges and a < b)
    assert cycles == []


def test_the_pipeline_definitions_and_jobs_do_not_import_each_other() -> None:
    imports = _imports()
    assert not any(n.startswith("pipeline.definitions") for n in imports["pipeline.jobs"])


def test_the_pipeline_reads_and_writes_the_store_only_through_domain_functions() -> None:
    # issue 15: nothing in pipeline/ queries tables directly; assets call claims/, review/
    # and retrieval/ functions (engines and sessions are fine: resources hand them on)
    sql_builders = {"select", "insert", "update", "delete", "text", "func"}
    offenders = []
    for path in (REPO / "pipeline").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.ImportFrom) or node.module is None:
                continue
            names = {alias.name for alias in node.names}
            if node.module == "claims.tables" or (
                node.module == "sqlalchemy" and names & sql_builders
            ):
                offenders.append(f"{path.relative_to(REPO)}: from {node.module} import {names}")
    assert offenders == []
