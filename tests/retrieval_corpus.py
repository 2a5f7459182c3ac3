"""A small builder of claim-store corpora for retrieval tests: rows written directly.

Ids are given or derived deterministically, so the same corpus written twice (or written
with some sources removed) has the same ids everywhere.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import Engine, insert, inspect

from claims.ids import stable_id
from claims.store.quotes import link_quotes
from claims.tables import (
    AuthorityPolicyRow,
    ClaimRow,
    EdgeRow,
    ExtractorGenerationRow,
    ResolutionRow,
    ResolutionWinnerRow,
    ReviewItemClaimRow,
    ReviewItemRow,
    SourceGrantRow,
    SourceRow,
    SourceSupersedesRow,
    SourceVersionRow,
    VersionSupersessionRow,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)
GENERATION = "gen_test"


def at(hours: float) -> datetime:
    """T0 plus ``hours``: every timestamp of a test corpus is relative to T0."""
    return T0 + timedelta(hours=hours)


@dataclass
class Corpus:
    sources: dict[str, dict[str, Any]] = field(default_factory=dict)
    grants: list[tuple[str, str]] = field(default_factory=list)
    versions: dict[str, dict[str, Any]] = field(default_factory=dict)
    claims: dict[str, dict[str, Any]] = field(default_factory=dict)
    edges: dict[str, dict[str, Any]] = field(default_factory=dict)
    supersessions: dict[str, dict[str, Any]] = field(default_factory=dict)
    register_supersedes: list[tuple[str, str]] = field(default_factory=list)
    reviews: dict[str, dict[str, Any]] = field(default_factory=dict)
    review_claims: list[tuple[str, str]] = field(default_factory=list)
    resolutions: dict[str, dict[str, Any]] = field(default_factory=dict)
    winners: list[tuple[str, str]] = field(default_factory=list)
    policies: set[str] = field(default_factory=set)

    # ----------------------------------------------------------------- building

    def source(
        self,
        source_id: str,
        groups: tuple[str, ...] | list[str] = (),
        *,
        withdrawn: bool = False,
        effective_from: date | None = None,
        effective_to: date | None = None,
    ) -> str:
        self.sources[source_id] = dict(
            id=source_id,
            title=source_id,
            authority_tier=None,
            effective_from=effective_from,
            effective_to=effective_to,
            withdrawn=withdrawn,
            created_at=T0,
            updated_at=T0,
        )
        self.grants += [(source_id, g) for g in sorted(set(groups))]
        return source_id

    def version(
        self, source_id: str, text: str = "", *, number: int | None = None, ingested: float = 0
    ) -> str:
        number = number or 1 + sum(1 for v in self.versions.values() if v["source_id"] == source_id)
        version_id = stable_id("sv", source_id, number)
        self.versions[version_id] = dict(
            id=version_id,
            source_id=source_id,
            number=number,
            label=None,
            sha256=stable_id("sha", source_id, number, text)[4:].ljust(64, "0"),
            size_bytes=len(text.encode()),
            media_type="text/plain",
            origin_path=None,
            text=text,
            ingested_at=at(ingested),
        )
        return version_id

    def claim(
        self,
        version_id: str,
        key: str,
        value: float | str,
        unit: str | None = "token",
        *,
        claim_id: str | None = None,
        scope: dict[str, str] | None = None,
        time: tuple[date | None, date | None] = (None, None),
        quote: str | None = None,
        span: tuple[int, int] | None = None,
        created: float = 0,
    ) -> str:
        version = self.versions[version_id]
        claim_id = claim_id or stable_id("cl", version_id, key, len(self.claims))
        number = isinstance(value, int | float)
        quote = quote or f"{key} is {value} {unit or ''}".strip()
        start, end = span or (0, len(quote))
        self.claims[claim_id] = dict(
            id=claim_id,
            source_version_id=version_id,
            source_id=version["source_id"],
            generation=GENERATION,
            subject=key.split(".")[0],
            predicate=key.split(".")[-1],
            claim_key=key,
            coarse_key=key,
            kind="quantity" if number else "categorical",
            value_number=float(value) if number else None,
            value_text=None if number else str(value),
            low=None,
            high=None,
            bound="exact",
            approximate=False,
            precision=None,
            unit=unit if number else None,
            canonical_value=float(value) if number else None,
            canonical_low=None,
            canonical_high=None,
            canonical_unit=unit if number else None,
            dimension=unit if number else None,
            polarity=None,
            modality=None,
            scope=dict(scope or {}),
            scope_residual=[],
            time_start=time[0],
            time_end=time[1],
            time_granularity=None,
            time_text=None,
            reported_speech=False,
            span_start=start,
            span_end=end,
            value_start=None,
            value_end=None,
            quote=quote,
            confidence=0.9,
            created_at=at(created),
        )
        return claim_id

    def edge(
        self,
        kind: str,
        left: str,
        right: str,
        *,
        material: bool | None = True,
        created: float = 0,
        retired: float | None = None,
        reason: str | None = None,
    ) -> str:
        edge_id = stable_id("ed", kind, left, right)
        key = self.claims[left]["claim_key"]
        self.edges[edge_id] = dict(
            id=edge_id,
            kind=kind,
            left_claim_id=left,
            right_claim_id=right,
            claim_key=key,
            rule="value",
            reason=reason or f"{kind}: {left} / {right}",
            material=material if kind == "conflicts" else None,
            materiality=1.0 if material else 0.0,
            generation=GENERATION,
            created_at=at(created),
            retired_at=at(retired) if retired is not None else None,
        )
        return edge_id

    def supersede(
        self,
        newer_version: str,
        older_version: str,
        *,
        origin: str = "register",
        effective_from: date | None = None,
        created: float = 0,
    ) -> str:
        row_id = stable_id("vs", newer_version, older_version)
        self.supersessions[row_id] = dict(
            id=row_id,
            newer_version_id=newer_version,
            older_version_id=older_version,
            origin=origin,
            effective_from=effective_from,
            created_at=at(created),
        )
        if origin == "register":
            pair = (
                self.versions[newer_version]["source_id"],
                self.versions[older_version]["source_id"],
            )
            if pair not in self.register_supersedes:
                self.register_supersedes.append(pair)
        return row_id

    def review(self, claim_ids: list[str], *, state: str = "open", opened: float = 0) -> str:
        key = self.claims[claim_ids[0]]["claim_key"]
        item_id = stable_id("ri", key, *sorted(claim_ids))
        self.reviews[item_id] = dict(
            id=item_id,
            claim_key=key,
            state=state,
            risk=0.5,
            high_risk=False,
            assignee="rita" if state == "claimed" else None,
            lock_expires_at=None,
            deferred_until=None,
            revision=1,
            policy_version=None,
            opened_at=at(opened),
            updated_at=at(opened),
        )
        self.review_claims += [(item_id, c) for c in sorted(set(claim_ids))]
        return item_id

    def resolve(
        self,
        item_id: str,
        winners: list[str],
        *,
        outcome: str = "resolved",
        policy_version: str = "1+aaaaaaaaaaaa",
        decided: float = 1,
        superseded: float | None = None,
    ) -> str:
        res_id = stable_id("rs", item_id, decided)
        self.policies.add(policy_version)
        self.resolutions[res_id] = dict(
            id=res_id,
            review_item_id=item_id,
            method="reviewer",
            outcome=outcome,
            dismiss_reason="different_scope" if outcome == "dismissed" else None,
            rationale="test decision",
            evidence=list(winners),
            decided_by="rita",
            policy_version=policy_version,
            decided_at=at(decided),
            superseded_at=at(superseded) if superseded is not None else None,
        )
        self.winners += [(res_id, w) for w in sorted(set(winners))]
        if superseded is None:
            self.reviews[item_id]["state"] = outcome
        return res_id

    # ----------------------------------------------------------------- variants

    def without_sources(self, removed: set[str]) -> Corpus:
        """This corpus with ``removed`` sources and everything that hangs off them deleted.

        Review items and resolutions stay (they belong to no source); their links to
        removed claims go, as a foreign-key cascade would remove them.
        """
        out = copy.deepcopy(self)
        out.sources = {k: v for k, v in out.sources.items() if k not in removed}
        out.grants = [g for g in out.grants if g[0] not in removed]
        out.versions = {k: v for k, v in out.versions.items() if v["source_id"] not in removed}
        out.claims = {k: v for k, v in out.claims.items() if v["source_id"] not in removed}
        out.edges = {
            k: v
            for k, v in out.edges.items()
            if v["left_claim_id"] in out.claims and v["right_claim_id"] in out.claims
        }
        out.supersessions = {
            k: v
            for k, v in out.supersessions.items()
            if v["newer_version_id"] in out.versions and v["older_version_id"] in out.versions
        }
        out.register_supersedes = [
            p for p in out.register_supersedes if p[0] not in removed and p[1] not in removed
        ]
        out.review_claims = [rc for rc in out.review_claims if rc[1] in out.claims]
        out.winners = [w for w in out.winners if w[1] in out.claims]
        return out

    # ----------------------------------------------------------------- writing

    def write(self, engine: Engine) -> None:
        with engine.begin() as conn:
            conn.execute(
                insert(ExtractorGenerationRow),
                [
                    dict(
                        id=GENERATION,
                        label="test",
                        status="active",
                        regression_report={},
                        created_at=T0,
                        promoted_at=T0,
                    )
                ],
            )
            for policy in sorted(self.policies):
                conn.execute(
                    insert(AuthorityPolicyRow),
                    [
                        dict(
                            version=policy,
                            policy_id="test",
                            declared_version=policy.split("+")[0],
                            content_hash=policy.split("+")[-1].ljust(64, "0"),
                            content={},
                            applied_at=T0,
                            applied_by="test",
                        )
                    ],
                )
            batches: list[tuple[Any, list[dict[str, Any]]]] = [
                (SourceRow, list(self.sources.values())),
                (SourceGrantRow, [dict(source_id=s, group_name=g) for s, g in self.grants]),
                (
                    SourceSupersedesRow,
                    [
                        dict(source_id=n, supersedes_source_id=o, supersedes_version=None)
                        for n, o in self.register_supersedes
                    ],
                ),
                (SourceVersionRow, list(self.versions.values())),
                (ClaimRow, list(self.claims.values())),
                (EdgeRow, list(self.edges.values())),
                (VersionSupersessionRow, list(self.supersessions.values())),
                (ReviewItemRow, list(self.reviews.values())),
                (
                    ReviewItemClaimRow,
                    [dict(review_item_id=i, claim_id=c) for i, c in self.review_claims],
                ),
                (ResolutionRow, list(self.resolutions.values())),
                (ResolutionWinnerRow, [dict(resolution_id=r, claim_id=c) for r, c in self.winners]),
            ]
            for table, rows in batches:
                # what ClaimRepository.add_all does before its insert (a store migrated
                # to before revision 0010 has no quote rows)
                if table is ClaimRow and inspect(conn).has_table("claim_quotes"):
                    link_quotes(conn, rows)
                if rows:
                    conn.execute(insert(table), rows)
