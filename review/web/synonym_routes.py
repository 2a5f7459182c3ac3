"""The taught synonyms page: what reviewers taught (who, when, why), a form to teach one,
a withdraw button on each, and the impact of the last teaching or withdrawal.

GET /synonyms lists them; POST /synonyms teaches, POST /synonyms/{id}/withdraw withdraws,
each in one transaction attributed to the logged-in reviewer, after the CSRF check. The
impact shown is the one recorded in the audit log (``synonym.teach`` / ``synonym.withdraw``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy.orm import Session

from claims.errors import ClaimLedgerError
from claims.store import transaction
from claims.store.engine import session_factory
from claims.store.taught_synonyms import TaughtSynonymRepository
from claims.synonyms import SAME
from review import audit
from review.reviewers import Reviewer
from review.synonyms import SYNONYM_CHANGE_TITLES, describe, synonym_as_dict, teach, withdraw
from review.web.pages import PREFIX, ReviewPages
from review.web.session import CsrfError

NOTICES = {"taught": "Taught. The keys, edges and review items below changed at once.",
           "withdrawn": "Withdrawn. The claims are back under their earlier keys."}  # fmt: skip
RECENT = 20  # impacts shown


@dataclass(frozen=True)
class SynonymForm:
    """The teach form's fields, as posted to teach a synonym or to preview the teaching."""

    left: str
    right: str
    relation: str
    reason: str


def synonym_form(
    left: str = Form(""), right: str = Form(""), relation: str = Form(SAME), reason: str = Form("")
) -> SynonymForm:
    """The teach form read from the request: one dependency for teach and preview."""
    return SynonymForm(left=left, right=right, relation=relation, reason=reason)


def synonym_router(pages: ReviewPages) -> APIRouter:
    """GET /synonyms, POST /synonyms, POST /synonyms/{synonym_id}/withdraw."""
    router = APIRouter()

    def page(request: Request, reviewer: Reviewer, **context: object) -> Response:
        with transaction(pages.engine()) as session:
            rows = TaughtSynonymRepository(session).listed()
            taught = [{**synonym_as_dict(r), "said": describe(r)} for r in rows]
            impacts = [
                {**(event.after or {}).get("impact", {}), "at": event.at, "actor": event.actor}
                for action in ("synonym.teach", "synonym.withdraw")
                for event in audit.events(session, action=action, limit=RECENT)
            ]
        impacts.sort(key=lambda i: i["at"], reverse=True)
        return pages.render(
            request,
            "synonyms.html",
            reviewer=reviewer,
            synonyms=taught,
            impacts=impacts[:RECENT],
            titles=SYNONYM_CHANGE_TITLES,
            **context,
        )

    def checked(request: Request, csrf_token: str) -> Reviewer | Response:
        """The logged-in reviewer of a form posted with a valid CSRF token, else the
        response to give (forbidden, or the way to the login page)."""
        try:
            pages.signer.check_csrf(request, csrf_token)
        except CsrfError:
            return pages.forbidden(request)
        reviewer = pages.current(request)
        return pages.to_login(request) if reviewer is None else reviewer

    def acting(
        request: Request, csrf_token: str, done: str, action: Callable[[Session, str], object]
    ) -> Response:
        reviewer = checked(request, csrf_token)
        if isinstance(reviewer, Response):
            return reviewer
        try:
            with transaction(pages.engine()) as session:
                action(session, reviewer.name)
        except ClaimLedgerError as problem:
            return page(request, reviewer, error=str(problem), status_code=problem.http_status)
        return RedirectResponse(f"{PREFIX}/synonyms?done={done}", status_code=303)

    @router.get("/synonyms")
    def synonyms_page(request: Request, done: str = "") -> Response:
        reviewer = pages.current(request)
        if reviewer is None:
            return pages.to_login(request)
        return page(request, reviewer, notice=NOTICES.get(done))

    @router.post("/synonyms")
    def teach_synonym(
        request: Request, csrf_token: str = Form(""), form: SynonymForm = Depends(synonym_form)
    ) -> Response:
        def run(session: Session, actor: str) -> object:
            return teach(
                session, form.left, form.right, relation=form.relation, reason=form.reason,
                actor=actor,
            )  # fmt: skip

        return acting(request, csrf_token, "taught", run)

    @router.post("/synonyms/preview")
    def preview_synonym(
        request: Request, csrf_token: str = Form(""), form: SynonymForm = Depends(synonym_form)
    ) -> Response:
        """What teaching it would change, computed in a transaction rolled back."""
        reviewer = checked(request, csrf_token)
        if isinstance(reviewer, Response):
            return reviewer
        session = session_factory(pages.engine())()
        try:
            row, impact = teach(
                session, form.left, form.right, relation=form.relation,
                reason=form.reason or "(preview)", actor=reviewer.name, record=False,
            )  # fmt: skip
            said = describe(row)
        except ClaimLedgerError as problem:
            return page(request, reviewer, error=str(problem), status_code=problem.http_status)
        finally:
            session.rollback()  # a preview writes nothing
            session.close()
        preview = {**impact.as_dict(), "said": said}
        return page(request, reviewer, preview=preview, form=asdict(form))

    @router.post("/synonyms/{synonym_id}/withdraw")
    def withdraw_synonym(
        request: Request, synonym_id: int, csrf_token: str = Form(""), reason: str = Form("")
    ) -> Response:
        def run(session: Session, actor: str) -> object:
            return withdraw(session, synonym_id, reason=reason, actor=actor)

        return acting(request, csrf_token, "withdrawn", run)

    return router
