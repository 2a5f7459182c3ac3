"""What a page's figure measures, when the sentence reader keyed it by the subject's name.

Under a page title the subject of a claim is known (``page_title.py``); two classes of
wording still give two sentences about one figure of it two claim keys:

* **a word of the subject's name read as the attribute**: "The Quiet Harbour grossed
  $3 million" keys the money as ``quiet harbour (2009 film) harbour`` (the title's last
  word), the verb left among the qualifiers; "Under 40 critics reviewed The Quiet Harbour"
  as ``... review harbour``. The name's words (and the nouns of the page's kind, "film")
  measure nothing: they are dropped from the attribute. An attribute left empty is, for an
  amount of money, what the money is (``gross``, the verb of earning dropped from the
  qualifiers), for a count, the noun it counts ("37 reviews": ``review``; also when only a
  measure head is left, "the number of deaths": ``died`` by attributes.yaml), for a length
  stated by a verb of height, the elevation ("The ridge rises to 2,100 m",
  ``height_verbs``); otherwise the claim stays as read.
* **a verb of earning for money**: a work "made", "earned", "took" or "collected" an
  amount where the other sentence says it "grossed" it (``data/counterparts.yaml``,
  ``earning_verbs``): a quantity of money keyed by one of these verbs is keyed by the
  attribute they share (``gross``). Only money: "made 14 points" stays its own attribute.

A count keyed by its verb alone ("confirmed 61 cases": ``confirm``) is keyed by the verb and
the noun it counts (``confirm case``), so it meets the plain count ("61 cases") as a
modifier added on one side (``counterparts.py``).

A noun of a kind of work among the qualifiers ("the movie The Quiet Harbour grossed ...":
"movie") names the subject too and is dropped (the media nouns of
``claims/edges/predicates.yaml``).

These only reword the key of a claim about the page's subject; its qualifiers (where, when,
"worldwide") stay and still tell two figures apart by the edge rules.
"""

from __future__ import annotations

from functools import lru_cache

from claims.edges.compare import medium_words
from claims.extraction.identity import attribute_lexicon, lemma
from claims.models import Claim, ValueKind
from claims.reference.page_title import PageTitle
from claims.reference.resources import read_yaml


@lru_cache(maxsize=4)
def _verbs(name: str) -> tuple[frozenset[str], str]:
    """A class of verbs of ``data/counterparts.yaml`` and the attribute they state."""
    data = read_yaml("counterparts.yaml").get(name) or {}
    words = frozenset(str(w).casefold() for w in data.get("verbs") or [])
    return words, str(data.get("attribute") or "")


def _earning() -> tuple[frozenset[str], str]:
    return _verbs("earning_verbs")


def _verb(claim: Claim) -> str:
    """The key form of the claim's verb ("rises" -> "rise"), or ""."""
    words = (claim.predicate or "").split()
    return lemma(words[-1]) if words else ""


def _money(claim: Claim) -> bool:
    """A quantity in a currency (its dimension is the currency's code: "USD")."""
    dimension = claim.dimension or ""
    return (
        claim.kind is ValueKind.QUANTITY
        and len(dimension) == 3
        and dimension.isalpha()
        and dimension.isupper()
    )


def _counted(claim: Claim) -> str:
    """The noun a count counts ("count:review" -> "review"), or ""."""
    dimension = claim.dimension or ""
    if claim.kind is not ValueKind.QUANTITY or not dimension.startswith("count:"):
        return ""
    return dimension.split(":", 1)[1]


def _counted_attribute(claim: Claim) -> str:
    """The attribute the noun a count counts names ("count:death" -> "died",
    attributes.yaml), or the noun itself."""
    noun = _counted(claim)
    return attribute_lexicon().phrases.get((noun,), noun)


def page_attributes(claims: list[Claim], page: PageTitle) -> list[Claim]:
    """``claims`` about the page's subject with their attribute read as described above:
    the subject an opening names, or a topic page's place (or no entity, when its place is
    a known region)."""
    opening = page.opening
    if opening is not None:
        subject: str | None = opening.entity
        names = {w for alias in (opening.entity, *opening.aliases) for w in _name_words(alias)}
        names |= opening.kinds  # "the film": a noun of the page's kind names the subject
    else:
        subject = page.place
        names = set(page.words) | set(_name_words(page.place or ""))
    if not names:
        return claims
    return [_reread(claim, subject, names) for claim in claims]


def _name_words(alias: str) -> list[str]:
    name = alias.split("(", 1)[0]
    return [w for w in name.replace(",", " ").split() if w]


@lru_cache(maxsize=1)
def _extent_words() -> dict[str, str]:
    data = read_yaml("counterparts.yaml").get("extent_words") or {}
    return {str(w).casefold(): str(fold) for fold, words in data.items() for w in words or []}


def _reread(claim: Claim, subject: str | None, names: set[str]) -> Claim:
    if claim.entity != subject or not claim.attribute or claim.kind is not ValueKind.QUANTITY:
        return claim
    words = claim.attribute.split()
    kept = [w for w in words if w not in names]
    # "the movie The Quiet Harbour grossed ...": a noun of a kind of work beside the
    # subject's name names the subject, it qualifies nothing
    residual = [w for w in claim.scope_residual if w not in medium_words()]
    verbs, gross = _earning()
    if _money(claim):
        # "grossed $52 million worldwide": where the money was taken qualifies the gross
        extent = _extent_words()
        residual += [extent[w] for w in kept if w in extent and extent[w] not in residual]
        residual = [extent.get(w, w) for w in residual]
        kept = [w for w in kept if w not in extent]
    if not kept and _money(claim):
        kept = [gross]  # "The Quiet Harbour grossed $3 million": what the money is
        residual = [w for w in residual if w not in verbs]
    elif _counted(claim) and all(w in attribute_lexicon().measure_heads for w in kept):
        kept = [_counted_attribute(claim)]  # "... has 37 reviews": what the count counts
    elif _counted(claim) and kept == [_verb(claim)] and _counted_attribute(claim) not in kept:
        kept = [kept[0], _counted_attribute(claim)]  # "confirmed 61 cases": confirm case
    elif not kept and claim.dimension == "length" and _verb(claim) in _verbs("height_verbs")[0]:
        kept = [_verbs("height_verbs")[1]]  # "The ridge rises to 2,100 m": its elevation
    elif not kept:
        return claim
    if len(kept) == 1 and kept[0] in verbs and _money(claim):
        kept = [gross]
    if kept == words and residual == list(claim.scope_residual):
        return claim
    attribute = " ".join(kept)
    return claim.model_copy(
        update={
            "attribute": attribute,
            "claim_key": f"{subject} {attribute}" if subject else attribute,
            "coarse_key": kept[-1],
            "scope_residual": residual,
        }
    )
