"""Checks of emitted output: the OpenAPI document validates, and its two files agree.

openapi-spec-validator is imported on first use (it costs ~0.3 s), so commands that
never build a spec start fast. It uses the jsonschema-rs backend (a dependency) when
that is installed, or as ``OPENAPI_SPEC_VALIDATOR_SCHEMA_VALIDATOR_BACKEND``
(``auto``, ``jsonschema``, ``jsonschema-rs``) says. Its check of each schema object
against the JSON Schema dialect runs on pure-Python jsonschema whatever the backend:
here a value jsonschema-rs passes skips it (:mod:`generator.spec.dialect`, same
verdicts), and a schema value that passed is not checked again in the process
(:func:`_remembering`).
"""

from __future__ import annotations

import functools
import json
import marshal
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import SpecError

_MAX_SHOWN = 50
_MAX_MESSAGE = 240
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$-]*\Z")

Location = tuple[str | int, ...]


def _render(location: Sequence[str | int]) -> str:
    """``("paths", "/a/{b}", "get", 0)`` → ``paths."/a/{b}".get[0]``."""
    text = ""
    for part in location:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _IDENTIFIER.match(part):
            text += f".{part}" if text else part
        else:
            text += f".{json.dumps(part)}" if text else json.dumps(part)
    return text or "the document root"


def _children(node: Any) -> Iterator[tuple[str | int, Any]]:
    if isinstance(node, dict):
        yield from node.items()
    elif isinstance(node, list):
        yield from enumerate(node)


def _walk(node: Any, location: Location = ()) -> Iterator[tuple[Location, Any]]:
    yield location, node
    for key, child in _children(node):
        yield from _walk(child, (*location, key))


def _follow(node: Any, path: Sequence[Any]) -> tuple[bool, Any]:
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return False, None
    return True, node


def _locate(doc: Any, error: Any) -> Location | None:
    """Where in ``doc`` an error is, even when its path is relative to a schema."""
    path = tuple(error.absolute_path)
    found, value = _follow(doc, path)
    if path and found and (value == error.instance or error.instance is doc):
        return path
    # Schema checks report paths relative to the schema object they were checking.
    for location, node in _walk(doc):
        found, value = _follow(node, path or ("default",))
        if found and value == error.instance and isinstance(node, dict):
            return location + (path or ("default",))
    return None


def _shorten(message: str) -> str:
    # Validators append the schema and the whole instance after a blank line, and
    # "<instance> is not valid under ..." can quote an entire schema: keep the gist.
    message = " ".join(message.split("\n\n")[0].split())
    subject, sep, verdict = message.partition(" is not valid under ")
    if sep and len(subject) > 60:
        message = f"the value{sep}{verdict}"
    if len(message) <= _MAX_MESSAGE:
        return message
    half = _MAX_MESSAGE // 2
    return f"{message[:half]} … {message[-half:]}"


def _dangling_refs(doc: Any) -> list[tuple[Location, str]]:
    dangling = []
    for location, node in _walk(doc):
        ref = node.get("$ref") if isinstance(node, dict) else None
        if isinstance(ref, str) and not _resolves(doc, ref):
            dangling.append((location, ref))
    return dangling


def _resolves(doc: Any, ref: str) -> bool:
    if not ref.startswith("#"):
        return False  # our documents never point into other files
    parts = [p.replace("~1", "/").replace("~0", "~") for p in ref[1:].split("/")[1:]]
    node = doc
    for part in parts:
        if isinstance(node, list) and part.isdigit():
            part = int(part)  # type: ignore[assignment]
        found, node = _follow(node, [part])
        if not found:
            return False
    return True


def _stand_in(doc: Mapping[str, Any], dangling: list[tuple[Location, str]]) -> Any:
    # A dangling $ref stops openapi-spec-validator's walk; an empty object in its
    # place lets it go on and report everything else.
    copy = json.loads(json.dumps(doc))
    for location, _ref in dangling:
        parent = copy
        for part in location[:-1]:
            parent = parent[part]
        if location:
            parent[location[-1]] = {}
    return copy


def spec_problems(doc: Mapping[str, Any]) -> list[str]:
    """Every problem openapi-spec-validator finds in ``doc``, one line each."""
    from jsonschema_path import SchemaPath
    from openapi_spec_validator.settings import get_resolved_cache_maxsize
    from openapi_spec_validator.shortcuts import get_validator_cls
    from openapi_spec_validator.validation.exceptions import ValidatorDetectError
    from referencing.exceptions import Unresolvable

    try:
        validator_cls = _remembering(get_validator_cls(doc))
    except ValidatorDetectError:
        return ["no supported 'openapi' version key (expected 3.0.x or 3.1.x)"]
    dangling = _dangling_refs(doc)
    problems = [
        f"at {_render(loc)}: $ref {ref!r} points nowhere" for loc, ref in dangling
    ]
    checked = _stand_in(doc, dangling) if dangling else dict(doc)
    cache_size = get_resolved_cache_maxsize()
    spec = SchemaPath.from_dict(checked, resolved_cache_maxsize=cache_size)
    try:
        for error in validator_cls(spec).iter_errors():
            where = _locate(checked, error)
            prefix = f"at {_render(where)}: " if where is not None else ""
            problems.append(prefix + _shorten(str(error.message)))
    except Unresolvable as exc:
        problems.append(f"unresolvable reference: {exc}")
    finally:
        _clear_validator_cache(validator_cls)
    return problems


