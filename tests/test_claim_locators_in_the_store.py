"""A claim's locator travels from the structure reader through `claims run` into the store
and out again in `claims conflicts --json`, with every other field; a date without a year
takes the register's effective date when the document has none."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from sqlalchemy import select
from typer.testing import CliRunner

from claimledger.cli import app
from claims.settings import get_settings
from claims.store import make_engine, transaction
from claims.store.claims import row_to_claim
from claims.tables import ClaimRow

CATALOGUE_2025 = "# Pump catalogue 2025\n\n## P-200\n\nWeight: 21 kg\nPrice: $1,499\n"
CATALOGUE_2026 = "# Pump catalogue 2026\n\n## P-200\n\nWeight: 23 kg\nPrice: $1,499\n"
NOTICE = "Office notice\n\nThe office reopens on 5 January.\n"
REGISTER = """\
tiers: [official]
sources:
  sales/catalogue-a: {title: Pump catalogue A, tier: official}
  sales/catalogue-b: {title: Pump catalogue B, tier: official}
  ops/notice: {title: Office notice, tier: official, effective_from: 2027-01-01}
"""


def test_claims_run_stores_locators_and_conflicts_json_shows_them(
    cli_env: Path, tmp_path: Path
) -> None:
    corpus = tmp_path / "corpus"
    (corpus / "sales").mkdir(parents=True)
    (corpus / "ops").mkdir()
    (corpus / "sales" / "catalogue-a.md").write_text(CATALOGUE_2025)
    (corpus / "sales" / "catalogue-b.md").write_text(CATALOGUE_2026)
    (corpus / "ops" / "notice.txt").write_text(NOTICE)
    register = tmp_path / "register.yaml"
    register.write_text(REGISTER)
    runner = CliRunner()
    run = runner.invoke(app, ["run", str(corpus), "--register", str(register)])
    assert run.exit_code == 0, run.output

    engine = make_engine(get_settings().resolved_database_url)
    try:
        with transaction(engine) as session:
            claims = [row_to_claim(row) for row in session.scalars(select(ClaimRow))]
    finally:
        engine.dispose()
    weights = [c for c in claims if c.claim_key == "p-200 weight"]
    assert len(weights) == 2
    for claim in weights:
        assert claim.locator is not None
        assert claim.locator.heading_path[1:] == ("P-200",)
        assert claim.locator.paragraph == 1
    (reopens,) = [c for c in claims if c.source_id == "ops/notice"]
    assert reopens.time.start == date(2027, 1, 5) and reopens.time.year_inferred
    assert reopens.locator is not None and reopens.locator.heading_path == ("Office notice",)

    listed = runner.invoke(app, ["conflicts", "--json"])
    assert listed.exit_code == 0, listed.output
    entries = [e for e in json.loads(listed.output) if e["claim_key"] == "p-200 weight"]
    assert entries, listed.output
    sides = [entries[0]["left"], entries[0]["right"]]
    assert {s["locator"]["heading_path"][-1] for s in sides} == {"P-200"}

    queue = runner.invoke(app, ["review", "list", "--json"])
    assert queue.exit_code == 0, queue.output
    items = [i for i in json.loads(queue.output) if i["claim_key"] == "p-200 weight"]
    assert items, queue.output
    shown = runner.invoke(app, ["review", "show", items[0]["id"], "--json"])
    assert shown.exit_code == 0, shown.output
    wheres = {side["where"] for side in json.loads(shown.output)["sides"]}
    assert wheres == {
        "Pump catalogue 2025 > P-200 > paragraph 1",
        "Pump catalogue 2026 > P-200 > paragraph 1",
    }
    text = runner.invoke(app, ["review", "show", items[0]["id"]])
    assert "where: Pump catalogue 2025 > P-200 > paragraph 1" in text.output
