"""A cut page's own title where the page states it outside its prose: the saved address in
its footer with the category line, and a Wikidata item's label (issue 13, session 12).

Each class is checked both ways: the shape that gives a claim of the page's subject, and a
near miss that gives none (an address of another page, a category whose name runs into the
next one, a Wikidata page with no label)."""

from __future__ import annotations

from claims.extraction import extract
from claims.extraction.page_footer import footer_title
from claims.models import Claim


def _claims(text: str, source_id: str = "doc07") -> list[Claim]:
    return extract(text, source_id=source_id)


def _label(claims: list[Claim], attribute: str) -> list[tuple[str | None, str]]:
    return [(c.entity, str(c.value)) for c in claims if c.attribute == attribute]


FOOTER = (
    "Ravi Kapadia ( 1981 ) Chandni Raaste ( 1979 ) External links Chandni Raaste at IMDb "
    'Retrieved from "https://wiki.example.org/w/index.php?title=Chandni_Raaste_(1979_film)'
    '&oldid=1190042211" Categories: 1979 films 1970s Hindi-language films Films directed by '
    "Sunil Mehra Films scored by Vinod Sagar Films shot in Pune Hidden categories: "
    "Articles with short description This page was last edited on 3 May 2023, at 10:12."
)


def test_a_footer_names_its_page_and_its_category_states_the_director() -> None:
    claims = _claims(FOOTER)
    assert ("chandni raaste (1979 film)", "Sunil Mehra") in _label(claims, "director")
    assert ("chandni raaste (1979 film)", "film") in _label(claims, "medium")
    # the saved revision number is no fact of the page
    assert not any(c.value == 1190042211 for c in claims)


def test_a_maker_category_running_into_the_next_category_gives_no_director() -> None:
    claims = _claims(
        'Retrieved from "https://wiki.example.org/w/index.php?title=Chandni_Raaste_(1979_film)'
        '&oldid=1190042211" Categories: 1979 films Films directed by Sunil Mehra Eros '
        "International films Films shot in Pune"
    )
    # "Sunil Mehra Eros International" runs into "films": where the name ends is unknown
    assert not _label(claims, "director")


def test_an_address_that_is_not_the_footer_names_no_subject() -> None:
    text = (
        "The studio's site keeps an old copy (https://wiki.example.org/w/index.php?"
        "title=Harbour_Lights_(1962_film)&oldid=55512) of the page. It was shown in 1962."
    )
    assert footer_title(text) is None
    claims = _claims(text)
    assert not any(c.entity and "harbour" in c.entity for c in claims)


def test_a_scraped_address_with_escapes_gives_the_sport_of_its_disambiguation() -> None:
    claims = _claims(
        "//wiki.example.org/w/index.php? title=Hvolsfell_ ( men % 27s_handball_and_"
        "basketball ) & oldid=99 `` Categories : Sports clubs in Greenland Basketball clubs "
        "in Greenland Hidden categories : CS1 sources"
    )
    # the bracket is no single sport; the category line names one
    assert _label(claims, "sport") == [("hvolsfell (men's handball and basketball)", "basketball")]


def test_the_disambiguation_of_a_footer_title_gives_an_occupation_and_a_sport() -> None:
    chef = _claims(
        "Authority control databases VIAF Retrieved from `` https : //wiki.example.org/w/"
        "index.php? title=Mara_Lindqvist_ ( chef ) & oldid=1257 `` Categories : 1948 births "
        "Living people Swedish chefs"
    )
    assert _label(chef, "occupation") == [("mara lindqvist (chef)", "chef")]
    player = _claims(
        'Retrieved from "https://wiki.example.org/w/index.php?title=Tom_Ashby_(footballer,'
        '_born_1990)&oldid=4411" Categories: 1990 births Living people Cricketers from Kent'
    )
    assert _label(player, "sport") == [("tom ashby (footballer, born 1990)", "football")]


def test_two_sports_in_the_category_line_give_no_sport() -> None:
    claims = _claims(
        'Retrieved from "https://wiki.example.org/w/index.php?title=Ravens_Athletic&oldid=12"'
        " Categories: Basketball clubs in Norway Football clubs in Norway"
    )
    assert not _label(claims, "sport")
    one = _claims(
        'Retrieved from "https://wiki.example.org/w/index.php?title=Ravens_Athletic&oldid=12"'
        " Categories: Basketball clubs in Norway Sports clubs established in 1931"
    )
    assert _label(one, "sport") == [("raven athletic", "basketball")]


WIKIDATA = (
    "Tools Download as PDF In other projects "
    "From Wikidata album by Harbour Lights edit Language Label Description Also known as "
    "- English Quiet Water album by Harbour "
    "Lights Statements instance of album 0 references genre Chamber pop 1 reference "
    "publication date 14 March 2011 0 references inception March 2010 0 references"
)


