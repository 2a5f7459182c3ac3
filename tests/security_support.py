"""Real servers for the security tests: ``claims serve`` as a subprocess on a free loopback
port, over a store written with the retrieval corpus builder, plus a raw HTTP client for
what ordinary clients will not send (chunked bodies that never end, spoofed headers)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import yaml
from retrieval_corpus import Corpus

from claims.store import make_engine
from retrieval.access import token_digest
from tests.store_template import upgrade  # a copy of a store migrated once

REPO = Path(__file__).resolve().parent.parent
CLAIMS = REPO / ".venv" / "bin" / "claims"
REVIEWERS = Path(__file__).parent / "fixtures" / "review" / "reviewers.yaml"
KEY = "output limit"
TOKENS = {
    "fay": "fay-token-58c1e0a7d2b94f36a1c08e5d7b2f94c3",
    "otto": "otto-token-0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a",
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def write_access_file(path: Path) -> None:
    path.write_text(
        "principals:\n"
        f"  fay:\n    groups: [finance]\n    tokens_sha256: [{token_digest(TOKENS['fay'])}]\n"
        f"  otto:\n    groups: []\n    tokens_sha256: [{token_digest(TOKENS['otto'])}]\n",
        encoding="utf-8",
    )


def write_reviewers_file(path: Path, **changes: object) -> None:
    config = yaml.safe_load(REVIEWERS.read_text(encoding="utf-8"))
    config.update(changes)
    path.write_text(yaml.safe_dump(config), encoding="utf-8")


def small_store(url: str) -> None:
    """Two notes disagree about an output limit; the second is finance-only."""
    upgrade(url)
    corpus = Corpus()
    corpus.source("note-a")
    corpus.source("note-b", ["finance"])
    ca = corpus.claim(corpus.version("note-a"), KEY, 250, claim_id="ca")
    cb = corpus.claim(corpus.version("note-b"), KEY, 500, claim_id="cb")
    corpus.edge("conflicts", ca, cb)
    engine = make_engine(url)
    corpus.write(engine)
    engine.dispose()


@dataclass
class Server:
    url: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path
    data_dir: Path

    @property
    def db(self) -> Path:
        return self.data_dir / "claims.db"

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def rss_kib(self) -> int:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        match = re.search(r"VmRSS:\s+(\d+) kB", status)
        assert match, status
        return int(match.group(1))


def server_env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMS_")}
    env.update(
        CLAIMS_DATA_DIR=str(data_dir),
        CLAIMS_ACCESS_FILE=str(data_dir / "access.yaml"),
        CLAIMS_REVIEWERS_FILE=str(data_dir / "reviewers.yaml"),
        PYTHONUNBUFFERED="1",
    )
    return env


def _start(data_dir: Path) -> Server:
    """``claims serve`` on a free port, returned once it answers."""
    port = free_port()
    log = data_dir / "serve.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [str(CLAIMS), "serve", "--host", "127.0.0.1", "--port", str(port)],
            env=server_env(data_dir),
            cwd=data_dir,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    server = Server(f"http://127.0.0.1:{port}", port, process, log, data_dir)
    deadline = time.monotonic() + 180  # the shared test machine can be very loaded
    while True:
        if process.poll() is not None:
            raise _Exited(server.log_text())
        if time.monotonic() > deadline:
            _stop(process)
            raise AssertionError(f"claims serve did not start:\n{server.log_text()}")
        try:
            httpx.get(f"{server.url}/review/login", timeout=5)
            return server
        except httpx.TransportError:
            time.sleep(0.2)


class _Exited(Exception):
    """The server process ended while starting (e.g. another process took the port)."""


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def claims_serve(data_dir: Path) -> Iterator[Server]:
    """``claims serve`` on a free port over ``data_dir`` (store, access and reviewers files);
    a start that loses its port to another process is retried on a new one."""
    for attempt in range(3):
        try:
            server = _start(data_dir)
            break
        except _Exited as exited:
            if attempt == 2:
                raise AssertionError(f"claims serve exited:\n{exited}") from None
    try:
        yield server
    finally:
        _stop(server.process)


def prepared_data_dir(tmp_path: Path, **reviewer_changes: object) -> Path:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    small_store(f"sqlite:///{data_dir / 'claims.db'}")
    write_access_file(data_dir / "access.yaml")
    write_reviewers_file(data_dir / "reviewers.yaml", **reviewer_changes)
    return data_dir


def raw_request(port: int, head: str, body: bytes = b"", *, source: str = "127.0.0.1") -> bytes:
    """Send one HTTP/1.1 request byte for byte from ``source`` and return the raw response."""
    with socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0)) as s:
        s.sendall(head.replace("\n", "\r\n").encode("latin-1") + b"\r\n" + body)
        chunks = []
        while True:
            data = s.recv(65536)
            if not data:
                break
            chunks.append(data)
    return b"".join(chunks)
