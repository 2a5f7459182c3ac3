"""The retrieval HTTP API: tokens, one error shape, hidden == missing, OpenAPI == responses."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from retrieval_corpus import Corpus

from claimledger.web import create_app
from claims.settings import Settings
from claims.store import make_engine
from retrieval.access import token_digest
from tests.store_template import upgrade  # a copy of a store migrated once

KEY = "output limit"
TOKENS = {
    "fay": "fay-token-0c7d5e1f9a2b4c6d8e0f1a3b5c7d9e1f",
    "otto": "otto-token-6e4c2a0f8d6b4a2c0e8f6d4b2a0c8e6f",
    "ops": "ops-token-1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d",
}


def _settings(data_dir: Path) -> Settings:
    """Settings of a data dir holding the access file and a store with the small corpus:
    two sources disagree about the output limit, the second one finance-only."""
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "access.yaml").write_text(
        "principals:\n"
        + "".join(
            f"  {name}:\n    groups: [{groups}]\n"
            f"    tokens_sha256: [{token_digest(TOKENS[name])}]\n"
            for name, groups in (("fay", "finance"), ("otto", ""), ("ops", "ops"))
        ),
        encoding="utf-8",
    )
    url = f"sqlite:///{data_dir / 'claims.db'}"
    upgrade(url)
    corpus = Corpus()
    corpus.source("a")
    corpus.source("restated", ["finance"])
    ca = corpus.claim(corpus.version("a"), KEY, 250, claim_id="ca", span=(0, 30))
    cr = corpus.claim(corpus.version("restated"), KEY, 500, claim_id="cr")
    corpus.edge("conflicts", ca, cr)
    engine = make_engine(url)
    corpus.write(engine)
    engine.dispose()
    return Settings(data_dir=data_dir, database_url=url, access_file=data_dir / "access.yaml")


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    return _settings(tmp_path_factory.mktemp("retrieval-http") / ".claims")


@pytest.fixture(scope="module")
def client(settings: Settings) -> Iterator[TestClient]:
    """One app (and one start-up) for the module: the tests only read the store, and no
    request changes what another one gets back (the metrics counters, which do count
    every request, are read through ``fresh_client``)."""
    with TestClient(create_app(settings)) as test_client:
        yield test_client


@pytest.fixture
def fresh_client(settings: Settings) -> Iterator[TestClient]:
    """A new app over the module's store: its request counters start at zero."""
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def auth(name: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKENS[name]}"}


def status(client: TestClient, who: str, **params: str) -> Any:
    return client.get("/api/status", params=params, headers=auth(who))


def test_status_is_computed_over_what_the_token_may_see(client: TestClient) -> None:
    fay = status(client, "fay", claim="ca")
    otto = status(client, "otto", claim="ca")
    assert fay.status_code == otto.status_code == 200
    assert fay.json()["status"] == "contested"
    assert [s["source_ids"] for s in fay.json()["sides"]] == [["a"], ["restated"]]
    assert otto.json()["status"] == "none"
    assert "restated" not in otto.text and "cr" not in otto.text


def test_hidden_and_unknown_ids_give_the_same_404(client: TestClient) -> None:
    hidden = status(client, "otto", claim="cr")
    unknown = status(client, "otto", claim="zz")
    assert hidden.status_code == unknown.status_code == 404
    assert hidden.json() == {"error": {"code": "not_found", "message": "claim 'cr' not found"}}
    assert unknown.json()["error"]["message"] == "claim 'zz' not found"
    assert status(client, "otto", source="restated").json() == {
        "error": {"code": "not_found", "message": "source 'restated' not found"}
    }
    assert status(client, "fay", source="restated").status_code == 200


def test_missing_or_invalid_tokens_are_401(client: TestClient) -> None:
    for headers in ({}, {"Authorization": "Bearer not-a-token"}, {"Authorization": "Basic eA=="}):
        response = client.post("/api/answer", json={"question": "What is it?"}, headers=headers)
        assert response.status_code == 401
        assert response.json()["error"]["code"] == "unauthorized"
        assert response.headers["www-authenticate"] == "Bearer"
    assert client.get("/api/status", params={"claim": "ca"}).status_code == 401


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "must be a JSON object"),
        (b'{"question": 7}', "question"),
        (b'{"question": "What?", "extra": 1}', "extra"),
        (b'{"question": "' + b"x" * 2000 + b'"}', "the limit is 1000"),
        (b'{"question": "\\u0000 limit?"}', "not text"),
        (b'{"question": "?!?"}', "no words"),
        (b'{"question": "What?", "effective": "yesterday"}', "effective"),
    ],
)
def test_bad_answer_requests_get_one_error_shape(
    client: TestClient, body: bytes, fragment: str
) -> None:
    response = client.post(
        "/api/answer", content=body, headers={**auth("fay"), "Content-Type": "application/json"}
    )
    assert response.status_code == 422, response.text
    assert set(response.json()) == {"error"}
    assert response.json()["error"]["code"] == "invalid_request"
    assert fragment in response.json()["error"]["message"]