def test_a_wikidata_item_names_its_statements_subject_as_named_in_its_page() -> None:
    claims = _claims(WIKIDATA)
    # a label has no disambiguation: known as named in this page only
    assert ("quiet water (in doc07)", "Harbour Lights") in _label(claims, "artist")
    assert ("quiet water (in doc07)", "Chamber pop") in _label(claims, "genre")
    assert ("quiet water (in doc07)", "2010-03") in _label(claims, "founded")
    # the page's chrome "Language Label Description" is no language field
    assert not _label(claims, "language")


def test_statements_with_no_label_name_no_subject() -> None:
    claims = _claims(
        "Statements instance of album 0 references genre Chamber pop 1 reference "
        "inception March 2010 0 references country United Kingdom 1 reference"
    )
    assert not [c for c in claims if c.attribute in {"genre", "founded"} and c.entity]


# --- a disambiguation page's entries, each of its titled article

DISAMBIGUATION = (
    "Quiet Harbour may refer to:\n"
    "- Quiet Harbour (1958 film), an Indian Marathi-language film directed by V. Shantaram\n"
    "- Quiet Harbour (EP), a 2004 EP by Saltmarsh Choir\n"
    "- Quiet Harbour, a 1999 album by Neil Brand\n"
    "- Quiet Harbour Lighthouse, a lighthouse in Nova Scotia\n"
)


def test_each_titled_entry_of_a_disambiguation_list_describes_its_article() -> None:
    claims = _claims(DISAMBIGUATION)
    assert ("quiet harbour (1958 film)", "Marathi") in _label(claims, "language")
    assert ("quiet harbour (1958 film)", "film") in _label(claims, "medium")
    assert ("quiet harbour (ep)", "Saltmarsh Choir") in _label(claims, "artist")


def test_an_entry_with_no_bracket_and_a_list_with_no_marker_give_nothing() -> None:
    claims = _claims(DISAMBIGUATION)
    # the bare title cannot be told from its namesakes: Neil Brand is no one's artist here
    assert all(value != "Neil Brand" for _, value in _label(claims, "artist"))
    plain = _claims(
        "Our favourite records this year:\n"
        "- Quiet Harbour (EP), a 2004 EP by Saltmarsh Choir\n"
        "- Low Tide (album), a 2001 album by Neil Brand\n"
    )
    assert not [c for c in plain if c.entity and c.entity.endswith("(ep)")]


# --- a heading under a saved page's chrome lines names the box below it


def test_a_heading_under_the_chrome_lines_names_the_box_as_named_in_its_page() -> None:
    claims = _claims(
        "From Wikipedia, the free encyclopedia\n"
        "(Redirected from Edwin Marlow (architect))\n"
        "Edwin Marlow\n"
        "Born: 3 March 1841, Exeter, Devon\n"
        "Died: 9 June 1910, Truro\n"
    )
    assert ("edwin marlow (in doc07)", "1841-03-03") in _label(claims, "born")
    # the same heading as the page's first line is the intranet page's heading, as before
    first = _claims("Edwin Marlow\nBorn: 3 March 1841, Exeter, Devon\nDied: 9 June 1910\n")
    assert ("edwin marlow", "1841-03-03") in _label(first, "born")


def test_chrome_lines_over_a_sentence_give_no_heading() -> None:
    claims = _claims(
        "From Wikipedia, the free encyclopedia\n"
        "The committee met twice in 1841.\n"
        "Born: 3 March 1841, Exeter, Devon\n"
    )
    # a sentence is no heading: nothing is named in this page
    assert not [
        c for c in claims if c.entity and ("(in doc07)" in c.entity or "committee" in c.entity)
    ]


# --- a baptism dates the birth an older biography does not know


def test_a_baptism_is_the_birth_date_and_a_baptism_of_another_is_not() -> None:
    claims = _claims(
        "Edward Carlyon, 2nd Baron Treloar was baptised on 9 April 1588. He was the son of "
        "Henry Carlyon and Grace Barton."
    )
    assert ("edward carlyon, 2nd baron treloar", "1588-04-09") in _label(claims, "born")
    other = _claims("The chapel was rebuilt in 1590, and the bells were blessed in 1602.")
    assert not _label(other, "born")


# --- a music box's header names the title between the description's maker and itself

HEADED_BOX = (
    "Printable version In other projects Wikidata item From Wikipedia, the free encyclopedia "
    "1979 studio album by Lena Marsh Tidewater Studio album by Lena Marsh Released 4 May 1979 "
    "Recorded 1978 Genre Folk rock Label Harbour Producer Tom Reid"
)


def test_a_music_box_header_names_its_title_and_artist_as_named_in_its_page() -> None:
    claims = _claims(HEADED_BOX)
    assert ("tidewater (in doc07)", "Lena Marsh") in _label(claims, "artist")
    assert ("tidewater (in doc07)", "Folk rock") in _label(claims, "genre")


def test_a_header_whose_maker_differs_from_the_description_names_nothing() -> None:
    claims = _claims(HEADED_BOX.replace("Studio album by Lena Marsh", "Studio album by Ray Dunn"))
    assert not [c for c in claims if c.entity and "tidewater" in c.entity]
