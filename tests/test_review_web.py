"""The reviewer web UI through FastAPI's TestClient on a real SQLite store: login, CSRF,
escaping of untrusted source text, decisions and their errors."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient
from review_ledger import DIVIDEND, FIXTURES, HEADCOUNT, LIMIT, item_for_key, routed_ledger
from sqlalchemy import Engine, func, select
from sqlalchemy.engine import make_url

from claimledger.web import create_app
from claims.settings import Settings
from claims.store import make_engine, transaction
from claims.tables import AuditEventRow, ResolutionRow
from tests.store_template import upgrade  # a copy of a store migrated once


def _settings(engine: Engine, reviewers_file: Path = FIXTURES / "reviewers.yaml") -> Settings:
    return Settings(database_url=str(engine.url), reviewers_file=reviewers_file)


@pytest.fixture(scope="module")
def ledger_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """A store holding the routed review ledger, and a copy of it as the ledger left it."""
    folder = tmp_path_factory.mktemp("review-web")
    url = f"sqlite:///{folder / 'claims.db'}"
    upgrade(url)
    engine = make_engine(url)
    routed_ledger(engine)
    engine.dispose()
    snapshot = folder / "routed-ledger.db"
    _backup(folder / "claims.db", snapshot)
    return url, snapshot


def _backup(source: Path, target: Path) -> None:
    """Make ``target`` hold what ``source`` holds, with SQLite's backup API: a consistent
    copy written through SQLite, so connections already open on ``target`` read it next."""
    src, dst = sqlite3.connect(source), sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()


@pytest.fixture
def engine(ledger_store: tuple[str, Path]) -> Iterator[Engine]:
    """The module's store, put back to the routed ledger before each test: the decisions,
    sessions and login attempts of an earlier test are gone."""
    url, snapshot = ledger_store
    _backup(snapshot, Path(make_url(url).database or ""))
    eng = make_engine(url)
    yield eng
    eng.dispose()


@pytest.fixture(scope="module")
def app_client(ledger_store: tuple[str, Path]) -> Iterator[TestClient]:
    """One app (and one start-up) for the module, over the module's store."""
    url, _ = ledger_store
    settings = Settings(database_url=url, reviewers_file=FIXTURES / "reviewers.yaml")
    with TestClient(create_app(settings)) as test_client:
        yield test_client


@pytest.fixture
def client(engine: Engine, app_client: TestClient) -> TestClient:
    """The module's app over the store as the routed ledger left it, with no cookies."""
    app_client.cookies.clear()
    return app_client


