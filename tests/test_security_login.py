"""Reviewer login on a real ``claims serve`` process (issue 14 points 12, 13, 14).

Forwarded headers count only from a configured proxy, checked against the TCP peer (a
real proxy process on 127.0.0.2 is trusted; a local client naming that proxy in
X-Forwarded-For is not). Sessions live in the store: logout and a password change end
them, and a copied cookie dies with them. Logins are throttled per account and per
address with 429 + Retry-After, failed logins are audited, and the right password is
refused while the wait runs."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml
from security_support import (
    Server,
    claims_serve,
    free_port,
    prepared_data_dir,
    raw_request,
)
from sqlalchemy import func, select

from claims.store import make_engine
from claims.tables import AuditEventRow, ReviewSessionRow
from review.reviewers import hash_password

pytestmark = pytest.mark.slow
PROXY = Path(__file__).parent / "tiny_proxy.py"
PROXY_ADDRESS = "127.0.0.2"  # the proxy's own source address (all of 127/8 is loopback)
ALICE_PROXY_TOKEN = "proxy-login-alice-7f3e"


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match, html[:500]
    return match.group(1)


def try_login(client: httpx.Client, name: str, password: str) -> httpx.Response:
    page = client.get("/review/login")
    return client.post(
        "/review/login",
        data={"username": name, "password": password, "csrf_token": csrf_of(page.text)},
    )


def signed_in_as(client: httpx.Client) -> str | None:
    page = client.get("/review/queue")
    if page.status_code != 200:
        return None
    match = re.search(r'<b id="who">([^<]+)</b>', page.text)
    return match.group(1) if match else None


def count(server: Server, what: object, *where: object) -> int:
    engine = make_engine(f"sqlite:///{server.db}")
    try:
        with engine.connect() as conn:
            return int(conn.scalar(select(func.count()).select_from(what).where(*where)) or 0)  # type: ignore[arg-type]
    finally:
        engine.dispose()


# ----------------------------------------------------------------- point 12


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[Server, str]]:
    data_dir = prepared_data_dir(
        tmp_path, trusted_header="X-Forwarded-User", trusted_proxies=[PROXY_ADDRESS]
    )
    with claims_serve(data_dir) as server:
        port = free_port()
        proxy = subprocess.Popen(
            [
                sys.executable,
                str(PROXY),
                str(port),
                str(server.port),
                PROXY_ADDRESS,
                f"{ALICE_PROXY_TOKEN}=alice",
            ]
        )
        try:
            deadline = time.monotonic() + 120  # a loaded test machine starts slowly
            while True:
                try:
                    httpx.get(f"http://127.0.0.1:{port}/review/login", timeout=2)
                    break
                except httpx.TransportError:
                    assert time.monotonic() < deadline, "the proxy did not start"
                    time.sleep(0.1)
            yield server, f"http://127.0.0.1:{port}"
        finally:
            proxy.terminate()
            try:
                proxy.wait(timeout=10)
            except subprocess.TimeoutExpired:  # a process started here may ignore SIGTERM
                proxy.kill()
                proxy.wait(timeout=10)


def test_a_local_client_naming_the_proxy_in_x_forwarded_for_is_not_trusted(
    proxied: tuple[Server, str],
) -> None:
    server, _ = proxied
    spoofed = raw_request(
        server.port,
        "GET /review/queue HTTP/1.1\nHost: localhost\nConnection: close\n"
        f"X-Forwarded-For: {PROXY_ADDRESS}\nX-Forwarded-User: alice\n"
        f"Forwarded: for={PROXY_ADDRESS}\n",
    )
    assert spoofed.startswith(b"HTTP/1.1 303"), spoofed[:300]
    assert b"location: /review/login" in spoofed.lower()
    assert b"Alice Auditor" not in spoofed


def test_the_real_proxy_hop_is_trusted_and_strips_what_clients_send(
    proxied: tuple[Server, str],
) -> None:
    _, proxy_url = proxied
    with httpx.Client(base_url=proxy_url) as client:
        client.headers["Proxy-Authorization"] = ALICE_PROXY_TOKEN
        assert signed_in_as(client) == "Alice Auditor"
    with httpx.Client(base_url=proxy_url) as client:
        client.headers["X-Forwarded-User"] = "alice"  # the proxy drops it: not logged in
        assert client.get("/review/queue").status_code == 303


# ----------------------------------------------------------------- point 13


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with claims_serve(prepared_data_dir(tmp_path)) as running:
        yield running


def test_logout_ends_the_session_and_a_copied_cookie_is_refused(server: Server) -> None:
    with httpx.Client(base_url=server.url) as client:
        assert try_login(client, "alice", "correct horse").status_code == 303
        assert signed_in_as(client) == "Alice Auditor"
        copied = client.cookies["claims_review_session"]
        assert count(server, ReviewSessionRow) == 1
        with httpx.Client(base_url=server.url) as thief:
            thief.cookies.set("claims_review_session", copied)
            assert signed_in_as(thief) == "Alice Auditor"  # a live cookie works anywhere
        page = client.get("/review/queue")
        logout = client.post("/review/logout", data={"csrf_token": csrf_of(page.text)})
        assert logout.status_code == 303
        assert count(server, ReviewSessionRow) == 0
    with httpx.Client(base_url=server.url) as thief:
        thief.cookies.set("claims_review_session", copied)
        refused = thief.get("/review/queue")
        assert refused.status_code == 303 and refused.headers["location"].startswith(
            "/review/login"
        )
        page = thief.get("/review/login").text
        assert 'id="who"' not in page


def test_a_password_change_ends_the_sessions_opened_with_the_old_one(server: Server) -> None:
    with httpx.Client(base_url=server.url) as client:
        assert try_login(client, "alice", "correct horse").status_code == 303
        assert signed_in_as(client) == "Alice Auditor"
        reviewers_file = server.data_dir / "reviewers.yaml"
        config = yaml.safe_load(reviewers_file.read_text(encoding="utf-8"))
        for entry in config["reviewers"]:
            if entry["name"] == "alice":
                entry["password_hash"] = hash_password("a new, longer passphrase")
        reviewers_file.write_text(yaml.safe_dump(config), encoding="utf-8")
        assert client.get("/review/queue").status_code == 303  # the old session is over
    assert count(server, ReviewSessionRow) == 0
    with httpx.Client(base_url=server.url) as client:
        assert try_login(client, "alice", "correct horse").status_code == 401
        assert try_login(client, "alice", "a new, longer passphrase").status_code == 303
        assert signed_in_as(client) == "Alice Auditor"


# ----------------------------------------------------------------- point 14


def test_thirty_wrong_passwords_lock_the_account_and_the_right_one_is_refused(
    server: Server,
) -> None:
    codes: list[int] = []
    waits: list[int] = []
    with httpx.Client(base_url=server.url) as client:
        for attempt in range(30):
            response = try_login(client, "alice", f"guess number {attempt}")
            codes.append(response.status_code)
            if response.status_code == 429:
                waits.append(int(response.headers["Retry-After"]))
                assert "Too many failed logins" in response.text
        right = try_login(client, "alice", "correct horse")
        assert right.status_code == 429, right.text[:300]
        assert int(right.headers["Retry-After"]) > 0
        assert signed_in_as(client) is None
    assert codes[:3] == [401, 401, 401] and set(codes[3:]) == {429}
    assert all(0 < wait <= 15 for wait in waits)
    failed = count(server, AuditEventRow, AuditEventRow.action == "login.failed")
    assert failed == 3
    assert count(server, AuditEventRow, AuditEventRow.action == "login") == 0
    # Another account from the same address is not locked by alice's lock.
    with httpx.Client(base_url=server.url) as client:
        assert try_login(client, "bob", "battery staple").status_code == 303


def test_one_address_guessing_many_accounts_is_throttled_whatever_it_forwards(
    server: Server,
) -> None:
    codes = []
    with httpx.Client(base_url=server.url) as client:
        for n in range(12):
            # Not a trusted proxy: X-Forwarded-For must not give it a fresh address each time.
            client.headers["X-Forwarded-For"] = f"198.51.100.{n}"
            codes.append(try_login(client, f"user{n}", "password1").status_code)
        client.headers["X-Forwarded-For"] = "198.51.100.99"
        bob = try_login(client, "bob", "battery staple")
    assert codes[:10] == [401] * 10 and set(codes[10:]) == {429}
    assert bob.status_code == 429 and int(bob.headers["Retry-After"]) > 0
    engine = make_engine(f"sqlite:///{server.db}")
    try:
        with engine.connect() as conn:
            audited = list(
                conn.execute(
                    select(AuditEventRow.after).where(AuditEventRow.action == "login.failed")
                ).scalars()
            )
    finally:
        engine.dispose()
    assert len(audited) == 10 and {a["address"] for a in audited} == {"127.0.0.1"}
