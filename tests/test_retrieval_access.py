"""The access file, the visibility rule and the claim_status read model."""

from __future__ import annotations

from pathlib import Path

import pytest
from retrieval_corpus import Corpus
from sqlalchemy import Engine, select

from claims.errors import AuthError, InputError
from claims.models import Requester
from claims.tables import ClaimStatusRow
from retrieval.access import load_access_config, new_token, source_visible, token_digest
from retrieval.read_model import build_claim_status


def test_public_sources_are_visible_and_granted_ones_need_a_shared_group() -> None:
    fay = Requester(principal="fay", groups=["finance"])
    assert source_visible([], False, fay)
    assert source_visible(["finance", "legal"], False, fay)
    assert not source_visible(["legal"], False, fay)
    assert not source_visible([], True, fay)  # withdrawn: evidence for nobody


def test_tokens_map_to_principals_through_their_sha256_only(tmp_path: Path) -> None:
    token, digest = new_token()
    assert digest == token_digest(token) and len(token) >= 40
    path = tmp_path / "access.yaml"
    path.write_text(
        f"default_principal: fay\nprincipals:\n  fay:\n    groups: [finance]\n"
        f"    tokens_sha256: [{digest}]\n  otto: {{}}\n",
        encoding="utf-8",
    )
    config = load_access_config(path)
    assert token not in path.read_text(encoding="utf-8")
    assert config.requester_for_token(token) == Requester(principal="fay", groups=["finance"])
    assert config.requester(None).principal == "fay"
    assert config.requester("otto").groups == []
    with pytest.raises(AuthError):
        config.requester_for_token(token + "x")
    with pytest.raises(AuthError):
        config.requester_for_token(None)
    with pytest.raises(InputError, match="principal 'mallory' is not in the access file"):
        config.requester("mallory")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("principals: [a, b]\n", "principals: expected a mapping"),
        ("principals:\n  fay:\n    groups: finance\n", "principals.fay.groups"),
        ("principals:\n  fay:\n    tokens_sha256: [plaintext-token]\n", "64 hex characters"),
        ("default_principal: ghost\nprincipals: {}\n", "default_principal"),
        ("principals: {fay: {groups: [a]\n", "line"),
    ],
)
def test_bad_access_files_name_the_file_and_field(tmp_path: Path, text: str, fragment: str) -> None:
    path = tmp_path / "access.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_access_config(path)
    assert str(path) in str(caught.value) and fragment in str(caught.value)


def test_missing_access_file_means_anonymous_only(tmp_path: Path) -> None:
    config = load_access_config(tmp_path / "absent.yaml")
    assert config.requester(None).principal == "anonymous"
    with pytest.raises(AuthError):
        config.requester_for_token("anything")


def test_read_model_is_the_status_everyone_would_see_and_rebuilds_idempotently(
    engine: Engine,
) -> None:
    corpus = Corpus()
    corpus.source("a")
    corpus.source("b", ["finance"])
    corpus.source("gone", withdrawn=True)
    ca = corpus.claim(corpus.version("a"), "k", 1, claim_id="ca")
    cb = corpus.claim(corpus.version("b"), "k", 2, claim_id="cb")
    corpus.claim(corpus.version("gone"), "k", 3, claim_id="cg")
    corpus.claim(corpus.version("a"), "other", 9, claim_id="co")
    corpus.edge("conflicts", ca, cb)
    corpus.write(engine)

    def rows() -> list[tuple[str, str]]:
        with engine.connect() as conn:
            stmt = select(ClaimStatusRow.claim_id, ClaimStatusRow.status)
            return sorted(tuple(r) for r in conn.execute(stmt))  # type: ignore[misc]

    with engine.begin() as conn:
        assert build_claim_status(conn) == {"contested": 2, "none": 1}
    first = rows()
    assert first == [("ca", "contested"), ("cb", "contested"), ("co", "none")]
    with engine.begin() as conn:
        assert build_claim_status(conn, ["k"]) == {"contested": 2}
    assert rows() == first
