"""Imported by the extraction pool's fork server (``claims.extract_pool``) only.

Building the pipeline here, once, and extracting one short text (which loads what the
first extraction loads lazily: the unit registry, the scanner's tables) means every worker
forked from the server starts ready (and shares that memory copy-on-write) instead of
paying for it again per worker and per run. A failure is left to the workers, which report
it per version as ``extract`` does: an exception other than ImportError here would stop the
fork server itself. It lives outside ``claims/extraction`` because every file there is part
of the extractor generation's hash.
"""

from __future__ import annotations

try:
    from claims.extraction import extract
    from claims.extraction.generation import current_generation

    current_generation()
    extract(
        "# Acme\n\nThe notice period is 30 days. The upload limit was raised to 250 MB on "
        "1 March 2024, and p99 latency stays under 900 ms for 99.5% of requests.\n"
    )
except Exception:  # noqa: BLE001, S110 - the worker names the error per version
    pass
