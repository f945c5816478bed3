"""Schema objects checked against OpenAPI 3.1's JSON Schema dialect, by jsonschema-rs.

openapi-spec-validator checks every schema object of a document against the dialect's
meta-schema with pure-Python jsonschema, whatever its backend: most of its time on our
documents. :func:`fast_dialect_checker` gives a checker the same verdict sooner: a
value jsonschema-rs finds valid against the same meta-schemas (formats aside), whose
``pattern`` strings and ``patternProperties`` keys all pass the checker's own ``regex``
format check, passes; anything else goes to the original checker, which raises its own
error. The meta-schemas name the formats in :data:`META_SCHEMA_FORMATS`; the fast path
is taken only when the checker asserts ``regex`` alone among them (the others are
annotations there), so the verdicts agree.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from typing import Any

OAS31_DIALECT = "https://spec.openapis.org/oas/3.1/dialect/base"
OAS31_VOCABULARY = "https://spec.openapis.org/oas/3.1/meta/base"
#: Every ``format`` the 3.1 dialect's meta-schemas (and JSON Schema 2020-12's) name
#: (``tests/unit/test_spec_dialect.py`` reads them from the installed files).
META_SCHEMA_FORMATS = frozenset({"regex", "uri", "uri-reference"})

Checker = Callable[[Any], None]


def fast_dialect_checker(checker: Checker) -> Checker | None:
    """A checker with ``checker``'s verdicts, faster; None when that is not sure."""
    format_checker = _oas31_format_checker(checker)
    validator = _meta_validator() if format_checker is not None else None
    if validator is None:
        return None
    checked = META_SCHEMA_FORMATS & set(format_checker.checkers)
    if not checked <= {"regex"}:
        return None
    regex = "regex" in checked

    def check(value: Any) -> None:
        if validator.is_valid(value) and (
            not regex
            or all(format_checker.conforms(p, "regex") for p in _patterns(value))
        ):
            return
        checker(value)  # raises the error openapi-spec-validator reports

    return check


def _oas31_format_checker(checker: Checker) -> Any:
    """The format checker of a 3.1 dialect check, or None for any other checker."""
    try:
        from openapi_schema_validator.validators import check_openapi_schema
    except ImportError:
        return None
    if not isinstance(checker, functools.partial) or checker.args:
        return None
    if set(checker.keywords) != {"format_checker"}:
        return None
    if getattr(checker.func, "__func__", None) is not check_openapi_schema:
        return None
    meta = getattr(getattr(checker.func, "__self__", None), "META_SCHEMA", None)
    if not isinstance(meta, Mapping) or meta.get("$id") != OAS31_DIALECT:
        return None
    format_checker = checker.keywords["format_checker"]
    if not isinstance(getattr(format_checker, "checkers", None), Mapping):
        return None
    return format_checker


@functools.cache
def _meta_validator() -> Any:
    """jsonschema-rs's validator of the 3.1 dialect's meta-schema, formats off."""
    try:
        import jsonschema_rs
        from openapi_schema_validator._specifications import REGISTRY

        resources = [(uri, REGISTRY.contents(uri)) for uri in meta_schema_ids()]
        registry = jsonschema_rs.Registry(resources)
        dialect = REGISTRY.contents(OAS31_DIALECT)
        return jsonschema_rs.validator_for(
            dialect, registry=registry, validate_formats=False
        )
    except Exception:  # not installed, or laid out otherwise: the slow path
        return None


def meta_schema_ids() -> tuple[str, str]:
    """The OpenAPI meta-schemas jsonschema-rs is given (it knows JSON Schema's)."""
    return (OAS31_DIALECT, OAS31_VOCABULARY)


def _patterns(value: Any) -> Iterator[Any]:
    """Every ``pattern`` value and ``patternProperties`` key, wherever it is."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key == "pattern":
                yield item
            elif key == "patternProperties" and isinstance(item, Mapping):
                yield from item
            yield from _patterns(item)
    elif isinstance(value, list):
        for item in value:
            yield from _patterns(item)
