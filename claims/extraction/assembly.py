"""Claim assembly: turns a sentence's tokens, cue spans and mentions into claims.

Every token of a sentence gets one role (value, time, label, scope, modal, negation,
reported-speech cue, pivot verb, preposition, separator, stopword or content word). A claim
key is then read off the roles:

* the *pivot* (first copula/possession verb or modal) splits subject side from predicate side;
* each side's *head* is its content words up to the first preposition (a possessive
  "X's Y" makes X the owner and Y the head);
* the key is the predicate head when it has content ("has a 250-token *output limit*"),
  otherwise the subject head ("the *dividend* ... was 12 cents");
* every other content word is a residual qualifier, except generic carriers ("requests").

This module holds the doc-level loop (``ClaimAssembler``, ``DocAssembly``: sentences,
clauses, one claim per value). The steps live in modules named for what they do:
``roles`` (token roles), ``frames`` (subject and predicate sides, keys), ``lead_ins``,
``clauses``, ``claim_shapes`` (shared clause tests), and the claim readers
``value_claims`` (quantities), ``statement_claims`` (labels and statements),
``event_dates`` (dates of events and acts) and ``non_latin_claims`` (other scripts).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import replace
from typing import cast

from spacy.tokens import Doc

from claims.extraction.claim_shapes import (
    _ITEM_LEADS,
    _UNKNOWN_TIME,
    _basis_counts,
    _counted_dimension,
    _fronted_place,
    _has_subject,
    _key_basis_count,
    _list_item_unit,
    _predicate_shape,
    _share_list_qualifiers,
    _states_own_predicate,
    _without_comparisons,
    _words_only_after,
)
from claims.extraction.clauses import Clause, _clauses, _is_non_latin
from claims.extraction.effective_time import effective_time
from claims.extraction.event_dates import dated_act, event_date, time_without
from claims.extraction.frames import Frame, _joined, read_frame
from claims.extraction.identity import (
    document_title,
    title_entity,
)
from claims.extraction.lead_ins import drop_lead_ins
from claims.extraction.mentions import Mentions
from claims.extraction.non_latin_claims import has_non_latin_marker, non_latin_claims
from claims.extraction.resources import Resources
from claims.extraction.roles import (
    _CLAIM_ROLES,
    CONTEXT_RADIUS,
    MAX_QUOTE_CHARS,
    REPORTED,
    SEP,
    SUBJECT_KEY,
    TEXT_KEY,
    TIME,
    VALUE,
    Roles,
    assign_roles,
)
from claims.extraction.sentence_cache import IdRecorder, SentenceCache
from claims.extraction.statement_claims import statement_claims
from claims.extraction.value_claims import change_of, direction_claim, quantity_claim
from claims.extraction.value_kinds import (
    lexicon,
)
from claims.ids import stable_id_maker
from claims.models import (
    Claim,
    ValueKind,
)
from claims.models import Span as CharSpan
from claims.profiles import StanceReading
from claims.trusted import trusted


class ClaimAssembler:
    """Builds ``Claim`` objects for a processed doc (safe to share between threads: each
    doc gets its own ``DocAssembly`` holding that doc's text and roles)."""

    def __init__(
        self,
        res: Resources,
        generation: str,
        stance: StanceReading | None = None,
        cache: bool = True,
    ) -> None:
        self.res = res
        self.generation = generation
        self.stance = stance  # the profile's reading of how a work was received, if any
        # sentences already read give their claims again (claims.extraction.sentence_cache)
        self.sentences = SentenceCache(VALUE, TIME) if cache else None

    def __call__(
        self, doc: Doc, mentions: Mentions, source_id: str | None, source_version_id: str | None
    ) -> list[Claim]:
        return self.read(doc, mentions, source_id, source_version_id)[0]

    def read(
        self,
        doc: Doc,
        mentions: Mentions,
        source_id: str | None,
        source_version_id: str | None,
        generation: str | None = None,
    ) -> tuple[list[Claim], Roles]:
        """The doc's claims (made in ``generation``, by default the assembler's) and the token
        roles they were read from."""
        generation = generation or self.generation
        assembly = DocAssembly(self.res, generation, self.sentences, self.stance)
        claims = assembly(doc, mentions, source_id, source_version_id)
        return claims, assembly._roles


class DocAssembly:
    """The claims of one doc; lives for one call."""

    def __init__(
        self,
        res: Resources,
        generation: str,
        sentences: SentenceCache | None = None,
        stance: StanceReading | None = None,
    ) -> None:
        self.res = res
        self.generation = generation
        self._text = ""
        self._sentences = sentences
        self._stance = stance

    def __call__(
        self, doc: Doc, mentions: Mentions, source_id: str | None, source_version_id: str | None
    ) -> list[Claim]:
        # Doc.text joins every token on each access: read it once per doc, not once per claim.
        self._text = doc.user_data.get(TEXT_KEY) or doc.text
        # stable_id("cl", source version, generation, *rest), the shared parts hashed once
        self._claim_id = stable_id_maker("cl", source_version_id, self.generation)
        self._subject: str | None = doc.user_data.get(SUBJECT_KEY)
        self._document_entity: str | None = None
        self._document_read = False  # the title is read once, when a claim needs it
        roles = assign_roles(doc, mentions, self.res, self._text, self._stance)
        self._roles = roles
        claims: list[Claim] = []
        cache = self._sentences
        if cache is not None:
            ids = IdRecorder(self._claim_id)
            self._claim_id = ids
            entity = self._entity(Frame(entity_ref=True))  # what "it" names, in every key
        q_starts = [q.start for q in mentions.quantities]
        change_firsts = lexicon().change_firsts  # "attrition went up": a direction
        t_starts = [t.start for t in mentions.times]
        for sent in doc.sents:
            s0, s1 = sent.start_char, sent.end_char
            if s1 <= s0:
                continue
            qlo, qhi = bisect_left(q_starts, s0), bisect_left(q_starts, s1)
            non_latin = _is_non_latin(self._text[s0:s1])
            if (
                qlo == qhi
                and (
                    (non_latin and not has_non_latin_marker(self, self._text[s0:s1]))
                    or (
                        not non_latin
                        and not _CLAIM_ROLES.intersection(roles.role[sent.start : sent.end])
                        and TIME not in roles.role[sent.start : sent.end]  # an event's date
                        and change_firsts.isdisjoint(roles.lower[sent.start : sent.end])
                    )
                )
            ):
                continue  # no value, modal, negation or copula: the sentence claims nothing
            key = None
            if cache is not None and not non_latin:
                key = cache.key(
                    self._text, s0, s1, (sent.start, sent.end), roles, mentions, (qlo, qhi),
                    t_starts, entity,
                )  # fmt: skip
                if key is not None:
                    again = cache.replay(
                        key, s0, ids, source_id, source_version_id, self.generation
                    )
                    if again is not None:
                        claims.extend(again)
                        continue
            first = len(claims)
            if not non_latin:
                drop_lead_ins(roles, sent.start, sent.end)
            lo, hi = bisect_left(t_starts, s0), bisect_left(t_starts, s1)
            times = mentions.times[lo:hi]
            # every claim copies its sentence's time (_copy_time): sentences without a time
            # expression can share one unknown time
            when = effective_time(self._text, times) if times else _UNKNOWN_TIME
            if non_latin:
                whole = Clause(
                    doc, sent, sent.start, sent.end, roles, mentions, when, sent.start, None,
                    source_id, source_version_id,
                )  # fmt: skip
                claims.extend(non_latin_claims(self, whole, qlo, qhi))
                continue
            for a, b in _clauses(doc, sent, roles):
                clause = Clause(
                    doc, sent, a, b, roles, mentions, when, a, None, source_id, source_version_id
                )
                claims.extend(self._clause(clause))
            if key is not None and cache is not None:
                cache.store(key, s0, s1, claims[first:], ids)
        return claims

    def _entity(self, frame: Frame) -> str | None:
        """The claim's entity: the one its words name, else the document's own subject when
        the sentence refers to it ("it", "we", "the company")."""
        if frame.entity_words:
            # a sentence's own words name its entity as written, kind words and all ("the
            # Z-70 blower"): a title's model name is only what "it" and "we" refer to
            return " ".join(frame.entity_words)
        if not frame.entity_ref:
            return None
        if not self._document_read:
            self._read_document()
        return self._document_entity

    def _read_document(self) -> None:
        """The entity the document's title (or register subject) names, and its model."""
        title = self._subject if self._subject is not None else document_title(self._text)
        self._document_entity = title_entity(title, self.res.stopwords)
        self._document_read = True

    # ------------------------------------------------------------------ English
    def _clause(self, clause: Clause) -> list[Claim]:
        roles, mentions, a, b = clause.roles, clause.mentions, clause.a, clause.b
        role, info = roles.role, roles.info
        clause_roles = role[a:b]  # membership tests on the slice run in C
        values: list[int] = []
        if VALUE in clause_roles:
            seen: set[int] = set()
            for i in range(a, b):
                if role[i] == VALUE and info[i] not in seen:
                    seen.add(info[i])  # type: ignore[arg-type]
                    values.append(info[i])  # type: ignore[arg-type]
        if REPORTED in clause_roles:
            start = self._after_attribution(roles, a, b)
            if VALUE not in role[a:start]:
                a = start  # a value inside the attribution itself keeps the whole clause
            if a >= b:
                return []  # "According to the 2010 census," with nothing reported after it
            clause = replace(clause, a=a, reported_at=clause.start + clause_roles.index(REPORTED))
        when = clause.when
        events: list[Claim] = []
        if TIME in clause_roles or VALUE in clause_roles:
            # "The club was established in 1871": the date is the event's value, and the
            # clause's other claims no longer hold "in 1871"
            event = event_date(self, clause)
            if event is not None:
                events.append(event[0])
                if event[1] >= 0:
                    when = time_without(self, clause.sent, mentions, event[1])
                # "founded in 1542": a year, not a count
                values = [v for v in values if v not in event[2]]
        if not values:
            if events:
                return events
            return self._worded_clause(replace(clause, when=when), clause_roles)
        return events + self._valued_clause(replace(clause, when=when), values)

    def _worded_clause(self, clause: Clause, clause_roles: list[int]) -> list[Claim]:
        """The claims of a clause that states no value: a label or a statement, the property
        a class sentence implies, a direction, or a dated act (``clause_roles``: the roles
        of the whole clause, its attribution included)."""
        roles, a, b = clause.roles, clause.a, clause.b
        claim = statement_claims(self, clause)
        if claim is not None and claim.kind is ValueKind.CATEGORICAL and "metric" in claim.scope:
            # "Median age is the age that splits the residents in half": a metric (median,
            # mean, p99) measures a number; worded, the sentence defines the metric
            claim = None
        out_claims = [claim] if claim else []
        if (
            claim is not None
            and claim.kind is ValueKind.CATEGORICAL
            and _predicate_shape(roles, a, b) == "class"
        ):
            # "The seminar is a prerequisite": also the property its negation denies
            prop = statement_claims(self, clause, as_property=True)
            out_claims += [prop] if prop else []
        direction = direction_claim(self, clause)
        if direction is not None:
            # "Attrition went up in May": the direction is the value
            return [direction]
        if not out_claims and TIME in clause_roles:
            # "In June 2011, his niece gave birth to triplets": a dated act with no other
            # value; its date is what the sentence states
            dated = dated_act(self, clause)
            return [dated] if dated is not None else []
        return out_claims

    def _valued_clause(self, clause: Clause, values: list[int]) -> list[Claim]:
        """One claim per value of a clause, list items sharing the key the first one named."""
        doc, roles, mentions, a, b = clause.doc, clause.roles, clause.mentions, clause.a, clause.b
        reported_at, when = clause.reported_at, clause.when
        role, info = roles.role, roles.info
        span = self._evidence(clause)
        contexts = [
            _without_comparisons(roles, idxs, qi)
            for qi, idxs in zip(values, self._contexts(a, b, role, info, values), strict=True)
        ]
        bases = _basis_counts(roles, a, values, mentions, contexts)
        out: list[Claim] = []
        previous: Frame | None = None
        previous_count: str | None = None
        previous_unit: str | None = None
        previous_states_own = False
        changes: dict[int, str] = {}  # the direction each value moved ("" for a level)
        for qi, idxs in zip(values, contexts, strict=True):
            q = mentions.quantities[qi]
            frame = read_frame(doc, roles, idxs, self.res, mentions.times)
            counts = _counted_dimension(q)
            if qi in bases:
                _key_basis_count(frame, bases[qi], previous)
            if (
                frame.attribute_words
                and previous is not None
                and not previous_states_own
                and _list_item_unit(q) == previous_unit
                and _words_only_after(roles, idxs, qi)
            ):
                # "16 GB, 32 GB and 64 GB versions": the noun after the last item names
                # what every item is, not an attribute of that item alone
                frame.attribute_words = []
            if (
                not frame.attribute_words
                and previous is not None
                and previous.attribute_words
                # "533 people, 200 households and 150 families": each item counts its own
                # thing, so it is keyed by what it counts, not by the first item's key
                and (counts is None or previous_count is None or counts == previous_count)
                # "of whom 2,300 were men and 2,500 women": likewise after a first item
                # that said what it counts
                and not (previous_states_own and q.unit)
            ):
                # "30 days, and 60 days in the first year": the second value reuses the key
                frame.attribute_words = list(previous.attribute_words)
                if not frame.entity_words:
                    frame.entity_words = list(previous.entity_words)
                    frame.entity_ref = frame.entity_ref or previous.entity_ref
                frame.key_words = _joined(frame.entity_words, frame.attribute_words)
                frame.subject = frame.subject or previous.subject
                frame.predicate = frame.predicate or previous.predicate
                for dim, value in previous.scope.items():
                    if dim != "period":  # a period is what list items usually vary by
                        frame.scope.setdefault(dim, value)
            reported = reported_at is not None and roles.idx[reported_at] < q.start
            value_when = when
            if len(values) > 1:
                # "$4.2 billion in 2024, up from $3.75 billion in 2023": a list item's own
                # time expression beats the sentence's
                own = sorted({cast(int, info[i]) for i in idxs if role[i] == TIME})
                if own:
                    value_when = effective_time(self._text, [mentions.times[t] for t in own])
            moved = change_of(self, roles, idxs, qi)
            at = bisect_left(roles.idx, q.start)
            if not moved and at >= 2 and roles.lower[at - 1] == "(" and role[at - 2] == VALUE:
                # "grew by 13.6% (1,951 persons)": the bracket restates the change it follows
                moved = changes.get(cast(int, info[at - 2]), "")
            changes[qi] = moved
            if moved:
                # "sales climbed 7%": a change up (or down) of the attribute, not its level
                frame.attribute_words = [*frame.attribute_words, "change"]
                frame.key_words = _joined(frame.entity_words, frame.attribute_words)
                frame.predicate = moved
            out.append(quantity_claim(self, clause, q, frame, value_when, span, reported))
            if frame.attribute_words and qi not in bases:
                previous = frame
                previous_count = counts
                previous_unit = _list_item_unit(q)
                # "of whom 9,307 were men and 9,105 women": the first item said what it
                # counts, so the noun after the next one is that item's own, not shared
                previous_states_own = _states_own_predicate(roles, idxs, qi)
        return _share_list_qualifiers(out, self._text)

    @staticmethod
    def _after_attribution(roles: Roles, a: int, b: int) -> int:
        """Skip "According to the complaint," / "The vendor claimed that": the reported content
        starts after the attribution, which must not become the claim's subject."""
        role = roles.role
        for i in range(a, b):
            if role[i] != REPORTED:
                continue
            j = i
            while j < b and role[j] == REPORTED:
                j += 1
            if roles.lower[i] == "according":
                while j < b and role[j] != SEP:
                    j += 1
                return min(j + 1, b) if j < b else a
            return j if j < b else a
        return a

    def _contexts(
        self, a: int, b: int, role: list[int], info: list[object], values: list[int]
    ) -> list[list[int]]:
        """Token indices that describe each value (its list item plus the shared lead-in)."""
        if len(values) == 1:
            first = next(i for i in range(a, b) if role[i] == VALUE)
            lo, hi = max(a, first - CONTEXT_RADIUS), min(b, first + CONTEXT_RADIUS)
            idxs = [i for i in range(lo, hi) if role[i] != VALUE or info[i] == values[0]]
            # the value belongs to the subordinate clause it sits in
            return [idxs[self._subordinate_start(idxs, role) :]]
        segments: list[list[int]] = [[]]
        for i in range(a, b):
            if role[i] == SEP:
                segments.append([])
            else:
                segments[-1].append(i)
        owner: dict[int, int] = {}
        # per segment, its tokens that are no value and each value's own tokens: an item's
        # context is the two merged in text order (a row of a table holds dozens of values,
        # and filtering the whole segment again for each was quadratic in them)
        plain: list[list[int]] = []
        value_tokens: dict[tuple[int, object], list[int]] = {}
        for s, seg in enumerate(segments):
            words = []
            for i in seg:
                if role[i] == VALUE:
                    owner.setdefault(info[i], s)  # type: ignore[arg-type]
                    value_tokens.setdefault((s, info[i]), []).append(i)
                else:
                    words.append(i)
            plain.append(words)
        first_seg = min(owner.values())
        shared = [i for seg in segments[:first_seg] for i in seg]
        out = []
        for qi in values:
            own = sorted(plain[owner[qi]] + value_tokens[owner[qi], qi])
            if own and self._roles.lower[own[0]] in _ITEM_LEADS and owner[qi]:
                # ", with a mean rating of 7.4/10": the item's lead word is no
                # preposition of a head, the rating is what the item states
                own = own[1:]
            if len(own) > 2 * CONTEXT_RADIUS:
                pos = next(k for k, i in enumerate(own) if role[i] == VALUE)
                own = own[max(0, pos - CONTEXT_RADIUS) : pos + CONTEXT_RADIUS]
            lead = shared[-CONTEXT_RADIUS:]  # the lead-in ("The limits are") serves every item
            cut = self._subordinate_start(own, role)
            if cut:
                out.append(own[cut:])
            elif _fronted_place(role, lead) and _has_subject(self._roles, own):
                # "On Rotten Tomatoes, the film holds 23% and ...": a fronted phrase read
                # where it would stand unfronted, after the item ("... 23% on Rotten
                # Tomatoes"); before the item it hid the subject behind its preposition
                out.append(own + lead)
            else:
                out.append(lead + own)
        return out

    def _subordinate_start(self, idxs: list[int], role: list[int]) -> int:
        """Position after the last subordinator ("when", "if") before the value, else 0."""
        lower, subordinators = self._roles.lower, self.res.subordinators
        cut = 0
        for k, i in enumerate(idxs):
            if role[i] == VALUE:
                break
            if lower[i] in subordinators:
                cut = k + 1
        return cut

    def _evidence(self, clause: Clause) -> CharSpan:
        """The sentence (trimmed of surrounding whitespace), or the clause window if it is long
        (from the clause's own first token, its attribution included)."""
        sent = clause.sent
        if sent.end_char - sent.start_char <= MAX_QUOTE_CHARS:
            start, end = sent.start_char, sent.end_char
        else:
            start, end = self._roles.idx[clause.start], self._roles.end[clause.b - 1]
        text = self._text
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        return trusted(CharSpan, {"start": start, "end": end})
