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
import ipaddress
import logging
import os
import secrets
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from claims.errors import InputError

SCRYPT_N = 2**14
SCRYPT_R = 8
SCRYPT_P = 1
SCRYPT_LEN = 32
# A fixed dummy hash lets unknown users cost as much time as known ones at login.
_DUMMY_SALT = b"claimledger-dummy-salt"
LOG = logging.getLogger("claimledger.review")


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
        default_factory=list,
        description="Addresses or networks (CIDR) of the reverse proxies allowed to send "
        "trusted_header and X-Forwarded-For; checked against the TCP peer itself.",
    )
    secure_cookies: bool = Field(False, description="Mark cookies Secure (serve over HTTPS).")

    @field_validator("trusted_proxies")
    @classmethod
    def _addresses(cls, value: list[str]) -> list[str]:
        for entry in value:
            try:
                ipaddress.ip_network(entry, strict=False)
            except ValueError:
                raise ValueError(f"{entry!r} is not an IP address or network (CIDR)") from None
        return value

    def trusts_proxy(self, peer: str | None) -> bool:
        """True iff the TCP peer ``peer`` is one of ``trusted_proxies``."""
        if not peer or not self.trusted_proxies:
            return False
        try:
            address = ipaddress.ip_address(peer)
        except ValueError:
            return False  # not an IP (a unix socket, a test client): never a proxy
        return any(
            address in ipaddress.ip_network(entry, strict=False) for entry in self.trusted_proxies
        )


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


class ReviewersFileWatcher:
    """The reviewers file as it is now: re-read when it changes, so a password change, a
    removed reviewer or new trusted proxies take effect without a restart (and end the
    sessions they no longer justify). While the file is invalid nobody may log in: the
    error is logged and an empty directory is served, never a stale one."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._stamp: tuple[float, int, int] | None = None
        self._directory = load_reviewers(path)  # a bad file at startup is the caller's error
        self._stamp = self._stat()

    def _stat(self) -> tuple[float, int, int] | None:
        if self.path is None:
            return None
        try:
            info = self.path.stat()
        except OSError:
            return None
        return (info.st_mtime, info.st_size, info.st_ino)

    def get(self) -> ReviewerDirectory:
        stamp = self._stat()
        if stamp != self._stamp:
            self._stamp = stamp
            try:
                self._directory = load_reviewers(self.path)
            except InputError as error:
                LOG.error("reviewers file rejected; nobody may log in until it is fixed: %s", error)
                self._directory = ReviewerDirectory(ReviewersFile(), location=str(self.path))
        return self._directory


def credential_fingerprint(reviewer: Reviewer) -> str:
    """What a session remembers of the password it was opened with (a hash of its hash)."""
    return hashlib.sha256((reviewer.password_hash or "").encode("utf-8")).hexdigest()


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
