"""The Dagster layer of claimledger: the only package that imports Dagster.

Public surface:

- ``pipeline.definitions:defs`` - the code location (``workspace.yaml``); assembly only;
  ``build_definitions(resources)`` builds it with other resources (tests, ``claims run``);
- ``pipeline.runner.run_pipeline`` - everything in-process, as ``claims run`` does it;
- ``pipeline.assets.ASSET_MODULES`` - where later layers add their assets.

Assets are thin: they call the domain (``claims.ingest``, ``claims.extraction``,
``claims.edges``) and report counts as metadata. See docs/PIPELINE.md.
"""
