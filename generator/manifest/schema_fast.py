"""A manifest that jsonschema-rs finds valid against the schema: no errors to look for.

Looking for the schema's errors with pure-Python jsonschema costs ~5 ms a resource.
jsonschema-rs (a dependency) answers "valid?" in a fraction of that, and a valid
manifest, the usual case, has no errors to place. Both follow JSON Schema 2020-12 with
formats unchecked; they can disagree only where :func:`_agreed` says no: this package
counts an integral float (``3.0``) as no integer, and jsonschema-rs compares integers
beyond 2**53 as floats. The schema's patterns use ASCII classes, ``^`` and ``$``,
where Python's ``re`` accepts at least what Rust's engine accepts. Values it cannot
read (dates, non-string keys) and anything it finds invalid go to
:func:`generator.manifest.schema.schema_issues`'s own check.
"""

from __future__ import annotations

from typing import Any

_EXACT = 2**53


def fast_validator(schema: dict[str, Any]) -> Any:
    """jsonschema-rs's validator of ``schema``, formats unchecked; None without it."""
    try:
        import jsonschema_rs

        return jsonschema_rs.Draft202012Validator(schema, validate_formats=False)
    except Exception:  # not installed, or a schema it refuses: the full check only
        return None


def passes_fast(validator: Any, value: Any) -> bool:
    """True when ``value`` is valid, as the full check would say; False: ask it."""
    if validator is None or not _agreed(value):
        return False
    try:
        return bool(validator.is_valid(value))
    except (ValueError, TypeError, OverflowError):  # a value it cannot read
        return False


def _agreed(value: Any) -> bool:
    """No integral float and no integer past 2**53 anywhere in ``value``."""
    if isinstance(value, dict):
        return all(_agreed(item) for item in value.values())
    if isinstance(value, list):
        return all(_agreed(item) for item in value)
    if isinstance(value, float):
        return not value.is_integer()
    if isinstance(value, int):
        return -_EXACT <= value <= _EXACT
    return True
