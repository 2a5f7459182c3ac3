"""Model instances built without validation, for values the code built and typed itself.

Validating every claim with its spans and time was ~8 % of extraction time (and pydantic's
``model_construct`` is slower than validation). Callers pass every field with the type
validation would produce; tests/test_extraction_table.py and
tests/test_extraction_robustness.py validate every claim built this way and assert that
validation changes nothing.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

_M = TypeVar("_M", bound=BaseModel)
_set = object.__setattr__


def trusted(model: type[_M], fields: dict[str, Any]) -> _M:
    """An instance of ``model`` holding ``fields`` (all of them) as they are."""
    instance = model.__new__(model)
    _set(instance, "__dict__", fields)
    _set(instance, "__pydantic_fields_set__", set(fields))
    _set(instance, "__pydantic_extra__", None)
    _set(instance, "__pydantic_private__", None)
    return instance
