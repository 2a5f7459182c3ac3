"""The ``office`` profile, the default: policies, contracts, reports, notes. The core's
readers and judges alone; nothing is added."""

from __future__ import annotations

from claims.profiles import PlainProfile

OFFICE = PlainProfile(name="office")
