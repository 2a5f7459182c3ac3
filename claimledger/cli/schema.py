"""``claims schema``: print the JSON Schema of the domain models."""

from __future__ import annotations

import json

from claimledger.cli.app import app
from claims.models import json_schema


@app.command("schema")
def schema() -> None:
    """Print the JSON Schema of every domain model (Source, Claim, Edge, ReviewItem, ...)."""
    print(json.dumps(json_schema(), indent=2, sort_keys=True))
