"""The claim store: engines, transactions, migrations and one repository per aggregate."""

from claims.store.claims import ClaimRepository, claim_to_row, row_to_claim
from claims.store.engine import make_engine, session_factory, transaction
from claims.store.generations import GenerationRepository
from claims.store.sources import (
    NewVersion,
    SourceRepository,
    VersionInfo,
    VersionOutcome,
    version_id,
)

__all__ = [
    "ClaimRepository",
    "GenerationRepository",
    "NewVersion",
    "SourceRepository",
    "VersionInfo",
    "VersionOutcome",
    "claim_to_row",
    "make_engine",
    "row_to_claim",
    "session_factory",
    "transaction",
    "version_id",
]
