"""Event dates: "founded in 1998", "was born on 3 May 1950", dated acts ("In 2019 the
board approved ..."): the date claims of a clause (read for ``DocAssembly``)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING, cast

from spacy.tokens import Span

from claims.extraction.claim_shapes import (
    _COPULAS,
    _NAME_DETERMINERS,
    _UNKNOWN_TIME,
    _after_name_bracket,
    _event_value,
    _hyphen_compound,
    _month_day,
    _name_ends,
)
from claims.extraction.effective_time import effective_time
from claims.extraction.frames import _ARTICLES, _head, _name_of_phrase, read_frame
from claims.extraction.keys import fold_word
from claims.extraction.mentions import Mentions
from claims.extraction.roles import (
    _PLACE_WORDS,
    _SUBJECT_PRONOUNS,
    CONTENT,
    EVENT_DATE_NEAR,
    EVENT_DATE_REACH,
    LABEL,
    MODAL,
    NEG,
    PIVOT,
    PREP,
    PUNCT,
    SEP,
    STOP,
    TIME,
    VALUE,
    VERB,
    WH,
    Roles,
    _text,
)
from claims.extraction.value_claims import value_claim
from claims.extraction.value_kinds import (
    find_phrase,
    iso_value,
    lexicon,
)
from claims.models import (
    Bound,
    Claim,
    EffectiveTime,
    TimeGranularity,
    ValueKind,
)

if TYPE_CHECKING:
    from claims.extraction.assembly import DocAssembly
    from claims.extraction.clauses import Clause


def event_date(asm: DocAssembly, clause: Clause) -> tuple[Claim, int, list[int]] | None:
    """(date claim, index of the time mention it took or -1, indices of the bare
    numbers it is made of) for "X came into force in 2017", "she was born on 3 May
    1970", "the city was founded in 1542"; None when no event predicate has a date."""
    roles, mentions, a, b = clause.roles, clause.mentions, clause.a, clause.b
    role, info, lower = roles.role, roles.info, roles.lower
    lex = lexicon()
    hit = find_phrase(lower[a:b], lex.events, lex.longest_event, lex.event_firsts)
    while hit is not None and _hyphen_compound(roles, a + hit[0]):
        # "15% of the inhabitants were Irish-born": an adjective, not the birth event
        hit = find_phrase(lower[a:b], lex.events, lex.longest_event, lex.event_firsts, start=hit[1])
    if hit is None:
        return None
    p0, p1, event = a + hit[0], a + hit[1], hit[2]
    taken, year_q, used, stepped, month, day = _date_after(asm, roles, mentions, p1, b)
    if taken is None and year_q < 0 and all(role[i] in (PUNCT, STOP) for i in range(p1, b)):
        # "In March 2017, their second son was born.": the date opens the clause
        for i in range(a, p0):
            if role[i] == TIME:
                t = mentions.times[cast(int, info[i])]
                if t.first is not None and t.last is not None and t.role != "deictic":
                    taken = cast(int, info[i])
                break
    if taken is None and year_q < 0:
        return None
    if taken is not None:
        t = mentions.times[taken]
        value = _event_value(t, month, day)
        if tuple(lower[p0:p1]) in lex.run_starts:
            if t.role not in ("range", "from"):
                # "The bus ran from Leeds to York in 1950": no run's dates; "existed from
                # 1861 until 2008" is read as a start and an end, the start its date
                return None
            assert t.first is not None  # "ran from 2 May 1976 to 14 June 1990"
            value = iso_value(t.first, t.first, t.granularity)
    elif tuple(lower[p0:p1]) in lex.run_starts:
        return None
    else:
        year = year_q
        value = iso_value(date(year, 1, 1), date(year, 12, 31), TimeGranularity.YEAR)
        if month:
            value = f"{year:04d}-{month:02d}" + (f"-{day:02d}" if day else "")
    head, quals = _event_subject(asm, roles, a, b, p0, p1)
    attribute = [event]
    entity: list[str] = []
    named = [i for i in head if roles.word(i)[:1].isupper()]
    if named and named[-1] == head[-1] and named[0] != head[0]:
        # "The movie Paper Kites", "Musician Ansel Ware": the name, not its class
        head = head[head.index(named[0]) :]
    for i in head:
        w = fold_word(lower[i])
        if w not in entity and w not in asm.res.generic_heads:
            entity.append(w)
    negated = False
    for k, i in enumerate(range(a, b)):
        if role[i] == NEG and not (k and role[i - 1] == NEG):
            negated = not negated
    residual = [fold_word(lower[i]) for i in quals]
    return (
        value_claim(
            asm,
            clause,
            ValueKind.DATE,
            entity,
            attribute,
            value,
            event,
            negated,
            residual,
            time_without(asm, clause.sent, mentions, -1 if taken is None else taken),
            0.75,
            subject=_text(roles, head),
        ),
        -1 if taken is None else taken,
        (used if year_q >= 0 else []) + stepped,
    )


