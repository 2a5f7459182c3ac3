"""The assets of the claimledger pipeline, one module per stage.

To add a stage (the review and retrieval layers add ``review_queue`` and
``conflict_status``), write a module here and append it to ``ASSET_MODULES``;
``definitions.py`` loads every asset and check from these modules.
"""

from typing import Any

from pipeline.assets import claims, edges, review, sources, status
from pipeline.assets.ownership import OWNERS

ASSET_MODULES = [
    sources,  # source_register, source_versions
    claims,  # claims (extraction + normalisation, per source version)
    edges,  # claim_edges (conflict, corroboration, ambiguous, supersession)
    review,  # review_queue (routing under the authority policy, review metrics)
    status,  # conflict_status (claim_status read model) + the known-conflict probe check
]

__all__ = [
    "ASSET_MODULES",
    "OWNERS",
    "all_assets",
    "graph_asset_keys",
    "partitioned_asset_keys",
]


def all_assets() -> list[Any]:
    """Every asset and asset check defined in ``ASSET_MODULES``, found by Dagster's own
    loaders (``load_assets_from_modules`` / ``load_asset_checks_from_modules``); the
    ``claims`` asset with as many extraction steps as the settings ask for
    (``CLAIMS_EXTRACT_STEPS``, read when the code location loads)."""
    import dagster as dg

    from pipeline.settings import extraction_steps, get_pipeline_settings

    parts = extraction_steps(get_pipeline_settings())
    assets = [
        claims.claims_asset(parts)
        if parts > 1 and isinstance(value, dg.AssetsDefinition) and value.key == claims.claims.key
        else value
        for value in dg.load_assets_from_modules(ASSET_MODULES)
    ]
    return [*assets, *dg.load_asset_checks_from_modules(ASSET_MODULES)]


def graph_asset_keys() -> list[Any]:
    """Keys of the unpartitioned (graph-level) assets: what a full refresh re-materializes."""
    import dagster as dg

    return [
        key
        for value in all_assets()
        if isinstance(value, dg.AssetsDefinition) and value.partitions_def is None
        for key in value.keys
    ]


def partitioned_asset_keys() -> list[Any]:
    """Keys of the assets partitioned by shard (and the register they depend on)."""
    import dagster as dg

    keys = [
        key
        for value in all_assets()
        if isinstance(value, dg.AssetsDefinition) and value.partitions_def is not None
        for key in value.keys
    ]
    return [dg.AssetKey("source_register"), *keys]
