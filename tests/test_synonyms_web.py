"""Taught synonyms in the reviewer UI: the page lists who taught what, when and why; its
form teaches and its button withdraws, each applied at once and shown as an impact (FastAPI's
TestClient on a real SQLite store, and a real headless Chromium)."""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from fastapi.testclient import TestClient
from retrieval_cases import load_case
from sqlalchemy import Engine, select

from claimledger.web import create_app
from claims.settings import Settings
from claims.store import transaction
from claims.tables import AuditEventRow, ClaimRow

REVIEWERS = Path(__file__).parent / "fixtures" / "review" / "reviewers.yaml"
CHROMIUM = "/usr/bin/chromium"
SHOP_SHEET = "# Z-70 blower\n\nThe Z-70 blower weighs 11 kg.\n"
SUPPLIER_SHEET = "# Supplier data\n\nThe Z-70 blower has a heft of 14 kg.\n"


@pytest.fixture
def sheets(engine: Engine) -> Engine:
    load_case(
        engine,
        {
            "documents": [
                {"id": "shop", "text": SHOP_SHEET},
                {"id": "supplier", "text": SUPPLIER_SHEET},
            ],
            "supersedes": {},
        },
    )
    return engine


def _settings(engine: Engine) -> Settings:
    return Settings(database_url=str(engine.url), reviewers_file=REVIEWERS)


def _csrf(html: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match, html
    return match.group(1)


def _supplier_key(engine: Engine) -> str:
    with transaction(engine) as session:
        return str(
            session.scalar(select(ClaimRow.claim_key).where(ClaimRow.source_id == "supplier"))
        )


def _actions(engine: Engine) -> list[tuple[str, str]]:
    with transaction(engine) as session:
        rows = session.scalars(
            select(AuditEventRow).where(AuditEventRow.action.like("synonym.%"))
        ).all()
        return [(r.action, r.actor) for r in rows]


def test_the_page_teaches_lists_and_withdraws_with_the_impact(sheets: Engine) -> None:
    client = TestClient(create_app(_settings(sheets)))
    assert client.get("/review/synonyms", follow_redirects=False).status_code == 303
    page = client.get("/review/login")
    client.post(
        "/review/login",
        data={"username": "alice", "password": "correct horse", "csrf_token": _csrf(page.text)},
    )
    page = client.get("/review/synonyms")
    assert page.status_code == 200 and "Nothing taught yet." in page.text
    form = {"left": "heft", "right": "weight", "relation": "same", "reason": "supplier word"}
    forged = client.post("/review/synonyms", data={**form, "csrf_token": "forged"})
    assert forged.status_code == 403 and _actions(sheets) == []
    empty = client.post(
        "/review/synonyms", data={**form, "reason": "", "csrf_token": _csrf(page.text)}
    )
    assert empty.status_code == 422 and "reason: say why" in empty.text
    preview = client.post("/review/synonyms/preview", data={**form, "csrf_token": _csrf(page.text)})
    assert preview.status_code == 200 and "(nothing written yet)" in preview.text
    assert 'class="change opened"' in preview.text and 'value="supplier word"' in preview.text
    assert _actions(sheets) == [] and _supplier_key(sheets) == "z-70 blower heft"
    done = client.post("/review/synonyms", data={**form, "csrf_token": _csrf(page.text)})
    assert done.status_code == 200 and "Taught." in done.text
    assert (
        "key merged: <code>z-70 blower heft</code> → <code>z-70 blower weight</code>" in done.text
    )
    assert 'class="change opened"' in done.text and "supplier word" in done.text
    assert _supplier_key(sheets) == "z-70 blower weight"
    withdrawn = client.post(
        "/review/synonyms/1/withdraw",
        data={"reason": "gross weight", "csrf_token": _csrf(done.text)},
    )
    assert "Withdrawn." in withdrawn.text and "withdrawn by alice" in withdrawn.text
    assert 'class="change closed"' in withdrawn.text
    assert _supplier_key(sheets) == "z-70 blower heft"
    assert _actions(sheets) == [("synonym.teach", "alice"), ("synonym.withdraw", "alice")]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def server(sheets: Engine) -> Iterator[str]:
    port = _free_port()
    config = uvicorn.Config(
        create_app(_settings(sheets)), host="127.0.0.1", port=port, log_level="warning"
    )
    uvicorn_server = uvicorn.Server(config)
    thread = threading.Thread(target=uvicorn_server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not uvicorn_server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    uvicorn_server.should_exit = True
    thread.join(timeout=10)


@pytest.mark.browser
@pytest.mark.slow
def test_a_reviewer_teaches_and_withdraws_a_synonym_in_a_real_browser(
    server: str, sheets: Engine
) -> None:
    if not shutil.which(CHROMIUM):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true but /usr/bin/chromium is missing")
        pytest.skip("Debian's chromium is not installed")
    from playwright.sync_api import expect, sync_playwright

    from tests.test_review_browser import CHROMIUM_ARGS

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(f"{server}/review/queue")
            page.fill("#username", "bob")
            page.fill("#password", "battery staple")
            page.click("button[type=submit]")
            expect(page).to_have_url(f"{server}/review/queue")

            page.click("#synonyms-link")
            expect(page).to_have_url(f"{server}/review/synonyms")
            page.fill("#teach-left", "heft")
            page.select_option("#teach-relation", "same")
            page.fill("#teach-right", "weight")
            page.fill("#teach-reason", "the supplier's word for weight")
            page.click("#preview-button")
            preview = page.locator("#synonym-preview")
            expect(preview).to_contain_text("nothing written yet")
            expect(preview.locator("li.key.merged")).to_contain_text("z-70 blower weight")
            expect(preview.locator("li.change.opened")).to_contain_text("z-70 blower weight")
            expect(page.locator("#teach-left")).to_have_value("heft")  # the form is kept
            page.click("#teach-button")

            expect(page.locator(".notice")).to_contain_text("Taught.")
            row = page.locator("tr.synonym[data-synonym='1']")
            expect(row.locator(".said")).to_contain_text("'heft' is the same as 'weight'")
            expect(row.locator(".taught-by")).to_have_text("bob")
            expect(row.locator(".reason")).to_have_text("the supplier's word for weight")
            impact = page.locator("#synonym-impact .impact").first
            expect(impact.locator("li.key.merged")).to_contain_text("z-70 blower weight")
            opened = impact.locator("tr.change.opened")
            expect(opened).to_contain_text("z-70 blower weight")

            # the opened item is one click away, with both sheets' figures
            opened.get_by_role("link").click()
            expect(page.locator("mark.quote")).to_have_count(2)
            # the side re-keyed by the teaching says so, with the key it was extracted with
            expect(page.locator(".taught-note")).to_have_count(1)
            expect(page.locator(".taught-note")).to_contain_text("'z-70 blower heft'")
            page.go_back()

            row.locator(".withdraw-reason").fill("heft means gross weight here")
            row.locator(".withdraw-button").click()
            expect(page.locator(".notice")).to_contain_text("Withdrawn.")
            expect(row.locator(".status")).to_contain_text("withdrawn by bob")
            latest = page.locator("#synonym-impact .impact").first
            expect(latest.locator("tr.change.closed")).to_contain_text("z-70 blower weight")
        finally:
            browser.close()
    assert _supplier_key(sheets) == "z-70 blower heft"
    assert _actions(sheets) == [("synonym.teach", "bob"), ("synonym.withdraw", "bob")]
