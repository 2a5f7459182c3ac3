"""The labels an opening sentence gives its subject (``claims.reference.opening``): dates of a
life in brackets, the noun phrase after the copula (medium, language, genre, occupation,
sport, rank and instruments, party) and the makers and places named after it ("directed by
...", "based in ...")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from claims.extraction.identity import lemma, name_tokens
from claims.extraction.mentions import Mentions, TimeMention
from claims.extraction.value_kinds import iso_value
from claims.models import (
    ValueKind,
)
from claims.reference.opening_words import (
    _CIRCA,
    _DASHES,
    _GENERIC_RANKS,
    _NAME_ENDS,
    _PART_ENDS,
    _YEAR_DIGITS,
    MAX_NAME_TOKENS,
    MAX_PHRASE_TOKENS,
    MAX_PLACE_GAP,
    Label,
    Opening,
    _text_of,
    _Tok,
    _Words,
)
from claims.reference.prose_relations import military_ranks


def _times_in(mentions: Mentions, start: int, end: int) -> list[TimeMention]:
    return [t for t in mentions.times if start <= t.start and t.end <= end]


def _date_value(first: Any, granularity: Any) -> str:
    return iso_value(first, first, granularity) if granularity else first.isoformat()


def _life_dates(
    opening: Opening,
    toks: Sequence[_Tok],
    brackets: list[tuple[int, int]],
    copula: int,
    mentions: Mentions,
) -> bool:
    """Born and died from the brackets right before the copula; True when the subject has
    dates of a life (it is a person)."""
    for a, b in brackets:
        if b + 1 < copula and toks[b + 1].text != ",":
            continue  # brackets followed by more name: a disambiguation, not dates
        inner = [t.lower_ for t in toks[a + 1 : b]]
        times = [t for t in _times_in(mentions, toks[a].idx, toks[b].idx) if t.first and t.last]
        if _bare_year_span(opening, toks[a + 1 : b], times):
            return True
        if not times:
            continue
        if "born" in inner[:2] or inner[:1] == ["b."]:
            t = times[0]
            opening.labels.append(
                Label("born", _date_value(t.first, t.granularity), t.start, t.end, ValueKind.DATE)
            )
            return True
        t = times[0]
        if (
            t.role == "range"
            and t.granularity is not None
            and t.first is not None
            and t.last is not None
            and t.first.year != t.last.year
        ):
            # "(September 1888 - March 1947)": one range, the life's first and last day
            opening.labels.append(
                Label("born", _date_value(t.first, t.granularity), t.start, t.end, ValueKind.DATE)
            )
            opening.labels.append(
                Label("died", _date_value(t.last, t.granularity), t.start, t.end, ValueKind.DATE)
            )
            return True
        if len(times) == 2 and any(w in _DASHES for w in inner):
            born, died = times
            opening.labels.append(
                Label(
                    "born",
                    _date_value(born.first, born.granularity),
                    born.start,
                    born.end,
                    ValueKind.DATE,
                )
            )
            opening.labels.append(
                Label(
                    "died",
                    _date_value(died.first, died.granularity),
                    died.start,
                    died.end,
                    ValueKind.DATE,
                )
            )
            return True
    return False


def _year_side(side: Sequence[_Tok]) -> _Tok | None:
    """The one year a side of a life's dates states alone ("1577", "c. 1627"), else None."""
    words = [t for t in side if t.lower_ not in _CIRCA]
    if len(words) == 1 and _YEAR_DIGITS.match(words[0].text) and len(side) - 1 <= 1:
        return words[0]
    return None


def _bare_year_span(opening: Opening, inner: Sequence[_Tok], times: list[Any]) -> bool:
    """Born and died from a span of a life whose one side is a year alone, which the time
    scanner leaves a number before 1800: "(1577 - 18 April 1653)", "(c. 1627 - 31 December
    1700)", "(1577 - 1653)". A side with a day and a month is the time scanner's date; a
    circa year is read as that year (the page states no better one)."""
    dashes = [i for i, t in enumerate(inner) if t.lower_ in _DASHES]
    if len(dashes) != 1:
        return False
    cut = dashes[0]
    sides: list[tuple[str, int, int] | None] = []
    for part in (inner[:cut], inner[cut + 1 :]):
        if not part:
            return False
        year = _year_side(part)
        if year is not None:
            sides.append((year.text, year.idx, year.end))
            continue
        dated = [t for t in times if part[0].idx <= t.start and t.end <= part[-1].end]
        if len(dated) != 1 or dated[0].granularity is None:
            return False
        t = dated[0]
        sides.append((_date_value(t.first, t.granularity), t.start, t.end))
    if not any(_year_side(part) for part in (inner[:cut], inner[cut + 1 :])):
        return False  # two dates the scanner read: the callers' own cases
    for attribute, side in zip(("born", "died"), sides, strict=True):
        assert side is not None
        value, start, end = side
        opening.labels.append(Label(attribute, value, start, end, ValueKind.DATE))
    return True


