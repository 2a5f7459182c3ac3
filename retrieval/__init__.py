"""The retrieval layer: conflict status and the answer contract, per requester.

Public surface (details and the authorization rule in docs/RETRIEVAL.md):

- ``retrieval.status``: ``status_of_claim``, ``status_of_source`` (a version or a passage),
  ``status_of_key`` -> ``StatusReport``; ``NotFoundError`` alike for hidden and missing.
- ``retrieval.answer``: ``answer(store, question, requester, as_of)`` -> ``Answer`` (seed 004:
  answered / conflict / not_found, null value on conflict, every side cited).
- ``retrieval.evidence``: ``AsOf`` (effective date, system time), ``EvidenceLoader``,
  ``EvidenceGroup.narrow`` (what a requester may see).
- ``retrieval.access``: the visibility rule, the access file (principals, groups, token
  hashes).
- ``retrieval.contract``: response models; ``retrieval.metrics``: coverage and citations per
  side; ``retrieval.read_model``: the ``claim_status`` table; ``retrieval.probes``:
  known-conflict probes; ``retrieval.http``: the FastAPI router.

Imports ``claims`` and ``review`` only (never ``pipeline``).
"""