def _date_after(
    asm: DocAssembly, roles: Roles, mentions: Mentions, p1: int, b: int
) -> tuple[int | None, int, list[int], list[int], int, int]:
    """The date after an event predicate ending at token ``p1``: (the time mention taken or
    None, a bare year or -1, the bare numbers the date is made of, the spans that step from
    another moment, a month, a day)."""
    role, info, lower = roles.role, roles.info, roles.lower
    taken: int | None = None
    year_q = -1
    used: list[int] = []  # bare numbers the date is made of (day, year)
    stepped: list[int] = []  # spans of time that step from another moment ("later")
    skip_to = -1
    month = day = 0
    # "was established *in 1871*", "born on 3 May"; past a place ("began its run at
    # the Lantern Playhouse, Marston, Vermont on 4 October 2016") a verb ends the search
    for i in range(p1, min(b, p1 + EVENT_DATE_REACH)):
        if i <= skip_to:
            continue
        if i >= p1 + EVENT_DATE_NEAR and not (
            role[i] in (TIME, PREP) or lower[i] in _PLACE_WORDS or roles.word(i)[:1].isupper()
        ):
            break  # further on only a place's words lead to the date ("..., Virginia on")
        if role[i] == VALUE and (step := relative_span(asm, roles, mentions, i, b)) > i:
            stepped.append(cast(int, info[i]))  # "opened *eight months later* in 1918"
            skip_to = step
            continue
        if role[i] == VALUE:
            # a year before 1800 is no time expression: "founded in 1542" is a bare number
            q = mentions.quantities[cast(int, info[i])]
            bare = q.unit is None and q.bound is Bound.EXACT and q.low is None
            next_month = i + 1 < b and lower[i + 1] in asm.res.months
            if bare and (month or next_month) and not day and q.value in range(1, 32):
                day = int(q.value)  # "on March 3 , 1547", "on 3 March 1547"
                used.append(cast(int, info[i]))
                continue
            if bare and q.value == int(q.value) and 1000 <= q.value <= 2100:
                year_q = int(q.value)
                used.append(cast(int, info[i]))
            break
        if role[i] == LABEL and lower[i].isdigit() and 1000 <= int(lower[i]) <= 2100:
            year_q = int(lower[i])  # "on 3 March 1547": the year read as a label
            break
        if role[i] == TIME:
            t = mentions.times[cast(int, info[i])]
            if t.first is not None and t.last is not None and t.role != "deictic":
                taken = cast(int, info[i])
                break
            if not (lower[i] in asm.res.months or lower[i].isdigit()):
                break  # an undated "February 14" may still get its year below
        if lower[i] in asm.res.months:
            month = asm.res.months[lower[i]]  # "born October 18 , 1984": split date
        elif (
            lower[i].isdigit()
            and 1 <= int(lower[i]) <= 31
            and (month or (i + 1 < b and lower[i + 1] in asm.res.months))
        ):
            day = int(lower[i])
        elif role[i] in (VALUE, MODAL) or (role[i] == SEP and lower[i] != ","):
            break
    return taken, year_q, used, stepped, month, day


