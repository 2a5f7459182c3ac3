"""What every block reader needs: the document, the pipeline and the claims' provenance."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from claims.documents.model import Document
from claims.ids import stable_id_maker

if TYPE_CHECKING:
    from spacy.language import Language


@dataclass
class ReadContext:
    """One document being read: its structure, the pipeline, the claims' provenance."""

    document: Document
    nlp: Language
    source_id: str | None
    source_version_id: str | None
    generation: str
    claim_id: Callable[..., str] = field(init=False)

    def __post_init__(self) -> None:
        self.claim_id = stable_id_maker("cl", self.source_version_id, self.generation)

    @property
    def text(self) -> str:
        return self.document.text
