"""What an edge recompute looked at and changed (``claims.edge_refresh``, reported as
Dagster metadata by ``claim_edges``), and how parts of one are summed."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

# the counts a recompute of several parts (batches, keys evaluated in part) sums
SUMMED_COUNTS = (
    "claims",
    "comparisons",
    "edges",
    "material_conflicts",
    "inserted",
    "updated",
    "revived",
    "retired",
    "compacted",
    "unchanged",
    "value_groups",
    "group_relations",
    "slot_groups",
)


@dataclass
class EdgeReport:
    """What a recompute looked at and changed (reported as Dagster metadata upstream)."""

    generation: str
    full: bool
    keys: int = 0
    coarse_keys: int = 0
    claims: int = 0
    comparisons: int = 0
    edges: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    material_conflicts: int = 0
    inserted: int = 0
    updated: int = 0
    revived: int = 0
    retired: int = 0
    # of the retired edges, those deleted at once (history read from value groups)
    compacted: int = 0
    unchanged: int = 0
    version_supersessions: int = 0
    value_groups: int = 0
    group_relations: int = 0
    slot_groups: int = 0
    # of ``keys``, those evaluated from their changed claims and their groups' first claims
    # (``claims.edge_delta``), not whole
    keys_in_part: int = 0
    # those keys with the source versions whose claims changed there: what changed in them
    # is confined to those versions' claims and the claims read with them, which lets the
    # status read model re-evaluate part of the key too (``retrieval.status_delta``)
    in_part: dict[str, set[str]] = field(default_factory=dict)
    # Claim keys of the blocks the recompute evaluated (the touched keys and the keys of the
    # near-miss blocks around them): whatever is derived from edges may have changed there,
    # nowhere else. Claims loaded only as evidence (a namesake's other claims, a page's
    # other claims) form no block here and are not in it. None after a full recompute.
    touched_keys: set[str] | None = None
    # Live edges by kind after the recompute: of the whole generation after a full one, the
    # change in the synced blocks after an incremental one (so a caller keeping the totals
    # need not count every edge of the store again).
    live_edges: dict[str, int] = field(default_factory=dict)
    # the edge blocks (claim keys, ``~`` near-miss blocks) whose stored edges were synced
    # (None: every block)
    synced_blocks: set[str] | None = field(default=None, repr=False)

    def as_metadata(self) -> dict[str, object]:
        return {
            "generation": self.generation,
            "full": self.full,
            "keys": self.keys,
            "keys_in_part": self.keys_in_part,
            "claims": self.claims,
            "comparisons": self.comparisons,
            "edges": self.edges,
            **{f"edges_{k}": v for k, v in sorted(self.by_kind.items())},
            "material_conflicts": self.material_conflicts,
            "inserted": self.inserted,
            "updated": self.updated,
            "revived": self.revived,
            "retired": self.retired,
            "compacted": self.compacted,
            "unchanged": self.unchanged,
            "version_supersessions": self.version_supersessions,
            "value_groups": self.value_groups,
            "group_relations": self.group_relations,
            "slot_groups": self.slot_groups,
        }

    def add(self, part: EdgeReport, *, in_part: bool = False) -> None:
        """Sum ``part`` (one key evaluated in part, ``claims.edge_delta``, when ``in_part``)
        into this incremental report: its counts, edges by kind, the change in live edges,
        and its keys among those touched."""
        self.keys += part.keys
        self.keys_in_part += part.keys if in_part else part.keys_in_part
        for key, versions in part.in_part.items():
            self.in_part.setdefault(key, set()).update(versions)
        for name in SUMMED_COUNTS:
            setattr(self, name, getattr(self, name) + getattr(part, name))
        self.by_kind = dict(sorted((Counter(self.by_kind) + Counter(part.by_kind)).items()))
        live = Counter(self.live_edges)
        live.update(part.live_edges)
        self.live_edges = {kind: count for kind, count in sorted(live.items()) if count}
        if self.touched_keys is not None:
            self.touched_keys |= part.touched_keys or set()
        if self.synced_blocks is not None:
            self.synced_blocks |= part.synced_blocks or set()