def _event_subject(
    asm: DocAssembly, roles: Roles, a: int, b: int, p0: int, p1: int
) -> tuple[list[int], list[int]]:
    """The head and qualifier tokens of the subject of the event at ``p0:p1``."""
    role, lower = roles.role, roles.lower
    lex = lexicon()
    copula = next((i for i in range(a, p0) if lower[i] in _COPULAS), p0)
    # "Guadalajara was *officially* founded": the subject ends at the copula
    subject = [i for i in range(a, copula) if role[i] not in (PUNCT, NEG, MODAL)]
    joined = next(
        (k for k in range(p0 - 1, a, -1) if lower[k] == "and" and lower[k - 1] == ","), None
    )
    if joined is not None:
        # "The City covered an area of 1,234 km2, and existed as ... from 1861": the
        # event is the second of two verb phrases, whose subject is the first one's
        verb = next(
            (
                i
                for i in range(a + 1, joined)
                if role[i] == VERB
                or (role[i] == CONTENT and len(lower[i]) > 4 and lower[i].endswith("ed"))
            ),
            None,
        )
        if verb is not None:
            subject = [i for i in subject if i < verb]
    if subject and subject[-1] == p0 - 1 and lower[p0 - 1] in lex.event_adverbs:
        rest = subject[:-1]
        if (len(rest) == 1 and lower[rest[0]] in _SUBJECT_PRONOUNS) or any(
            roles.word(i)[:1].isupper() and lower[i] not in _ARTICLES for i in rest
        ):
            # "It *originally* ran from ...", "Night Owls first aired ...": how, not
            # who; "The station officially opened" keeps its words (two pages' bare
            # "station" would share one key)
            subject.pop()
    if (
        len(subject) > 1
        and lower[subject[-1]] in _SUBJECT_PRONOUNS
        and lower[subject[-1] - 1] == ","
    ):
        # "The only son and heir of John Rowe, he was born on ...": the phrase before the
        # comma describes the pronoun, which is the subject (the page's), not "son"
        subject = subject[-1:]
    head, quals = _head(lower, role, subject, _name_of_phrase(roles, subject))
    if not head and copula == p0:
        # "Founded in 1994 in Norway, the Fjordline Cooking School introduced ...": the
        # subject follows the participle phrase (not after "He was elected in 1954 to
        # represent Lorne County, Ohio": "He" is the subject, the page's)
        comma = next((i for i in range(p1, b) if lower[i] == ","), None)
        if comma is not None:
            after: list[int] = []
            for i in range(comma + 1, b):
                if role[i] in (PIVOT, VERB, MODAL, NEG, SEP, VALUE, TIME) or (
                    after  # "... Academy introduced", "... the Harbour Choir gave"
                    and role[i] == CONTENT
                    and (lower[i].endswith("ed") or _name_ends(roles, after[-1], i))
                ):
                    break
                after.append(i)
            head, _ = _head(lower, role, after)
    return head, quals


def relative_span(asm: DocAssembly, roles: Roles, mentions: Mentions, i: int, b: int) -> int:
    """The index of "later" in "eight months later" when the value at ``i`` is a span
    of time stepping from another moment (data/value_kinds.yaml ``relative_words``),
    else -1."""
    q = mentions.quantities[cast(int, roles.info[i])]
    if q.unit is None:
        return -1
    j = i
    while j + 1 < b and roles.role[j + 1] == VALUE and roles.info[j + 1] == roles.info[i]:
        j += 1
    if j + 1 < b and roles.lower[j + 1] in lexicon().relative_words:
        return j + 1
    return -1


