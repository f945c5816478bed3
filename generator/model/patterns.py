"""Regular expressions as the emitted panels run them.

A field's ``pattern`` is checked by the panel kernel's input models, that is by
pydantic-core's default engine: Rust's ``regex`` crate, which runs in linear time (no
catastrophic backtracking) and so has no look-around and no back-references. The
manifest is checked with that same engine, so a pattern that validates is one the
app can compile, and a default that validates is one the app accepts.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from pydantic_core import SchemaError, SchemaValidator, ValidationError, core_schema

_REASON = re.compile(r"^\s*error: (.*)$", re.MULTILINE)


@functools.lru_cache(maxsize=1024)
def _compiled(pattern: str) -> SchemaValidator | str:
    """The validator of strings containing a match of ``pattern``, or why not."""
    try:
        return SchemaValidator(core_schema.str_schema(pattern=pattern))
    except SchemaError as exc:
        text = str(exc)
        found = _REASON.findall(text)
        if found:
            return str(found[-1]).strip()
        return text.splitlines()[-1].removeprefix("  SchemaError: ").strip()


def engine_problem(pattern: str) -> str | None:
    """Why the panels' regular-expression engine cannot compile ``pattern``."""
    found = _compiled(pattern)
    return found if isinstance(found, str) else None


def engine_search(pattern: str, value: Any) -> bool:
    """Whether ``value`` contains a match of ``pattern``, as the panels decide it
    (Python's ``re`` when the engine cannot compile the pattern)."""
    found = _compiled(pattern)
    if isinstance(found, str):
        return re.search(pattern, value) is not None
    try:
        found.validate_python(value)
    except ValidationError:
        return False
    return True
