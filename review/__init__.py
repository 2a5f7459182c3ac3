"""The review layer: authority policy, routing of conflict sets, the review lifecycle,
resolutions, the append-only audit log, metrics, and the reviewer web UI (``review.web``).

Public surface:

- ``review.policy``: ``load_policy``, ``apply_policy``, ``active_policy``, ``AuthorityPolicy``
- ``review.routing``: ``route`` (conflict edges -> review items / rule resolutions)
- ``review.items``: ``ReviewItemRepository`` (the queue, sorted by risk and age)
- ``review.evidence``: ``item_view`` (every side's quote in context, provenance, history)
- ``review.queue``: ``claim``, ``release``, ``resolve``, ``dismiss``, ``mark_ambiguous``,
  ``defer``, ``reopen``
- ``review.resolutions``: ``current_resolution``, ``resolutions_for``
- ``review.audit``: ``record`` (insert only), ``history``
- ``review.reviewers``: ``load_reviewers``, ``hash_password``
- ``review.metrics``: ``review_metrics``
- ``review.web``: ``create_router`` (FastAPI router of the reviewer UI)

Imports ``claims`` only (never retrieval, pipeline or claimledger).
"""
