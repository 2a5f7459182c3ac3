"""End to end through a real client: `dagster dev` in its own process group, a run launched
through the webserver's GraphQL API, asset metadata read back through GraphQL."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from pipeline import corpus
from pipeline.instance import dagster_home
from pipeline.partitions import RANGE_END_TAG, RANGE_START_TAG, SHARDS
from tests.pipeline_support import make_world

ROOT = Path(__file__).resolve().parents[1]
LAUNCH = """
mutation Launch($params: ExecutionParams!) {
  launchRun(executionParams: $params) {
    __typename
    ... on LaunchRunSuccess { run { runId } }
    ... on PythonError { message }
    ... on InvalidSubsetError { message }
    ... on RunConfigValidationInvalid { errors { message } }
  }
}"""
RUN_STATUS = """
query Status($id: ID!) { runOrError(runId: $id) { __typename ... on Run { status } } }"""
METADATA = """
query Meta($path: [String!]!) {
  assetOrError(assetKey: {path: $path}) {
    ... on Asset {
      assetMaterializations(limit: 1) {
        runId
        metadataEntries {
          label
          ... on IntMetadataEntry { intValue }
          ... on TextMetadataEntry { text }
        }
      }
    }
  }
}"""
REPOSITORIES = """
query { repositoriesOrError { ... on RepositoryConnection {
  nodes { name location { name } } } } }"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class GraphQL:
    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.client = httpx.Client(timeout=30)

    def wait_until_up(self, process: subprocess.Popen[bytes], seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise AssertionError(f"dagster dev exited with {process.returncode}")
            try:
                if self.client.get(f"{self.base}/server_info").status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        raise AssertionError("dagster dev did not answer /server_info in time")

    def __call__(self, query: str, **variables: Any) -> dict[str, Any]:
        response = self.client.post(
            f"{self.base}/graphql", json={"query": query, "variables": variables}
        )
        response.raise_for_status()
        body = response.json()
        assert "errors" not in body, body["errors"]
        return body["data"]


@pytest.mark.slow
def test_run_launched_through_graphql_materializes_and_reports_metadata(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    # The instance `claims ui` uses: queued runs (the daemon launches them) and the pooled
    # SQLite event log the run worker writes and the webserver reads.
    home = dagster_home(tmp_path / "data")
    port = _free_port()
    env = {
        **os.environ,
        "DAGSTER_HOME": str(home),
        # the instance's event log class (pipeline.event_log) even without an installed package
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "CLAIMS_DATABASE_URL": world.database_url,
        "CLAIMS_SOURCES_DIR": str(world.corpus),
        "CLAIMS_REGISTER_FILE": str(world.register),
        "CLAIMS_SENSOR_RUNNING": "false",
        "CLAIMS_SCHEDULE_RUNNING": "false",
    }
    dagster = str(Path(sys.executable).parent / "dagster")
    log = (tmp_path / "dagster-dev.log").open("wb")
    process = subprocess.Popen(
        [dagster, "dev", "-w", str(ROOT / "workspace.yaml"), "-h", "127.0.0.1", "-p", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group, killed as a whole below
    )
    try:
        gql = GraphQL(port)
        gql.wait_until_up(process, 120)
        (repo,) = gql(REPOSITORIES)["repositoriesOrError"]["nodes"]
        selector = {
            "repositoryLocationName": repo["location"]["name"],
            "repositoryName": repo["name"],
        }

        keys = sorted(corpus.scan([world.corpus], world.register).files)

        params = {
            "selector": {**selector, "jobName": "claims_pipeline"},
            "runConfigData": {},
            "executionMetadata": {
                "tags": [
                    # every shard of the source set in one run
                    {"key": RANGE_START_TAG, "value": SHARDS[0]},
                    {"key": RANGE_END_TAG, "value": SHARDS[-1]},
                ]
            },
        }
        launched = gql(LAUNCH, params=params)["launchRun"]
        assert launched["__typename"] == "LaunchRunSuccess", launched
        run_id = launched["run"]["runId"]

        status = "STARTING"
        deadline = time.monotonic() + 120
        while status not in ("SUCCESS", "FAILURE", "CANCELED") and time.monotonic() < deadline:
            time.sleep(1)
            status = gql(RUN_STATUS, id=run_id)["runOrError"]["status"]
        assert status == "SUCCESS", (tmp_path / "dagster-dev.log").read_text()[-3000:]

        edges = gql(METADATA, path=["claim_edges"])["assetOrError"]["assetMaterializations"][0]
        assert edges["runId"] == run_id
        entries = {e["label"]: e.get("intValue", e.get("text")) for e in edges["metadataEntries"]}
        assert entries["mode"] == "full"
        assert entries["claim_keys_evaluated"] > 0
        claims = gql(METADATA, path=["claims"])["assetOrError"]["assetMaterializations"][0]
        claim_entries = {
            e["label"]: e.get("intValue", e.get("text")) for e in claims["metadataEntries"]
        }
        assert claim_entries["versions_in_run"] == len(keys)
        assert claim_entries["claims_in_run"] > 0
    finally:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
        # Background processes here may ignore SIGTERM: make sure the group is gone.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        log.close()
