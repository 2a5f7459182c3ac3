"""Conversion factors are kept across processes, so a start whose units were all seen before
does not build the pint registry (0.7 s of CPU at every `claims run`; issue 14.1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

_CONVERT = """
import json, sys
from claims.units import normalize
out = {}
for value, unit in [(250, "ms"), (90, "km/h"), (68, "°F"), (3, "cents per share")]:
    q = normalize(value, unit)
    out[unit] = [q.canonical_value, q.canonical_unit]
print(json.dumps({"values": out, "pint": "pint" in sys.modules}))
"""


def _convert(cache: Path) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", _CONVERT], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_second_process_takes_its_factors_from_the_cache_not_from_pint(tmp_path: Path) -> None:
    first = _convert(tmp_path)
    assert first["pint"] is True  # nothing cached yet: pint computed the factors
    assert first["values"]["ms"] == [0.25, "s"]
    assert first["values"]["km/h"] == [25.0, "m/s"]
    assert round(first["values"]["°F"][0], 6) == 20.0
    files = list((tmp_path / "claimledger").glob("unit-factors-*.json"))
    assert len(files) == 1

    second = _convert(tmp_path)
    assert second["pint"] is False
    assert second["values"] == first["values"]


def test_a_damaged_cache_file_is_ignored(tmp_path: Path) -> None:
    first = _convert(tmp_path)
    [cache] = (tmp_path / "claimledger").glob("unit-factors-*.json")
    cache.write_text('{"millisecond -> second": "not a pair"', encoding="utf-8")
    again = _convert(tmp_path)
    assert again["values"] == first["values"]
    assert again["pint"] is True
    # and the file is whole again for the next start
    assert len(json.loads(cache.read_text(encoding="utf-8"))) >= 4
