"""Extractor generations: which extraction run every reader sees (exactly one is active)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from claims.models import ExtractorGeneration, GenerationStatus
from claims.tables import ExtractorGenerationRow


def _to_model(row: ExtractorGenerationRow) -> ExtractorGeneration:
    return ExtractorGeneration(
        id=row.id,
        label=row.label,
        status=GenerationStatus(row.status),
        regression_report=dict(row.regression_report or {}),
        created_at=row.created_at,
        promoted_at=row.promoted_at,
    )


class GenerationRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def ensure(self, generation_id: str, label: str) -> ExtractorGeneration:
        """The generation row, created as a candidate if it is new."""
        row = self.session.get(ExtractorGenerationRow, generation_id)
        if row is None:
            row = ExtractorGenerationRow(
                id=generation_id,
                label=label,
                status=GenerationStatus.CANDIDATE.value,
                regression_report={},
                created_at=datetime.now(UTC),
            )
            self.session.add(row)
            self.session.flush()
        return _to_model(row)

    def get(self, generation_id: str) -> ExtractorGeneration | None:
        row = self.session.get(ExtractorGenerationRow, generation_id)
        return _to_model(row) if row else None

    def active(self) -> ExtractorGeneration | None:
        row = self.session.scalars(
            select(ExtractorGenerationRow).where(
                ExtractorGenerationRow.status == GenerationStatus.ACTIVE.value
            )
        ).first()
        return _to_model(row) if row else None

    def promote(self, generation_id: str, report: dict[str, Any]) -> None:
        """Make ``generation_id`` the one readers see; the previous active one is retired."""
        self.session.execute(
            update(ExtractorGenerationRow)
            .where(ExtractorGenerationRow.status == GenerationStatus.ACTIVE.value)
            .where(ExtractorGenerationRow.id != generation_id)
            .values(status=GenerationStatus.RETIRED.value)
        )
        row = self.session.get(ExtractorGenerationRow, generation_id)
        if row is None:
            raise KeyError(generation_id)
        row.status = GenerationStatus.ACTIVE.value
        row.regression_report = report
        row.promoted_at = datetime.now(UTC)
        self.session.flush()

    def record_regression(self, generation_id: str, report: dict[str, Any]) -> None:
        """Keep ``report`` as the generation's regression outcome, its status unchanged (an
        active generation checked again under changed rules)."""
        row = self.session.get(ExtractorGenerationRow, generation_id)
        if row is None:
            raise KeyError(generation_id)
        row.regression_report = report
        self.session.flush()

    def fail(self, generation_id: str, report: dict[str, Any]) -> None:
        row = self.session.get(ExtractorGenerationRow, generation_id)
        if row is None:
            raise KeyError(generation_id)
        row.status = GenerationStatus.FAILED.value
        row.regression_report = report
        self.session.flush()
