"""Counterparts: two claim keys of one page subject that state one attribute.

A page's sentences describe one figure in more or fewer words: "Its summit elevation is
2,350 m." and "The elevation is 2,100 m." key the heights as ``... summit elevation`` and
``... elevation``, two keys the builder's attribute similarity holds for two attributes that
are only *similar* (a disagreement between them is ``ambiguous``, never a conflict). On
encyclopedia pages the reference profile lends the edge builder this judge, which says when
two such keys are **one attribute**, so the builder compares them as values of one key:

- both claims name one entity (the page's subject, or one name both sentences state) and
  state one kind of value (a quantity of one dimension, or a date; a bare number is of the
  dimension of a count of its head noun: "4,120" tests conducted / "4,121 tests");
- their attributes share the head noun (the last word, inflections aside: "rating" /
  "ratings"), which is the builder's near-miss block (the coarse key), and
- the modifiers before it are the same but for words on **one side only** ("summit", a
  modifier added): two different modifiers ("approval rating" / "average rating") name two
  attributes, and so does a modifier that makes another measure of the noun ("average",
  "total", "first", "annual": ``data/counterparts.yaml``).

Nothing else is matched: a pair that shares only a value kind or a unit ("the crate weighs
9 kg" / "the crate holds 9 kg of flour") has two head nouns and never meets here. The
builder asks this only inside one near-miss block, for the claims of one entity and one
dimension there, at most ``builder.MAX_COUNTERPART_KEYS`` keys (docs/EDGES.md,
"Counterparts under the reference profile").
"""

from __future__ import annotations

from functools import lru_cache

from claims.edges.facts import ClaimFacts
from claims.edges.similarity import inflections
from claims.reference.resources import read_yaml

# value kinds two wordings of one attribute are matched by (a label or a polarity is
# compared by its key: its words are its value)
KINDS = ("quantity", "date")


@lru_cache(maxsize=1)
def other_measures() -> frozenset[str]:
    """Modifiers that make another measure of a head noun ("average", "total")."""
    words = read_yaml("counterparts.yaml").get("other_measures") or []
    return frozenset(str(w).casefold() for w in words)


def counted_alike(x: ClaimFacts, y: ClaimFacts) -> bool:
    """A bare number against a count of the noun the bare number's attribute names ("the
    tests conducted: 4,120" / "4,121 tests"): one dimension."""
    for bare, counted in ((x, y), (y, x)):
        if not bare.dimension and counted.dimension.startswith("count:"):
            noun = counted.dimension.split(":", 1)[1]
            if inflections(noun, bare.attribute.split()[-1]):
                return True
    return False


def one_attribute(x: ClaimFacts, y: ClaimFacts) -> str | None:
    """Why the claim keys of ``x`` and ``y`` state one attribute of one entity (see
    module), or None."""
    if not x.entity or x.entity != y.entity or x.claim_key == y.claim_key:
        return None
    if x.kind != y.kind or x.kind not in KINDS:
        return None
    a, b = x.attribute.split(), y.attribute.split()
    if not a or not b or not inflections(a[-1], b[-1]):
        return None
    if x.dimension != y.dimension and not counted_alike(x, y):
        return None
    mods_a, mods_b = set(a[:-1]), set(b[:-1])
    if mods_a - mods_b and mods_b - mods_a:
        return None  # a modifier on each side: two attributes
    added = sorted(mods_a ^ mods_b)
    if not added or set(added) & other_measures():
        return None
    return f"one attribute of {x.entity!r}, the modifier {' '.join(added)!r} on one side only"
