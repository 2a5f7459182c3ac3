"""Where a scan of source folders may read: inside the folders, never the store's own files.

A symbolic link in a sources folder can point anywhere readable (``.claims/reviewers.yaml``
holds password hashes and the session secret). A file found while walking a folder is read
only when its real path (links resolved) is inside that folder's real path, unless the
operator allows outside links (``--follow-outside-links``, ``CLAIMS_FOLLOW_OUTSIDE_LINKS``).
The store's data folder, reviewers and access files and SQLite file are never read as a
source, whatever path or link leads there and whatever the flag says.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from claims.files import real_path


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


@dataclass(frozen=True)
class SourceBounds:
    """The rule a scan applies to each file before reading it."""

    follow_outside_links: bool = False
    protected: tuple[str, ...] = ()  # real paths, never read

    @classmethod
    def of(cls, follow_outside_links: bool, protected: Iterable[Path]) -> SourceBounds:
        return cls(follow_outside_links, tuple(str(real_path(p.absolute())) for p in protected))

    @classmethod
    def from_settings(cls, follow_outside_links: bool | None = None) -> SourceBounds:
        """The configured rule (``follow_outside_links`` given: it wins over the setting)."""
        from claims.settings import get_settings

        settings = get_settings()
        follow = settings.follow_outside_links or bool(follow_outside_links)
        return cls.of(follow, settings.protected_paths())

    def problem(self, file: Path, folder: str | None, resolved: str) -> str | None:
        """Why ``file`` (real path ``resolved``) may not be read, or None.

        ``folder`` is the real path of the folder being ingested that the walk found it in
        (None: a file named on its own, which only the protected paths apply to).
        """
        for protected in self.protected:
            if _inside(resolved, protected):
                return (
                    f"leads to {resolved}, a file of the claim store's own data "
                    f"({protected}), which is never read as a source; remove the link or "
                    "move the file out of the sources"
                )
        if folder is None or self.follow_outside_links or _inside(resolved, folder):
            return None
        return (
            f"a symbolic link to {resolved}, outside the folder being ingested ({folder}); "
            "links are followed only inside it: copy the file in, or allow outside links "
            "with --follow-outside-links (CLAIMS_FOLLOW_OUTSIDE_LINKS=true)"
        )