# (the checker, marshal's bytes of a schema value) for every schema that passed.
_PASSED: set[tuple[Any, bytes]] = set()


@functools.cache
def _remembering(validator_cls: Any) -> Any:
    """``validator_cls`` whose schema meta-checks skip values that passed before.

    The check is a function of the value alone (a fresh jsonschema validator of the
    dialect's meta-schema per call): a value that passed passes again. Values are the
    same when marshal writes the same bytes for them (same types, same key order).
    Without the hook this relies on, ``validator_cls`` is used as it is.
    """
    keywords = getattr(validator_cls, "keyword_validators", None)
    schema_cls = keywords.get("schema") if isinstance(keywords, Mapping) else None
    if schema_cls is None or not hasattr(schema_cls, "_get_schema_checker"):
        return validator_cls

    class Schema(schema_cls):  # type: ignore[misc, valid-type]
        def _get_schema_checker(self, schema: Any, value: Any) -> Callable[[Any], None]:
            return _remembered(super()._get_schema_checker(schema, value))

    body = {"keyword_validators": {**keywords, "schema": Schema}}
    return type(validator_cls.__name__, (validator_cls,), body)


def _remembered(checker: Callable[[Any], None]) -> Callable[[Any], None]:
    from .dialect import fast_dialect_checker

    fast = fast_dialect_checker(checker) or checker
    if isinstance(checker, functools.partial):
        identity: Any = (checker.func, checker.args, tuple(checker.keywords.items()))
    else:
        identity = checker
    try:
        hash(identity)
    except TypeError:
        return fast

    def check(value: Any) -> None:
        try:
            key = (identity, marshal.dumps(value))
        except ValueError:  # not plain data: always checked
            fast(value)
            return
        if key not in _PASSED:
            fast(value)  # raises when the value is not a valid schema
            _PASSED.add(key)

    return check


def _clear_validator_cache(validator_cls: Any) -> None:
    # iter_errors is lru_cache'd per validator instance, which would keep every
    # validated document alive for the life of the process.
    cached = getattr(validator_cls.iter_errors, "__wrapped__", None)
    cache_clear = getattr(cached, "cache_clear", None)
    if callable(cache_clear):
        cache_clear()


def validate_spec(
    doc: Mapping[str, Any], *, source: str, cache_dir: Path | None = None
) -> None:
    """Raise :class:`SpecError` listing every problem in the OpenAPI document.

    With ``cache_dir``, the document is checked one tag at a time and tags that passed
    before are skipped (see :mod:`generator.spec.cache`).
    """
    if cache_dir is None:
        problems = spec_problems(doc)
    else:
        from .cache import cached_spec_problems

        problems = cached_spec_problems(doc, cache_dir, spec_problems)
    if not problems:
        return
    count = len(problems)
    noun = "problem" if count == 1 else "problems"
    lines = [f"{source}: the OpenAPI document is invalid ({count} {noun}):"]
    lines += [f"  - {p}" for p in problems[:_MAX_SHOWN]]
    if count > _MAX_SHOWN:
        lines.append(f"  ... and {count - _MAX_SHOWN} more")
    raise SpecError("\n".join(lines))


def _differences(left: Any, right: Any, location: Location = ()) -> Iterator[str]:
    if isinstance(left, dict) and isinstance(right, dict):
        for key in [*left, *(k for k in right if k not in left)]:
            if key in left and key in right:
                yield from _differences(left[key], right[key], (*location, key))
            else:
                side = "YAML" if key in left else "JSON"
                yield f"{_render((*location, key))}: only in the {side} file"
    elif isinstance(left, list) and isinstance(right, list) and len(left) == len(right):
        for index, (a, b) in enumerate(zip(left, right, strict=True)):
            yield from _differences(a, b, (*location, index))
    elif type(left) is not type(right) or left != right:
        yield f"{_render(location)}: YAML has {left!r}, JSON has {right!r}"


def check_spec_pair(yaml_text: str, json_text: str) -> None:
    """Raise :class:`SpecError` unless the YAML and JSON texts hold the same data."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        from_yaml = yaml.load(yaml_text, Loader=loader)  # noqa: S506 (a safe loader)
        from_json = json.loads(json_text)
    except (yaml.YAMLError, ValueError) as exc:
        raise SpecError(f"the spec files do not parse: {exc}") from exc
    found = list(_differences(from_yaml, from_json))
    if found:
        shown = "\n".join(f"  - {_shorten(d)}" for d in found[:_MAX_SHOWN])
        raise SpecError(f"the YAML and JSON specs differ:\n{shown}")
