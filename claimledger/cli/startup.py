"""A command's start-up objects and Python's cyclic collector.

A `claims` command imports its stack when it starts (Dagster, spaCy, SQLAlchemy: about
2,000 modules for `claims run`) and builds objects that live until the process ends
(Dagster's instance and definitions). The collector ran about 570 passes over them while
they were being made, a fifth of the CPU of those imports, and found almost nothing to
free (docs/PIPELINE.md, "Session 10"). ``loading`` turns it off for such a stretch and
then freezes what exists, so the pipeline's own passes later skip those objects too.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def loading() -> Iterator[None]:
    """No collector passes while the block imports and sets up; what it made is frozen.

    Only in the `claims` process itself: a test runner or a program calling ``main`` goes
    on after the command, so it keeps its collector as it was (frozen objects are never
    collected, which only a process about to end can ignore)."""
    if not owns_process() or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def owns_process() -> bool:
    """Whether ``claimledger.cli.main`` is the program's entry point (the ``claims`` script
    and ``python -m claimledger`` import it into ``__main__``), so the interpreter exits
    right after it."""
    main = getattr(sys.modules.get("claimledger.cli"), "main", None)
    return main is not None and getattr(sys.modules.get("__main__"), "main", None) is main
