"""A Redis and Celery workers on this machine, as docs/PIPELINE.md deploys them: what the
Celery executor's test (tests/test_celery_executor.py) and benchmark
(bench/bench_celery_extraction.py) start and stop.

Each process is started in a process group of its own and ended as a whole (``stop``): a
worker forks its pool's processes, and they must not outlive it.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]  # the checkout: deploy/celery.yaml is there
NO_REDIS = "no redis-server: apt-get install redis-server (.ci/run does)"


def redis_available() -> bool:
    return shutil.which("redis-server") is not None


def free_port() -> int:
    """A TCP port free on the loopback interface now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def stop(process: subprocess.Popen[bytes]) -> None:
    """End the process group ``process`` leads (it was started with a session of its own):
    SIGTERM, then SIGKILL if it has not ended within 30 seconds."""
    for sig, seconds in ((signal.SIGTERM, 30), (signal.SIGKILL, 10)):
        try:
            os.killpg(process.pid, sig)
            process.wait(timeout=seconds)
            return
        except ProcessLookupError:
            return
        except subprocess.TimeoutExpired:
            continue


@contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    """A Redis of the caller alone: a free loopback port, ``folder`` for its files and its
    log (``server.log``), nothing persisted. Yields its URL once it answers a ping."""
    import redis

    server = shutil.which("redis-server")
    if server is None:
        raise RuntimeError(NO_REDIS)
    port = free_port()
    log = (folder / "server.log").open("wb")
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
         "--save", "", "--appendonly", "no"],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    client = redis.Redis(host="127.0.0.1", port=port)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        "redis-server did not start:\n" + (folder / "server.log").read_text()
                    ) from None
                time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        client.close()
        stop(process)
        log.close()


def start_worker(name: str, logs: Path) -> subprocess.Popen[bytes]:
    """``dagster-celery worker start`` as docs/PIPELINE.md deploys it (deploy/celery.yaml),
    one process (``--concurrency 1``), named ``name``, its output in ``logs/<name>.log``."""
    bin_dir = Path(sys.executable).parent  # dagster-celery runs `celery` from PATH
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    with (logs / f"{name}.log").open("wb") as log:
        return subprocess.Popen(
            [str(bin_dir / "dagster-celery"), "worker", "start", "-A", "dagster_celery.app",
             "-y", str(ROOT / "deploy" / "celery.yaml"), "-n", name, "--loglevel", "WARNING",
             "--", "--concurrency", "1"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, ended as a whole by stop()
        )  # fmt: skip


def wait_for_workers(
    broker: str,
    names: Collection[str],
    processes: Collection[subprocess.Popen[bytes]],
    logs: Path,
    timeout: float = 300,
) -> None:
    """Until every worker of ``names`` answers a ping through the broker (it is then taking
    tasks). Each imports Dagster and the code location first: 40 s on a busy 2-core
    machine. Raises ``RuntimeError`` with the end of the workers' logs if they do not."""
    from celery import Celery

    app = Celery(broker=broker, backend=broker)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            replies = app.control.ping(timeout=1.0)
            answered = {name.split("@")[0] for reply in replies for name in reply}
            if answered >= set(names):
                return
            if any(p.poll() is not None for p in processes):
                break
    finally:
        app.close()
    raise RuntimeError(
        "Celery workers did not come up:\n"
        + "\n".join(path.read_text()[-3000:] for path in sorted(logs.glob("*.log")))
    )
