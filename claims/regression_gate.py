"""The conflict regression check: known conflicts and non-conflicts through an extractor.

Each case is two short texts. Both go through the extractor under test and every claim
pair across the two sides goes through the edge builder's decision (``compare_facts``, then
``refine``). A case passes when "some pair conflicts" matches the case's ``conflict`` flag.
A generation is promoted only when every case passes.

The outcome depends on the extractor generation, the cases, the rules the pairs go through
(the ``claims`` package's code and data) and the spaCy model: ``regression_fingerprint``
digests them, and the pipeline's check runs the cases again only when it changed
(docs/PIPELINE.md, "Session 19: nothing changed").
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from importlib import metadata, resources
from pathlib import Path
from typing import Any

import yaml

from claims.errors import InputError
from claims.models import Claim, Relation

Extractor = Callable[..., list[Claim]]
DEFAULT_CASES = "conflict_regression.yaml"
FINGERPRINT = "fingerprint"  # the key of the report that names what the outcome depended on


@dataclass(frozen=True)
class RegressionCase:
    id: str
    left: str
    right: str
    conflict: bool


@dataclass
class CaseOutcome:
    id: str
    expected_conflict: bool
    relation: str
    rule: str
    reason: str
    passed: bool


@dataclass
class RegressionReport:
    """What the regression found; ``to_dict`` is what the generation row stores."""

    generation: str
    outcomes: list[CaseOutcome] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return bool(self.outcomes) and all(o.passed for o in self.outcomes)

    @property
    def failures(self) -> list[CaseOutcome]:
        return [o for o in self.outcomes if not o.passed]

    def to_dict(self, fingerprint: str | None = None) -> dict[str, Any]:
        """What the generation row keeps (with ``fingerprint``: what the outcome depended
        on, so an unchanged check need not run again)."""
        found: dict[str, Any] = {
            "generation": self.generation,
            "passed": self.passed,
            "cases": len(self.outcomes),
            "failed": [asdict(o) for o in self.failures],
        }
        if fingerprint is not None:
            found[FINGERPRINT] = fingerprint
        return found

    def markdown(self) -> str:
        lines = ["| case | expected | got | rule | reason |", "|---|---|---|---|---|"]
        for o in self.failures or self.outcomes[:5]:
            expected = "conflict" if o.expected_conflict else "no conflict"
            reason = o.reason.replace("|", "/")[:120]
            lines.append(f"| {o.id} | {expected} | {o.relation} | {o.rule} | {reason} |")
        return "\n".join(lines)


def load_cases(path: Path | None = None) -> list[RegressionCase]:
    """The committed regression cases (or those in ``path``)."""
    if path is None:
        text = resources.files("claims").joinpath("data", DEFAULT_CASES).read_text("utf-8")
        where = f"claims/data/{DEFAULT_CASES}"
    else:
        text, where = path.read_text("utf-8"), str(path)
    data = yaml.safe_load(text) or {}
    cases = []
    for index, raw in enumerate(data.get("cases") or []):
        try:
            cases.append(
                RegressionCase(
                    id=str(raw["id"]),
                    left=str(raw["left"]),
                    right=str(raw["right"]),
                    conflict=bool(raw["conflict"]),
                )
            )
        except (KeyError, TypeError) as error:
            raise InputError(
                f"case {index + 1} needs id, left, right and conflict ({error})", location=where
            ) from error
    if not cases:
        raise InputError("no regression cases found", location=where)
    return cases


def regression_fingerprint(generation: str, cases: Sequence[RegressionCase]) -> str:
    """A digest of what the regression's outcome depends on: the generation, the cases, the
    code and data of the ``claims`` package (the extractor's, the units' and the edge
    builder's rules: the edge rules can change without a new generation), and the spaCy
    model (its name and installed version) with spaCy's and pint's versions."""
    from claims.settings import get_settings

    digest = hashlib.sha256()
    model = get_settings().spacy_model or ""
    parts = [
        generation,
        code_digest(),
        model,
        *(_installed(name) for name in (model, "spacy", "pint") if name),
    ]
    for case in cases:
        parts += [case.id, case.left, case.right, str(case.conflict)]
    for part in parts:
        digest.update(part.encode("utf-8", "surrogateescape") + b"\0")
    return digest.hexdigest()


_CLAIMS = Path(__file__).parent
_CODE_SUFFIXES = frozenset({".py", ".yaml", ".yml", ".json", ".jsonl", ".txt", ".cfg"})
_NOT_RULES = ("parser/model",)  # the shipped parser's weights: no extraction path loads them


@lru_cache(maxsize=4)
def code_digest(root: Path = _CLAIMS) -> str:
    """The sha256 of the ``claims`` package's code and data files, each named by its path in
    the package (the folder of a checkout changes nothing); read once per process."""
    digest = hashlib.sha256()
    files = sorted(
        (path.relative_to(root).as_posix(), path)
        for path in root.rglob("*")
        if path.suffix in _CODE_SUFFIXES and "__pycache__" not in path.parts
    )
    for name, path in files:
        if name.startswith(_NOT_RULES) or not path.is_file():
            continue
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _installed(distribution: str) -> str:
    try:
        return f"{distribution}=={metadata.version(distribution)}"
    except metadata.PackageNotFoundError:
        return f"{distribution} (not installed)"


def run_regression(
    extract: Extractor, generation: str, cases: Sequence[RegressionCase]
) -> RegressionReport:
    """Run every case through ``extract`` and the pipeline's edge rules."""
    from claims.check import RELATION_OF_KIND
    from claims.edges.builder import refine
    from claims.edges.compare import compare_facts
    from claims.edges.facts import facts_from_claim
    from claims.edges.verdict import RELATION_RANK

    report = RegressionReport(generation=generation)
    for case in cases:
        left = extract(case.left, source_id=f"regression/{case.id}/left", source_version_id=None)
        right = extract(case.right, source_id=f"regression/{case.id}/right", source_version_id=None)
        best = (Relation.UNRELATED.value, "", "no claim pair")
        best_rank = -1
        right_facts = [facts_from_claim(b) for b in right]
        for a in left:
            x = facts_from_claim(a)
            for y in right_facts:  # a handful of claims per case: the pair loop stays tiny
                # the edge builder's decision: the pair's verdict, then refine() (clones,
                # sources, supersession), so the gate and the stored edges cannot disagree
                verdict = compare_facts(x, y)
                draft = refine(x, y, verdict)
                relation = (
                    verdict.relation
                    if draft is None
                    else RELATION_OF_KIND.get(draft.kind, Relation.COMPATIBLE)
                )
                rule, reason = (verdict.rule, verdict.reason) if draft is None else draft[1:3]
                rank = RELATION_RANK[relation]
                if rank > best_rank:
                    best_rank, best = rank, (relation.value, rule, reason)
        got_conflict = best[0] == Relation.CONFLICT.value
        report.outcomes.append(
            CaseOutcome(
                id=case.id,
                expected_conflict=case.conflict,
                relation=best[0],
                rule=best[1],
                reason=best[2],
                passed=got_conflict == case.conflict,
            )
        )
    return report