def _phrase(toks: Sequence[_Tok], copula: int, words: _Words) -> list[int]:
    """Word indices of the noun phrase after the copula: "a former American football
    linebacker", "an American jurist, lawyer, and politician"."""
    lower = [t.lower_ for t in toks]
    i = copula + 1
    while i < len(toks) and lower[i] in ("also", "once", "formerly"):
        i += 1
    if i >= len(toks) or lower[i] not in ("a", "an", "the"):
        return []
    i += 1
    out: list[int] = []
    while i < len(toks) and len(out) < MAX_PHRASE_TOKENS:
        word = lower[i]
        if word in (".", ";", ":", "(", ")", "[", '"', "``", "''") or word in words.phrase_ends:
            break
        if word == ",":
            after = lower[i + 1] if i + 1 < len(toks) else ""
            if (
                not after
                or after in words.phrase_ends
                or after.endswith(("ed", "ing"))
                or after in ("a", "an", "the")
                or not after.replace("-", "").isalpha()
                or toks[i + 1].text[:1].isupper()
            ):
                break  # ", produced by", ", Texas", ", a ..."
        out.append(i)
        i += 1
    while out and lower[out[-1]] in (",", "and", "-", "\u2013"):
        out.pop()
    return out


def _strip_nationality(words_: list[str], words: _Words) -> list[str]:
    """The phrase without its opening demonyms, years and "former" ("a 2007 British ..."),
    keeping a demonym that is the sport's own word ("American football")."""
    out = list(words_)
    changed = True
    while out and changed:
        changed = False
        if out[0] in ("former", "retired") or out[0].isdigit() or out[0] in _DASHES:
            out.pop(0)
            changed = True
            continue
        for nation in words.nationalities:
            if tuple(out[: len(nation)]) == nation and len(out) > len(nation):
                if nation == ("american",) and out[1:2] == ["football"]:
                    return out
                del out[: len(nation)]
                changed = True
                break
    return out


def _sport(words_: Sequence[str], words: _Words) -> str | None:
    lemmas = [lemma(w) for w in words_ if any(ch.isalpha() for ch in w)]
    found = _phrases_in(lemmas, words.sports)
    return found[0][2] if found else None


def _is_language(word: str, words: _Words) -> bool:
    return word in words.languages or (
        word.endswith("-language") and word[: -len("-language")] in words.languages
    )


def _phrase_labels(
    opening: Opening,
    text: str,
    toks: Sequence[_Tok],
    phrase: list[int],
    person: bool,
    disambiguation: str,
    words: _Words,
) -> None:
    sport = None
    if disambiguation:
        sport = _sport(name_tokens(disambiguation), words)
        if sport:
            at = opening.sentence[0]
            opening.labels.append(Label("sport", sport, at, at))
    if not phrase:
        return
    lower = [toks[i].lower_ for i in phrase]
    start, end = toks[phrase[0]].idx, toks[phrase[-1]].end
    head = lemma(lower[-1])
    work = words.works.get(head)
    by_genre = False
    if work is None and not person and head in words.genre_heads and disambiguation:
        # "Paper Kites (2009 film) ... is a 2009 Irish romantic comedy": the title's
        # disambiguation names the medium, the description ends with the genre's noun
        work = words.works.get(lemma(name_tokens(disambiguation)[-1].casefold()))
        by_genre = work is not None
    described = _strip_nationality(lower, words)
    if work is not None and not person:
        medium = work[0]
        if lower[-2:] in (["tv", "series"], ["television", "series"]):
            medium = "television series"
        opening.labels.append(Label("medium", medium, start, end))
        for k, w in enumerate(lower):
            if _is_language(w, words):
                tok = toks[phrase[k]]
                opening.labels.append(Label("language", tok.text, tok.idx, tok.end))
                break
        genre = [
            w
            for w in described
            if w not in words.not_genre and not _is_language(w, words) and not w.isdigit()
        ]
        if (len(genre) > 1 or by_genre) and genre and lemma(genre[-1]) == head:
            opening.labels.append(Label("genre", " ".join(genre), start, end))
    elif person or head in words.occupations:
        if not any(w.isalpha() for w in described):
            return
        first = len(lower) - len(described)
        occ_start = toks[phrase[first]].idx if first < len(phrase) else start
        opening.labels.append(Label("occupation", text[occ_start:end], occ_start, end))
        _party(opening, toks, phrase, words)
        _rank_and_instruments(opening, toks, phrase[first:], lower[first:], words)
    if sport is None:
        sport = _sport(lower, words)
        if sport:
            opening.labels.append(Label("sport", sport, start, end))


