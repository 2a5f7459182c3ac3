"""Reading one sentence of a reference article for the relations it states of its subject
(``claims.reference.prose_relations`` runs it over a page): family ties, birthplace, sport,
makers and cast, position, format and rank."""

from __future__ import annotations

from collections.abc import Sequence

from claims.extraction.resources import resources
from claims.reference.prose_relation_words import (
    _CLOSE,
    _POSSESSIVE,
    _PRONOUNS,
    _RELATIVES,
    _WORDS,
    MAX_NAME_TOKENS,
    OPENING_CHARS,
    PAGE_TOKENS,
    Relation,
    _Sent,
    _Words,
)


class _Reader:
    """The relations of one doc."""

    def __init__(
        self,
        first: _Sent,
        words: _Words,
        lower: Sequence[str],
        idx: Sequence[int],
        ends: Sequence[int],
        text: str,
    ) -> None:
        # the tokens' lowercase forms and offsets as the assembly read them (creating
        # spaCy Token objects costs more than these rules)
        self.w = words
        self.lower = lower
        self.idx, self.ends, self.text = idx, ends, text
        self.stop = resources().stopwords
        self.months = frozenset(resources().months)
        self.first = first
        self._opening_sport: bool | None = None
        self.page: set[str] = set()
        # "he"/"she"/"it" are the page's subject only on a page that opens by naming it
        # ("Nathan Lyon Nathan Lyon (born ...) is ..."): on a page cut from the middle of
        # an article nothing names whom "He played for ..." is about
        opens = self.sentence_subject(first) if first.end > first.start else None
        if opens is None and first.end - first.start > 2 and lower[first.start] == "the":
            # "The Elias Marsh House is a historic house ...": a name after "the"
            b = self.name_end(first.start + 1, first.end)
            if b > first.start + 1:
                opens = self._named(first.start + 1, b)
        self.has_opening = (
            opens is not None
            and opens[0] is not None
            and any(
                self.lower[x] in words.copulas
                for x in range(opens[1], min(first.end, opens[1] + 25))
            )
        )
        if self.has_opening:
            top = range(first.start, min(first.end, first.start + PAGE_TOKENS))
            self.page = {self.lower[x] for x in top if self.cap(x)}

    def opening_sport(self) -> bool:
        """Whether the page's first sentence names a sport or a player of one ("a former
        American football linebacker"): it says the subject's sport better than a phrase in
        passing ("played college football")."""
        if self._opening_sport is None:
            first = self.text[self.first.start_char : self.first.end_char][:OPENING_CHARS]
            opening = " " + " ".join(_WORDS.findall(first.casefold())) + " "
            self._opening_sport = any(f" {s} " in opening for s in self.w.sport_words)
        return self._opening_sport

    def word(self, i: int) -> str:
        return self.text[self.idx[i] : self.ends[i]]

    def cap(self, i: int) -> bool:
        return self.text[self.idx[i] : self.idx[i] + 1].isupper()

    # ---------------------------------------------------------------- names
    def name_end(self, i: int, end: int, joins: bool = False) -> int:
        """The index after a run of capitalised words starting at ``i`` (connectors and
        initials' full stops inside it; "X and Y" when ``joins``); ``i`` when none."""
        w = self.w
        k = i
        last = i
        while k < end and k - i < MAX_NAME_TOKENS:
            word = self.word(k)
            if word[:1].isupper() and word[:1].isalpha():
                k += 1
                last = k
                if word.endswith(".") and self.lower[k - 1].rstrip(".") in w.suffixes:
                    break  # "Tomas Reyes Jr. Born in ...": a suffix ends the name
                # "J." of "Charles J. Dunn" (not "Jr." or a sentence's last full stop:
                # "... Tomas Reyes Jr. Born in Manila" is where the name ends)
                if k < end - 1 and self.word(k) == "." and len(word) == 1:
                    k += 1
                continue
            low = self.lower[k]
            connects = low in w.name_connectors or (joins and low in w.name_joins)
            if k > i and connects and k + 1 < end and self.cap(k + 1):
                k += 1
                continue
            break
        return last

    def is_page(self, a: int, b: int) -> bool:
        """Whether the name of tokens a..b is the page's subject: its capitalised words all
        stand in the page's title and first sentence."""
        named = [self.lower[x] for x in range(a, b) if self.cap(x)]
        return bool(named) and set(named) <= self.page

    def subject_before(self, k: int, start: int) -> tuple[str | None, int] | None:
        """The subject right before index ``k`` (hedges, copulas and adverbs between):
        (None, index) for "he"/"she"/"it" or the page's own name, (name, index) for another
        name; None for anything else."""
        j = k - 1
        while j >= start and (
            self.lower[j] in self.w.hedges
            or self.lower[j] in self.w.verb_adverbs
            or self.lower[j] in self.w.copulas
        ):
            j -= 1
        if j < start:
            return None
        if self.lower[j] in _PRONOUNS:
            if j > start and self.lower[start] not in self.stop:
                # "Powell accepted a scholarship ..., where he was a member of ...": a
                # pronoun in a later clause is the name the sentence opens with
                b = self.name_end(start, j)
                if b > start and b < j and not self.cap(b) and self.lower[b] not in _POSSESSIVE:
                    return self._named(start, b)
            return None, j
        if self.word(j) in (")", "]"):
            before = self._bracket_start(j, start)
            if before is None:
                return None
            j = before
        a = j
        while a - 1 >= start and (self.cap(a - 1) or self.lower[a - 1] in self.w.name_connectors):
            a -= 1
        while a <= j and not self.cap(a):
            a += 1
        if a > j or not self.cap(j) or j + 1 - a > MAX_NAME_TOKENS:
            return None
        if (
            a > start
            and self.word(a - 1) != ","
            and self.lower[a - 1] not in self.stop
            and not self.word(a - 1)[:1].isdigit()  # "On 1 March 1944 Corwin Hale was"
        ):
            return None  # "coach Dale Pruitt": a name inside a phrase, not a subject
        return self._named(a, j + 1)

    def _named(self, a: int, b: int) -> tuple[str | None, int]:
        if self.lower[a] in self.stop:
            a += 1
        if self.is_page(a, b):
            return None, a
        return self.text[self.idx[a] : self.ends[b - 1]], a

    def _bracket_start(self, j: int, start: int) -> int | None:
        closing = self.word(j)
        opening = "(" if closing == ")" else "["
        while j >= start and self.word(j) != opening:
            j -= 1
        return j - 1 if j - 1 >= start else None

    def sentence_subject(self, sent: _Sent) -> tuple[str | None, int] | None:
        """The subject a sentence opens with and the index after it (brackets after a name
        skipped): "he"/"she"/"it" and the page's name -> None."""
        i, end = sent.start, sent.end
        if self.lower[i] in _PRONOUNS:
            return None, i + 1
        if self.lower[i] in self.stop:
            # "In 1990, he ...": a short lead-in closed by a comma
            comma = next((k for k in range(i, min(end, i + 8)) if self.word(k) == ","), None)
            if comma is None:
                return None
            i = comma + 1
            if i < end and self.lower[i] in _PRONOUNS:
                return None, i + 1
        b = self.name_end(i, end)
        if b == i:
            return None
        subject, _ = self._named(i, b)
        named = self.lower[i:b]
        while b < end:
            if self.word(b) in _CLOSE:
                close = _CLOSE[self.word(b)]
                while b < end and self.word(b) != close:
                    b += 1
                b += 1
            elif self.lower[b : b + len(named)] == named:
                b += len(named)  # a page title repeated by its first sentence
            else:
                break
        return subject, b

    def value(self, i: int, end: int, *, skip: int = 3) -> tuple[int, int] | None:
        """The name a tie points to, from index ``i``: lowercase descriptors and
        nationalities skipped ("retired Chief Justice, Tomas Reyes Jr.", "both kings
        Sneferu and Djedef", "architect Edith Marlow Crane", "English band Tin Herons")."""
        w = self.w
        k = i
        while (
            k < end
            and k - i < skip
            and (
                (not self.cap(k) and self.word(k)[:1].isalpha()) or self.lower[k] in w.nationalities
            )
        ):
            k += 1
        if k >= end or not self.cap(k) or self.lower[k] in self.stop:
            return None
        if self.lower[k] in self.months or not self.word(k)[:1].isalpha():
            return None
        b = self.name_end(k, end, joins=True)
        if b == k:
            return None
        if (
            b < end
            and self.word(b)[:1].isalpha()
            and not self.cap(b)
            and self.lower[b] not in self.stop
            and self.lower[b] not in w.name_joins
        ):
            return None  # "the Byzantine aristocrat": an adjective, not a name
        # "retired Chief Justice, Tomas Reyes Jr.", "the Lord of Harwick, Osric
        # Aldred", "the duke of Veskar, Rainald II Corvin": a title, then the name after a comma
        office = any(self.lower[x] in w.titles for x in range(k, b)) or (
            k > i and self.lower[k - 1] == "of"
        )
        if office:
            if b + 1 < end and self.word(b) == "," and self.cap(b + 1):
                after = self.name_end(b + 1, end, joins=True)
                if after > b + 1:
                    return b + 1, after
            if k > i and self.lower[k - 1] == "of":
                return None  # "the king of France": an office, no name
        return k, b

    # ---------------------------------------------------------------- shapes
    def family(self, sent: _Sent, k: int, subject: tuple[str | None, int]) -> Relation | None:
        """ "was the eldest son of X", ", wife of X", "as wife of X" after the subject's
        copula (or "was born ..."), in the same clause."""
        w, end = self.w, sent.end
        if k + 1 >= end or self.lower[k + 1] != "of":
            return None
        name, after = subject
        j = after
        while j < k and self.lower[j] in w.hedges:
            j += 1
        if j >= k or (self.lower[j] not in w.copulas and self.lower[j] not in w.birth_verbs):
            return None
        if any(self.lower[x] in _RELATIVES for x in range(after, k)):
            return None
        lead = k - 1
        while lead > j and self.lower[lead] in w.family_lead and self.lower[lead] != "as":
            lead -= 1
        if not (lead == j or self.word(lead) == "," or self.lower[lead] == "as"):
            return None
        if (
            lead > j
            and self.word(lead) == ","
            and self.cap(lead - 1)
            and self.lower[j] not in w.birth_verbs
            and self.lower[j + 1] not in w.birth_verbs
            and not self._after_tie(lead - 1, j)
        ):
            # "... left him for Osric, son of the king Aldred II": the tie is
            # of the name before the comma (a place after "was born at X, the son of" is not)
            return None
        found = self.value(k + 2, end)
        if found is None:
            return None
        return self._relation(sent, name, w.family[self.lower[k]], *found)

    def _after_tie(self, x: int, start: int) -> bool:
        """Whether the name ending at ``x`` is the value of a tie before it ("daughter of
        pharaoh Menkaure, wife of ...": the list of ties goes on)."""
        while x > start and (
            self.cap(x) or (self.lower[x] in self.w.name_connectors and self.cap(x - 1))
        ):
            x -= 1  # "Catherine of Aragon": "of" inside a name, not the tie's own "of"
        for _ in range(4):
            if x - 1 > start and self.lower[x] == "of" and self.lower[x - 1] in self.w.family:
                return True
            if self.cap(x) or not self.word(x)[:1].isalpha():
                return False
            x -= 1
        return False

    def married(self, sent: _Sent, k: int) -> Relation | None:
        """ "He married Mary Smith", "In 1905 Dunn married the actress Jane Doe"."""
        subject = self.subject_before(k, sent.start)
        if subject is None or any(self.lower[x] in self.w.copulas for x in range(subject[1], k)):
            return None  # "was married to ...": the copula's reading, not this one
        found = self.value(k + 1, sent.end)
        if found is None:
            return None
        return self._relation(sent, subject[0], "spouse", *found)

    def _place(self, i: int, end: int) -> tuple[list[tuple[int, int]], int]:
        """Comma-separated capitalised names from ``i`` ("Dothan, Alabama"), and where
        they stop."""
        w = self.w
        while i < end and self.lower[i] in w.skip_before_place:
            i += 1
        parts: list[tuple[int, int]] = []
        k = i
        while k < end and self.cap(k) and self.word(k)[:1].isalpha():
            if self.lower[k] in self.months:
                break
            b = self.name_end(k, end)
            if b == k:
                break
            parts.append((k, b))
            if b + 1 < end and self.word(b) == "," and self.cap(b + 1):
                k = b + 1
                continue
            k = b
            break
        return parts, k

    def born(self, sent: _Sent, k: int) -> Relation | None:
        """ "Born in A, B, Name ..." (the last name before the verb is the subject), "He was
        born in A" (a date may come first: "born on 30 September 1764 in Westbury")."""
        w, end = self.w, sent.end
        p = k + 1
        while (
            p < end
            and p - k < 8
            and self.lower[p] not in w.birth_prepositions
            and (
                self.lower[p] in w.skip_before_preposition
                or self.lower[p] in self.months
                or self.word(p)[:1].isdigit()
            )
        ):
            p += 1
        if p >= end or self.lower[p] not in w.birth_prepositions:
            return None
        return self._place_of(sent, k, p + 1)

    def native(self, sent: _Sent, k: int, length: int) -> Relation | None:
        return self._place_of(sent, k - length + 1, k + 1)

    def _place_of(self, sent: _Sent, first: int, place_at: int) -> Relation | None:
        parts, stop = self._place(place_at, sent.end)
        if not parts:
            return None
        # a capitalised "Born" / "A native" inside a sentence is a sentence start the
        # splitter missed ("... Reyes Jr. Born in Manila ..."): read as a lead-in
        lead = (
            first == sent.start
            or self.cap(first)
            or (first == sent.start + 1 and self.lower[sent.start] in ("a", "an"))
        )
        if lead:
            # "Born in Lorne County, Ohio, Hale lived ...": the subject follows
            if stop < sent.end and self.word(stop - 1) == "," and self.lower[stop] in _PRONOUNS:
                subject: str | None = None
            elif len(parts) >= 2 and stop < sent.end and not self.cap(stop):
                a, b = parts.pop()
                subject = self._named(a, b)[0]
            elif (
                stop + 1 < sent.end and self.word(stop) == "," and self.lower[stop + 1] in _PRONOUNS
            ):
                subject = None
            else:
                return None
        else:
            before = self.subject_before(first, sent.start)
            if before is None:
                return None
            subject = before[0]
        return self._relation(sent, subject, "birthplace", parts[0][0], parts[-1][1])

    def sport(self, sent: _Sent, k: int) -> Relation | None:
        """ "Altrincham played semi-professional rugby league"."""
        subject = self.subject_before(k, sent.start)
        if subject is None:
            return None
        i = k + 1
        while i < sent.end and i - k < 5:
            hit = self._sport_at(i, sent.end)
            if hit is not None:
                return self._relation(sent, subject[0], "sport", i, hit)
            if self.lower[i] not in self.w.sport_modifiers:
                return None
            i += 1
        return None

    def team_sport(self, sent: _Sent, k: int, length: int) -> Relation | None:
        """ "he was a member of the Ridgeport Owls football teams"."""
        start = k
        while start > sent.start and self.lower[start - 1] in ("a", "an", "the"):
            start -= 1
        subject = self.subject_before(start, sent.start)
        if subject is None:
            return None
        last = min(sent.end, k + length + self.w.team_window)
        for i in range(k + length, last):
            if self.lower[i] in _RELATIVES:
                return None
            hit = self._sport_at(i, last)
            if hit is not None and hit < last and self.lower[hit] in self.w.teams:
                return self._relation(sent, subject[0], "sport", i, hit)
        return None

    def position(self, sent: _Sent, k: int) -> Relation | None:
        """ "A defender, he began his career ...": a position that opens the sentence as
        an appositive of the subject after its comma."""
        if k != sent.start + 1 or self.lower[sent.start] not in ("a", "an"):
            return None
        hit = self._phrase_at(k, sent.end, self.w.positions)
        if hit is None or hit + 1 >= sent.end or self.word(hit) != ",":
            return None
        after = hit + 1
        if self.lower[after] in _PRONOUNS:
            subject: str | None = None
        else:
            b = self.name_end(after, sent.end)
            if b == after or b >= sent.end or self.cap(b):
                return None
            subject = self._named(after, b)[0]
        return self._relation(sent, subject, "position", k, hit)

    def played_as(self, sent: _Sent, k: int) -> Relation | None:
        """ "He played as a goalkeeper for Leeds"."""
        if k + 3 >= sent.end or self.lower[k + 1] != "as":
            return None
        at = k + 2 + (self.lower[k + 2] in ("a", "an"))
        hit = self._phrase_at(at, sent.end, self.w.positions)
        subject = self.subject_before(k, sent.start)
        if hit is None or subject is None:
            return None
        return self._relation(sent, subject[0], "position", at, hit)

    def broadcast_format(self, sent: _Sent, k: int) -> Relation | None:
        """ "WQRB is a daytime station broadcasting a Caribbean Gospel format"."""
        at = k + 1
        if at >= sent.end or self.lower[at] not in ("a", "an"):
            return None
        last = min(sent.end, at + 2 + self.w.format_words)
        end = next((x for x in range(at + 1, last) if self.lower[x] == "format"), None)
        if end is None or end == at + 1:
            return None
        if any(not self.word(x)[:1].isalnum() for x in range(at + 1, end)):
            return None  # a list or an aside, not one format's name
        subject = self.sentence_subject(sent)
        if subject is None or any(self.lower[x] in _RELATIVES for x in range(subject[1], k)):
            return None
        return self._relation(sent, subject[0], "format", at + 1, end)

    def rank(self, sent: _Sent, k: int, length: int) -> Relation | None:
        """ "Hale was promoted to lieutenant general", "he was promoted to
        Generalmajor": the first rank after the verb, of the name or pronoun before it."""
        at = k + length
        subject = self.subject_before(k, sent.start)
        if subject is None or at >= sent.end:
            return None
        hit = self._phrase_at(at, sent.end, self.w.ranks)
        if hit is None or self._job_title_goes_on(hit, sent.end):
            return None
        return self._relation(sent, subject[0], "rank", at, hit)

    def _job_title_goes_on(self, after: int, end: int) -> bool:
        """Whether a rank word is the first word of a longer job title ("promoted to general
        manager", "to major account lead"): a content word follows it, where a rank is
        followed by punctuation or a function word ("to colonel in 1944")."""
        if after >= end:
            return False
        word = self.lower[after]
        return word.isalpha() and word not in resources().stopwords

    def career(self, sent: _Sent, k: int) -> Relation | None:
        """ "He became a lawyer", "He joined the university in 1931, then became a
        professional basketball player": the occupation after "a"/"an", of the subject
        before the verb or, after a comma or "and", of the sentence's subject (no relative
        clause between: "He met Mary, who then became a teacher" is Mary's)."""
        at = k + 1
        if at >= sent.end or self.lower[at] not in ("a", "an"):
            return None
        subject = self.subject_before(k, sent.start)
        if subject is None:
            j = k - 1
            while j >= sent.start and self.lower[j] in self.w.verb_adverbs:
                j -= 1
            if j < sent.start or self.lower[j] not in (",", "and"):
                return None
            subject = self.sentence_subject(sent)
            if subject is None or any(self.lower[x] in _RELATIVES for x in range(subject[1], k)):
                return None
        for b in range(at + 1, min(sent.end, at + 1 + self.w.career_words)):
            word = self.lower[b]
            if word in self.w.occupations:
                return self._relation(sent, subject[0], "occupation", at + 1, b + 1)
            if not word.isalpha() or self.cap(b) or word in self.stop:
                return None  # "became a member of ...", "became a close friend of ..."
        return None

    def _phrase_at(self, i: int, end: int, phrases: tuple[tuple[str, ...], ...]) -> int | None:
        for phrase in phrases:
            n = len(phrase)
            if i + n <= end and tuple(self.lower[i : i + n]) == phrase:
                return i + n
        return None

    def _sport_at(self, i: int, end: int) -> int | None:
        for sport in self.w.sports:
            n = len(sport)
            if i + n <= end and tuple(self.lower[i : i + n]) == sport:
                return i + n
        return None

    def maker(self, sent: _Sent, k: int, length: int, attribute: str) -> Relation | None:
        """ "It was designed by architect X", "... directed by Y and starring X": of the
        sentence's subject, outside a relative clause."""
        subject = self.sentence_subject(sent)
        if subject is None:
            the = self.lower[sent.start] == "the" and sent.start + 2 < sent.end
            if not (the and not self.cap(sent.start + 1)):
                return None
            subject = (None, sent.start + 2)  # "The house was designed by ..."
        if any(self.lower[x] in _RELATIVES for x in range(subject[1], k)):
            return None
        found = self.value(k + length, sent.end, skip=self.w.descriptors_max)
        if found is None:
            return None
        return self._relation(sent, subject[0], attribute, *found)

    def role(self, sent: _Sent, k: int) -> Relation | None:
        """ "The house's first owner, John Long, was ...", "Its architect, Mary Colter,":
        the holder of a role of the page's subject, named in an appositive."""
        w, end, start = self.w, sent.end, sent.start
        j = k - 1
        while j >= start and self.lower[j] in w.role_leads:
            j -= 1
        own = (j == start and self.lower[j] == "its") or (
            j == start + 2
            and self.lower[start] == "the"
            and self.lower[start + 1] in w.role_possessors
            and self.lower[j] in _POSSESSIVE
        )
        if not own or k + 2 >= end or self.word(k + 1) != ",":
            return None
        found = self.value(k + 2, end, skip=0)
        if found is None:
            return None
        a, b = found
        if b >= end or not (self.word(b) == "," or self.lower[b] in w.copulas):
            return None  # the appositive must close on the name
        return self._relation(sent, None, w.roles[self.lower[k]], a, b)

    def located(self, sent: _Sent, k: int) -> Relation | None:
        """ "Red Brick, located in Dover, Ohio, was added to ...": the place of the name
        the sentence opens with, in an appositive closed by a comma."""
        w, end, start = self.w, sent.end, sent.start
        if k < start + 2 or self.word(k - 1) != ",":
            return None
        if k + 1 >= end or self.lower[k + 1] not in w.located_prepositions:
            return None
        a = start + 1 if self.lower[start] == "the" else start
        if self.name_end(a, k - 1) != k - 1:
            return None  # the comma must close the sentence's opening name
        parts, stop = self._place(k + 2, end)
        if not parts or stop >= end or self.word(stop) != ",":
            return None
        # the name as written, even the page's own: the opening reader puts the page's
        # subject on its own name, and a page cut from its article keeps the name stated
        subject = self.text[self.idx[a] : self.ends[k - 2]]
        return self._relation(sent, subject, "location", parts[0][0], parts[-1][1])

    def current_team(self, sent: _Sent, k: int, length: int) -> Relation | None:
        """ "He last played for Corvale Rovers", "..., is a basketball player who currently
        plays for the Ridgeport Hawks": the one team a player is with (keyed ``team``)."""
        subject = self.subject_before(k, sent.start)
        if subject is None and k > sent.start and self.lower[k - 1] == "who":
            subject = self._copula_subject(sent, k - 1)
        if subject is None:
            return None
        found = self.value(k + length, sent.end, skip=1)
        if found is None:
            return None
        a, b = found
        while b < sent.end and self.word(b)[:1].isdigit() and self.word(b)[-1:].isalpha():
            b += 1  # "the Philadelphia 76ers"
        if b < sent.end and self.lower[b] in self.w.team_not_after:
            return None  # "plays for the Wales national team": beside his club
        return self._relation(sent, subject[0], "team", a, b)

    def _copula_subject(self, sent: _Sent, who: int) -> tuple[str | None, int] | None:
        """The name before the copula of "X (born ...) is an American basketball player
        who ...": the relative clause is on the noun the copula states of X (a few words
        between the copula and "who", no comma or other clause)."""
        c = who - 1
        while c >= sent.start and who - c <= 8 and self.lower[c] not in self.w.copulas:
            if self.word(c) in (",", ";", ")", "(") or self.lower[c] in _RELATIVES:
                return None
            c -= 1
        if c <= sent.start or self.lower[c] not in self.w.copulas:
            return None
        j = c - 1
        if self.word(j) in (")", "]"):
            before = self._bracket_start(j, sent.start)
            if before is None:
                return None
            j = before
        a = j
        while a - 1 >= sent.start and (
            self.cap(a - 1) or self.lower[a - 1] in self.w.name_connectors
        ):
            a -= 1
        while a <= j and not self.cap(a):
            a += 1
        if a > j or not self.cap(j) or j + 1 - a > MAX_NAME_TOKENS:
            return None
        return self._named(a, j + 1)

    def _relation(
        self, sent: _Sent, subject: str | None, attribute: str, a: int, b: int
    ) -> Relation:
        start, end = self.idx[a], self.ends[b - 1]
        return Relation(
            subject=subject,
            attribute=attribute,
            value=self.text[start:end],
            start=start,
            end=end,
            sentence=(sent.start_char, sent.end_char),
        )
