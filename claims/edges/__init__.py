"""Edges between claims: conflict, corroboration, ambiguity and supersession.

Public surface:

- ``compare(a, b) -> PairVerdict`` / ``compare_facts``: the pairwise rules (pure, symmetric);
- ``build_edges(facts, ...) -> EdgeBuild``: blocking by claim key and coarse key, groups,
  surface clones, corroboration and supersession-aware edges with deterministic ids; the
  judges a profile lends (``judges=``, ``claims.profiles.EdgeJudges``: the reference
  profile's namesake pages) are received, never imported;
- ``refine``: the edge one compared pair gets (shared by the builder and ``claims check``);
- ``MaterialitySettings`` / ``assess``: materiality of a conflict;
- ``derive_version_supersessions``, ``SupersessionIndex``, ``supersession_candidate``;
- ``ClaimFacts`` / ``facts_from_claim``: the lean comparable form of a claim.

This package is pure: it never reads or writes the store. The store side
(``recompute_edges``, ``keys_touched_by_version``, ``record_supersession_candidates``,
``EdgeReport``, ``explain_pair``) lives in ``claims.edge_refresh``, which uses both this
package and ``claims.store`` (``claims.store.edges`` imports the record types from here, so
the dependency runs one way: store -> edges, edge_refresh -> both).
"""

from claims.edges.builder import (
    NEAR_MISS_PREFIX,
    EdgeBuild,
    EdgeDraft,
    EdgeRecord,
    build_edges,
    edge_id,
    refine,
)
from claims.edges.compare import compare, compare_facts
from claims.edges.facts import ClaimFacts, facts_from_claim, facts_from_claims
from claims.edges.materiality import Materiality, MaterialitySettings, assess
from claims.edges.supersession import (
    RegisterSupersedes,
    SupersessionIndex,
    VersionRef,
    derive_version_supersessions,
    supersession_candidate,
)
from claims.edges.verdict import RELATION_RANK, PairVerdict, Rule

__all__ = [
    "NEAR_MISS_PREFIX",
    "RELATION_RANK",
    "ClaimFacts",
    "EdgeBuild",
    "EdgeDraft",
    "EdgeRecord",
    "Materiality",
    "MaterialitySettings",
    "PairVerdict",
    "RegisterSupersedes",
    "Rule",
    "SupersessionIndex",
    "VersionRef",
    "assess",
    "build_edges",
    "compare",
    "compare_facts",
    "derive_version_supersessions",
    "edge_id",
    "facts_from_claim",
    "facts_from_claims",
    "refine",
    "supersession_candidate",
]
