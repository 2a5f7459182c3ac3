"""``source_register`` and ``source_versions``: trusted metadata and exact file versions."""

import dagster as dg

from pipeline import corpus
from pipeline.assets.ownership import OWNERS
from pipeline.partitions import source_version_partitions
from pipeline.resources import ClaimStore, SourcesResource


@dg.asset(
    group_name="sources",
    kinds={"yaml", "sql"},
    owners=OWNERS,
    description="The source register applied to the store: titles, authority tiers, access "
    "groups, supersedes and effective dates, as the application owner wrote them. Text in a "
    "document can never change it.",
)
def source_register(store: ClaimStore, sources: SourcesResource) -> dg.MaterializeResult:
    register_path = sources.register_path()
    if register_path is None:
        return dg.MaterializeResult(metadata={"register": "none configured", "sources": 0})
    register = corpus.load_register(register_path)
    with store.transaction() as session:
        changed = corpus.apply_register(session, register)
    return dg.MaterializeResult(
        metadata={
            "register": dg.MetadataValue.path(str(register_path)),
            "sources": len(register.entries),
            "changed_sources": len(changed),
            "register_sha256": corpus.file_sha256(register_path),
        }
    )


@dg.asset(
    partitions_def=source_version_partitions,
    backfill_policy=dg.BackfillPolicy.single_run(),
    deps=[source_register],
    group_name="sources",
    kinds={"sql"},
    owners=OWNERS,
    description="One partition per source version (<source id>@<sha256 prefix>): the exact "
    "text, checksum and version number, stored once and never overwritten. A bad file fails "
    "its own partition with an error naming the file.",
)
def source_versions(
    context: dg.AssetExecutionContext, store: ClaimStore, sources: SourcesResource
) -> dg.MaterializeResult:
    keys = list(context.partition_keys)
    with store.transaction() as session:
        stored = corpus.versions_for_keys(session, keys)
    wanted = [key for key in keys if key not in stored]
    new_versions = 0
    if wanted:
        scan = corpus.scan(sources.sources_paths(), sources.register_path())
        files = scan.for_keys(wanted)  # raises naming the file for a bad or vanished version
        with store.transaction() as session:  # the whole batch or nothing
            new_versions = corpus.store_files(session, scan, files)
            stored = corpus.versions_for_keys(session, keys)
    context.log.info(f"{len(keys)} source versions, {new_versions} newly stored")
    rows = sorted(stored.values(), key=lambda v: (v.source_id, v.number))
    preview = ["| source | version | bytes | path |", "|---|---|---|---|"]
    preview += [
        f"| {v.source_id} | {v.number} | {v.size_bytes} | {v.origin_path or ''} |"
        for v in rows[:10]
    ]
    return dg.MaterializeResult(
        metadata={
            "versions": len(keys),
            "new_versions": new_versions,
            "bytes": sum(v.size_bytes for v in rows),
            "preview": dg.MetadataValue.md("\n".join(preview)),
        }
    )