def _rank_and_instruments(
    opening: Opening, toks: Sequence[_Tok], phrase: list[int], lower: list[str], words: _Words
) -> None:
    """What an occupation says beside the occupation: a military rank ending one of its
    parts ("a United States Coast Guard rear admiral and shipping lawyer", "a retired Vice Admiral":
    a rank inside a part, "a major league pitcher", "a general manager", is none, and "a
    German general" names a kind of officer, not the rank), and the
    instruments its players' nouns name ("a tabla player", "a singer, pianist and
    organist")."""
    ends = [k for k in range(len(lower)) if k + 1 == len(lower) or lower[k + 1] in _PART_ENDS]
    for k in ends:
        n = _rank_ending_at(lower, k)
        if n:
            first = k + 1 - n
            value = " ".join(toks[phrase[j]].text for j in range(first, k + 1))
            opening.labels.append(
                Label("rank", value, toks[phrase[first]].idx, toks[phrase[k]].end)
            )
            break
    named: set[str] = set()
    for k, n, instrument in _phrases_in([lemma(w) for w in lower], words.instruments):
        if instrument not in named:
            named.add(instrument)
            start, end = toks[phrase[k]].idx, toks[phrase[k + n - 1]].end
            opening.labels.append(Label("instrument", instrument, start, end))


def _rank_ending_at(lower: Sequence[str], k: int) -> int:
    """How many words the longest rank ending at word ``k`` has (0: none); a rank word that
    names a kind of officer ("general") is none."""
    for rank in military_ranks():
        n = len(rank)
        if rank not in _GENERIC_RANKS and k + 1 >= n and tuple(lower[k + 1 - n : k + 1]) == rank:
            return n
    return 0


def _phrases_in(
    lemmas: Sequence[str], table: Sequence[tuple[tuple[str, ...], str]]
) -> list[tuple[int, int, str]]:
    """Where the phrases of ``table`` (lemma tuples -> label, longest first) stand in
    ``lemmas``: (first word, length, label), in the table's order."""
    found = []
    for phrase, label in table:
        n = len(phrase)
        found += [
            (k, n, label) for k in range(len(lemmas) - n + 1) if tuple(lemmas[k : k + n]) == phrase
        ]
    return found


def _title_rank(opening: Opening, toks: Sequence[_Tok], copula: int) -> None:
    """A person's rank written as the title before their name in the opening ("Brigadier
    General John Andrew Seitz (1908 - 1987) was the commanding general of ..."): capitalised
    rank words before a capitalised name, among the subject's words. Only of a person: "General
    Motors" is a company."""
    lower = [t.lower_ for t in toks[:copula]]
    for k in range(copula - 1):
        if not toks[k].text[:1].isupper():
            continue
        opens_run = not (k and toks[k - 1].text[:1].isupper())
        for rank in military_ranks():
            n = len(rank)
            if (
                (opens_run or n > 1)  # inside a run of names only a rank of two words or more
                and k + n < copula
                and tuple(lower[k : k + n]) == rank
                and all(toks[k + j].text[:1].isupper() for j in range(n))
                and toks[k + n].text[:1].isupper()
            ):
                value = " ".join(toks[k + j].text for j in range(n))
                opening.labels.append(Label("rank", value, toks[k].idx, toks[k + n - 1].end))
                return


def _party(opening: Opening, toks: Sequence[_Tok], phrase: list[int], words: _Words) -> None:
    """ "a Republican member", "a British Conservative Party politician": the party, as
    written (capitalised: "a liberal thinker" names none)."""
    for k, i in enumerate(phrase):
        if not toks[i].text[:1].isupper():
            continue
        for party in words.parties:
            n = len(party)
            if tuple(toks[j].lower_ for j in phrase[k : k + n]) == party:
                last = phrase[min(k + n, len(phrase) - 1)]
                end = phrase[k + n - 1]
                if toks[last].lower_ == "party" and last > end:
                    end = last  # "Conservative Party"
                value = (
                    toks[i].text
                    if end == i
                    else " ".join(toks[j].text for j in phrase[k : phrase.index(end) + 1])
                )
                opening.labels.append(Label("political party", value, toks[i].idx, toks[end].end))
                return


