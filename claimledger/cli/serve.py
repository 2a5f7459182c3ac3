"""``claims serve``: the HTTP app (reviewer UI, retrieval API) under uvicorn."""

from __future__ import annotations

import typer

from claimledger.cli.app import app, err_console, settings


@app.command("serve")
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on (loopback by default)."),
    port: int = typer.Option(8000, help="Port to listen on."),
) -> None:
    """Serve the reviewer UI at /review/ and the other HTTP routers."""
    import uvicorn

    from claimledger.cli.app import engine
    from claimledger.web import create_app
    from review.web import reviewers_setup_note

    engine().dispose()  # migrate the store before the first request
    note = reviewers_setup_note(settings())
    if note:
        err_console.print(f"warning: {note}")
    uvicorn.run(
        create_app(settings()),
        host=host,
        port=port,
        log_level="info",
        # uvicorn would otherwise trust X-Forwarded-For from 127.0.0.1 and rewrite the client
        # address, letting anyone on this machine pose as a trusted proxy. The app reads
        # forwarded headers itself, only from the reviewers file's trusted_proxies.
        proxy_headers=False,
        forwarded_allow_ips="",
    )
