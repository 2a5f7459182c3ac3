"""retrieval layer of claimledger (see docs/ARCHITECTURE.md)."""
