"""review layer of claimledger (see docs/ARCHITECTURE.md)."""
