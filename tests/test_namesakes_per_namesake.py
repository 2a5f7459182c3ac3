"""Namesakes the ledger tells apart are answered per namesake (issue 13, point 2).

Two things of one name are two scopes: a question naming neither gets ``answered`` with
value null and one side per namesake, each naming its entity. When the ledger cannot tell
them apart (a subject known only inside one page, a copy that rewrote its title) the
answer stays ``conflict`` naming both."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

import pytest
from sqlalchemy import Engine

from claims.models import Requester
from claims.store import make_engine
from retrieval.answer import answer
from retrieval.contract import Answer, AnswerStatus
from tests.store_template import upgrade

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_case as load_case_any  # noqa: E402
from retrieval_cases import load_documents as load_documents_any

# reference articles (encyclopedia pages): read and judged with the reference profile
load_documents = partial(load_documents_any, profile="reference")
load_case = partial(load_case_any, profile="reference")

ANYONE = Requester(principal="anyone", groups=[])
QUESTION = 'Who directed the film "Harbour Lights"?'

FILM_1931 = (
    "Harbour Lights (1931 film) Harbour Lights is a 1931 British drama film directed by "
    "Edwin Marsh. It was produced by Gainsborough Pictures and stars Ivy Bell."
)
FILM_1958 = (
    "Harbour Lights (1958 film) Harbour Lights is a 1958 American crime film directed by "
    "Clara Voss. It was produced by Monogram Pictures and stars Dan Holt."
)
FILM_1974 = (
    "Harbour Lights (1974 film) Harbour Lights is a 1974 Danish comedy film directed by "
    "Bent Rasmussen. It was produced by Nordisk Film and stars Lis Holm."
)


def _by_entity(result: Answer) -> dict[str | None, tuple[object, list[str]]]:
    return {s.entity: (s.value, sorted(s.source_ids)) for s in result.sides}


def test_two_titled_films_of_one_name_are_each_answered(engine: Engine) -> None:
    load_documents(engine, {"doc01": FILM_1931, "doc02": FILM_1958})
    result = answer(engine, QUESTION, ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value is None and result.values is None
    sides = _by_entity(result)
    assert len(sides) == 2
    (early, early_side), (late, late_side) = sorted(sides.items(), key=lambda kv: str(kv[0]))
    assert "1931 film" in str(early) and early_side == ("Edwin Marsh", ["doc01"])
    assert "1958 film" in str(late) and late_side == ("Clara Voss", ["doc02"])
    assert result.reason.startswith("2 things are called ")
    assert f"{early!r}: Edwin Marsh" in result.reason
    assert f"{late!r}: Clara Voss" in result.reason
    assert result.reason.endswith("name one to get its value")
    assert sorted(result.citations) == ["doc01", "doc02"]
    assert result.signals is not None
    assert result.signals.conflicts_detected == 0
    assert result.signals.supporting_sources == 2


def test_two_titled_films_listing_their_languages_each_get_their_list(engine: Engine) -> None:
    load_documents(
        engine,
        {
            "doc01": f"{FILM_1931} Its languages are English, French and German.",
            "doc02": f"{FILM_1958} Its languages are Spanish, Italian and Portuguese.",
        },
    )
    result = answer(engine, 'What are the languages of "Harbour Lights"?', ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value is None and result.values is None
    lists = {str(s.entity): (s.values, s.source_ids) for s in result.sides}
    assert len(lists) == 2
    (early, early_list), (late, late_list) = sorted(lists.items())
    assert "1931 film" in early and early_list == (["English", "French", "German"], ["doc01"])
    assert "1958 film" in late and late_list == (["Spanish", "Italian", "Portuguese"], ["doc02"])
    assert "each has its own list" in result.reason
    assert result.reason.endswith("name one to get its list")


MENU = "Contents Early life Career References External links "


def test_a_namesake_known_only_inside_one_page_stays_a_conflict(engine: Engine) -> None:
    # the second page has no title: its subject is "marion tarrant (in doc02)", which no
    # title tells from the novelist, so the two dates stay a conflict naming both
    load_documents(
        engine,
        {
            "doc01": "Marion Tarrant (novelist) Marion Tarrant ( 4 May 1902 \u2013 1977 ) was "
            "an English novelist.",
            "doc02": f"{MENU}Marion Tarrant ( 9 June 1921 \u2013 1990 ) was a Scottish "
            "novelist. She wrote 12 novels.",
        },
    )
    result = answer(engine, "When was Marion Tarrant born?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT, result.reason
    assert result.value is None
    assert {str(s.value): s.source_ids for s in result.sides} == {
        "1902-05-04": ["doc01"],
        "1921-06-09": ["doc02"],
    }
    assert all(side.entity is None for side in result.sides)
    assert "(in doc02)" in result.reason


def test_a_copy_that_rewrote_its_title_stays_a_conflict(engine: Engine) -> None:
    # the second page is the first with its title's year and the director changed: the
    # pages agree on the year, the studio and the star and differ on one value, which the
    # edge linker's shared-facts test takes for one film; a dispute, not two films
    copy = FILM_1931.replace("(1931 film)", "(1932 film)").replace("Edwin Marsh", "Tom Garrick")
    load_documents(engine, {"doc01": FILM_1931, "doc02": copy})
    result = answer(engine, QUESTION, ANYONE)
    assert result.status is AnswerStatus.CONFLICT, result.reason
    assert result.value is None
    assert {str(s.value): s.source_ids for s in result.sides} == {
        "Edwin Marsh": ["doc01"],
        "Tom Garrick": ["doc02"],
    }
    assert all(side.entity is None for side in result.sides)


# a cut copy of the 1931 film's page: no title, its subject is known only inside it
CUT_1931 = (
    f"{MENU}Harbour Lights is a 1931 British drama film directed by Edwin Marsh. It was "
    "produced by Gainsborough Pictures and stars Ivy Bell."
)


def test_an_untitled_copy_stating_a_namesakes_value_rides_along_with_its_title(
    engine: Engine,
) -> None:
    # the cut copy says what the 1931 page says: it supports that side, names no namesake
    load_documents(engine, {"doc01": FILM_1931, "doc02": FILM_1958, "doc03": CUT_1931})
    result = answer(engine, QUESTION, ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    sides = {str(s.entity): (s.value, sorted(s.source_ids)) for s in result.sides}
    assert len(sides) == 2
    early = next(k for k in sides if "1931 film" in k)
    late = next(k for k in sides if "1958 film" in k)
    assert sides[early] == ("Edwin Marsh", ["doc01", "doc03"])
    assert sides[late] == ("Clara Voss", ["doc02"])


def test_an_untitled_copy_disputed_against_the_page_it_copies_stays_a_conflict(
    engine: Engine,
) -> None:
    # the cut copy of the 1931 page names the 1958 film's director: the edge linker joins
    # it to the 1931 film (year, studio and star alike) and sets the two directors against
    # each other, so it is no support of the 1958 side
    swapped = CUT_1931.replace("Edwin Marsh", "Clara Voss")
    load_documents(engine, {"doc01": FILM_1931, "doc02": FILM_1958, "doc03": swapped})
    result = answer(engine, QUESTION, ANYONE)
    assert result.status is AnswerStatus.CONFLICT, result.reason
    assert {str(s.value): sorted(s.source_ids) for s in result.sides} == {
        "Edwin Marsh": ["doc01"],
        "Clara Voss": ["doc02", "doc03"],
    }


def _asked_over(tmp_path: Path, name: str, documents: dict[str, str], hidden: set[str]) -> Answer:
    url = f"sqlite:///{tmp_path / name}.db"
    upgrade(url)
    engine = make_engine(url)
    try:
        load_case(
            engine,
            {"documents": [{"id": k, "text": v} for k, v in documents.items()], "supersedes": {}},
            groups={doc: ["board"] for doc in hidden},
        )
        return answer(engine, QUESTION, ANYONE)
    finally:
        engine.dispose()


@pytest.mark.parametrize(
    ("visible", "expected"),
    [
        ({"doc01": FILM_1931, "doc02": FILM_1958}, AnswerStatus.ANSWERED),
        ({"doc01": FILM_1931}, AnswerStatus.ANSWERED),
    ],
)
def test_a_hidden_namesake_neither_changes_the_status_nor_appears(
    tmp_path: Path, visible: dict[str, str], expected: AnswerStatus
) -> None:
    # view equivalence: the answer over the whole corpus, for a requester who cannot see
    # the 1974 film, is the answer over the corpus of what that requester sees
    whole = _asked_over(tmp_path, "whole", {**visible, "doc09": FILM_1974}, {"doc09"})
    seen = _asked_over(tmp_path, "seen", visible, set())
    assert whole.status is expected, whole.reason
    assert whole.model_dump(exclude={"signals"}) == seen.model_dump(exclude={"signals"})
    assert whole.signals == seen.signals
    shown = whole.model_dump_json()
    assert "Rasmussen" not in shown and "1974" not in shown and "doc09" not in shown
    if len(visible) == 1:
        assert whole.value == "Edwin Marsh"
    else:
        assert whole.value is None and len(whole.sides) == 2


def test_claims_ask_prints_each_namesake_with_its_value(cli_env: Path) -> None:
    """The CLI shows a per-namesake answer as such: no "answered: None", and each side
    names the thing it is about before its value."""
    from typer.testing import CliRunner

    from claimledger.cli.app import app as cli_app
    from claims.settings import get_settings

    url = get_settings().resolved_database_url
    upgrade(url)
    store = make_engine(url)
    load_documents(store, {"doc01": FILM_1931, "doc02": FILM_1958})
    store.dispose()
    shown = CliRunner().invoke(cli_app, ["ask", QUESTION])
    assert shown.exit_code == 0, shown.output
    assert "answered: per namesake (2)" in shown.output
    assert "None" not in shown.output.splitlines()[0]
    lines = [line for line in shown.output.splitlines() if line.startswith("side ")]
    assert len(lines) == 2
    assert any("1931 film" in line and line.endswith(": Edwin Marsh") for line in lines)
    assert any("1958 film" in line and line.endswith(": Clara Voss") for line in lines)
