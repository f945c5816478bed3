"""Check a composed manifest against ``specs/manifest.schema.json``, with positions.

Every JSON-Schema error becomes an Issue placed at the YAML node it is about. A value
the schema rejects is then replaced by :data:`INVALID`, so the semantic checks that
follow see only values of the right shape and skip the rest instead of piling up.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path as FilePath
from typing import Any

import jsonschema
import yaml

from .. import paths
from ..errors import Issue
from ..model import naming
from .hints import did_you_mean, quoted_list, shown, suggestion_hint
from .schema_fast import fast_validator, passes_fast
from .yamlnodes import Document, Node, Path, json_type, quote_hint, yaml_trap


class _Invalid:
    """Stands in for a value the schema rejected."""

    def __repr__(self) -> str:
        return "INVALID"


INVALID: Any = _Invalid()

# Errors about one value, best first: one Issue per value, and the value is set aside.
_VALUE_KEYWORDS = ("type", "enum", "pattern", "minimum", "maximum", "minLength")
_TYPE_WORDS = {
    "object": "a mapping",
    "array": "a list",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "null": "null",
    "float": "a number",
}
_UNQUOTED_TYPES = {
    "tag:yaml.org,2002:bool": {"boolean"},
    "tag:yaml.org,2002:int": {"integer", "number"},
    "tag:yaml.org,2002:float": {"number"},
}


def _is_integer(_checker: object, instance: object) -> bool:
    # JSON Schema counts 3.0 as an integer; a manifest's integers are written as such.
    return isinstance(instance, int) and not isinstance(instance, bool)


@functools.lru_cache(maxsize=1)
def _validator() -> Any:
    base = jsonschema.Draft202012Validator
    checker = base.TYPE_CHECKER.redefine("integer", _is_integer)
    cls = jsonschema.validators.extend(base, type_checker=checker)
    text = (paths.specs_dir() / "manifest.schema.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    return cls(_inline_refs(schema, schema.get("$defs", {})))


@functools.lru_cache(maxsize=1)
def _fast_validator() -> Any:
    return fast_validator(_validator().schema)


def _inline_refs(schema: Any, defs: dict[str, Any]) -> Any:
    """Replace each local ``$ref`` by its definition: resolving them is slow."""
    if isinstance(schema, list):
        return [_inline_refs(item, defs) for item in schema]
    if not isinstance(schema, dict):
        return schema
    ref = schema.get("$ref", "")
    if isinstance(ref, str) and ref.startswith("#/$defs/") and len(schema) == 1:
        return _inline_refs(defs[ref.removeprefix("#/$defs/")], defs)
    return {key: _inline_refs(value, defs) for key, value in schema.items()}


class CleanResources:
    """Resources (their values, exactly) that passed the schema before, on disk.

    The schema checks each resource on its own (``additionalProperties`` of
    ``resources``), so a resource known to pass need not be checked again: the errors
    of the rest, and their order, are those of the whole document.
    """

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory

    def _marker(self, value: Any) -> FilePath:
        assert self.directory is not None
        text = f"{_schema_fingerprint()}\0{value!r}".encode("utf-8", "surrogatepass")
        key = hashlib.blake2b(text, digest_size=24).hexdigest()
        return self.directory / key[:2] / key

    def known(self, value: Any) -> bool:
        """Whether ``value`` passed before."""
        return self.directory is not None and self._marker(value).is_file()

    def remember(self, value: Any) -> None:
        """Note that ``value`` passed (a cache that cannot be written is skipped)."""
        if self.directory is None:
            return
        marker = self._marker(value)
        try:
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.touch()
        except OSError:
            return


@functools.cache
def _schema_fingerprint() -> str:
    from importlib.metadata import version

    digest = hashlib.sha256()
    for source in (paths.specs_dir() / "manifest.schema.json", FilePath(__file__)):
        digest.update(hashlib.sha256(source.read_bytes()).digest())
    return f"{digest.hexdigest()} jsonschema {version('jsonschema')}"


def _to_check(value: Any, clean: CleanResources) -> tuple[Any, dict[str, Any]]:
    """The document to validate, and the resources in it not known to pass."""
    resources = value.get("resources") if isinstance(value, dict) else None
    if clean.directory is None or not isinstance(resources, dict) or not resources:
        return value, {}
    unknown = {n: r for n, r in resources.items() if not clean.known(r)}
    if len(unknown) == len(resources):
        return value, unknown
    # One resource at least stays: ``resources`` must not be empty.
    kept = unknown or dict([next(iter(resources.items()))])
    return {**value, "resources": kept}, unknown


def schema_issues(
    document: Document, clean: CleanResources | None = None
) -> list[Issue]:
    """Every schema problem of ``document``; rejected values become INVALID.

    With ``clean``, resources that passed before are not checked again.
    """
    clean = clean or CleanResources(None)
    checked, unknown = _to_check(document.value, clean)
    if passes_fast(_fast_validator(), checked):
        errors = []  # valid: jsonschema would find nothing (schema_fast.py)
    else:
        errors = sorted(_validator().iter_errors(checked), key=_rank)
    failed = {
        e.absolute_path[1]
        for e in errors
        if len(e.absolute_path) > 1 and e.absolute_path[0] == "resources"
    }
    for name, value in unknown.items():
        if name not in failed:
            clean.remember(value)
    issues: dict[tuple[Any, ...], Issue] = {}  # one Issue however many errors say it
    rejected: set[Path] = set()
    for error in errors:
        path = tuple(error.absolute_path)
        if error.validator in _VALUE_KEYWORDS:
            if path in rejected:
                continue
            rejected.add(path)
        for issue in _HANDLERS.get(error.validator, _other)(document, error, path):
            issues.setdefault((issue.path, issue.code, issue.message), issue)
    for path in sorted(rejected, key=len, reverse=True):
        _set_aside(document, path)
    return list(issues.values())


def _rank(error: Any) -> int:
    keyword = error.validator
    return _VALUE_KEYWORDS.index(keyword) if keyword in _VALUE_KEYWORDS else 99


def _set_aside(document: Document, path: Path) -> None:
    if not path:
        document.value = INVALID
        return
    parent: Any = document.value
    for part in path[:-1]:
        try:
            parent = parent[part]
        except (KeyError, IndexError, TypeError):
            return
    last = path[-1]
    if isinstance(parent, dict):
        parent[last] = INVALID
    elif isinstance(parent, list) and isinstance(last, int):
        parent[last] = INVALID


def found(node: Node | None, value: Any) -> str:
    """``'abc' is a string``, ``is a list``, ``is empty``: a type message's start."""
    if value is None:
        return "is empty"
    if isinstance(value, (dict, list)):
        return f"is {_TYPE_WORDS[json_type(value)]}"
    text = node.raw if node is not None and node.raw is not None else str(value)
    return f"{shown(text)} is {_TYPE_WORDS[json_type(value)]}"


