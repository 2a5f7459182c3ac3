"""What changed since a graph-level consumer last ran, read from the store only.

``review_queue`` and ``conflict_status`` are unpartitioned, but re-doing the whole store on
every run would make one edited file cost as much as the first load. Each is a consumer of
the store's change feed (``claims.store.changes``): it refreshes the claim keys recorded
after its cursor and acknowledges them in the transaction that writes its output. Both
read the keys whose edges were re-evaluated (``edges``, ``*`` after a full evaluation),
whose sources' register entries changed (``register``) and every authority-policy
application (``policy``, ``*``); ``conflict_status`` also reads the keys whose review items
or resolutions changed (``review``: routing, and reviewers in the UI, the CLI or the HTTP
API), which review/ records in the transaction of the decision. ``review_queue`` does not:
its own routing writes those.

A refresh is full when the consumer has no cursor in this store (a first run, a new or
replaced store), when a full edge evaluation or a policy application happened in between,
or when the policy version differs from the one it recorded. Nothing here reads Dagster's
history: losing it loses no progress.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import dagster as dg

from claims.store import changes as feed
from claims.store.changes import Executor, Pending

ROUTING_KINDS = frozenset({feed.EDGES, feed.REGISTER, feed.POLICY})
STATUS_KINDS = ROUTING_KINDS | {feed.REVIEW}


@dataclass
class KeyChanges:
    """Claim keys to refresh (``keys is None``: all of them) and what to acknowledge."""

    consumer: str
    todo: Pending
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

    def acknowledge(self, executor: Executor, extra: dict[str, Any] | None = None) -> None:
        """Move the consumer's cursor; call it in the transaction of the consumer's output.
        ``extra``: more the consumer remembers in its cursor's state."""
        state: dict[str, Any] = dict(extra or {})
        if self.policy_version is not None:
            state["policy_version"] = self.policy_version
        feed.acknowledge(executor, self.consumer, self.todo.upto, state)

    def as_metadata(self) -> dict[str, object]:
        data: dict[str, object] = {
            "mode": self.mode,
            "full_because": self.full_because or "-",
            "change_cursor": self.todo.upto,
            "changes_since_last_run": self.todo.changes,
        }
        if self.keys is not None:  # a full refresh says so in "mode", not with a -1 count
            data["keys_refreshed"] = len(self.keys)
        return data


def changes_since(
    executor: Executor,
    consumer: str,
    *,
    full: bool,
    kinds: Collection[str],
    policy_stamp: str | None = None,
) -> KeyChanges:
    """The claim keys ``consumer`` must refresh since it last acknowledged: the keys of
    ``kinds`` recorded after its cursor, or every key when ``full``, on its first run on
    this store, after a ``*`` change (a full edge evaluation, a policy application) or when
    (given ``policy_stamp``) the policy version differs from the one it recorded."""
    todo = feed.pending(executor, consumer, kinds=kinds)
    changes = KeyChanges(consumer, todo, policy_version=policy_stamp)
    state = todo.state or {}
    if full:
        todo.force("configured full")
    if "audit_cursor" in state:
        # A cursor written before review decisions and policy applications were in the
        # feed: what reviewers did since cannot be read from it, so refresh once in full.
        todo.everything("cursor from before review changes were in the change feed")
    previous_policy = state.get("policy_version")
    if todo.state is not None and policy_stamp is not None and previous_policy != policy_stamp:
        todo.everything(f"policy {policy_stamp} replaces {previous_policy}")
    return changes


def touched_keys_metadata(keys: set[str]) -> dg.MetadataValue:
    """How ``claim_edges`` lists the keys an incremental evaluation touched."""
    return dg.MetadataValue.json(sorted(keys))