def test_huge_bodies_are_refused_before_parsing(client: TestClient) -> None:
    response = client.post("/api/answer", content=b"{" + b" " * 70_000 + b"}", headers=auth("fay"))
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "payload_too_large"


def test_questions_in_other_scripts_are_answered_not_rejected(client: TestClient) -> None:
    response = client.post(
        "/api/answer", json={"question": "通知期間は何日ですか"}, headers=auth("fay")
    )
    assert response.status_code == 200
    assert response.json()["status"] == "not_found"


@pytest.mark.parametrize(
    ("params", "fragment"),
    [
        ({}, "exactly one"),
        ({"claim": "ca", "key": KEY}, "exactly one"),
        ({"source": "a", "start": "3"}, "both start and end"),
        ({"source": "a", "start": "-1", "end": "4"}, "non-negative integer"),
        ({"claim": "ca", "known_at": "noon"}, "known_at"),
    ],
)
def test_bad_status_queries_get_one_error_shape(
    client: TestClient, params: dict[str, str], fragment: str
) -> None:
    response = status(client, "fay", **params)
    assert response.status_code == 422
    assert fragment in response.json()["error"]["message"]


def test_passage_status_over_http(client: TestClient) -> None:
    report = status(client, "fay", source="a", start="0", end="5").json()
    assert report["target"] == {
        "kind": "passage",
        "id": "a",
        "version": 1,
        "span": {"start": 0, "end": 5},
    }
    assert report["status"] == "contested"


def _schema_fields(schema: dict[str, Any], name: str) -> set[str]:
    return set(schema["components"]["schemas"][name]["properties"])


def test_openapi_schema_fields_equal_the_returned_fields(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    answer_route = schema["paths"]["/api/answer"]["post"]
    assert answer_route["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Answer"
    }
    assert (
        "question"
        in answer_route["requestBody"]["content"]["application/json"]["schema"]["properties"]
    )
    answered = client.post(
        "/api/answer", json={"question": "What is the output limit?"}, headers=auth("fay")
    )
    assert set(answered.json()) == _schema_fields(schema, "Answer")
    side = answered.json()["sides"][0]
    assert set(side) == _schema_fields(schema, "Side")
    assert set(side["citations"][0]) == _schema_fields(schema, "Citation")
    report = status(client, "fay", claim="ca").json()
    assert set(report) == _schema_fields(schema, "StatusReport")
    assert set(report["claims"][0]) == _schema_fields(schema, "ClaimStatus")
    error = status(client, "fay", claim="zz").json()
    assert set(error) == _schema_fields(schema, "ErrorResponse")
    assert set(error["error"]) == _schema_fields(schema, "ErrorBody")
    for path in ("/api/answer", "/api/status"):
        for verb in schema["paths"][path].values():
            assert {"401", "404", "422"} <= set(verb["responses"])


def test_metrics_are_for_the_metrics_group_only(fresh_client: TestClient) -> None:
    client = fresh_client
    client.post("/api/answer", json={"question": "What is the output limit?"}, headers=auth("fay"))
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", headers=auth("fay")).status_code == 403
    response = client.get("/metrics", headers=auth("ops"))
    assert response.status_code == 200
    text = response.text
    assert 'claimledger_visible_evidence_coverage{principal="fay"} 1.0' in text
    assert 'claimledger_visible_evidence_coverage{principal="otto"} 0.5' in text
    assert 'claimledger_visible_conflicts{principal="fay"} 1.0' in text
    assert 'claimledger_visible_conflicts{principal="otto"} 0.0' in text
    assert 'claimledger_answers_total{status="conflict"} 1.0' in text
    assert 'claimledger_answer_citations_per_side_count{status="conflict"} 2.0' in text
    assert "claimledger_review_conflict_candidates" in text


def test_as_of_parameters_reach_the_status_and_the_answer(client: TestClient) -> None:
    before = status(client, "fay", claim="ca", known_at="2025-12-31T00:00:00Z")
    assert before.status_code == 404  # the store did not know the claim yet
    now = status(client, "fay", claim="ca", known_at="2026-01-02T00:00:00+00:00").json()
    assert now["as_of"]["known_at"].startswith("2026-01-02") and now["status"] == "contested"
    dated = client.post(
        "/api/answer",
        json={"question": "What is the output limit?", "effective": "2026-06-01"},
        headers=auth("fay"),
    ).json()
    assert dated["as_of"]["effective"] == "2026-06-01" and dated["status"] == "conflict"
    assert status(client, "fay", source="a", version="1").json()["target"]["version"] == 1
    assert status(client, "fay", source="a", version="2").status_code == 404
