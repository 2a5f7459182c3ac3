"""``claims extract``: print the claims a text states (human table or JSON / JSON Lines)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from claimledger.cli.app import app, console
from claims.errors import InputError
from claims.models import Claim

CONVERTED = (".docx", ".pdf", ".html", ".htm")  # read through claims.documents.converters

# The wire shape of one claim (issue 3, point 9); nothing more, nothing less.
CLAIM_FIELDS = (
    "subject",
    "predicate",
    "claim_key",
    "entity",
    "attribute",
    "kind",
    "value",
    "low",
    "high",
    "bound",
    "unit",
    "canonical_value",
    "canonical_unit",
    "scope",
    "time",
    "polarity",
    "reported_speech",
    "span",
    "value_span",
    "quote",
    "confidence",
    "locator",
)


def claim_json(claim: Claim) -> dict[str, Any]:
    """The JSON object for one claim: exactly ``CLAIM_FIELDS``."""
    data = claim.model_dump(mode="json", include=set(CLAIM_FIELDS))
    return {name: data[name] for name in CLAIM_FIELDS}


def _read_text(path: str) -> tuple[str, str]:
    """(text, display name) of FILE or '-' (stdin), as UTF-8; a .docx, .pdf or .html FILE
    as its converted text (what ingest stores and claims' offsets point into)."""
    if path == "-":
        raw = sys.stdin.buffer.read()
        name = "<stdin>"
    else:
        file = Path(path)
        if not file.is_file():
            raise InputError("no such file; give a path to a UTF-8 text file or '-'", location=path)
        raw = file.read_bytes()
        name = path
        if file.suffix.lower() in CONVERTED:
            from claims.documents.converters import convert

            return convert(raw, file).text, name
    try:
        return raw.decode("utf-8"), name
    except UnicodeDecodeError as error:
        raise InputError(
            f"not UTF-8 text (byte {error.start}); convert the file to UTF-8 first",
            location=name,
        ) from None


def _read_jsonl(path: str) -> list[tuple[Any, str]]:
    """Every (id, text) pair of a JSON Lines file, validated before anything is extracted."""
    text, name = _read_text(path)
    items: list[tuple[Any, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{name}:{number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise InputError(f"not valid JSON ({error.msg})", location=where) from None
        if not isinstance(record, dict):
            raise InputError('expected an object like {"id": ..., "text": ...}', location=where)
        if "id" not in record:
            raise InputError('field "id" is missing', location=where)
        if not isinstance(record.get("text"), str):
            raise InputError('field "text" is missing or not a string', location=where)
        items.append((record["id"], record["text"]))
    return items


@app.command("extract")
def extract_command(
    file: str | None = typer.Argument(None, help="Text file to read, or '-' for stdin."),
    as_json: bool = typer.Option(False, "--json", help="Print the claims as a JSON array."),
    jsonl: str | None = typer.Option(
        None,
        "--jsonl",
        help='Read JSON Lines {"id", "text"}; write one {"id", "claims": [...]} line per input.',
    ),
) -> None:
    """Extract claims (subject, predicate, key, value, unit, scope, time, polarity, span)."""
    from claimledger.cli.startup import loading

    with loading():  # spaCy and its numpy/thinc stack, imported once per process
        from claims.extraction import extract

    if jsonl is not None:
        if file is not None:
            raise InputError("give either FILE or --jsonl IN.jsonl, not both")
        items = _read_jsonl(jsonl)
        out = sys.stdout
        for ident, text in items:
            claims = [claim_json(c) for c in extract(text)]
            out.write(json.dumps({"id": ident, "claims": claims}, ensure_ascii=False) + "\n")
        out.flush()
        return
    if file is None:
        raise InputError("give a FILE (or '-' for stdin), or --jsonl IN.jsonl")
    text, _ = _read_text(file)
    # a .txt file's (and PDF text's) short lines between blank lines are its headings;
    # Markdown, and Word and HTML as converted, mark theirs with "#"
    plain = file != "-" and Path(file).suffix.lower() in (".txt", ".pdf")
    claims = extract(text, media_type="text/plain" if plain else "text/markdown")
    if as_json:
        print(json.dumps([claim_json(c) for c in claims], ensure_ascii=False, indent=2))
        return
    if not claims:
        console.print("no claims found", markup=False)
        return
    for claim in claims:
        console.print(_line(claim), markup=False)


def _line(claim: Claim) -> str:
    value: str
    if claim.low is not None and claim.high is not None:
        value = f"{claim.low:g}-{claim.high:g}"
    elif isinstance(claim.value, float):
        value = f"{claim.value:g}"
    else:
        value = str(claim.value)
    parts = [f"[{claim.kind.value}] {claim.claim_key} = {value}"]
    if claim.unit:
        parts.append(claim.unit)
    if claim.canonical_value is not None:
        parts.append(f"(= {claim.canonical_value:g} {claim.canonical_unit})")
    if claim.bound.value != "exact":
        parts.append(f"bound={claim.bound.value}")
    if claim.scope:
        parts.append("scope=" + ",".join(f"{k}:{v}" for k, v in sorted(claim.scope.items())))
    if claim.time.is_known or claim.time.text:
        parts.append(f"time={claim.time.start or '?'}..{claim.time.end or '?'}")
    if claim.polarity is not None and claim.polarity.value == "negative":
        parts.append("NEGATED")
    if claim.reported_speech:
        parts.append("reported")
    parts.append(f"conf={claim.confidence:.2f}")
    parts.append(f'@{claim.span.start}-{claim.span.end} "{claim.quote}"')
    return " ".join(parts)
