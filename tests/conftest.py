"""Shared fixtures: real SQLite files and real PostgreSQL databases, migrated to head."""

from __future__ import annotations

import os
import signal
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url

from claims.settings import get_settings
from claims.store.engine import make_engine
from claims.store.migrate import upgrade
from tests.store_template import upgrade as upgrade_from_template

FIXTURES = Path(__file__).parent / "fixtures"
IN_CI = os.environ.get("CI", "").lower() == "true"


def pytest_configure(config: pytest.Config) -> None:
    """Give this test process the ordinary SIGINT and SIGTERM dispositions.

    A test run started in the background (``make test &``, a CI job without a terminal)
    inherits SIGINT ignored, and so do pytest-xdist's workers. Dagster, run in-process by
    many tests, maps SIGTERM to whatever SIGINT does, so SIGTERM becomes ignored too, and an
    ignored signal survives ``exec``: every server, proxy or pipeline process a later test
    starts then ignores SIGTERM, and its ``terminate()`` waits out the test's timeout
    (10 s a proxy in test_security_login) before a SIGKILL."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if signal.getsignal(signal.SIGTERM) == signal.SIG_IGN:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _postgres_admin_url() -> str:
    url = os.environ.get("CLAIMS_TEST_POSTGRES_URL")
    if not url:
        if IN_CI:
            pytest.fail("CI=true but CLAIMS_TEST_POSTGRES_URL is unset: PostgreSQL tests must run")
        pytest.skip("no PostgreSQL: set CLAIMS_TEST_POSTGRES_URL or run through `make test`")
    return url


def create_postgres_database(admin_url: str) -> str:
    """A new empty database on the test server; returns its URL."""
    name = f"claims_{uuid.uuid4().hex[:12]}"
    admin = make_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()
    return make_url(admin_url).set(database=name).render_as_string(hide_password=False)


def drop_postgres_database(admin_url: str, url: str) -> None:
    name = make_url(url).database
    admin = make_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'claims.db'}"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    admin_url = _postgres_admin_url()
    url = create_postgres_database(admin_url)
    try:
        yield url
    finally:
        drop_postgres_database(admin_url, url)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest) -> str:
    """An empty database of each backend, in turn (not migrated)."""
    name = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    return request.getfixturevalue(name)


@pytest.fixture(scope="session")
def postgres_template() -> Iterator[str]:
    """A PostgreSQL database migrated to head once per test process (real Alembic); the
    ``migrated_url`` databases are copies of it (CREATE DATABASE ... TEMPLATE), which costs
    a file copy instead of every migration again."""
    admin_url = _postgres_admin_url()
    url = create_postgres_database(admin_url)
    upgrade(url)
    try:
        yield url
    finally:
        drop_postgres_database(admin_url, url)


def copy_postgres_database(admin_url: str, template_url: str, url: str) -> None:
    """Make the database of ``url`` a copy of the one of ``template_url``."""
    template, name = make_url(template_url).database, make_url(url).database
    admin = make_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            # a copy needs the template unused: end connections a pool may have kept
            conn.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = :name AND pid <> pg_backend_pid()"
                ),
                {"name": template},
            )
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{template}"'))
    finally:
        admin.dispose()


@pytest.fixture
def migrated_url(database_url: str, request: pytest.FixtureRequest) -> str:
    """``database_url`` migrated to head: a copy of a store migrated once (PostgreSQL: the
    ``postgres_template`` database; SQLite: tests/store_template.py), then ``upgrade``,
    which finds it at head."""
    if make_url(database_url).get_backend_name() == "postgresql":
        template_url = request.getfixturevalue("postgres_template")
        copy_postgres_database(_postgres_admin_url(), template_url, database_url)
    upgrade_from_template(database_url)
    return database_url


@pytest.fixture
def engine(sqlite_url: str) -> Iterator[Engine]:
    """A migrated embedded store (SQLite file in tmp_path, copied from one migrated once)."""
    upgrade_from_template(sqlite_url)
    eng = make_engine(sqlite_url)
    yield eng
    eng.dispose()


@pytest.fixture
def cli_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point the CLI's settings at a fresh data dir in tmp_path; yields that dir."""
    data_dir = tmp_path / ".claims"
    monkeypatch.setenv("CLAIMS_DATA_DIR", str(data_dir))
    monkeypatch.delenv("CLAIMS_DATABASE_URL", raising=False)
    get_settings.cache_clear()
    yield data_dir
    get_settings.cache_clear()