def _csrf(html: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match, html
    return match.group(1)


def login(client: TestClient, name: str = "alice", password: str = "correct horse") -> str:
    page = client.get("/review/login")
    response = client.post(
        "/review/login",
        data={"username": name, "password": password, "csrf_token": _csrf(page.text)},
        follow_redirects=False,
    )
    assert response.status_code == 303, response.text
    return _csrf(client.get("/review/queue").text)


def _changes(engine: Engine) -> tuple[int, int]:
    with transaction(engine) as session:
        return (
            session.scalar(select(func.count()).select_from(AuditEventRow)) or 0,
            session.scalar(select(func.count()).select_from(ResolutionRow)) or 0,
        )


def test_pages_need_a_login_and_wrong_passwords_are_refused(client: TestClient) -> None:
    response = client.get("/review/queue", follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"].startswith("/review/login")
    page = client.get("/review/login")
    refused = client.post(
        "/review/login",
        data={"username": "alice", "password": "wrong", "csrf_token": _csrf(page.text)},
    )
    assert refused.status_code == 401 and "wrong password" in refused.text


def test_queue_lists_high_risk_first_and_filters(client: TestClient, engine: Engine) -> None:
    login(client)
    page = client.get("/review/queue").text
    keys = re.findall(r'<a href="/review/items/[^"]+">([^<]+)</a>', page)
    assert keys == [DIVIDEND, LIMIT]  # the rule-resolved headcount item is not in the queue
    assert 'Signed in as <b id="who">Alice Auditor</b>' in page
    only_high = client.get("/review/queue", params={"risk": "high"}).text
    assert DIVIDEND in only_high and LIMIT not in only_high
    resolved = client.get("/review/queue", params={"state": "resolved"}).text
    assert "acme|headcount" in resolved


def test_script_in_a_source_renders_as_text(client: TestClient, engine: Engine) -> None:
    login(client)
    item = item_for_key(engine, LIMIT)
    response = client.get(f"/review/items/{item.id}")
    assert response.status_code == 200
    html = response.text
    assert "<script>alert(" not in html
    assert "&lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt;" in html  # the quote
    assert "&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;" in html  # the source title
    assert "script-src 'self'" in response.headers["content-security-policy"]


def test_form_without_the_csrf_token_is_rejected_and_changes_nothing(
    client: TestClient, engine: Engine
) -> None:
    login(client)
    item = item_for_key(engine, LIMIT)
    before = _changes(engine)
    for token in ("", "forged-token"):
        response = client.post(
            f"/review/items/{item.id}/resolve",
            data={"csrf_token": token, "winner": "c-limit-a", "rationale": "forged"},
        )
        assert response.status_code == 403 and "CSRF" in response.text
    assert _changes(engine) == before
    assert item_for_key(engine, LIMIT).state.value == "open"


def test_login_form_itself_needs_the_csrf_token(client: TestClient) -> None:
    response = client.post("/review/login", data={"username": "alice", "password": "correct horse"})
    assert response.status_code == 403


def test_resolve_from_the_item_page_is_attributed_and_leaves_the_queue(
    client: TestClient, engine: Engine
) -> None:
    csrf = login(client, "bob", "battery staple")
    item = item_for_key(engine, LIMIT)
    claimed = client.post(
        f"/review/items/{item.id}/claim", data={"csrf_token": csrf, "revision": item.revision}
    )
    assert "You claimed the item." in claimed.text
    revision = item_for_key(engine, LIMIT).revision
    done = client.post(
        f"/review/items/{item.id}/resolve",
        data={
            "csrf_token": csrf,
            "revision": revision,
            "winner": ["c-limit-b"],
            "rationale": "B is the later approved note",
            "evidence": "c-limit-b, assistant-note-b",
        },
    )
    assert done.status_code == 200 and "Resolved. The item left the open queue." in done.text
    assert re.search(r'class="actor">bob</td>\s*<td class="action">item.resolved', done.text)
    assert LIMIT not in client.get("/review/queue").text


def test_bad_decisions_show_the_error_and_change_nothing(
    client: TestClient, engine: Engine
) -> None:
    csrf = login(client)
    item = item_for_key(engine, LIMIT)
    before = _changes(engine)
    outside = client.post(
        f"/review/items/{item.id}/resolve",
        data={"csrf_token": csrf, "winner": "c-div-report", "rationale": "wrong item"},
    )
    assert outside.status_code == 422 and "is not part of this review item" in outside.text
    empty = client.post(
        f"/review/items/{item.id}/resolve",
        data={"csrf_token": csrf, "winner": "c-limit-a", "rationale": "  "},
    )
    assert empty.status_code == 422 and "rationale: a reason is required" in empty.text
    stale = client.post(
        f"/review/items/{item.id}/claim", data={"csrf_token": csrf, "revision": "0"}
    )
    assert stale.status_code == 409 and "changed since you loaded it" in stale.text
    assert _changes(engine) == before


def test_trusted_header_is_honoured_only_from_a_listed_proxy(
    engine: Engine, tmp_path: Path
) -> None:
    config = yaml.safe_load((FIXTURES / "reviewers.yaml").read_text())
    config["trusted_header"] = "X-Forwarded-User"
    config["trusted_proxies"] = ["10.0.0.1"]
    path = tmp_path / "reviewers.yaml"
    path.write_text(yaml.safe_dump(config))
    app = create_app(_settings(engine, path))
    with TestClient(app, client=("10.0.0.1", 5000)) as proxied:
        page = proxied.get("/review/queue", headers={"X-Forwarded-User": "bob"})
        assert page.status_code == 200 and "Bob Builder" in page.text
    with TestClient(app, client=("192.0.2.7", 5000)) as direct:
        response = direct.get(
            "/review/queue", headers={"X-Forwarded-User": "bob"}, follow_redirects=False
        )
        assert response.status_code == 303  # to the login page


def test_login_never_redirects_to_another_site(client: TestClient) -> None:
    page = client.get("/review/login", params={"next": "https://evil.example/"})
    response = client.post(
        "/review/login",
        data={
            "username": "alice",
            "password": "correct horse",
            "csrf_token": _csrf(page.text),
            "next": "https://evil.example/",
        },
        follow_redirects=False,
    )
    assert response.headers["location"] == "/review/queue"


def test_metrics_page_shows_the_review_figures(client: TestClient) -> None:
    login(client)
    page = client.get("/review/metrics").text
    assert '<td id="m-candidates">5</td>' in page
    assert "acme|dividend*" in page and "Decided by rule / by reviewers" in page


def test_queue_marks_a_claim_whose_lock_expired(client: TestClient, engine: Engine) -> None:
    from datetime import UTC, datetime

    from review_ledger import reviewers

    from review import queue

    item = item_for_key(engine, LIMIT)
    with transaction(engine) as session:
        queue.claim(session, item.id, reviewers().get("bob"), now=datetime(2020, 1, 1, tzinfo=UTC))
    login(client)
    row = re.search(rf'data-item="{item.id}">(.*?)</tr>', client.get("/review/queue").text, re.S)
    assert row and "bob" in row.group(1) and "lock expired" in row.group(1)


def test_item_page_explains_why_it_is_here_and_links_the_policy(
    client: TestClient, engine: Engine
) -> None:
    login(client)
    page = client.get(f"/review/items/{item_for_key(engine, DIVIDEND).id}").text
    assert "matches high-risk pattern `acme|dividend*` of policy acme-authority" in page
    link = re.search(r'href="(/review/policies/[^"]+)" id="policy-link">acme-authority<', page)
    assert link and "declared version 1, hash <code>" in page
    assert "tier &#39;regulator&#39; (1st of 4 in the policy)" in page
    assert '<dd class="access">public</dd>' in page
    policy = client.get(link.group(1).replace("&#43;", "+")).text
    assert "regulator &gt; board &gt; management &gt; draft" in policy
    assert "higher-tier (higher_tier_wins): the side of the highest tier wins" in policy


def test_a_rule_decision_names_the_rule_the_policy_and_the_winning_source(
    client: TestClient, engine: Engine
) -> None:
    login(client)
    page = client.get(f"/review/items/{item_for_key(engine, HEADCOUNT).id}").text
    assert "decided by rule higher-tier of policy acme-authority 1+" in page
    assert "resolved by review" not in page and "claimed by" not in page
    winner = re.search(r'<p class="winner-line">(.*?)</p>', page, re.S)
    assert winner and "Annual report 2025" in winner.group(1)
    assert "The group employed 12,000 people at year end." in winner.group(1)


def test_the_resolve_form_stores_the_reviewers_confidence(
    client: TestClient, engine: Engine
) -> None:
    csrf = login(client)
    item = item_for_key(engine, LIMIT)
    form = {"csrf_token": csrf, "winner": "c-limit-a", "rationale": "A is approved"}
    bad = client.post(f"/review/items/{item.id}/resolve", data={**form, "confidence": "sure"})
    assert bad.status_code == 422 and "confidence: &#39;sure&#39; is not a number" in bad.text
    done = client.post(f"/review/items/{item.id}/resolve", data={**form, "confidence": "0.85"})
    assert done.status_code == 200
    assert "Resolution confidence: 0.85, set by alice" in done.text
    assert '<dd class="extraction-confidence">0.90</dd>' in done.text


def test_each_item_form_reads_its_own_fields_and_names_the_one_that_does_not_parse(
    client: TestClient, engine: Engine
) -> None:
    csrf = login(client)
    item = item_for_key(engine, LIMIT)
    before = _changes(engine)
    refused = {
        "dismiss": ({"reason": "looks odd"}, "reason: &#39;looks odd&#39; is not a dismiss"),
        "defer": ({"until": "next week"}, "until: &#39;next week&#39; is not a date"),
        "ambiguous": ({"rationale": "both fit", "confidence": "high"}, "&#39;high&#39; is not a"),
        "release": ({"revision": "0"}, "changed since you loaded it"),
    }
    for action, (fields, error) in refused.items():
        response = client.post(
            f"/review/items/{item.id}/{action}", data={"csrf_token": csrf, **fields}
        )
        assert response.status_code in (409, 422) and error in response.text, action
    assert _changes(engine) == before
    steps = [
        ("claim", {}, "You claimed the item."),
        ("release", {}, "You released the item."),
        ("defer", {"until": "2031-05-04", "rationale": "awaiting the audit"}, "Deferred."),
        ("reopen", {"reason": "the audit came early"}, "Reopened."),
        ("ambiguous", {"rationale": "both fit", "confidence": "0.4"}, "Marked ambiguous."),
        ("reopen", {"reason": "a second look"}, "Reopened."),
        ("dismiss", {"reason": "different_scope", "rationale": "two products"}, "Dismissed"),
    ]
    for action, fields, notice in steps:
        revision = str(item_for_key(engine, LIMIT).revision)
        response = client.post(
            f"/review/items/{item.id}/{action}",
            data={"csrf_token": csrf, "revision": revision, **fields},
        )
        assert response.status_code == 200 and notice in response.text, (action, response.text)
    assert "deferred until 2031-05-04" not in client.get(f"/review/items/{item.id}").text
    assert _changes(engine)[0] >= before[0] + len(steps)
