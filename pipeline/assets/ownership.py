"""Who answers for the pipeline's assets (shown in the Dagster UI)."""

OWNERS = ["team:claimledger"]
