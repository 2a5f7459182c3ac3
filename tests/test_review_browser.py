"""End to end in a real headless Chromium: log in, open the queue, open an item, read why it
is here, see both quotes, claim it with the keyboard, resolve it, see the winner and the lock
gone, follow the policy link, see a policy change's diff, see the item leave the queue and
enter history."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
import yaml
from review_ledger import FIXTURES, HEADCOUNT, LIMIT, item_for_key, routed_ledger
from sqlalchemy import Engine

from claimledger.web import create_app
from claims.settings import Settings
from claims.store import transaction
from review.policy import parse_policy
from review.policy_impact import apply_with_impact

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def server(engine: Engine) -> Iterator[str]:
    routed_ledger(engine)
    settings = Settings(database_url=str(engine.url), reviewers_file=FIXTURES / "reviewers.yaml")
    port = _free_port()
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning")
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


def test_reviewer_resolves_a_conflict_in_a_real_browser(server: str, engine: Engine) -> None:
    if not shutil.which(CHROMIUM):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true but /usr/bin/chromium is missing")
        pytest.skip("Debian's chromium is not installed")
    from playwright.sync_api import expect, sync_playwright

    item = item_for_key(engine, LIMIT)
    dialogs: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))

            page.goto(f"{server}/review/queue")
            expect(page).to_have_url(f"{server}/review/login?next=/review/queue")
            page.fill("#username", "alice")
            page.fill("#password", "correct horse")
            page.click("button[type=submit]")

            expect(page).to_have_url(f"{server}/review/queue")
            queue_row = page.locator(f"tr[data-item='{item.id}']")
            expect(queue_row).to_be_visible()
            queue_row.get_by_role("link", name=LIMIT).click()

            why = page.locator("#routing-reasons")
            expect(why).to_contain_text("the conflict is material")
            expect(why).to_contain_text("tiers tie: management vs management, no rule decides")
            expect(page.locator("#policy-ref")).to_contain_text("declared version 1, hash")
            expect(page.locator(".access").nth(0)).to_have_text("public")

            quotes = page.locator("mark.quote")
            expect(quotes).to_have_count(2)
            expect(quotes.nth(0)).to_have_text(
                "The interactive assistant has a 250-token output limit."
            )
            expect(quotes.nth(1)).to_have_text(
                "The interactive assistant has a 500-token output limit "
                "<script>alert('pwned')</script>."
            )
            expect(page.locator(".source-title").nth(0)).to_contain_text("Assistant limits note A")

            page.keyboard.press("c")  # keyboard shortcut: claim
            expect(page.locator(".notice")).to_have_text("You claimed the item.")
            expect(page.locator("#item-state")).to_have_text("claimed")

            page.keyboard.press("1")  # toggle the first side as winner
            expect(page.locator("#winner-1")).to_be_checked()
            page.keyboard.press("r")
            page.keyboard.type("Note A is the approved interactive limit.")
            page.click("#resolve-button")

            expect(page.locator(".notice")).to_have_text("Resolved. The item left the open queue.")
            expect(page.locator("#item-state")).to_have_text("resolved")
            history = page.locator("#history tr.event")
            expect(history.last).to_contain_text("alice")
            expect(page.locator("#history")).to_contain_text("item.resolved")
            expect(page.locator("#resolution")).to_contain_text(
                "Note A is the approved interactive limit."
            )

            expect(page.locator("#decision-summary")).to_contain_text(
                "resolved by reviewer alice under policy acme-authority"
            )
            expect(page.locator(".winner-line")).to_contain_text("Assistant limits note A")
            expect(page.locator("#lock-holder")).to_have_count(0)

            # A policy change, applied by the operator, shows its impact on the policy page.
            swap = yaml.safe_load((FIXTURES / "policy.yaml").read_text(encoding="utf-8"))
            swap["tiers"] = ["regulator", "draft", "management", "board"]
            with transaction(engine) as session:
                apply_with_impact(session, parse_policy(swap, location="swap"), actor="admin")
            page.click("#policy-link")
            expect(page.locator("#policy-rules")).to_contain_text("regulator > board")
            page.goto(f"{server}/review/policies")
            expect(page.locator("#policy-rules")).to_contain_text("regulator > draft")
            change = page.locator("tr.change.winner_changed")
            expect(change).to_contain_text(HEADCOUNT)
            expect(change).to_contain_text("winner annual-report-2025 (c-staff-report)")
            expect(change).to_contain_text("winner careers-blog (c-staff-blog)")

            page.goto(f"{server}/review/queue")
            expect(page.locator(f"tr[data-item='{item.id}']")).to_have_count(0)
            page.goto(f"{server}/review/queue?state=resolved")
            expect(page.locator(f"tr[data-item='{item.id}']")).to_be_visible()
        finally:
            browser.close()
    assert dialogs == []  # the <script> in the source never ran
    assert item_for_key(engine, LIMIT).state.value == "resolved"
