"""Application settings, read from the environment (prefix ``CLAIMS_``) once per process."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATA_DIR = Path(".claims")


class Settings(BaseSettings):
    """Every knob an operator can turn, with the embedded defaults."""

    model_config = SettingsConfigDict(env_prefix="CLAIMS_", extra="ignore")

    data_dir: Path = Field(DEFAULT_DATA_DIR, description="Where the embedded database lives.")
    database_url: str | None = Field(
        None,
        description="SQLAlchemy URL of the claim store; default sqlite:///<data_dir>/claims.db. "
        "Use postgresql+psycopg://user:pass@host/db for PostgreSQL.",
    )
    max_source_bytes: int = Field(
        5 * 1024 * 1024,
        description="Largest .txt/.md source file accepted by ingest, and largest text a "
        ".docx, .pdf or .html file may convert to, in bytes.",
    )
    max_document_bytes: int = Field(
        50 * 1024 * 1024,
        description="Largest .docx, .pdf or .html file accepted by ingest, in bytes (images "
        "make such files large; their text is bounded by max_source_bytes).",
    )
    spacy_model: str | None = Field(
        None, description="Name of an installed trained spaCy pipeline to improve extraction."
    )
    reviewer: str | None = Field(None, description="Default reviewer name for `claims review`.")
    reviewers_file: Path | None = Field(
        None,
        description="YAML file of reviewers and password hashes (docs/REVIEW.md); "
        "default <data_dir>/reviewers.yaml when that file exists.",
    )
    access_file: Path | None = Field(
        None,
        description="YAML file of retrieval principals, groups and bearer-token hashes "
        "(docs/RETRIEVAL.md); default <data_dir>/access.yaml.",
    )
    max_question_chars: int = Field(1000, description="Longest question `claims ask` accepts.")
    probes_file: Path | None = Field(
        None,
        description="Known-conflict probes the pipeline asks after every run (docs/RETRIEVAL.md); "
        "default: retrieval/known_conflicts.yaml.",
    )
    policy_file: Path | None = Field(None, description="Authority policy applied by `claims run`.")
    register_file: Path | None = Field(None, description="Source register applied by `claims run`.")
    sources_dir: Path | None = Field(None, description="Directory the pipeline sensor watches.")

    @property
    def resolved_reviewers_file(self) -> Path | None:
        if self.reviewers_file is not None:
            return self.reviewers_file
        default = self.data_dir / "reviewers.yaml"
        return default if default.exists() else None

    @property
    def resolved_access_file(self) -> Path:
        return self.access_file if self.access_file is not None else self.data_dir / "access.yaml"

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'claims.db').as_posix()}"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings (cached; tests call ``get_settings.cache_clear()``)."""
    return Settings()
