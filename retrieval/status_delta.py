"""The statuses of a large claim key brought up to date from what changed in it (issue 33:
an edit costs what it changes, not what the key holds).

A boilerplate sentence restated by most notes makes one claim key of 75,000 claims at
100,000 files. When an edit touches it, the edge step evaluates it from the changed
versions' claims and its groups' first claims (``claims.edge_delta``) and records the key
with those versions in the change feed (``record_edge_changes``). Re-evaluating the status
of every claim of such a key would read 75,000 claims, memberships and stored rows; here
only these claims are evaluated:

- the claims of the changed versions at the key (new claims; claims whose version a new
  one replaces: their supersession moved);
- both ends of the live edges in the key's block of a kind value groups do not say
  (``supersedes``: what the evidence loader reads from a grouped key's block) that touch
  those claims: only such an edge, or a relation between value groups, can give a claim
  another status than "none" or "superseded by its version's replacement", and a
  supersedes edge joins a newer claim to an older one whose version is replaced already
  (so it says the same), unless it came or went with the change;
- the claims whose stored status came from an edge or a relation (contested, under review,
  ambiguous, resolved: a conflict that has just gone is undone claim by claim), and those
  stored as superseded by one of the changed versions.

This is exact when the key has no live relation between value groups and no slot or family
in which two groups could disagree: the status of any other claim of the key is then
"none", or "superseded" by its version's replacement, and neither can have moved (its
version did not change, no edge of a status-giving kind touches it). Such a claim's
stored row stays as it is. A key with a live relation, or slots of two groups, is
evaluated whole (``retrieval.read_model``), as are keys the change concerned whole (a
register entry, a review item, edges evaluated whole) and a part over
``MAX_PART_CLAIMS`` claims. Reads go by index: the key's block of edges by (generation,
key, kind), claims by version and by id, stored rows by key; no claim of the key outside
the part is loaded.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from claims.edges.builder import NEAR_MISS_PREFIX
from claims.edges.value_groups import is_unknown_key
from claims.models import EdgeKind
from claims.store.batches import batches
from retrieval.evidence import EdgeFact, EvidenceGroup, EvidenceLoader, statement

# more claims to evaluate than this: the key is evaluated whole
MAX_PART_CLAIMS = 10_000

# the statuses only an edge or a relation gives (ConflictStatus values)
_FROM_EDGES = "('contested', 'under_review', 'ambiguous', 'resolved')"
# the edge kinds value groups say for their members: the loader reads a grouped key's
# block without them (``retrieval.evidence``), and they give a claim no status here
_GROUP_KINDS = ("conflicts", "ambiguous", "corroborates", "compatible")

_GROUPED = statement(
    "SELECT 1 FROM value_group_claims WHERE generation = :g AND claim_key = :k LIMIT 1"
)
_LIVE_RELATION = statement(
    "SELECT 1 FROM value_group_relations WHERE generation = :g AND claim_key = :k "
    "AND retired_at IS NULL LIMIT 1"
)
_SLOTS = statement(
    "SELECT slot_id, family FROM value_group_slots WHERE generation = :g AND claim_key = :k"
)
_CLAIMS_OF_VERSIONS = statement(
    "SELECT id, claim_key, generation FROM claims WHERE source_version_id IN :v"
)
_EDGE_COLUMNS = "SELECT id, kind, left_claim_id, right_claim_id, rule, '' AS reason, material"
# the other kinds, listed (today only ``supersedes``): the (generation, claim_key, kind)
# index then seeks them, where ``NOT IN`` walked every edge of the key in the index
_OTHER_KINDS = ", ".join(f"'{k.value}'" for k in EdgeKind if k.value not in _GROUP_KINDS)
_KEY_BLOCK = statement(
    f"{_EDGE_COLUMNS} FROM edges WHERE generation = :g AND claim_key = :k "
    f"AND kind IN ({_OTHER_KINDS}) AND retired_at IS NULL"
)
_NEAR_BLOCKS = statement(
    f"{_EDGE_COLUMNS} FROM edges WHERE generation = :g AND claim_key IN :blocks "
    "AND retired_at IS NULL"
)
_COARSE_OF_CLAIMS = statement(
    "SELECT DISTINCT coarse_key FROM claims WHERE id IN :ids AND coarse_key IS NOT NULL"
)
_MEMBERS_OF_CLAIMS = statement(
    "SELECT claim_id, claim_key FROM value_group_claims WHERE claim_id IN :ids"
)
_STORED_MOVED = statement(
    "SELECT claim_id FROM claim_status WHERE claim_key = :k "
    f"AND (status IN {_FROM_EDGES} OR superseded_by_version_id IN :v)"
)


@dataclass
class KeyPart:
    """The claims of one key whose status may have moved, and the edges of the key's block
    of the kinds that give a status touching them (read once, for choosing the part and
    for its group)."""

    claim_key: str
    claim_ids: set[str]
    block: list[EdgeFact]


def part_of_key(loader: EvidenceLoader, key: str, versions: Collection[str]) -> KeyPart | None:
    """The part of ``key`` to evaluate after its claims of ``versions`` changed (module
    doc), or None: evaluate the key whole."""
    generation = loader.generation()
    if generation is None or not versions or is_unknown_key(key):
        return None
    if not loader.run(_GROUPED, g=generation, k=key):
        return None  # an ungrouped key's block is read with every kind: whole
    if loader.run(_LIVE_RELATION, g=generation, k=key):
        return None
    if _slots_may_disagree(loader.run(_SLOTS, g=generation, k=key)):
        return None
    found: set[str] = set()
    listed = sorted(versions)
    for chunk in batches(listed):
        for claim_id, claim_key, claim_generation in loader.run(_CLAIMS_OF_VERSIONS, v=chunk):
            if claim_key == key and claim_generation == generation:
                found.add(claim_id)
    # a supersedes edge only ever says what its older claim's version replacement says
    # already, unless it is new or gone with this change: those touch the changed claims
    block = [
        edge
        for row in loader.run(_KEY_BLOCK, g=generation, k=key)
        if (edge := _edge(row)).left in found or edge.right in found
    ]
    for edge in block:
        found.update((edge.left, edge.right))
    for chunk in batches(listed):
        found.update(loader.run(_STORED_MOVED, k=key, v=chunk).scalars())
    if len(found) > MAX_PART_CLAIMS:
        return None
    return KeyPart(key, found, block)


def _slots_may_disagree(rows: Iterable[tuple[str, str | None]]) -> bool:
    """Whether two value groups of the key share a slot, or two slots a family: only then
    can slots give a claim a status (``retrieval.verdicts._slot_edges``)."""
    groups_of_slot: dict[str, int] = {}
    slots_of_family: dict[str, set[str]] = {}
    for slot_id, family in rows:
        groups_of_slot[slot_id] = groups_of_slot.get(slot_id, 0) + 1
        if family is not None:
            slots_of_family.setdefault(family, set()).add(slot_id)
    return any(n > 1 for n in groups_of_slot.values()) or any(
        len(slots) > 1 for slots in slots_of_family.values()
    )


def group_of_part(loader: EvidenceLoader, part: KeyPart) -> EvidenceGroup:
    """The evidence of the part's claims as ``EvidenceLoader.group_for_keys`` reads it for
    the whole key: the key's block of status-giving edges, the near-miss blocks' edges that
    touch the part, the claims those edges reach, review items, supersessions, sources. No
    value groups: without relations or disagreeing slots they only say corroborations,
    which give no status."""
    generation = loader.generation()
    group = EvidenceGroup()
    claims = loader.claims_by_ids(sorted(part.claim_ids))
    edges = {edge.id: edge for edge in part.block}
    coarse: set[str] = set()
    for chunk in batches(sorted(claims)):
        coarse.update(loader.run(_COARSE_OF_CLAIMS, ids=chunk).scalars())
    near: list[EdgeFact] = []
    for chunk in batches(sorted(NEAR_MISS_PREFIX + c for c in coarse)):
        near += [_edge(r) for r in loader.run(_NEAR_BLOCKS, g=generation, blocks=chunk)]
    near = [e for e in near if e.left in claims or e.right in claims]
    members = _members_at(loader, part.claim_key, {e.left for e in near} | {e.right for e in near})
    for edge in near:
        # as the loader drops a disagreement both of whose ends are members at the key
        # (read from the groups there), so does this
        if not (edge.kind in _GROUP_KINDS and edge.left in members and edge.right in members):
            edges[edge.id] = edge
    group.edges = [edges[k] for k in sorted(edges)]
    reached = sorted(
        ({e.left for e in group.edges} | {e.right for e in group.edges}) - claims.keys()
    )
    claims.update(loader.claims_by_ids(reached))
    group.claims = claims
    loader.finish(group)
    # a resolution counts through winners the reader sees: the whole key's group holds
    # them (claims of the key), so this one reads them too
    winners = {
        w for item in group.reviews if item.resolution for w in item.resolution.winners
    } - claims.keys()
    if winners:
        claims.update(loader.claims_by_ids(sorted(winners)))
        loader.finish(group)
    return group


def _members_at(loader: EvidenceLoader, key: str, claim_ids: Collection[str]) -> set[str]:
    """Those of ``claim_ids`` that are members of value groups of ``key``."""
    found: set[str] = set()
    for chunk in batches(sorted(claim_ids)):
        found.update(c for c, k in loader.run(_MEMBERS_OF_CLAIMS, ids=chunk) if k == key)
    return found


def _edge(row: tuple[object, ...]) -> EdgeFact:
    material = row[6]
    return EdgeFact(
        str(row[0]),
        str(row[1]),
        str(row[2]),
        str(row[3]),
        str(row[4]),
        "",
        None if material is None else bool(material),
    )
