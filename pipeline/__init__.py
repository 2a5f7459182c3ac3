"""pipeline layer of claimledger (see docs/ARCHITECTURE.md)."""
