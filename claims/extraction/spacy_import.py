"""Import spaCy without loading its command-line interface.

spaCy 3.8's ``spacy/__init__.py`` runs ``from .cli.info import info`` to offer
``spacy.info()``. Importing ``spacy.cli.info`` first runs ``spacy/cli/__init__.py``, which
imports every ``spacy`` command: weasel, typer, requests, jinja2, and ``init_config``,
which parses the YAML of its training recommendations at import time. None of it is used to
tokenize or to run a pipeline, and it was about half of ``import spacy`` (a second of CPU
at load on the shared machine; docs/PIPELINE.md, "Session 9: `claims run` start-up").

``import_spacy()`` imports spaCy with a stand-in for ``spacy.cli.info`` in ``sys.modules``
for the length of that one import. The stand-in only offers ``info``, a function that
imports the real ``spacy.cli.info`` when it is called. Once ``import spacy`` returns, the
stand-in is gone from ``sys.modules``, so a later ``import spacy.cli`` (a user's code in the
same process, ``python -m spacy``) loads the real package with every command;
``spacy.info()`` keeps working through the stand-in's function.

It is applied only when ``spacy/__init__.py`` holds that import line verbatim (checked on
its source, before importing). A spaCy release that changes the line imports the ordinary
way, all of it; tests/test_spacy_import.py then fails so the change is seen.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path
from typing import Any

CLI_INFO_LINE = "from .cli.info import info  # noqa: F401"
_INFO_MODULE = "spacy.cli.info"


def cli_import_line_present() -> bool:
    """Whether the installed spaCy's ``__init__`` imports ``info`` the way this module
    expects (one line, ``info`` alone)."""
    spec = importlib.util.find_spec("spacy")
    if spec is None or spec.origin is None:
        return False
    try:
        source = Path(spec.origin).read_text(encoding="utf-8")
    except OSError:
        return False
    lines = [line.strip() for line in source.splitlines()]
    cli_lines = [line for line in lines if ".cli" in line and "import" in line]
    return cli_lines == [CLI_INFO_LINE]


def info(*args: Any, **kwargs: Any) -> Any:
    """spaCy's ``spacy.info`` (``spacy.cli.info.info``), imported when first called."""
    from spacy.cli.info import info as real

    return real(*args, **kwargs)


def import_spacy() -> types.ModuleType:
    """The ``spacy`` module, imported without ``spacy.cli`` when not imported already."""
    loaded = sys.modules.get("spacy")
    if loaded is not None:
        return loaded
    if _INFO_MODULE in sys.modules or not cli_import_line_present():
        import spacy

        return spacy
    stand_in = types.ModuleType(_INFO_MODULE, "Stand-in while spaCy imports (claims).")
    stand_in.info = info  # type: ignore[attr-defined]
    sys.modules[_INFO_MODULE] = stand_in
    try:
        import spacy
    finally:
        if sys.modules.get(_INFO_MODULE) is stand_in:
            del sys.modules[_INFO_MODULE]
    return spacy
