"""spaCy is imported without its command-line interface (claims/extraction/spacy_import.py),
and spaCy stays whole for anyone in the same process. Each check runs a fresh interpreter:
what is imported is a property of the process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from claims.extraction.spacy_import import CLI_INFO_LINE, cli_import_line_present

REPO = Path(__file__).resolve().parents[1]

# Imported by spacy/cli/__init__.py and by nothing the extraction uses.
CLI_ONLY = ("spacy.cli", "spacy.cli.init_config", "jinja2", "weasel")


def _python(code: str) -> dict:
    """Run ``code`` in a fresh interpreter; it prints one JSON object as its last line."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMS_")}
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_installed_spacy_imports_its_cli_the_way_we_expect() -> None:
    # Fails after a spaCy upgrade that changes how spacy/__init__.py imports `info`: the
    # stand-in is then not used (every command is imported again, about half of `import
    # spacy`). Read the new __init__ and adapt claims/extraction/spacy_import.py.
    assert cli_import_line_present(), (
        f"spacy/__init__.py no longer holds exactly one CLI import, {CLI_INFO_LINE!r}"
    )


def test_extraction_runs_without_spacy_cli_and_spacy_cli_works_after_it() -> None:
    found = _python(
        f"CLI_ONLY = {CLI_ONLY!r}\n"
        """
import json, sys
from claims.extraction import extract
claims = extract("The annual fee for the visitor pass is 40 EUR.")
before = sorted(m for m in sys.modules if m in CLI_ONLY)
import spacy
import spacy.cli
from spacy.cli.info import info as real_info
from spacy.cli.init_config import init_config
described = spacy.info()
print(json.dumps({
    "claims": [c.claim_key for c in claims],
    "before": before,
    "commands": sorted(
        n for n in ("init_config", "download", "train", "info") if hasattr(spacy.cli, n)
    ),
    "real_info_file": sys.modules["spacy.cli.info"].__file__,
    "version": described["spacy_version"],
    "setup_cli": callable(spacy.cli.setup_cli),
    "init_config": init_config.__module__,
}))
"""
    )
    assert [key for key in found["claims"] if key.endswith("fee")]  # the extraction worked
    assert found["before"] == []  # none of the CLI was imported by the extraction
    assert found["commands"] == ["download", "info", "init_config", "train"]
    assert found["real_info_file"].endswith(os.path.join("spacy", "cli", "info.py"))
    assert found["version"].startswith("3.")
    assert found["setup_cli"] is True
    assert found["init_config"] == "spacy.cli.init_config"


def test_a_program_that_imported_spacy_cli_first_keeps_it() -> None:
    found = _python(
        """
import json, sys
import spacy.cli
real = sys.modules["spacy.cli.info"]
from claims.extraction import extract
claims = extract("Support answers within 4 hours.")
print(json.dumps({
    "same_cli": sys.modules["spacy.cli.info"] is real,
    "claims": len(claims),
    "info": spacy.info()["spacy_version"],
}))
"""
    )
    assert found["same_cli"] is True
    assert found["claims"] == 1
    assert found["info"].startswith("3.")
