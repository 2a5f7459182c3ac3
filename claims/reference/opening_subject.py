"""A page's subject where the page names it outside its opening sentence
(``claims.reference.opening``): its title, a heading, an information box, a Wikidata label
in its footer; and whether a name read in the page is that subject."""

from __future__ import annotations

from dataclasses import replace

from claims.extraction.entity_refs import qualified
from claims.extraction.identity import fold_name, name_tokens
from claims.extraction.question_frames import name_suffixes
from claims.extraction.resources import resources
from claims.models import (
    Claim,
)
from claims.reference.infobox import (
    box_subject,
    header_subject,
)
from claims.reference.opening_words import (
    _HEADING,
    _PAGE_TITLE,
    Opening,
    _is_capitalised,
    _words,
)
from claims.reference.page_footer import (
    footer_title,
    wikidata_label,
)


def _with_page(opening: Opening | None, page: Opening | None) -> Opening | None:
    """The text's opening as the page's title names its subject, when the opening names it
    (by an alias, or a person by the surname: "Okafor was born in ..." on the page of
    "Ada Okafor"): the title tells it from its namesakes."""
    if opening is None or page is None:
        return opening
    if opening.entity not in page.aliases and not (
        page.person and _ends_the_name(opening.entity, page.entity)
    ):
        return opening
    return replace(
        opening,
        entity=page.entity,
        aliases=opening.aliases | page.aliases | {opening.entity},
        kinds=opening.kinds | page.kinds,
        person=opening.person or page.person,
    )


def _names_the_subject(claim: Claim, entity: str, opening: Opening, in_opening: bool) -> bool:
    """Whether ``claim``'s entity (``entity``, another name than the subject's key) names
    the opening's subject, so the claim is keyed by the subject:

    * "Harbour Songs (album) Harbour Songs (sometimes subtitled "Tunes Gathered
      from ...") is a compilation album, released ... on 1 March 2011": in the opening, the
      sentence parser read the title and its brackets as one long name ("harbour song album
      sometime subtitle tune gather") (``_extends_a_name``; "X X is a Y" read whole, with
      no attribute, is not);
    * "Ashby Township" in an article titled "Ashby Township, Lorne County,
      Michigan" is that township: the title tells it from its namesakes (an alias);
    * "Ashby made his first-class debut ... in 1911" on the page of "Tom Ashby
      (cricketer, born 1807)": a biography names its subject by the surname after the first
      mention (``_ends_the_name``), and the title tells this Ashby from his namesakes."""
    if entity == opening.entity or not claim.claim_key.startswith(entity):
        return False
    if (
        in_opening
        and claim.claim_key != entity
        and claim.attribute != entity
        and _extends_a_name(entity, opening)
    ):
        return True
    if entity in opening.aliases:
        return True
    return (
        opening.person
        and not opening.late
        and claim.claim_key.startswith(entity + " ")
        and _ends_the_name(entity, opening.entity)
    )


def _ends_the_name(entity: str, subject: str) -> bool:
    """Whether ``entity`` is the last words of the person ``subject``'s name, fewer than all
    ("oscroft" of "john oscroft (cricketer, born 1807)", "thomas oscroft" of "john thomas
    oscroft"; a "jr" or "iii" after the name aside), or a middle name the person is known
    by ("reinhold" of "carl reinhold roth"). The first name alone is not: a family's pages
    name a son or a father by it."""
    name = subject.split(" (")[0].split(",")[0].split()
    while len(name) > 1 and name[-1] in name_suffixes():
        name.pop()
    words = entity.split()
    if len(words) == 1 and len(name) > 2 and words[0] in name[1:-1] and len(words[0]) > 2:
        return True
    return 0 < len(words) < len(name) and name[-len(words) :] == words


def _extends_a_name(entity: str, opening: Opening) -> bool:
    """Whether an entity read in the opening sentence is the subject's name with more words
    after it (the title's bracket and an aside read into the name: every word of the
    subject's name first, then at least one more), or its name cut short before a number
    the sentence parser took for a time ("Harbour Songs 2013 is the second album,
    released on May 1, 2013": "harbour song" for "harbour song 2013")."""
    words = entity.split()
    for alias in opening.aliases:
        name = alias.split()
        if len(name) < len(words) and words[: len(name)] == name:
            return True
        if len(words) < len(name) and name[: len(words)] == words and name[len(words)].isdigit():
            return True
    return False


def _value_at(claim: Claim) -> tuple[int, int]:
    """Where a claim's value stands (its whole quote when no value span is kept)."""
    where = claim.value_span if claim.value_span is not None else claim.span
    return where.start, where.end