def expected_types(types: str | list[str]) -> str:
    """``a string, a number or null`` from a JSON-Schema ``type``."""
    words = [_TYPE_WORDS[t] for t in ([types] if isinstance(types, str) else types)]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _unquoted_fits(node: Node | None, types: set[str]) -> bool:
    """Whether a quoted scalar, unquoted, would have one of the JSON ``types``."""
    if node is None or node.plain or node.raw is None:
        return False
    tag = yaml.resolver.Resolver().resolve(yaml.ScalarNode, node.raw, (True, False))
    return bool(_UNQUOTED_TYPES.get(tag, set()) & types)


def _type(document: Document, error: Any, path: Path) -> Iterator[Issue]:
    types = error.validator_value
    node = document.node(path)
    wanted = {types} if isinstance(types, str) else set(types)
    trap = yaml_trap(node, error.instance) if "string" in wanted else None
    if trap:
        yield document.issue(path, trap, "M013")
        return
    message = f"{found(node, error.instance)}, expected {expected_types(types)}"
    message = message if path else f"the manifest {message}"
    hint = quote_hint(node, error.instance) if "string" in wanted else None
    if _unquoted_fits(node, wanted):
        hint = "remove the quotes"
    yield document.issue(path, message, "M010", hint)


def _enum(document: Document, error: Any, path: Path) -> Iterator[Issue]:
    options = error.validator_value
    node = document.node(path)
    text = (
        node.raw if node is not None and node.raw is not None else str(error.instance)
    )
    message = f"{shown(text)} is not one of {quoted_list(options)}"
    yield document.issue(path, message, "M010", did_you_mean(text, options))


def _pattern(document: Document, error: Any, path: Path) -> Iterator[Issue]:
    value = error.instance
    expected = error.schema.get(
        "x-expected", f"matching {shown(error.validator_value)}"
    )
    fixes = [naming.kebab(value), naming.snake(value)]
    fix = next((f for f in fixes if re.fullmatch(error.validator_value, f)), None)
    hint = f"did you mean '{fix}'?" if fix and fix != value else None
    hint = hint or error.schema.get("x-hint")
    yield document.issue(path, f"{shown(value)} is not {expected}", "M014", hint)


def _limit(document: Document, error: Any, path: Path) -> Iterator[Issue]:
    node = document.node(path)
    text = (
        node.raw if node is not None and node.raw is not None else str(error.instance)
    )
    side = (
        "less than the minimum"
        if error.validator == "minimum"
        else "more than the maximum"
    )
    message = f"{shown(text)} is {side} {error.validator_value}"
    yield document.issue(path, message, "M016", error.schema.get("x-hint"))


def _min_length(document: Document, _error: Any, path: Path) -> Iterator[Issue]:
    yield document.issue(path, "is an empty string, expected some text", "M017")


def _min_count(document: Document, error: Any, path: Path) -> Iterator[Issue]:
    expected = error.schema.get("x-expected", "at least one item")
    yield document.issue(path, f"is empty, expected {expected}", "M017")


def _unique(document: Document, error: Any, path: Path) -> Iterator[Issue]:
    seen: set[str] = set()
    for index, item in enumerate(error.instance):
        token = json.dumps([type(item).__name__, item], sort_keys=True, default=str)
        if token in seen:
            message = f"{shown(str(item))} is listed more than once"
            yield document.issue((*path, index), message, "M018")
        seen.add(token)


def _unknown(document: Document, error: Any, path: Path) -> Iterator[Issue]:
    known = list(error.schema.get("properties", {}))
    for key in error.instance:
        if key not in known:
            hint = suggestion_hint(key, known, "known keys are")
            message = f"{shown(key)} is not a known key"
            yield document.issue((*path, key), message, "M011", hint, key=True)


def _missing(document: Document, error: Any, path: Path) -> Iterator[Issue]:
    for key in error.validator_value:
        if key not in error.instance:
            yield document.issue(path, f"the required key '{key}' is missing", "M012")


def _other(document: Document, error: Any, path: Path) -> Iterator[Issue]:
    yield document.issue(path, str(error.message).splitlines()[0][:80], "M010")


_Handler = Callable[[Document, Any, Path], Iterator[Issue]]
_HANDLERS: dict[str, _Handler] = {
    "type": _type,
    "enum": _enum,
    "pattern": _pattern,
    "minimum": _limit,
    "maximum": _limit,
    "minLength": _min_length,
    "minItems": _min_count,
    "minProperties": _min_count,
    "uniqueItems": _unique,
    "additionalProperties": _unknown,
    "required": _missing,
}