def _name_after(toks: Sequence[_Tok], i: int, words: _Words) -> tuple[int, int] | None:
    """The capitalised name starting at or after word ``i`` (descriptive words before it
    skipped: "by American rapper Slim the Mobster"); a word range."""
    tokens = [t.text for t in toks]
    limit = min(len(tokens), i + MAX_NAME_TOKENS + 6)
    runs: list[tuple[int, int]] = []
    k = i
    while k < limit:
        word = tokens[k]
        if word[:1].isupper():
            a = k
            while k < limit and (
                tokens[k][:1].isupper()
                or (
                    tokens[k].lower() in words.connectors
                    and tokens[k].lower() not in ("and", "in", "at", "on", "for")
                    and k + 1 < limit
                    and tokens[k + 1][:1].isupper()
                )
                or (tokens[k] in ("&",) and k + 1 < limit and tokens[k + 1][:1].isupper())
            ):
                k += 1
            runs.append((a, k))
            if (
                k >= len(tokens)
                or not tokens[k][:1].isalpha()
                or tokens[k].lower() in words.phrase_ends
                or tokens[k].lower() in _NAME_ENDS
            ):
                break  # a name ends at punctuation, a verb or a preposition
            continue
        if word in (",", ".", ";", "(", ")") or word.lower() in words.phrase_ends:
            break
        k += 1
    if not runs:
        return None
    a, b = runs[-1]
    # "by American popular music duo Carpenters": the last run is the name, not a demonym
    if b - a == 1 and (tokens[a].lower(),) in words.nationalities:
        if len(runs) == 1:
            return None  # "by Australian singer-songwriter, ...": no name yet
        a, b = runs[-2]
    return a, b


def _place_preposition(lower: Sequence[str], i: int) -> int | None:
    """The index of the first "in" or "at" from ``i`` on, within MAX_PLACE_GAP words and
    before any punctuation; None when the clause has none."""
    for j in range(i, min(len(lower), i + MAX_PLACE_GAP + 1)):
        if lower[j] in ("in", "at"):
            return j
        if not lower[j][:1].isalnum():
            return None
    return None


def _agent_labels(
    opening: Opening,
    text: str,
    toks: Sequence[_Tok],
    copula: int,
    phrase: list[int],
    words: _Words,
) -> None:
    lower = [t.lower_ for t in toks]
    work = words.works.get(lemma(lower[phrase[-1]])) if phrase else None
    seen: set[str] = set()
    for i in range(copula + 1, len(toks)):
        attribute = None
        by = None
        if lower[i] in words.agents:
            for j in range(i + 1, min(len(toks), i + 5)):
                if lower[j] == "by":
                    attribute, by = words.agents[lower[i]], j
                    break
                if lower[j] != "and" and lower[j] not in words.agents and "-" not in lower[j]:
                    break  # "directed and co-written by", "designed and built by"
        elif lower[i] in ("by", "from") and phrase and i == phrase[-1] + 1 and work:
            attribute, by = work[1], i
        elif lower[i] in words.located:
            # "located in Tampa", "located along the shore of Old Tampa Bay in Tampa": the
            # first "in"/"at" of the clause
            at = _place_preposition(lower, i + 1)
            if at is not None:
                attribute, by = "location", at
        elif phrase and i == phrase[-1] + 1 and lower[i] == "in" and not opening.person:
            # "a private secondary school in Barrie, Ontario": where the thing is
            attribute, by = "location", i
        if attribute is None or by is None or attribute in seen:
            continue
        found = _name_after(toks, by + 1, words)
        if found is None:
            continue
        a, b = found
        if attribute == "location":
            # "located in Brighton, Boston": the place with the wider places after commas
            while b + 1 < len(toks) and toks[b].text == "," and toks[b + 1].text[:1].isupper():
                more = _name_after(toks, b + 1, words)
                if more is None or more[0] != b + 1:
                    break
                b = more[1]
        seen.add(attribute)
        opening.labels.append(
            Label(attribute, _text_of(text, toks, a, b), toks[a].idx, toks[b - 1].end)
        )
