"""``claims ask``: the answer contract (seed 004) from the command line, per principal."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer
from rich.markup import escape

from claimledger.cli.app import app, console, engine, settings
from claimledger.cli.requesters import as_of_options, requester_named

if TYPE_CHECKING:  # the retrieval layer loads with the command, not with every `claims` call
    from retrieval.contract import Answer, Citation
    from retrieval.explain import Explanation


@app.command("ask")
def ask(
    question: str = typer.Argument(..., help="The question, e.g. 'What is the output limit?'"),
    principal: str | None = typer.Option(
        None, "--as", help="Ask as this principal of the access file (default: its default)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the answer contract as JSON."),
    effective: str | None = typer.Option(None, help="Answer as the facts held on this date."),
    known_at: str | None = typer.Option(None, "--known-at", help="Answer as known then (ISO)."),
    show_why: bool = typer.Option(
        False,
        "--explain",
        help="Also print the question frame and the candidate keys with their scores.",
    ),
    profile: str | None = typer.Option(
        None,
        "--profile",
        help="Match names as this profile does (reference: familiar given names, other "
        "spellings); default: the profiles the store's sources were read with.",
    ),
) -> None:
    """Answer QUESTION from the evidence PRINCIPAL may see: answered, conflict or not_found.

    Exits 0 for every answer (a conflict is an answer); 2 for a bad question.
    """
    from claims.errors import InputError
    from claims.profiles import UnknownProfile, profile_named
    from retrieval.answer import answer
    from retrieval.explain import explain

    if profile is not None:
        try:
            profile_named(profile)
        except UnknownProfile as error:
            raise InputError(str(error), location="--profile") from None
    requester = requester_named(principal)
    as_of = as_of_options(effective, known_at)
    store = engine()
    try:
        if show_why:
            why = explain(store, question, requester, as_of, limit=settings().max_question_chars)
        else:
            result = answer(
                store,
                question,
                requester,
                as_of,
                max_chars=settings().max_question_chars,
                profile=profile,
            )
    finally:
        store.dispose()
    if show_why:
        if as_json:
            print(why.model_dump_json(indent=2))
            return
        show_explanation(why)
        show_answer(why.answer)
        return
    if as_json:
        print(result.model_dump_json(indent=2))
        return
    show_answer(result)


def show_answer(result: Answer) -> None:
    from retrieval.contract import AnswerStatus

    colour = {
        AnswerStatus.ANSWERED: "green",
        AnswerStatus.CONFLICT: "yellow",
        AnswerStatus.NOT_FOUND: "red",
    }[result.status]
    head = f"[bold {colour}]{result.status.value}[/]"
    per_namesake = result.status is AnswerStatus.ANSWERED and result.value is None
    if per_namesake:  # namesakes the ledger tells apart: each side states its own value
        head += escape(f": per namesake ({len(result.sides)})")
    elif result.status is AnswerStatus.ANSWERED:  # the value and unit are data: escaped
        head += escape(f": {result.value}" + (f" {result.unit}" if result.unit else ""))
    console.print(head, markup=True)
    if result.values is not None:  # a listed answer: one line per item
        console.print(
            f"values ({len(result.values)}): " + listed(result.values, result.unit), markup=False
        )
    console.print(f"reason: {result.reason}", markup=False)
    if result.policy_version:
        console.print(f"policy version: {result.policy_version}", markup=False)
    for number, side in enumerate(result.sides, start=1):
        unit = f" {side.unit}" if side.unit else ""
        about = f" ({side.entity})" if side.entity else ""
        console.print(f"side {number}{about}: {side.value}{unit}", markup=False)
        if side.values is not None:
            console.print(f"  lists {len(side.values)} values", markup=False)
        for cite in side.citations:
            console.print(
                f"  [{cite.source_id} v{cite.version} {cite.span.start}-{cite.span.end}] "
                f"{cite.quote}",
                markup=False,
            )
            console.print(f"    {confidences(cite)}", markup=False)
    console.print(f"citations: {', '.join(result.citations) or '-'}", markup=False)
    signals = result.signals
    if signals is not None:
        tier = f"{signals.highest_tier} (rank {signals.highest_tier_rank})"
        console.print(
            f"evidence: {signals.distinct_documents} document(s), {signals.supporting_sources} "
            f"supporting, {signals.conflicts_detected} conflict(s), highest tier "
            + (tier if signals.highest_tier else "-"),
            markup=False,
        )
        if signals.decided_by:
            by = f"rule {signals.rule_id}" if signals.rule_id else "a reviewer"
            stated = signals.resolution_confidence
            console.print(
                f"decided by {by}; resolution confidence "
                + (f"{stated:.2f}" if stated is not None else "not stated"),
                markup=False,
            )


def listed(values: list[int | float | str | None], unit: str | None) -> str:
    """The items of a listed answer, each with the shared unit: "16 GB; 32 GB; 64 GB"."""
    return "; ".join(f"{v} {unit}" if unit else f"{v}" for v in values)


def confidences(cite: Citation) -> str:
    """The three kinds of confidence of one citation, never blended: extraction, authority."""
    extraction = cite.extraction_confidence
    rank = f", policy rank {cite.tier_rank}" if cite.tier_rank is not None else ""
    return (
        "extraction confidence "
        + (f"{extraction:.2f}" if extraction is not None else "-")
        + f"; source tier {cite.tier or '-'}{rank}"
        + (f"; sha256 {cite.checksum[:12]}" if cite.checksum else "")
    )


def show_explanation(why: Explanation) -> None:
    frame = why.frame
    console.print(
        f"frame: key {frame.claim_key!r}, entity {frame.entity!r}, attribute "
        f"{frame.attribute!r} (class {frame.attribute_class!r}), asks for {frame.answer_type}",
        markup=False,
    )
    if frame.scope or frame.qualifiers or frame.time:
        console.print(
            f"       scope {frame.scope}, qualifiers {frame.qualifiers}, time {frame.time!r}",
            markup=False,
        )
    reading = why.reading
    if reading is not None:
        console.print(
            f"reading: asks for {reading.kind or 'any value'}"
            + (f" ({', '.join(reading.dimensions)})" if reading.dimensions else "")
            + f", entity {reading.entity!r}, time {reading.time!r}, scope {reading.scope}, "
            f"words {reading.terms}",
            markup=False,
        )
    for e in why.evidence:
        console.print(
            f"evidence {e.rank}: {e.value} {e.unit or ''} ({e.claim_key!r}, {e.source_id}) "
            f"score {e.score:.2f}, carries {e.matched}",
            markup=False,
        )
    if why.winner:
        console.print(f"winner: {why.winner}", markup=False)
    if why.table is not None:
        cells = ", ".join(
            f"{c.value} {c.unit or ''} ({c.source_id})".strip() for c in why.table.cells
        )
        console.print(f"table: {why.table.why}" + (f"; {cells}" if cells else ""), markup=False)
    if not why.candidates:
        console.print("candidates: none the requester may see", markup=False)
    for c in why.candidates:
        console.print(
            f"candidate {c.rank}: {c.claim_key!r} score {c.score:.2f} (attribute "
            f"{c.attribute_score:.2f} x entity {c.entity_fit:.2f}; found by {c.found_by})",
            markup=False,
        )
