"""claimledger's domain core: models, extraction, units, edges, sources and the store.

Imports nothing from review/, retrieval/ or pipeline/, and no Dagster or FastAPI.
"""
