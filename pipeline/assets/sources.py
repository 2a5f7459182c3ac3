"""``source_register`` and ``source_versions``: trusted metadata and exact file versions."""

import dagster as dg

from claims.planning import VersionRef, compare
from claims.rederive import rederive
from claims.store.sources import version_checksums, version_id
from pipeline import corpus
from pipeline.assets.ownership import OWNERS
from pipeline.partitions import shard_of, source_shards, version_key
from pipeline.resources import ClaimStore, ExtractorResource, SourcesResource


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
    partitions_def=source_shards,
    backfill_policy=dg.BackfillPolicy.single_run(),
    deps=[source_register],
    group_name="sources",
    kinds={"sql"},
    owners=OWNERS,
    description="Source versions, partitioned by shard of the source set (a source's shard "
    "is sha256 of its id modulo the shard count): the exact text, checksum and version number "
    "of every file of the shard the store lacks, stored once and never overwritten. A bad "
    "file is named by the source_files_readable check; the rest of its shard goes on.",
)
def source_versions(
    context: dg.AssetExecutionContext,
    store: ClaimStore,
    sources: SourcesResource,
    extractor: ExtractorResource,
) -> dg.MaterializeResult:
    shards = set(context.partition_keys)
    paths, register_path = sources.sources_paths(), sources.register_path()
    scan = corpus.pinned_scan(paths, register_path)  # `claims run` planned from this one
    if scan is None:
        with store.transaction() as session:
            records = corpus.recorded_stats(session)
        scan = corpus.scan(paths, register_path, records)
    files = scan.in_shards(shards)
    good = [f for f in files if f.error is None]
    generation, _ = extractor.generation()
    with store.transaction() as session:  # what the store lacks, then all of it or nothing
        lacking = compare(session, [VersionRef(f.source_id, f.sha256) for f in good], generation)
        wanted = {version_key(r.source_id, r.sha256) for r in lacking.to_store}
        # a file taken unread from its record is read now (a register that maps it to a
        # new id, a store that lost the version); one changed since the scan waits
        loaded = [(f, f.load()) for f in good if f.key in wanted]
        new = [f for f, source in loaded if source is not None]
        new_sources = [source for _, source in loaded if source is not None]
        new_versions = corpus.store_files(session, scan, new_sources) if new_sources else 0
        # versions an older converter made: their file converted again (claims/rederive.py)
        redo = {version_key(r.source_id, r.sha256) for r in lacking.to_rederive}
        rederived = 0
        for file in (f for f in good if f.key in redo):
            source = file.load()  # read now if it was taken from its record; None: changed
            if source is not None:
                outcome = rederive(
                    session,
                    version_id(source.source_id, source.sha256),
                    source.text,
                    source.converter,
                    source.converter_version,
                )
                rederived += int(outcome is not None)
        stored: dict[str, list[str]] = {shard: [] for shard in shards}
        for _, source_id, sha in version_checksums(session):
            if (shard := shard_of(source_id)) in stored:
                stored[shard].append(version_key(source_id, sha))
        # the next scan need not read these files again
        corpus.record_stats(
            session, scan, {key for keys in stored.values() for key in keys}, shards
        )
    bad = sorted((f for f in files if f.error is not None), key=lambda f: f.key)
    context.log.info(
        f"{len(shards)} shard(s): {new_versions} source versions newly stored, "
        f"{rederived} re-derived by a newer converter, {len(bad)} bad file(s)"
    )
    for shard in context.partition_keys:  # what each shard's partition did, for the UI
        done = sorted(f.key for f in new if f.shard == shard)
        context.add_asset_metadata(
            {
                "new_versions": len(done),
                "stored_versions": len(stored[shard]),
                # what the store held: `claims run` notes a deleted store from these
                "stored_version_keys": dg.MetadataValue.json(sorted(stored[shard])),
                "bad_files": sum(1 for f in bad if f.shard == shard),
                "preview": dg.MetadataValue.md(_keys_preview(done)),
            },
            partition_key=shard,
        )
    return dg.MaterializeResult(
        metadata={
            "shards": len(shards),
            "new_versions_in_run": new_versions,
            "rederived_versions_in_run": rederived,
            "bytes": sum(len(source.data) for source in new_sources),
            # each bad file with its ingest error (which already names the path and line);
            # the source_files_readable check of this run reports them
            "bad_file_errors": dg.MetadataValue.json(
                {f.key: f.error or f"{f.path}: unreadable" for f in bad}
            ),
        },
    )


def _keys_preview(keys: list[str], limit: int = 10) -> str:
    if not keys:
        return "nothing new"
    lines = ["| source version |", "|---|", *(f"| {key} |" for key in keys[:limit])]
    if len(keys) > limit:
        lines.append(f"| and {len(keys) - limit} more |")
    return "\n".join(lines)
