"""Known-conflict probes: questions whose answer must not change silently.

A probe file (YAML) lists questions with the requester's groups, the sources the probe
needs, and the expected answer (seed 004's checker: status, typed value, required
citations). Probes whose sources are not all in the store are skipped, so one file serves
every deployment; the pipeline's blocking check fails the run when an applicable probe
gets another answer (e.g. an extraction change that silently answers a known conflict).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from sqlalchemy import Engine, bindparam, select

from claims.errors import InputError
from claims.models import Requester
from claims.tables import SourceRow
from retrieval.answer import answer

BUNDLED_PROBES = Path(__file__).with_name("known_conflicts.yaml")


@dataclass(frozen=True)
class Probe:
    id: str
    question: str
    groups: tuple[str, ...]
    requires_sources: tuple[str, ...]
    expected: dict[str, Any]


@dataclass
class ProbeResult:
    probe: Probe
    ran: bool
    failures: list[str] = field(default_factory=list)
    response: dict[str, Any] | None = None

    @property
    def passed(self) -> bool:
        return not self.failures


def load_probes(path: Path = BUNDLED_PROBES) -> list[Probe]:
    """Read a probe file; InputError naming the file and the probe on a bad entry."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as error:
        raise InputError(f"cannot read the probe file: {error}", location=str(path)) from None
    probes = []
    for index, entry in enumerate(data.get("probes") or []):
        where = f"{path}: probes[{index}]"
        try:
            expected = dict(entry["expected"])
            if expected.get("status") not in ("answered", "conflict", "not_found"):
                raise KeyError("expected.status")
            probes.append(
                Probe(
                    id=str(entry["id"]),
                    question=str(entry["question"]),
                    groups=tuple(entry.get("groups") or ()),
                    requires_sources=tuple(entry["requires_sources"]),
                    expected={
                        "status": expected["status"],
                        "value": expected.get("value"),
                        "required_citations": list(expected.get("required_citations") or []),
                        "forbidden_citations": list(expected.get("forbidden_citations") or []),
                    },
                )
            )
        except (KeyError, TypeError) as error:
            raise InputError(f"missing or invalid field {error}", location=where) from None
    return probes


def check_answer(expected: dict[str, Any], response: dict[str, Any]) -> list[str]:
    """Seed 004's checker, plus citations that must not appear (hidden evidence)."""
    failures = []
    if response.get("status") != expected["status"]:
        failures.append(f"status {response.get('status')} (expected {expected['status']})")
    value = response.get("value")
    if type(value) is not type(expected["value"]) or value != expected["value"]:
        failures.append(f"value {value!r} (expected {expected['value']!r})")
    citations = response.get("citations") or []
    if len(citations) != len(set(citations)):
        failures.append("duplicate citations")
    missing = set(expected["required_citations"]) - set(citations)
    if missing:
        failures.append(f"missing citations {sorted(missing)}")
    leaked = set(expected["forbidden_citations"]) & set(citations)
    if leaked:
        failures.append(f"citations that must not appear {sorted(leaked)}")
    return failures


def run_probes(engine: Engine, probes: list[Probe]) -> list[ProbeResult]:
    """Ask every applicable probe through the answer contract."""
    needed = sorted({s for p in probes for s in p.requires_sources})
    with engine.connect() as conn:
        present = (
            set(
                conn.execute(
                    select(SourceRow.id).where(SourceRow.id.in_(bindparam("ids", expanding=True))),
                    {"ids": needed},
                ).scalars()
            )
            if needed
            else set()
        )
    results = []
    for probe in probes:
        if not set(probe.requires_sources) <= present:
            results.append(ProbeResult(probe, ran=False))
            continue
        requester = Requester(principal=f"probe:{probe.id}", groups=sorted(probe.groups))
        response = answer(engine, probe.question, requester).model_dump(mode="json")
        results.append(
            ProbeResult(
                probe, ran=True, failures=check_answer(probe.expected, response), response=response
            )
        )
    return results
