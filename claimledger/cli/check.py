"""``claims check``: the edge rules on two texts, or on a JSONL file of text pairs."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from claimledger.cli.app import app, console, print_table
from claims.errors import InputError


def _pair_lines(path: Path) -> list[tuple[str, Any, str, str]]:
    """(location, id, left, right) for each non-blank line; a bad line names file:line."""
    if not path.is_file():
        raise InputError(f"{path}: no such file; pass a JSONL file of {{id, left, right}} lines")
    out: list[tuple[str, Any, str, str]] = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            try:
                item = json.loads(line)
            except json.JSONDecodeError as error:
                raise InputError(
                    f"not valid JSON ({error.msg}); each line must be one object", location=where
                ) from None
            if not isinstance(item, dict):
                raise InputError("expected a JSON object with id, left and right", location=where)
            for name in ("id", "left", "right"):
                if name not in item:
                    raise InputError(f"missing field {name!r}", location=where)
            for name in ("left", "right"):
                if not isinstance(item[name], str):
                    raise InputError(f"field {name!r} must be a string", location=where)
            out.append((where, item["id"], item["left"], item["right"]))
    return out


@app.command("check")
def check(
    left: str | None = typer.Argument(None, help="First text (one source)."),
    right: str | None = typer.Argument(None, help="Second text (another source)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    jsonl: Path | None = typer.Option(
        None, "--jsonl", help="Read {id, left, right} lines; write one JSON line per input."
    ),
    profile: str = typer.Option(
        "office",
        "--profile",
        help="Readers to add to the core for both texts: office (the default) or reference "
        "(encyclopedia pages).",
    ),
    subject: str | None = typer.Option(
        None,
        "--subject",
        help="What both texts are about, as a register title given to both files (the "
        "title of the page two sentences come from).",
    ),
) -> None:
    """Extract claims from two texts and print how every claim pair relates.

    Runs exactly the pipeline's extraction and edge rules. The top-level relation is the
    strongest pair: conflict > ambiguous > corroboration > compatible > unrelated.
    """
    from claims.check import check_texts
    from claims.profiles import UnknownProfile, profile_named

    try:
        profile_named(profile)
    except UnknownProfile as error:
        raise InputError(str(error), location="--profile") from None
    if jsonl is not None:
        if left is not None or right is not None:
            raise InputError("give either two texts or --jsonl FILE, not both")
        lines = _pair_lines(jsonl)  # validate the whole file before writing anything
        for _, item_id, left_text, right_text in lines:
            result = check_texts(left_text, right_text, profile, subject)
            sys.stdout.write(json.dumps({"id": item_id, **result.summary()}, ensure_ascii=False))
            sys.stdout.write("\n")
        return
    if left is None or right is None:
        raise InputError('give two texts: claims check "TEXT A" "TEXT B" (or --jsonl FILE)')
    result = check_texts(left, right, profile, subject)
    if as_json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
        return
    console.print(f"relation: {result.relation.value}  rule: {result.rule}")
    console.print(f"reason:   {result.reason}")
    if result.duplicate:
        console.print("duplicate: the texts share a surface-cloned sentence (one origin)")
    console.print(f"claims:   {result.left_claims} left, {result.right_claims} right")
    if not result.pairs:
        return
    rows = [
        [
            pair.relation.value,
            pair.rule,
            f"{pair.left.claim_key}: {pair.to_dict()['left']['value']}",
            f"{pair.right.claim_key}: {pair.to_dict()['right']['value']}",
            pair.reason,
        ]
        for pair in result.pairs
    ]
    print_table(["relation", "rule", "left", "right", "reason"], rows)
