"""What every block reader needs: the document, the pipeline and the claims' provenance."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from claims.documents.model import Document
from claims.ids import stable_id_maker

if TYPE_CHECKING:
    from spacy.language import Language

    from claims.models import Claim


@dataclass
class ReadContext:
    """One document being read: ``run(text)`` is the sentence reader on another text (the
    same pipeline, the same provenance), which the label-line reader feeds with rewritten
    lines."""

    document: Document
    nlp: Language
    run: Callable[[str], list[Claim]]
    source_id: str | None
    source_version_id: str | None
    generation: str
    claim_id: Callable[..., str] = field(init=False)

    def __post_init__(self) -> None:
        self.claim_id = stable_id_maker("cl", self.source_version_id, self.generation)

    @property
    def text(self) -> str:
        return self.document.text
