"""``claims conflicts``: conflict and ambiguous edges in the store, with both sides."""

from __future__ import annotations

import json
from typing import Any

import typer

from claimledger.cli.app import app, console, engine, print_table
from claims.edges.facts import shown_value
from claims.models import Claim, Edge, EdgeKind
from claims.store import ClaimRepository, GenerationRepository, transaction
from claims.store.edges import EdgeRepository


def _side(claim: Claim | None, claim_id: str) -> dict[str, Any]:
    if claim is None:
        return {"claim_id": claim_id}
    return {
        "claim_id": claim.id,
        "source_id": claim.source_id,
        "source_version_id": claim.source_version_id,
        "value": shown_value(claim),
        "scope": dict(claim.scope),
        "time": claim.time.text,
        "quote": claim.quote,
        "locator": claim.locator.to_dict() if claim.locator is not None else None,
    }


def _entry(edge: Edge, claims: ClaimRepository) -> dict[str, Any]:
    return {
        "id": edge.id,
        "kind": edge.kind.value,
        "claim_key": edge.claim_key,
        "rule": edge.rule,
        "reason": edge.reason,
        "material": edge.material,
        "materiality": edge.materiality,
        "generation": edge.generation,
        "left": _side(claims.by_id(edge.left_claim_id), edge.left_claim_id),
        "right": _side(claims.by_id(edge.right_claim_id), edge.right_claim_id),
    }


@app.command("conflicts")
def conflicts(
    as_json: bool = typer.Option(False, "--json", help="Print a JSON list."),
    material_only: bool = typer.Option(False, "--material", help="Only material conflicts."),
    generation: str | None = typer.Option(
        None, "--generation", help="Extractor generation (default: the active one, else all)."
    ),
) -> None:
    """List conflict and ambiguous edges with both sides' sources, values and quotes."""
    with transaction(engine()) as session:
        if generation is None:
            active = GenerationRepository(session).active()
            generation = active.id if active else None
        kinds = [EdgeKind.CONFLICTS] if material_only else [EdgeKind.CONFLICTS, EdgeKind.AMBIGUOUS]
        edges = EdgeRepository(session).active(generation, kinds=kinds)
        if material_only:
            edges = [e for e in edges if e.material]
        claims = ClaimRepository(session)
        entries = [_entry(e, claims) for e in edges]
    if as_json:
        print(json.dumps(entries, ensure_ascii=False, indent=2))
        return
    if not entries:
        console.print("no conflict or ambiguous edges in the store")
        return
    rows = []
    for e in entries:
        left, right = e["left"], e["right"]
        rows.append(
            [
                e["kind"],
                "" if e["material"] is None else ("yes" if e["material"] else "no"),
                e["claim_key"],
                f"{left.get('source_id')}: {left.get('value')}\n{left.get('quote', '')}",
                f"{right.get('source_id')}: {right.get('value')}\n{right.get('quote', '')}",
                e["reason"],
            ]
        )
    print_table(["kind", "material", "claim key", "left", "right", "reason"], rows)
    console.print(f"{len(entries)} edge(s)")
