"""The opening sentence of a reference article: the document's subject and the labels it gives.

Reference articles (encyclopedia pages, catalogue entries) open by naming their subject and
saying what it is: "Paper Kites (2009 film) Paper Kites is a 2009 Irish
ensemble road comedy film directed by Nora Quill." The sentence parser reads claims from
values; this sentence states labels that no value cue marks, so it is read here as a whole:

* the **subject**: the title the page opens with (its bracketed disambiguation kept, so two
  films of one name stay two entities: "death at funeral (2007 film)"), else the name
  before the copula. A claim of the document that names no entity ("It has a population of
  4,411", "The film was shot in India") is about it (issue 12, design point 1);
* **dates in brackets** after a person's name: born and died ("(February 8, 1900 - March 2,
  1977)", "(born 4 December 1961)");
* the **noun phrase after the copula**: a work's medium ("film"), language ("Hindi"),
  genre ("black comedy film"); a person's occupation ("American jurist, lawyer, and
  politician") and sport ("former American football linebacker");
* **makers and places**: "directed by Nora Quill" (director), "the fifth studio album by Tin
  Herons" (artist), "based in Tampa, Florida" (location).

Only a document whose first sentence has this shape is read: a page cut from the middle of
an article opens with no subject and gets none. Words live in ``data/opening.yaml``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spacy.tokens import Doc, Span

from claims.extraction.entity_refs import qualified
from claims.extraction.identity import fold_name, is_name, lemma, name_tokens
from claims.extraction.mentions import Mentions
from claims.extraction.resources import resources
from claims.extraction.value_kinds import NO_QUANTITY, plain_statement
from claims.ids import stable_id_maker
from claims.models import (
    Claim,
    EffectiveTime,
    Polarity,
    ValueKind,
)
from claims.models import (
    Span as CharSpan,
)
from claims.reference.affiliation import party_mentions
from claims.reference.disambiguation import entry_labels, is_edition
from claims.reference.infobox import (
    Field,
    furniture,
    header_subject,
    in_block,
    is_reference_date,
    read_fields,
)
from claims.reference.opening_labels import (
    _agent_labels,
    _life_dates,
    _phrase,
    _phrase_labels,
    _title_rank,
)
from claims.reference.opening_subject import (
    _headed_box,
    _heading_subject,
    _named_in_box,
    _names_the_subject,
    _title_subject,
    _titled,
    _value_at,
    _wikidata_subject,
    _with_page,
)
from claims.reference.opening_words import (
    _ARTICLES,
    _CLOSE,
    _DASHES,
    _IMPERSONAL,
    _OPEN,
    _PERSONAL,
    _QUOTES,
    _SPACE_AFTER_BRACKET,
    _SPACE_BEFORE_MARK,
    _SUBJECT_PRONOUNS,
    CONFIDENCE,
    FIELD_CONFIDENCE,
    MAX_LATE_CHARS,
    MAX_LATE_NAME_WORDS,
    MAX_LATE_SENTENCES,
    MAX_OPENING_CHARS,
    MAX_SUBJECT_TOKENS,
    Label,
    Opening,
    _is_capitalised,
    _text_of,
    _Tok,
    _Words,
    _words,
)
from claims.reference.page_footer import (
    address_spans,
    description_labels,
    footer_labels,
    footer_title,
    wikidata_label,
)
from claims.trusted import trusted


def _tokens(sent: Span, text: str) -> list[_Tok]:
    """The sentence's words, a hyphen written without spaces joining its neighbours
    ("Assamese-language", "comedy-drama"), as the sentence writes them."""
    out: list[_Tok] = []
    for token in sent:
        start = token.idx
        glued = bool(out) and out[-1].end == start
        if (
            glued
            and (token.text == "-" or out[-1].text.endswith("-"))
            and out[-1].text[:1].isalpha()
        ):
            prev = out.pop()
            out.append(
                _Tok(
                    text[prev.idx : token.idx + len(token.text)],
                    text[prev.idx : token.idx + len(token.text)].lower(),
                    prev.idx,
                )
            )
            continue
        out.append(_Tok(token.text, token.text.lower(), start))
    return out


def _brackets(tokens: Sequence[str], start: int, stop: int) -> list[tuple[int, int]]:
    """Top-level bracketed stretches (open index, close index) among tokens[start:stop]."""
    found, depth, opened = [], 0, -1
    for i in range(start, stop):
        if tokens[i] in _OPEN:
            if depth == 0:
                opened = i
            depth += 1
        elif tokens[i] in _CLOSE and depth:
            depth -= 1
            if depth == 0:
                found.append((opened, i))
    return found


def _subject_words(
    tokens: Sequence[str], lower: Sequence[str], copula: int, words: _Words
) -> tuple[list[int], list[tuple[int, int]]] | None:
    """The name's token indices before the copula (brackets and "also known as ..." asides
    out) and the brackets; None when a word there is not part of a name (the text starts
    mid-sentence: "the field hockey team won ...")."""
    brackets = _brackets(tokens, 0, copula)
    inside = {i for a, b in brackets for i in range(a, b + 1)}
    kept: list[int] = []
    for i in range(copula):
        if i in inside:
            continue
        word = tokens[i]
        if word == "," and i + 1 < copula and tokens[i + 1][:1].islower():
            if lower[i + 1] in _SUBJECT_PRONOUNS:
                # "The Parish Ledger in 2011, it had ... of whom 2,300 were
                # men": the words before the comma are fronted before the sentence's own
                # subject, a pronoun, so the page names no subject here
                return None
            break  # ", also known as Hvolsfell," / ", popularly known as Bina Tal,"
        if word in (",", ".") or word in _QUOTES or word in _DASHES:
            kept.append(i)
            continue
        if not (_is_capitalised(word) or lower[i] in words.connectors):
            return None
        kept.append(i)
    while kept and (tokens[kept[-1]] in (",", ".") or tokens[kept[-1]] in _QUOTES):
        kept.pop()
    named = [i for i in kept if tokens[i][:1].isalnum()]
    if not named or not _is_capitalised(tokens[named[0]]):
        return None
    return kept, brackets


def _split_title(tokens: Sequence[str], kept: list[int]) -> int | None:
    """Where the page title ends and the sentence's own subject begins; None when the name
    is not repeated. In order: the name written twice ("Nick Ashford | Nick Ashford"), the
    sentence repeating the start of a longer title ("Ashby Township, Lorne County,
    Ohio | Ashby Township"), the two parts ending with the same word ("Corwin
    T. Hale | Major General Corwin Tobias Hale")."""
    words = [tokens[i].casefold() for i in kept if tokens[i][:1].isalnum()]
    positions = [i for i in kept if tokens[i][:1].isalnum()]
    splits = [k for k in range(1, len(words)) if _is_capitalised(tokens[positions[k]])]
    for k in splits:
        if words[:k] == words[k:]:
            return positions[k]
    for k in splits:
        if len(words) - k < k and words[k:] == words[: len(words) - k]:
            return positions[k]
    for k in splits:
        if words[k - 1] == words[-1]:
            return positions[k]
    return None


def _names_something(tokens: Sequence[str], kept: list[int]) -> bool:
    """Whether the words before the copula are a name, not a sentence's capitalised first
    word ("Contractors are paid ...", "There were 40 people ...", "Thanks, the notice period
    is ..."): a word no dictionary knows ("Lesko"), or a capital past the first word ("Nick
    Ashford", "The Girl Who Stayed")."""
    words = [tokens[i] for i in kept if tokens[i][:1].isalnum()]
    function_words = resources().stopwords
    if not words or (words[0].lower() in function_words and words[0].lower() not in _ARTICLES):
        return False  # "In the EU, the retention period is ...": a lead-in, not a name
    return any(is_name(w) and w.lower() not in function_words for w in words) or any(
        w[:1].isupper() for w in words[1:]
    )


def _title_repeated(tokens: Sequence[str], kept: list[int], split: int | None) -> bool:
    """Whether the words before the copula are a page title written again as the
    sentence's subject ("Down River (Mara Quill album) Down River is ...", "Both Banks
    (...) Both Banks is ..."): a title may start with a word that also opens lead-ins
    ("Down", "Both", "Without"), but a lead-in is never written twice around a bracket."""
    if split is None:
        return False
    title = [tokens[i].casefold() for i in kept if i < split and tokens[i][:1].isalnum()]
    own = [tokens[i].casefold() for i in kept if i >= split and tokens[i][:1].isalnum()]
    return bool(title) and title == own and _is_capitalised(tokens[kept[0]])


def _copula_at(toks: Sequence[_Tok], words: _Words) -> int | None:
    """The copula after the subject, at the top level, near the start; written in lower
    case ("The Girl Who Stayed" is a title, not its verb)."""
    depth = 0
    for i, tok in enumerate(toks[: MAX_SUBJECT_TOKENS + 1]):
        if tok.text in _OPEN:
            depth += 1
        elif tok.text in _CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0 and i > 0 and tok.text in words.copulas:
            return i
    return None


def read_opening(doc: Doc, text: str, mentions: Mentions) -> Opening | None:
    """The subject and labels of ``doc``'s opening sentence, or None when it has none.

    The opening is the first sentence. A page that starts with its furniture (a navigation
    menu, an infobox dump, "From Wikipedia, the free encyclopedia") may open its article
    further down: the first stretch near the top made of a name, its brackets, the copula
    and a description ("... Next album = `` Tideline '' ( 1981 ) `` A Hold of Light `` is an
    album by The Tin Herons.") is read as a **late opening** (``Opening.late``). It must say
    what kind of thing its subject is (a label or dates of a life), and it only states its
    labels: whether the page's other sentences are about that name is not known (a page
    cut from an album's article may describe its band), so their claims keep no entity."""
    sents = list(doc.sents)
    if sents and sents[0].start_char <= 3:
        opening = _read_sentence(sents[0], text, mentions)
        if opening is not None:
            return opening
    for sent in sents[:MAX_LATE_SENTENCES]:
        if sent.start_char > MAX_LATE_CHARS:
            break
        for start in _late_subject_starts(doc, sent):
            late = _read_sentence(doc[start : sent.end], text, mentions)
            if late is not None and late.labels:
                late.late = True
                return late
    return None


def _late_subject_starts(doc: Doc, sent: Span) -> list[int]:
    """Token indices where a name ends right before a copula and a description ("`` A Hold
    of Light `` is an album", "Arthur Penrose, 3rd Baron Wexcombe ( 2 May 1871 - 9 June
    1940 ) was a British ... politician"): walking back from the copula over brackets and
    then capitalised words, name connectors, quotes and commas before a capital. A number
    ends the walk (a date of the furniture), and so does a run too long to be one name."""
    words = _words()
    starts: list[int] = []
    for c in range(sent.start + 1, sent.end - 1):
        if doc[c].text not in words.copulas or doc[c + 1].lower_ not in _ARTICLES:
            continue
        i = c - 1
        if doc[i].text in _CLOSE:
            depth = 0
            while i >= sent.start:
                depth += doc[i].text in _CLOSE
                depth -= doc[i].text in _OPEN
                if depth == 0:
                    break
                i -= 1
            i -= 1
        name_end = i + 1
        while i >= sent.start and c - i <= MAX_SUBJECT_TOKENS:
            word = doc[i].text
            if word.rstrip(",").isdigit():
                break  # "Released : May 4, 2012 Lamps Out is ...": a date ends furniture
            if (
                _is_capitalised(word)
                or doc[i].lower_ in words.connectors
                or word in _QUOTES
                or (word == "," and _is_capitalised(doc[i + 1].text))
            ):
                i -= 1
                continue
            break
        start = i + 1
        while start < c and (
            doc[start].text in _QUOTES
            or doc[start].text == ","
            or (doc[start].lower_ in words.connectors and not _is_capitalised(doc[start].text))
        ):
            start += 1
        # "Certifications References A Hold of Light is ...": section headings run into the
        # name; a capitalised article inside the run starts the name
        start = next((k for k in range(start + 1, c) if doc[k].text in ("A", "An", "The")), start)
        named = [t for t in doc[start:name_end] if t.text[:1].isalnum()]
        if named and len(named) <= MAX_LATE_NAME_WORDS:
            starts.append(start)
    return starts


def _read_sentence(sent: Span, text: str, mentions: Mentions) -> Opening | None:
    """The subject and labels of one sentence read as an article's opening, or None."""
    if sent.end_char - sent.start_char > MAX_OPENING_CHARS:
        return None
    words = _words()
    toks = _tokens(sent, text)
    tokens = [t.text for t in toks]
    lower = [t.lower_ for t in toks]
    copula = _copula_at(toks, words)
    if copula is None:
        return None
    subject = _subject_words(tokens, lower, copula, words)
    if subject is None:
        return None
    kept, brackets = subject
    disambiguation = ""
    first = brackets[0] if brackets else None
    if (
        first is not None
        and first[0] > 0
        and first[1] + 1 < copula
        and _is_capitalised(tokens[first[1] + 1])
    ):
        # "Chandni Raaste (1979 film) Chandni Raaste is": the title, its disambiguation
        split: int | None = first[1] + 1
    else:
        split = _split_title(tokens, kept)
    if split is not None:
        title = [i for i in kept if i < split]
        opener = [b for b in brackets if title and title[-1] < b[0] < split]
        if opener and opener[0][1] > opener[0][0] + 1:
            disambiguation = _text_of(text, toks, opener[0][0] + 1, opener[0][1])
    else:
        title = kept
    if not title or not (_names_something(tokens, kept) or _title_repeated(tokens, kept, split)):
        return None
    name = _text_of(text, toks, title[0], title[-1] + 1)
    stopwords = resources().stopwords
    entity = fold_name(name_tokens(name), stopwords)
    if not entity:
        return None
    if disambiguation and not is_edition(disambiguation):
        # kept as written (lowercase): it tells two things of one name apart (an edition's
        # date or number does not: "Travel Policy (2023)" is the travel policy again)
        inner = " ".join(name_tokens(disambiguation)).replace(" ,", ",")
        entity = qualified(entity, inner) if inner else entity
    aliases = {entity.split(" (")[0]}
    own = [i for i in kept if split is not None and i >= split]
    if own:
        aliases.add(fold_name(name_tokens(_text_of(text, toks, own[0], own[-1] + 1)), stopwords))
    aliases.add(entity.split(" (")[0].split(",")[0])
    opening = Opening(
        entity=entity,
        name=name,
        sentence=(sent.start_char, sent.end_char),
        aliases=frozenset(a for a in aliases if a),
    )
    person = _life_dates(opening, toks, brackets, copula, mentions)
    phrase = _phrase(toks, copula, words)
    _phrase_labels(opening, text, toks, phrase, person, disambiguation, words)
    opening.person = person or any(label.attribute == "occupation" for label in opening.labels)
    if opening.person and not any(label.attribute == "rank" for label in opening.labels):
        _title_rank(opening, toks, copula)
    opening.kinds = _kinds(toks[phrase[-1]].lower_ if phrase else "", words)
    _agent_labels(opening, text, toks, copula, phrase, words)
    return opening


def _kinds(head: str, words: _Words) -> frozenset[str]:
    """The nouns a page uses for its subject after naming it: the head of the description
    ("an airline": "the airline") and, for a work, the other nouns of its medium ("an
    album": "the album", "the record")."""
    if not head.isalpha():
        return frozenset()
    noun = lemma(head)
    work = words.works.get(noun)
    same = {k for k, (medium, _) in words.works.items() if work and medium == work[0]}
    return frozenset({noun, *same})


def _refers_back(claim: Claim, text: str, opening: Opening) -> bool:
    """Whether a claim of a sentence after a late opening is about its subject: the
    sentence's subject is a pronoun that fits it ("It was released in 1976"; "He" or "She"
    for a person, "It" for a thing) or a noun the page uses for it ("The album reached ...");
    another subject ("The band toured ...", "Smith was born ...") is not."""
    if claim.entity is not None or not claim.attribute or claim.claim_key != claim.attribute:
        return False
    first = text[claim.span.start : claim.span.end].split(maxsplit=1)[:1]
    pronoun = first[0].casefold() if first else ""
    if pronoun in _PERSONAL:
        return opening.person
    if pronoun in _IMPERSONAL:
        return not opening.person
    if claim.subject is None:
        return False
    return lemma(claim.subject.casefold()) in opening.kinds


def opening_claims(
    doc: Doc,
    text: str,
    mentions: Mentions,
    claims: list[Claim],
    source_id: str | None,
    source_version_id: str | None,
    generation: str,
    page: Opening | None = None,
) -> list[Claim]:
    """``claims`` with the opening's subject placed on the claims that name no entity, and
    the opening's labels added as claims (replacing the sentence parser's reading of the same
    attribute in the opening sentence). ``page`` is the subject the register's title names
    (``page_title.py``): it serves when the text has no opening and no title of its own."""
    if not text.strip() or _is_not_english(text[:200]):
        return claims
    opening = _with_page(read_opening(doc, text, mentions), page)
    made = _ClaimMaker(
        text, stable_id_maker("cl", source_version_id, generation), source_id,
        source_version_id, generation,
    )  # fmt: skip
    fields, blocks = read_fields(text, mentions)
    item = _wikidata_subject(text, source_id) if fields else None
    if item is not None:
        # a Wikidata page's chrome ("Language Label Description Also known as") is no field
        fields = [f for f in fields if f.name_start >= item.sentence[1]]
    boxed_subject = (
        (
            item
            or _heading_subject(text, source_id)
            or _named_in_box(text, source_id)
            or _headed_box(text, source_id)
        )
        if fields
        else None
    )
    subject = opening or _title_subject(text) or boxed_subject
    if blocks and fields and subject is not None:
        # the fields state what sits in a box: the sentence parser's reading of the run of
        # fields (its "subject" a run of field names) is replaced by them. A box of no known
        # subject gives no field claim (see _field_claims), and the parser's reading stays.
        claims = [c for c in claims if not in_block(*_value_at(c), blocks)]
    furnished = furniture(text) + address_spans(text)
    # a category line, a navigation box, a reference's access date: never a claim
    claims = [
        c
        for c in claims
        if not is_reference_date(c.quote) and not in_block(*_value_at(c), furnished)
    ]
    if opening is None:
        opening = _title_subject(text) or page
    parties = _party_claims(doc, text, opening, made)
    # a cut page's own title in its footer or its Wikidata label (page_footer.py)
    parties = _inserted(parties, _footer_claims(text, source_id, made))
    if opening is None:
        boxed = _field_claims(fields, boxed_subject, made)
        header = header_subject(text) if boxed_subject is not None else None
        if (
            header is not None
            and boxed_subject is not None
            and header[1] == boxed_subject.sentence[0]
        ):
            # the maker a music box's header names is its subject's artist
            label = Label("artist", header[3], header[4], header[5])
            boxed.append(
                made.label(boxed_subject.entity, boxed_subject.name, label, header[1], header[5])
            )
        return _inserted(_inserted(claims, parties), boxed)
    if opening.late and source_id and opening.entity != (page.entity if page else None):
        # no title tells this subject from its namesakes: it is known as named in this page
        # only (two pages' "Frederick Dunmore" may be a footballer and a politician), so its
        # claims conflict with no other page's; a question naming it finds it beside the
        # titled articles of that name, and names both when they disagree
        opening.entity = qualified(opening.entity, local_to=source_id)
    boxed = _field_claims(fields, opening, made)
    s0, s1 = opening.sentence
    labelled = {label.attribute for label in opening.labels}
    dated = [(lab.start, lab.end) for lab in opening.labels if lab.kind is ValueKind.DATE]
    kept: list[Claim] = []
    added: list[Claim] = []
    for claim in claims:
        in_opening = s0 <= claim.span.start < s1
        if in_opening and claim.attribute in labelled:
            continue  # the opening reader states this attribute of the subject
        if in_opening and claim.value_span is not None and in_block(*_value_at(claim), dated):
            continue  # "(1577 - 1653) was a politician": the year is the life's, no figure
        if opening.late and not in_opening:
            if claim.span.start >= s1 and _refers_back(claim, text, opening):
                # after the opening, "It was released in 1976" is about its subject; a
                # sentence about another subject, and the furniture before it, are not
                claim = claim.model_copy(
                    update={
                        "entity": opening.entity,
                        "claim_key": f"{opening.entity} {claim.attribute}",
                    }
                )
        elif claim.entity is None and claim.attribute and claim.claim_key == claim.attribute:
            claim = claim.model_copy(
                update={
                    "entity": opening.entity,
                    "claim_key": f"{opening.entity} {claim.attribute}",
                }
            )
        elif claim.entity and _names_the_subject(claim, claim.entity, opening, in_opening):
            claim = claim.model_copy(
                update={
                    "entity": opening.entity,
                    "claim_key": opening.entity + claim.claim_key[len(claim.entity) :],
                }
            )
        kept.append(claim)
    for label in opening.labels:
        added.append(made.label(opening.entity, opening.name, label, s0, s1))
    # in document order: the labels after the other claims of the opening sentence
    at = next((k for k, c in enumerate(kept) if c.span.start >= s1), len(kept))
    ordered = [*kept[:at], *added, *kept[at:]]
    if "political party" in labelled:
        parties = [c for c in parties if not s0 <= c.span.start < s1]
    return _inserted(_inserted(ordered, parties), boxed)


def _footer_claims(text: str, source_id: str | None, made: _ClaimMaker) -> list[Claim]:
    """The facts a cut page's footer states of its saved title ("Films directed by Sunil
    Mehra", "(chef)"), a disambiguation list's entries of their titled articles
    (``disambiguation``), and a Wikidata item's description's maker ("album by
    Harbour Lights"), each of the subject that title, entry or label names."""
    found: list[Claim] = []
    footer = footer_title(text)
    titled = _titled(footer.title, footer.start, footer.end) if footer is not None else None
    if footer is not None and titled is not None:
        for fl in footer_labels(text, footer):
            label = Label(fl.attribute, fl.value, fl.start, fl.end)
            found.append(
                made.label(titled.entity, titled.name, label, fl.quote_start, fl.quote_end)
            )
    for entry in entry_labels(text):
        titled = _titled(entry.title, entry.line_start, entry.line_end)
        if titled is not None:
            label = Label(entry.attribute, entry.value, entry.start, entry.end)
            found.append(
                made.label(titled.entity, titled.name, label, entry.line_start, entry.line_end)
            )
    item = _wikidata_subject(text, source_id)
    described = wikidata_label(text)
    if item is not None and described is not None:
        description = described[1]
        for attribute, value, a, b in description_labels(description.title):
            label = Label(attribute, value, description.start + a, description.start + b)
            found.append(
                made.label(item.entity, item.name, label, description.start, description.end)
            )
    return found


def _field_claims(fields: list[Field], opening: Opening | None, made: _ClaimMaker) -> list[Claim]:
    """The box's fields as claims of the page's subject. With no subject known, none: a
    box of a page cut from its article may be of another thing than the one asked about
    (a district's box in a page on its town), and its fields would answer for it."""
    if opening is None:
        return []
    return [made.field(opening.entity, opening.name, field) for field in fields]


def _inserted(claims: list[Claim], extra: list[Claim]) -> list[Claim]:
    """``claims`` with each of ``extra`` placed after the claims that start no later (the
    order of ``claims`` itself is kept)."""
    out = list(claims)
    for claim in extra:
        at = next((k for k, c in enumerate(out) if c.span.start > claim.span.start), len(out))
        out.insert(at, claim)
    return out


@dataclass(frozen=True)
class _ClaimMaker:
    """Builds a label claim of one document (ids stable across runs)."""

    text: str
    make_id: Any
    source_id: str | None
    source_version_id: str | None
    generation: str

    def label(self, entity: str, subject: str, label: Label, s0: int, s1: int) -> Claim:
        """A categorical (or date) claim: ``entity`` has ``label``, quoted from s0..s1."""
        text = self.text
        start = s0
        while start < s1 and text[start].isspace():
            start += 1
        end = s1
        while end > start and text[end - 1].isspace():
            end -= 1
        span = trusted(CharSpan, {"start": start, "end": end})
        key = f"{entity} {label.attribute}"
        value: str = label.value
        if label.kind is ValueKind.CATEGORICAL:
            # a page tokenised with spaces around its marks: "Marston , Vermont" is
            # "Marston, Vermont"
            value = _SPACE_BEFORE_MARK.sub(r"\1", _SPACE_AFTER_BRACKET.sub(r"\1", value))
        value_span = (
            trusted(CharSpan, {"start": label.start, "end": label.end})
            if label.end > label.start
            else None
        )
        fields: dict[str, Any] = {
            "id": self.make_id(
                span.start, span.end, label.start, label.kind.value, key, label.value
            ),
            "source_version_id": self.source_version_id,
            "source_id": self.source_id,
            "generation": self.generation,
            "subject": subject,
            "predicate": label.attribute,
            "claim_key": key,
            "coarse_key": label.attribute.split()[-1],
            "entity": entity,
            "attribute": label.attribute,
            "kind": label.kind,
            "value": value,
            **NO_QUANTITY,
            **plain_statement(),
            "span": span,
            "value_span": value_span,
            "quote": text[span.start : span.end],
            "confidence": CONFIDENCE,
            "created_at": None,
        }
        return trusted(Claim, fields)

    def field(self, entity: str | None, subject: str | None, field: Field) -> Claim:
        """A claim of one box field ("Born 3 May 1970"), quoted from the field's name to
        the end of its value; a count keeps its year ("Population ( 2006 )")."""
        span = trusted(CharSpan, {"start": field.name_start, "end": field.end})
        value_span = trusted(CharSpan, {"start": field.start, "end": field.end})
        key = f"{entity} {field.attribute}" if entity else field.attribute
        value: Any = field.value
        if field.kind is ValueKind.CATEGORICAL:
            value = _SPACE_BEFORE_MARK.sub(r"\1", _SPACE_AFTER_BRACKET.sub(r"\1", str(value)))
        fields: dict[str, Any] = {
            "id": self.make_id(
                span.start, span.end, field.start, field.kind.value, key, str(field.value)
            ),
            "source_version_id": self.source_version_id,
            "source_id": self.source_id,
            "generation": self.generation,
            "subject": subject,
            "predicate": field.attribute,
            "claim_key": key,
            "coarse_key": field.attribute.split()[-1],
            "entity": entity,
            "attribute": field.attribute,
            "kind": field.kind,
            "value": value,
            **NO_QUANTITY,
            "polarity": Polarity.POSITIVE,
            "modality": None,
            "scope": {},
            "scope_residual": [],
            "time": field.time or EffectiveTime(),
            "reported_speech": False,
            "span": span,
            "value_span": value_span,
            "quote": self.text[span.start : span.end],
            "confidence": FIELD_CONFIDENCE,
            "created_at": None,
        }
        return trusted(Claim, fields)


def _party_claims(doc: Doc, text: str, opening: Opening | None, made: _ClaimMaker) -> list[Claim]:
    """``political party`` claims of the sentences that state their subject's party
    (``affiliation``): "he"/"she" and the subject's own name or surname are the article's
    subject (an opening read at the top of the page); another name is its own entity."""
    found: list[Claim] = []
    own = opening if opening is not None and not opening.late else None
    for mention in party_mentions(doc, text, _words().parties):
        entity, subject = mention.entity, mention.subject
        if own is not None and (entity is None or _names_subject(entity, own)):
            entity, subject = own.entity, own.name
        if entity is None or subject is None:
            continue  # "he" with no subject known
        label = Label("political party", mention.party, mention.start, mention.end)
        found.append(made.label(entity, subject, label, *mention.sentence))
    return found


def _names_subject(entity: str, opening: Opening) -> bool:
    """Whether a name in key form is the article's subject: one of its names, or a part of
    its head ending with the same word ("humphrey" for "james humphrey (new york
    politician)")."""
    if entity in opening.aliases:
        return True
    words = entity.split()
    head = opening.entity.split(" (")[0].split(",")[0].split()
    return bool(words) and bool(head) and words[-1] == head[-1] and set(words) <= set(head)


def _is_not_english(head: str) -> bool:
    latin = sum(1 for ch in head if ch.isascii() and ch.isalpha())
    other = sum(1 for ch in head if ch.isalpha() and ord(ch) > 0x24F)
    return other > latin
