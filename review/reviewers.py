"""Who may review: a YAML file of reviewers with scrypt password hashes.

A caller gets ``load_reviewers(path)`` -> ``ReviewerDirectory``; ``directory.get(name)``
returns a ``Reviewer`` or raises ``InputError`` for an unknown name, so every lifecycle
function works on a reviewer that exists. ``hash_password`` / ``verify_password`` implement
the documented hash format ``scrypt$<n>$<r>$<p>$<salt b64>$<hash b64>`` with hashlib.scrypt.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from claims.errors import InputError

SCRYPT_N = 2**14
SCRYPT_R = 8
SCRYPT_P = 1
SCRYPT_LEN = 32
# A fixed dummy hash lets unknown users cost as much time as known ones at login.
_DUMMY_SALT = b"claimledger-dummy-salt"


class Reviewer(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=256, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.@-]*$")
    display_name: str | None = None
    password_hash: str | None = Field(None, description="Omit to allow only header login.")


class ReviewersFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reviewers: list[Reviewer] = Field(default_factory=list)
    session_secret: str | None = Field(
        None, min_length=32, description="Signs web session cookies; random per process if unset."
    )
    trusted_header: str | None = Field(
        None, description="Header carrying the reviewer name, set by a trusted reverse proxy."
    )
    trusted_proxies: list[str] = Field(
        default_factory=list, description="Client addresses allowed to send trusted_header."
    )
    secure_cookies: bool = Field(False, description="Mark cookies Secure (serve over HTTPS).")


class ReviewerDirectory:
    """The known reviewers and the web login settings from one file."""

    def __init__(self, config: ReviewersFile, *, location: str = "(reviewers)") -> None:
        self.config = config
        self.location = location
        self._by_name = {r.name: r for r in config.reviewers}
        if len(self._by_name) != len(config.reviewers):
            raise InputError("a reviewer name is listed twice", location=location)

    def get(self, name: str | None) -> Reviewer:
        """The reviewer called ``name``, or ``InputError`` saying how to add one."""
        if not name:
            raise InputError(
                "no reviewer named: pass --as NAME or set CLAIMS_REVIEWER", location=self.location
            )
        reviewer = self._by_name.get(name)
        if reviewer is None:
            raise InputError(
                f"unknown reviewer {name!r}: add them to the reviewers file "
                "(`claims review hash-password` prints a password hash)",
                location=self.location,
            )
        return reviewer

    def authenticate(self, name: str, password: str) -> Reviewer | None:
        """The reviewer if the password matches, else None (same cost for unknown names)."""
        reviewer = self._by_name.get(name)
        if reviewer is None or not reviewer.password_hash:
            hashlib.scrypt(password.encode(), salt=_DUMMY_SALT, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P)
            return None
        return reviewer if verify_password(password, reviewer.password_hash) else None

    @property
    def names(self) -> list[str]:
        return sorted(self._by_name)


def load_reviewers(path: Path | None) -> ReviewerDirectory:
    """Read the reviewers file; a missing setting gives an empty directory (nobody may act)."""
    if path is None:
        return ReviewerDirectory(ReviewersFile(), location="CLAIMS_REVIEWERS_FILE (unset)")
    location = str(path)
    try:
        content = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except OSError as error:
        message = f"cannot read the reviewers file: {error.strerror}"
        raise InputError(message, location=location) from None
    except yaml.YAMLError as error:
        raise InputError(f"not valid YAML: {error}", location=location) from None
    try:
        config = ReviewersFile.model_validate(content)
    except ValidationError as error:
        problems = [
            f"field '{'.'.join(str(p) for p in e['loc'])}': {e['msg']}" for e in error.errors()
        ]
        raise InputError("; ".join(problems), location=location) from None
    return ReviewerDirectory(config, location=location)


def hash_password(password: str, *, salt: bytes | None = None) -> str:
    """``scrypt$n$r$p$salt$hash`` with a random 16-byte salt."""
    if not password:
        raise InputError("the password is empty")
    salt = salt or os.urandom(16)
    digest = hashlib.scrypt(
        password.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=SCRYPT_LEN
    )
    b64 = base64.b64encode
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${b64(salt).decode()}${b64(digest).decode()}"


def verify_password(password: str, encoded: str) -> bool:
    try:
        scheme, n, r, p, salt_b64, hash_b64 = encoded.split("$")
        if scheme != "scrypt":
            return False
        salt = base64.b64decode(salt_b64)
        expected = base64.b64decode(hash_b64)
        digest = hashlib.scrypt(
            password.encode(), salt=salt, n=int(n), r=int(r), p=int(p), dklen=len(expected)
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(digest, expected)


def random_secret() -> str:
    return secrets.token_urlsafe(32)
