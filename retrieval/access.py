"""Who may see what: requesters, the visibility rule, and the access config file.

The rule (documented in docs/RETRIEVAL.md):

* A source with no grants in the register is public: every requester sees it.
* A source with grants is visible to a requester iff the requester belongs to at least one
  of the granted groups.
* A withdrawn source is evidence for nobody: its claims take part in no status, count,
  value or citation, for any requester (asking for it by id answers "not found").

The access config file (YAML, ``CLAIMS_ACCESS_FILE``, default ``<data_dir>/access.yaml``)
maps principals to groups, and bearer tokens (stored only as sha256 hex digests) to
principals::

    default_principal: anonymous      # who the CLI asks as without --as (optional)
    metrics_groups: [ops]             # who may read /metrics (store totals); default [ops]
    principals:
      alice:
        groups: [finance, legal]
        tokens_sha256: [3f1c...]      # sha256 of a high-entropy bearer token
      anonymous:
        groups: []
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from claims.errors import AuthError, InputError
from claims.models import Requester

ANONYMOUS = Requester(principal="anonymous", groups=[])


def source_visible(groups: Iterable[str], withdrawn: bool, requester: Requester) -> bool:
    """True iff ``requester`` may use a source with these grants as evidence."""
    if withdrawn:
        return False
    granted = set(groups)
    return not granted or bool(granted.intersection(requester.groups))


def token_digest(token: str) -> str:
    """The sha256 hex digest stored in the access file for a bearer token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> tuple[str, str]:
    """A fresh high-entropy bearer token and the digest to store for it."""
    token = secrets.token_urlsafe(32)
    return token, token_digest(token)


@dataclass(frozen=True)
class AccessConfig:
    """Principals with their groups, and token digests pointing at principals."""

    principals: dict[str, Requester] = field(default_factory=dict)
    token_principals: dict[str, str] = field(default_factory=dict)
    default_principal: str | None = None
    metrics_groups: frozenset[str] = frozenset({"ops"})
    location: str = "(no access file)"

    def may_read_metrics(self, requester: Requester) -> bool:
        """Operator figures (store totals) are for members of a metrics group only."""
        return bool(self.metrics_groups.intersection(requester.groups))

    def requester(self, principal: str | None) -> Requester:
        """The requester for ``principal`` (None: the default principal, else anonymous)."""
        name = principal if principal is not None else self.default_principal
        if name is None:
            return ANONYMOUS
        found = self.principals.get(name)
        if found is None:
            raise InputError(
                f"principal {name!r} is not in the access file; add it under 'principals:'",
                location=self.location,
            )
        return found

    def requester_for_token(self, token: str | None) -> Requester:
        """The requester a bearer token stands for; AuthError when it is missing or unknown."""
        if not token:
            raise AuthError("missing bearer token: send 'Authorization: Bearer <token>'")
        digest = token_digest(token)
        for known, principal in self.token_principals.items():
            if hmac.compare_digest(known, digest):
                return self.principals[principal]
        raise AuthError("invalid bearer token")


def _fail(path: Path, where: str, what: str) -> InputError:
    return InputError(what, location=f"{path}: {where}")


def load_access_config(path: Path | None) -> AccessConfig:
    """Read the access file; a missing file means "nobody but anonymous" (public sources)."""
    if path is None or not path.exists():
        return AccessConfig(location=f"{path} (missing)" if path else "(no access file)")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = f"line {mark.line + 1}" if mark is not None else "document"
        raise _fail(path, line, f"not valid YAML ({error}); fix the syntax") from error
    if not isinstance(data, dict):
        raise _fail(path, "document", "expected a mapping with a 'principals:' key")
    raw_principals = data.get("principals") or {}
    if not isinstance(raw_principals, dict):
        raise _fail(path, "principals", "expected a mapping of principal name -> settings")
    principals: dict[str, Requester] = {}
    tokens: dict[str, str] = {}
    for name, entry in raw_principals.items():
        entry = entry or {}
        if not isinstance(entry, dict):
            raise _fail(path, f"principals.{name}", "expected a mapping with 'groups:'")
        groups = entry.get("groups") or []
        if not isinstance(groups, list) or not all(isinstance(g, str) for g in groups):
            raise _fail(path, f"principals.{name}.groups", "expected a list of group names")
        principals[str(name)] = Requester(principal=str(name), groups=sorted(set(groups)))
        for digest in entry.get("tokens_sha256") or []:
            digest = str(digest).lower()
            if len(digest) != 64 or any(ch not in "0123456789abcdef" for ch in digest):
                raise _fail(
                    path,
                    f"principals.{name}.tokens_sha256",
                    "expected 64 hex characters (sha256 of the token), never the token itself",
                )
            if digest in tokens and tokens[digest] != name:
                raise _fail(path, f"principals.{name}.tokens_sha256", "token used twice")
            tokens[digest] = str(name)
    default = data.get("default_principal")
    if default is not None and default not in principals:
        raise _fail(path, "default_principal", f"{default!r} is not listed under principals")
    metrics_groups = data.get("metrics_groups", ["ops"])
    if not isinstance(metrics_groups, list) or not all(isinstance(g, str) for g in metrics_groups):
        raise _fail(path, "metrics_groups", "expected a list of group names")
    return AccessConfig(
        principals=principals,
        token_principals=tokens,
        default_principal=default,
        metrics_groups=frozenset(metrics_groups),
        location=str(path),
    )