def dated_act(asm: DocAssembly, clause: Clause) -> Claim | None:
    """ "In June 2011, his niece gave birth to triplets", "The new timetable was revealed
    on March 11, 2009": a clause with no value and no listed event predicate that dates
    what it tells. The date is the value of the act the clause's words name (its key
    read as for any clause, the time words left out), so two tellings of the act
    with different dates compare; the clause's other time expressions stay its time.
    None when no time expression is dated or nothing names the act."""
    doc, sent, roles, mentions = clause.doc, clause.sent, clause.roles, clause.mentions
    a, b = clause.a, clause.b
    role, info, lower = roles.role, roles.info, roles.lower
    if lower[b - 1] == "?" or role[a] == WH:
        return None  # a question asks when; it states no date
    taken = -1
    yearless = ""  # "on April 13": a day of a year the text does not name
    yearless_at = -1
    for i in range(a, b):
        if role[i] != TIME or (i > a and role[i - 1] == TIME and info[i - 1] == info[i]):
            continue
        last = i
        while last + 1 < b and role[last + 1] == TIME and info[last + 1] == info[i]:
            last += 1
        if (
            last + 1 < b
            and len(lower[last]) == 4
            and lower[last].isdigit()
            and roles.word(last + 1)[:1].isupper()
            and (
                lower[last - 1] in _NAME_DETERMINERS
                or (last == i and (i == a or role[i - 1] != PREP))
            )
        ):
            continue  # "after the 1994 Miss Universe pageant": a year inside a name
        if (
            last == i
            and i > a
            and last + 1 < b
            and len(lower[i]) == 4
            and lower[i].isdigit()
            and lower[i - 1] in _NAME_DETERMINERS
            and lower[last + 1].isalpha()
        ):
            continue  # "replaces the 2019 travel policy": the year names the thing
        if _after_name_bracket(roles, sent.start, i):
            continue  # "Kajol (born 5 August 1974)": a person's dates, read elsewhere
        t = mentions.times[cast(int, info[i])]
        if t.first is None or t.last is None or t.role == "deictic":
            if not yearless:
                yearless = _month_day(lower[i : last + 1], asm.res.months)
                yearless_at = cast(int, info[i])
            continue
        taken = cast(int, info[i])
        break
    if taken < 0 and not yearless:
        return None
    idxs = [
        i
        for i in range(a, b)
        if role[i] not in (PUNCT, TIME)
        and not (role[i] == PREP and i + 1 < b and role[i + 1] == TIME)
    ]
    frame = read_frame(doc, roles, idxs, asm.res, mentions.times, dated=True)
    entity = asm._entity(frame)
    entity_words = entity.split(" ") if entity else []
    attribute = [w for w in frame.attribute_words if w not in entity_words]
    if not attribute:
        # "On April 12, 1992, Varga married actor Pieter Hollis": the name, the
        # event verb and its object read as one name; split them at the event
        entity_words, attribute = event_split(asm, roles, idxs)
    if not attribute:
        return None  # nothing names the act: a bare date ("On 3 May, in Leeds.")
    heading = doc.text[sent.start_char : sent.end_char].lstrip().startswith("#")
    if frame.verb is None and heading:
        return None  # "# Travel policy (2026)": a Markdown heading tells no act
    if taken < 0:
        # No year: the ISO month-day "--04-13" is a label that compares with another
        # telling's day of the same act, never with a dated day (another kind)
        kind, value, taken = ValueKind.CATEGORICAL, yearless, yearless_at
    else:
        kind, value = ValueKind.DATE, _event_value(mentions.times[taken], 0, 0)
    return value_claim(asm, clause, kind, entity_words, attribute, value,
        frame.verb or "date", frame.negated, list(frame.residual),
        time_without(asm, sent, mentions, taken), 0.5,
        subject=frame.subject, scope=frame.scope,
    )  # fmt: skip


def event_split(asm: DocAssembly, roles: Roles, idxs: Sequence[int]) -> tuple[list[str], list[str]]:
    """(entity, attribute) of a clause whose words all read as a name: the subject
    before an event predicate, and the event with up to four words of its object."""
    lower, role = roles.lower, roles.role
    words = [lower[i] for i in idxs]
    lex = lexicon()
    hit = find_phrase(words, lex.events, lex.longest_event, lex.event_firsts)
    if hit is None:
        return [], []
    content = (CONTENT, VERB)
    subject = [fold_word(lower[i]) for i in idxs[: hit[0]] if role[i] in content]
    thing: list[str] = []
    for i in idxs[hit[1] :]:
        if role[i] in (SEP, PREP) or len(thing) == 4:
            break  # "married actor Pieter Hollis, the nephew of ...": the object ends
        if role[i] in content:
            thing.append(fold_word(lower[i]))
    return [w for w in subject if w], [hit[2], *[w for w in thing if w]]


def time_without(asm: DocAssembly, sent: Span, mentions: Mentions, taken: int) -> EffectiveTime:
    """The sentence's effective time from its time expressions except ``taken``."""
    times = mentions.times  # sorted by start: only this sentence's are read
    lo = bisect_left(times, sent.start_char, key=lambda t: t.start)
    hi = bisect_left(times, sent.end_char, key=lambda t: t.start)
    rest = [times[k] for k in range(lo, hi) if k != taken]
    return effective_time(asm._text, rest) if rest else _UNKNOWN_TIME
