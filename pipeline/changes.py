"""What changed since a graph-level consumer last ran, read from the store only.

``review_queue`` and ``conflict_status`` are unpartitioned, but re-doing the whole store on
every run would make one edited file cost as much as the first load. Each is a consumer of
the store's change feed (``claims.store.changes``): it refreshes the claim keys whose edges
were re-evaluated (``edges`` changes, ``*`` after a full evaluation) or whose sources' register
entries changed (``register``) since its cursor, and acknowledges them in the transaction
that writes its output. Its cursor row also remembers the newest audit event it has seen and
the policy version it routed under: the audit log is where an authority-policy application
(``policy.apply``) and every change to a review item or resolution (routing, reviewers in
the UI or CLI) are written, in the transaction that made them.

A refresh is full when the consumer has no cursor in this store (a first run, a new or
replaced store), when a full edge evaluation happened in between, or when a policy was
applied or the policy version changed. Nothing here reads Dagster's history: losing it
loses no progress.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import dagster as dg

from claims.store import changes as feed
from claims.store.changes import (
    Executor,
    Pending,
    audit_changes,
    keys_of_items,
    newest_audit_id,
)


@dataclass
class KeyChanges:
    """Claim keys to refresh (``keys is None``: all of them) and what to acknowledge."""

    consumer: str
    todo: Pending
    audit_cursor: int = 0
    policy_version: str | None = None

    @property
    def keys(self) -> set[str] | None:
        return self.todo.keys

    @property
    def mode(self) -> str:
        return self.todo.mode

    @property
    def full_because(self) -> str:
        return self.todo.full_because

    def acknowledge(self, executor: Executor) -> None:
        """Move the consumer's cursor; call it in the transaction of the consumer's output."""
        state: dict[str, Any] = {"audit_cursor": self.audit_cursor}
        if self.policy_version is not None:
            state["policy_version"] = self.policy_version
        feed.acknowledge(executor, self.consumer, self.todo.upto, state)

    def as_metadata(self) -> dict[str, object]:
        data: dict[str, object] = {
            "mode": self.mode,
            "full_because": self.full_because or "-",
            "change_cursor": self.todo.upto,
            "audit_cursor": self.audit_cursor,
        }
        if self.keys is not None:  # a full refresh says so in "mode", not with a -1 count
            data["keys_refreshed"] = len(self.keys)
        return data


def changes_since(
    executor: Executor,
    consumer: str,
    *,
    full: bool,
    policy_stamp: str | None = None,
    follow_reviews: bool = False,
) -> KeyChanges:
    """The claim keys ``consumer`` must refresh since it last acknowledged.

    Everything when ``full``, on its first run on this store, after a full edge evaluation,
    when a policy was applied or (given ``policy_stamp``) the policy version differs from
    the one it recorded; else the keys whose edges or register entries changed and, with
    ``follow_reviews``, the keys of review items changed since.
    """
    todo = feed.pending(executor, consumer, kinds={feed.EDGES, feed.REGISTER})
    changes = KeyChanges(
        consumer, todo, audit_cursor=newest_audit_id(executor), policy_version=policy_stamp
    )
    state = todo.state or {}
    if full:
        todo.force("configured full")
    previous_policy = state.get("policy_version")
    if todo.state is not None and policy_stamp is not None and previous_policy != policy_stamp:
        todo.everything(f"policy {policy_stamp} replaces {previous_policy}")
    if todo.keys is not None:
        audit = audit_changes(executor, int(state.get("audit_cursor", 0)), changes.audit_cursor)
        if audit.policy_applied:
            todo.everything("an authority policy was applied")
        if follow_reviews and audit.review_items:
            todo.add(keys_of_items(executor, audit.review_items))  # routing and reviewers
    return changes


def touched_keys_metadata(keys: set[str]) -> dg.MetadataValue:
    """How ``claim_edges`` lists the keys an incremental evaluation touched."""
    return dg.MetadataValue.json(sorted(keys))