def _heading_subject(text: str, source_id: str | None = None) -> Opening | None:
    """The subject a page's fields are about when it has no opening and no saved-page
    title: its first line, when that is a heading ("Anna Smith", "# Riverside Depot")
    followed by more lines. Used for the box's fields only: a heading of an intranet
    page ("Board update: third quarter 2025") is no entity its sentences are about.
    A saved page's chrome lines before it ("From Wikipedia, the free encyclopedia",
    "(Redirected from ...)") are skipped; a heading under them is known as named in that
    page only (``source_id``), like a box's naming field: no title tells it from its
    namesakes."""
    at, chrome = 0, False
    while True:
        end = text.find("\n", at)
        line = text[at : len(text) if end < 0 else end].strip()
        if end < 0 or not any(line.startswith(c) for c in _words().chrome_lines):
            break
        at, chrome = end + 1, True
    match = _HEADING.match(text, at)
    if match is None:
        return None
    name = match.group("title").strip()
    words = name.split()
    if not 1 <= len(words) <= 8 or not all(
        _is_capitalised(w) or w in _words().connectors for w in words
    ):
        return None
    entity = fold_name(name_tokens(name), resources().stopwords)
    if not entity:
        return None
    aliases = frozenset({entity})
    if chrome and source_id:
        entity = qualified(entity, local_to=source_id)
    return Opening(
        entity=entity,
        name=name,
        sentence=(match.start("title"), match.end("title")),
        aliases=aliases,
    )


def _named_in_box(text: str, source_id: str | None) -> Opening | None:
    """The subject of a box on a page with no opening, no title and no heading, as the box
    names it ("Name in native language Arthur Penrose", "Full name Lin Daiwei"). Known as
    named in this page only, like a late opening's subject: no title tells it from its
    namesakes (two footballers named Lin Daiwei), so its fields conflict with no other
    page's, and a question naming it finds it beside the titled articles of that name."""
    found = box_subject(text)
    if found is None:
        return None
    name, start, end = found
    entity = fold_name(name_tokens(name), resources().stopwords)
    if not entity or not _is_capitalised(name):
        return None
    aliases = frozenset({entity, entity.split(",")[0]})
    if source_id:
        entity = qualified(entity, local_to=source_id)
    return Opening(entity=entity, name=name, sentence=(start, end), aliases=aliases)


def _title_subject(text: str) -> Opening | None:
    """The subject of a page with no opening sentence, from its title line ("Arthur
    Penrose, 3rd Baron Wexcombe - Wikipedia"), else from the saved address in its footer
    ("index.php?title=Paper_Kites_(2009_film)&oldid=... Categories: ..."): the
    title as the key, its bracketed disambiguation kept ("hold light (album)"), like an
    opening's title."""
    match = _PAGE_TITLE.match(text)
    if match is None:
        footer = footer_title(text)
        if footer is None:
            return None
        return _titled(footer.title, footer.start, footer.end)
    return _titled(match.group("title").strip(), match.start("title"), match.end("title"))


def _titled(title: str, start: int, end: int) -> Opening | None:
    """A page title ("Hold of Light (album)") as the page's subject."""
    name, _, rest = title.partition("(")
    stopwords = resources().stopwords
    entity = fold_name(name_tokens(name.strip()), stopwords)
    if not entity or not _is_capitalised(name.strip()):
        return None
    aliases = {entity, entity.split(",")[0]}
    inner = " ".join(name_tokens(rest.rsplit(")", 1)[0])).replace(" ,", ",") if rest else ""
    if inner:
        entity = qualified(entity, inner)
    return Opening(
        entity=entity,
        name=name.strip(),
        sentence=(start, end),
        aliases=frozenset(a for a in aliases if a),
    )


def _headed_box(text: str, source_id: str | None) -> Opening | None:
    """The title a music box's header names ("... by Ansel Ware Night Ferry Studio album by
    Ansel Ware Released ..."), known as named in that page only: a bare title of a work
    is no article's title (three things are called "Night Ferry")."""
    found = header_subject(text)
    if found is None:
        return None
    name, start, end = found[:3]
    entity = fold_name(name_tokens(name), resources().stopwords)
    if not entity:
        return None
    aliases = frozenset({entity})
    if source_id:
        entity = qualified(entity, local_to=source_id)
    return Opening(entity=entity, name=name, sentence=(start, end), aliases=aliases)


def _wikidata_subject(text: str, source_id: str | None) -> Opening | None:
    """The item a Wikidata page's statements are about, by its label ("English Quiet
    Water album by Harbour Lights Statements ..."). Known as named in that page only, as a
    box's naming field: a label carries no disambiguation (three albums are called
    "Quiet Water"), so its statements conflict with no titled page's."""
    found = wikidata_label(text)
    if found is None:
        return None
    label = found[0]
    entity = fold_name(name_tokens(label.title), resources().stopwords)
    if not entity:
        return None
    aliases = frozenset({entity})
    if source_id:
        entity = qualified(entity, local_to=source_id)
    return Opening(
        entity=entity, name=label.title, sentence=(label.start, label.end), aliases=aliases
    )
