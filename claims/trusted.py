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
    """An instance of ``model`` holding ``fields`` as they are; a field left out that has a
    plain default (added to the model after its callers were written) takes it."""
    defaults = _plain_defaults(model)
    if len(fields) < len(defaults[1]):
        fields = {**{k: v for k, v in defaults[0].items() if k not in fields}, **fields}
    instance = model.__new__(model)
    _set(instance, "__dict__", fields)
    _set(instance, "__pydantic_fields_set__", set(fields))
    _set(instance, "__pydantic_extra__", None)
    _set(instance, "__pydantic_private__", None)
    return instance


_DEFAULTS: dict[type, tuple[dict[str, Any], frozenset[str]]] = {}


def _plain_defaults(model: type[BaseModel]) -> tuple[dict[str, Any], frozenset[str]]:
    """(the fields with a plain immutable default and that default, every field name)."""
    found = _DEFAULTS.get(model)
    if found is None:
        plain = {
            name: info.default
            for name, info in model.model_fields.items()
            if info.default_factory is None
            and not info.is_required()
            and isinstance(info.default, (type(None), bool, int, float, str))
        }
        found = _DEFAULTS[model] = (plain, frozenset(model.model_fields))
    return found
