"""The ``reference`` profile: what reference articles (encyclopedia pages) add to the core.

Chosen per source or per folder in the register (``profile: reference``, docs/REGISTER.md)
or for one command (``claims extract --profile reference``). Importing this module
registers the profile's spaCy components (``components``).
"""

from __future__ import annotations

from claims.profiles import EdgeJudges, NameForms, PlainProfile
from claims.reference import components  # noqa: F401  (registers the spaCy factories)
from claims.reference.captions import caption_spans
from claims.reference.counterparts import one_attribute
from claims.reference.given_names import is_given_name, name_forms, same_given_name
from claims.reference.name_spellings import spelling_keys
from claims.reference.pages import PageEvidence, evidence_pages
from claims.reference.section_headings import section_starts
from claims.reference.stance import StanceWords


def caption_seams(text: str) -> list[int]:
    """A caption in square brackets is a sentence of its own, and so is what follows it."""
    return [edge for span in caption_spans(text) for edge in span]


REFERENCE = PlainProfile(
    name="reference",
    claim_components=("reference_relations", "reference_records", "reference_became"),
    page_components=("reference_opening",),
    stance=StanceWords(),
    edge_judges=EdgeJudges(
        namesake_pages=PageEvidence, evidence_pages=evidence_pages, counterparts=one_attribute
    ),
    name_forms=NameForms(
        is_given_name=is_given_name,
        same_given_name=same_given_name,
        name_forms=name_forms,
        spelling_keys=spelling_keys,
    ),
    seams=(caption_seams, section_starts),
)
