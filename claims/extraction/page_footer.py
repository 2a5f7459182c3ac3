"""A saved page's own title where the page states it outside its text: the footer's saved
address and category line, and a Wikidata item's label.

Scraped encyclopedia pages are often cut: the opening sentence, the title line and the box
are gone, and what is left is the page's end ('Retrieved from "https://<wiki host>/w/
index.php?title=Paper_Kites_(2009_film)&oldid=1190042211" Categories: 2009 films
... Films directed by Nora Quill ...') or a Wikidata item's statements ("English Quiet
Water album by Harbour Lights Statements instance of album ... inception March 2010"). Both
name the page's subject, so this module reads:

* the **footer title**: the title in the saved address, when the address stands right
  before the category line (an address elsewhere is a reference's or a statement's link,
  of another page); decoded ("Hvolsfell_(men%27s_handball)" -> "Hvolsfell (men's handball)");
* the **footer's labels** of that title: its disambiguation as a sport, an occupation or a
  medium ("(chef)", "(men's basketball)", "(1979 film)"), and the categories that state a
  fact: a maker ("Films directed by Sunil Mehra": director) and a sport ("Basketball clubs
  in Iceland"); a category whose name runs into the next one with no end a reader can
  tell gives nothing;
* the **Wikidata label**: the item's name between the language's name and its description,
  before "Statements"; the description's maker ("album by Harbour Lights": artist).

``claims.extraction.opening`` makes the claims: the footer title is the page's subject as
a page title is, and the Wikidata label names its statements' subject as a box's naming
field does (known as named in that page: a label has no disambiguation). Words live in
``data/page_footer.yaml`` and ``data/opening.yaml``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from claims.extraction.identity import lemma
from claims.extraction.resources import read_yaml

_ADDRESS = re.compile(
    r"index\.php\s*\?\s*title\s*=\s*(?P<title>[^&\"`\n]{1,200}?)\s*&\s*(?:amp;\s*)?"
    r"oldid\s*=\s*\d+\s*(?:\"|``|''|\u201d)?\s*"
)
_ESCAPE = re.compile(r"%\s*([0-9A-Fa-f]{2})")
_SPACES = re.compile(r"\s+")
_WORD = re.compile(r"\S+")
_LANGUAGE_WORD = re.compile(r"^[A-Z][a-z]+-[a-z]+$")  # "Hindi-language" starts a category


@dataclass(frozen=True)
class Titled:
    """A title a page states of itself, decoded, and where it stands in the text."""

    title: str  # "Chandni Raaste (1979 film)"
    start: int
    end: int
    line: tuple[int, int] | None = None  # the category line after a footer's address


@dataclass(frozen=True)
class FooterLabel:
    """One fact the footer states of its title: attribute, value, the value's characters
    and the characters quoted for it (the category line, or the address)."""

    attribute: str
    value: str
    start: int
    end: int
    quote_start: int
    quote_end: int


@dataclass(frozen=True)
class _Words:
    markers: tuple[str, ...]
    ends: tuple[str, ...]
    maker: re.Pattern[str]
    agents: dict[str, str]
    name_ends: frozenset[str]
    head_words: frozenset[str]
    max_name_words: int
    sports: tuple[tuple[str, str], ...]  # phrase -> sport, longest first
    sport_groups: re.Pattern[str]
    drop: frozenset[str]
    occupations: frozenset[str]
    works: dict[str, tuple[str, str]]  # head -> (medium, maker attribute)
    wikidata: dict[str, object]


@lru_cache(maxsize=1)
def _words() -> _Words:
    data = read_yaml("page_footer.yaml")
    opening = read_yaml("opening.yaml")
    agents = {str(k): str(v) for k, v in (opening.get("agents") or {}).items()}
    heads = [str(h) for h in data["work_heads"]]
    maker = re.compile(
        rf"\b(?:{'|'.join(re.escape(h) for h in sorted(heads, key=len, reverse=True))})\s+"
        rf"(?P<verb>{'|'.join(re.escape(a) for a in agents)})\s+by\s+"
    )
    sports: list[tuple[str, str]] = []
    for sport, phrases in (opening.get("sports") or {}).items():
        for phrase in [sport, *phrases]:
            sports.append((str(phrase).casefold(), str(sport)))
    sports.sort(key=lambda pair: len(pair[0]), reverse=True)
    groups = "|".join(re.escape(str(g)) for g in data["sport_groups"])
    works = {
        str(head): (str(entry["medium"]), str(entry["maker"]))
        for head, entry in (opening.get("works") or {}).items()
    }
    return _Words(
        markers=tuple(str(m) for m in data["category_markers"]),
        ends=tuple(str(e) for e in data["category_ends"]),
        maker=maker,
        agents=agents,
        name_ends=frozenset(str(w) for w in data["name_ends"]),
        head_words=frozenset(h.split()[0] for h in heads),
        max_name_words=int(data["max_name_words"]),
        sports=tuple(sports),
        sport_groups=re.compile(rf"\s+(?:{groups})\b"),
        drop=frozenset(str(w).casefold() for w in data["disambiguation_drop"]),
        occupations=frozenset(
            str(w).casefold() for w in [*opening["occupations"], *data["occupations"]]
        ),
        works=works,
        wikidata=dict(data["wikidata"]),
    )


def _decoded(raw: str) -> str:
    """A saved address's title as written: "%27" and its scraped "% 27" are "'",
    underscores are spaces, brackets hug their words."""
    text = _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), raw).replace("_", " ")
    text = re.sub(r"\s+'s\b", "'s", _SPACES.sub(" ", text).strip())
    return text.replace("( ", "(").replace(" )", ")")


def _category_line(text: str, at: int) -> tuple[int, int] | None:
    """The category line starting right at ``at`` (its marker's end, its end)."""
    for marker in _words().markers:
        if text.startswith(marker, at):
            start = at + len(marker)
            ends = [text.find(e, start) for e in _words().ends]
            end = min((e for e in ends if e >= 0), default=len(text))
            return start, end
    return None


def address_spans(text: str) -> list[tuple[int, int]]:
    """Where a saved wiki address stands ("index.php?title=X&oldid=1247959264"): a link,
    whose revision number is no fact of the page."""
    if "oldid" not in text:
        return []
    return [(m.start(), m.end()) for m in _ADDRESS.finditer(text)]


def footer_title(text: str) -> Titled | None:
    """The title of the page's own saved address: the address right before its category
    line. None when the page has none (an address elsewhere names another page)."""
    if "oldid" not in text:
        return None  # every saved address carries its revision
    for match in _ADDRESS.finditer(text):
        line = _category_line(text, match.end())
        if line is None:
            continue
        title = _decoded(match.group("title"))
        if title[:1].isupper() or title[:1].isdigit():
            return Titled(title, match.start("title"), match.end("title"), line)
    return None


def footer_labels(text: str, titled: Titled) -> list[FooterLabel]:
    """What the footer states of its title: the disambiguation's sport, occupation or
    medium, a category's maker and a category's sport."""
    found: list[FooterLabel] = []
    sport = None
    for attribute, value in _disambiguation_labels(titled.title):
        if attribute == "sport":
            sport = value
        t0, t1 = titled.start, titled.end
        found.append(FooterLabel(attribute, value, t0, t1, t0, t1))
    if titled.line is None:
        return found
    c0, c1 = titled.line
    found.extend(_maker_labels(text, c0, c1))
    if sport is None:
        sports = _category_sports(text[c0:c1])
        if len(sports) == 1:
            ((value, (a, b)),) = sports.items()
            found.append(FooterLabel("sport", value, c0 + a, c0 + b, c0, c1))
    return found


def _disambiguation_labels(title: str) -> list[tuple[str, str]]:
    """A title's bracket as a sport, an occupation or a medium: "(men's basketball)" ->
    sport basketball, "(chef)" -> occupation chef, "(1979 film)" -> medium film."""
    if "(" not in title or not title.endswith(")"):
        return []
    w = _words()
    inner = title[title.rindex("(") + 1 : -1].casefold()
    kept = [
        x
        for x in re.split(r"[\s,]+", inner.replace("'s", " 's"))
        if x and x not in w.drop and not any(ch.isdigit() for ch in x)
    ]
    phrase = " ".join(kept)
    if not phrase:
        return []
    for sport_phrase, sport in w.sports:
        if phrase == sport_phrase:
            return [("sport", sport)]
    last = kept[-1]
    if phrase in w.occupations or last in w.occupations or lemma(last) in w.occupations:
        return [("occupation", phrase)]
    if lemma(last) in w.works:
        return [("medium", w.works[lemma(last)][0])]
    return []


def _maker_labels(text: str, c0: int, c1: int) -> list[FooterLabel]:
    """The name after "by" in "Films directed by Sunil Mehra Films shot in ...", up to the next
    category's first word; nothing when the name's end cannot be told."""
    w = _words()
    found: list[FooterLabel] = []
    for match in w.maker.finditer(text, c0, c1):
        name: list[re.Match[str]] = []
        ended = False
        for word in _WORD.finditer(text, match.end(), c1):
            token = word.group()
            if token in w.head_words or token in w.name_ends or _LANGUAGE_WORD.match(token):
                ended = True
                break
            if token[:1].isdigit():
                ended = True
                break
            if not token[:1].isupper():
                break  # the next category started inside the run: no end to tell
            name.append(word)
            if len(name) > w.max_name_words:
                break
        else:
            ended = True  # the line ends after the name
        if not ended or not name or len(name) > w.max_name_words:
            continue
        attribute = w.agents[match.group("verb")]
        start, end = name[0].start(), name[-1].end()
        found.append(FooterLabel(attribute, text[start:end], start, end, c0, c1))
    return found


def _category_sports(line: str) -> dict[str, tuple[int, int]]:
    """The sports the category line names before a group noun ("Basketball clubs in
    Iceland"), each with where it stands; a phrase is read once (longest first)."""
    w = _words()
    lower = line.casefold()
    found: dict[str, tuple[int, int]] = {}
    for phrase, sport in w.sports:
        for match in re.finditer(rf"\b{re.escape(phrase)}(?={w.sport_groups.pattern})", lower):
            found.setdefault(sport, (match.start(), match.end()))
            # blank it: "american football clubs" is not also "football clubs"
            lower = lower[: match.start()] + " " * len(phrase) + lower[match.end() :]
    return found


def wikidata_label(text: str) -> tuple[Titled, Titled] | None:
    """A Wikidata item's label and its description ("Quiet Water", "album by
    Harbour Lights"), when the page is an item's page written out as text."""
    spec = _words().wikidata
    opener = str(spec["from"])
    at = text.find(opener)
    if at < 0:
        return None
    edit = text.find(f" {spec['edit']} ", at)
    if edit < 0 or edit - at > 300:
        return None
    raw = text[at + len(opener) : edit]
    description = raw.strip()
    d0 = at + len(opener) + len(raw) - len(raw.lstrip())
    if not description:
        return None
    statements = text.find(f" {spec['statements']} ", edit)
    if statements < 0 or statements - edit > 600:
        return None
    head = text[edit:statements]
    tail = f" {description}"
    if not head.endswith(tail):
        return None
    head = head[: -len(tail)]
    for language in spec["languages"]:  # type: ignore[attr-defined]
        marker = f" {language} "
        k = head.rfind(marker)
        if k >= 0:
            label = head[k + len(marker) :].strip()
            start = edit + k + len(marker)
            if label and label[:1].isupper() and len(label.split()) <= 10:
                return (
                    Titled(label, start, start + len(label)),
                    Titled(description, d0, d0 + len(description)),
                )
    return None


def description_labels(description: str) -> list[tuple[str, str, int, int]]:
    """A Wikidata description's medium and maker ("album by Harbour Lights": medium album,
    artist Harbour Lights), with the maker's characters in the description."""
    w = _words()
    match = re.match(r"(?:[\w'-]+\s+){0,4}?(?P<head>[a-z]+)\s+by\s+(?P<name>.+)$", description)
    if match is None:
        return []
    head = lemma(match.group("head"))
    if head not in w.works:
        return []
    name = match.group("name").strip()
    if not name[:1].isupper() or len(name.split()) > w.max_name_words:
        return []
    medium, maker = w.works[head]
    return [("medium", medium, match.start("head"), match.end("head")),
            (maker, name, match.start("name"), match.start("name") + len(name))]  # fmt: skip
