"""The shape of a spec piece: the piece with its resource's names taken out.

The pieces of resources declared alike (same fields, same options) differ only in the
names written from each resource: component names and the ``$ref`` to them, the
paths, the operation IDs (of operations and of the links to them), the tag, and
summaries, descriptions and titles.
openapi-spec-validator (both backends) and this package's own checks look at those
only

- for equality: operation IDs and tag names are unique, a ``$ref`` names a component;
- through fixed predicates: a path starts with ``/`` and the parameters in its
  template are declared; a component name matches ``^[a-zA-Z0-9._-]+$``; a ``$ref``
  is a URI reference that resolves; a summary, description or title is a string.

The shape replaces each of them with a placeholder that keeps all of that: component
names, operation IDs and tags become their number in order of appearance (the same
equalities), a path keeps its template's parameter names, an annotation string
becomes "a string". Everything else — types, formats, limits, patterns, defaults,
examples, enums, property names, ``required``, extensions — is kept as it is. So two
pieces with the same shape get the same verdict, and one check serves them all.

This holds only where the shape knows where every name is. A piece with something it
does not follow (a ``$ref`` that is not ``#/components/<kind>/<name>``, a ``$ref``
key in data, ``$id``, ``$anchor``, ``$dynamicRef``, a ``discriminator``, callbacks, a
component name outside ``[A-Za-z0-9._-]``, a path not starting with ``/``, a type that
JSON has not) has no shape: it is checked on its own, as before.
"""

from __future__ import annotations

import hashlib
import re
import string
from collections.abc import Callable
from typing import Any

Doc = dict[str, Any]

_RENAMED = ("schemas", "responses", "parameters", "requestBodies", "headers")
_REF = re.compile(
    r"#/components/(schemas|responses|parameters|requestBodies|headers)"
    r"/([A-Za-z0-9._-]+)\Z"
)
_NAME = re.compile(r"[A-Za-z0-9._-]+\Z")
_METHODS = frozenset(
    {"get", "put", "post", "delete", "options", "head", "patch", "trace", "query"}
)
# JSON Schema keywords holding one subschema, a list of them, or a map of them.
_ONE = frozenset(
    {
        "items",
        "additionalItems",
        "additionalProperties",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "contentSchema",
    }
)
_LIST = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_MAP = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
)
_ONE_OR_LIST = _ONE | _LIST
# Keywords that move where a ``$ref`` points, or name components by other means.
_UNFOLLOWED = frozenset(
    {
        "$id",
        "$anchor",
        "$dynamicAnchor",
        "$dynamicRef",
        "$recursiveAnchor",
        "$recursiveRef",
        "discriminator",
    }
)
_PLAIN = (str, int, float, bool, type(None))
_STRING = ("\0string",)


class Shapeless(Exception):
    """The piece holds something whose meaning a renaming could change."""


def shape_key(piece: Doc) -> str | None:
    """SHA-256 of the shape of ``piece``, or ``None`` when it has none."""
    try:
        shape = _Shape(piece).document(piece)
    except Shapeless:
        return None
    return hashlib.sha256(repr(shape).encode("utf-8", "surrogatepass")).hexdigest()


def _verbatim(value: Any) -> Any:
    """``value`` as it is, once it is known to be plain JSON with no ``$ref`` key."""
    if type(value) is dict:
        for key, item in value.items():
            if type(key) is not str or key == "$ref":
                raise Shapeless
            _verbatim(item)
    elif type(value) is list:
        for item in value:
            _verbatim(item)
    elif type(value) not in _PLAIN:
        raise Shapeless
    return value


def _annotation(value: Any) -> Any:
    return _STRING if type(value) is str else _verbatim(value)


def _extension_or(key: str, value: Any) -> Any:
    """An extension's value as it is (data); any other key: no shape."""
    if key.startswith("x-"):
        return _verbatim(value)
    raise Shapeless


class _Shape:
    """One piece's names, numbered, and the walk that replaces them."""

    def __init__(self, piece: Doc) -> None:
        components = piece.get("components", {})
        if type(components) is not dict:
            raise Shapeless
        self.names: dict[str, dict[str, int]] = {}
        for kind in _RENAMED:
            group = components.get(kind, {})
            if type(group) is not dict:
                raise Shapeless
            if not all(type(n) is str and _NAME.match(n) for n in group):
                raise Shapeless
            self.names[kind] = {name: index for index, name in enumerate(group)}
        self.numbers: dict[str, dict[str, int]] = {"operation": {}, "tag": {}}

    def number(self, domain: str, value: Any) -> tuple[str, int]:
        if type(value) is not str:
            raise Shapeless
        seen = self.numbers[domain]
        return (f"\0{domain}", seen.setdefault(value, len(seen)))

    def ref(self, value: Any) -> tuple[str, str, int]:
        found = _REF.match(value) if type(value) is str else None
        if found is None or found[2] not in self.names[found[1]]:
            raise Shapeless
        return ("\0ref", found[1], self.names[found[1]][found[2]])

    def document(self, piece: Doc) -> Doc:
        walks = {"paths": self.paths, "components": self.components, "tags": self.tags}
        return {k: walks.get(k, _verbatim)(v) for k, v in piece.items()}

    def tags(self, tags: Any) -> Any:
        if type(tags) is not list:
            return _verbatim(tags)
        return [self.tag(tag) for tag in tags]

    def tag(self, tag: Any) -> Any:
        if type(tag) is not dict:
            return _verbatim(tag)
        shape = {}
        for key, value in tag.items():
            if key == "name":
                shape[key] = self.number("tag", value)
            elif key == "description":
                shape[key] = _annotation(value)
            elif key == "externalDocs":
                shape[key] = _verbatim(value)
            else:
                shape[key] = _extension_or(key, value)
        return shape

    def paths(self, paths: Any) -> Doc:
        if type(paths) is not dict:
            raise Shapeless
        shape: Doc = {}
        for index, (url, item) in enumerate(paths.items()):
            if type(url) is not str or not url.startswith("/"):
                raise Shapeless
            try:
                fields = tuple(f for _, f, _, _ in string.Formatter().parse(url) if f)
            except ValueError as exc:
                raise Shapeless from exc
            shape[("\0path", index, fields)] = self.path_item(item)  # type: ignore[index]
        return shape

    def path_item(self, item: Any) -> Any:
        if type(item) is not dict:
            return _verbatim(item)
        shape = {}
        for key, value in item.items():
            if key in _METHODS:
                shape[key] = self.operation(value)
            elif key == "parameters":
                shape[key] = self.each(self.parameter, value)
            elif key in ("summary", "description"):
                shape[key] = _annotation(value)
            elif key == "servers":
                shape[key] = _verbatim(value)
            else:
                shape[key] = _extension_or(key, value)
        return shape

    def operation(self, operation: Any) -> Any:
        if type(operation) is not dict:
            return _verbatim(operation)
        parts: dict[str, Callable[[Any], Any]] = {
            "operationId": lambda v: self.number("operation", v),
            "tags": lambda v: self.each(lambda t: self.number("tag", t), v),
            "summary": _annotation,
            "description": _annotation,
            "parameters": lambda v: self.each(self.parameter, v),
            "requestBody": self.request_body,
            "responses": lambda v: self.each_value(self.response, v),
            "deprecated": _verbatim,
            "security": _verbatim,
            "servers": _verbatim,
            "externalDocs": _verbatim,
        }
        shape = {}
        for key, value in operation.items():
            walk = parts.get(key)
            shape[key] = walk(value) if walk else _extension_or(key, value)
        return shape

    def each(self, walk: Callable[[Any], Any], values: Any) -> Any:
        if type(values) is not list:
            return _verbatim(values)
        return [walk(value) for value in values]

    def each_value(self, walk: Callable[[Any], Any], values: Any) -> Any:
        if type(values) is not dict:
            return _verbatim(values)
        return {key: walk(value) for key, value in values.items()}

    def reference_or(self, value: Any, parts: dict[str, Callable[[Any], Any]]) -> Any:
        """A Reference Object, or an object whose ``parts`` are walked (the rest kept).

        ``example``, ``examples`` and extensions are data, kept as they are too.
        """
        if type(value) is not dict:
            return _verbatim(value)
        if "$ref" in value:
            parts = {"$ref": self.ref, "summary": _annotation}
        parts = {"description": _annotation, **parts}
        return {k: parts.get(k, _verbatim)(v) for k, v in value.items()}

    def parameter(self, value: Any) -> Any:
        return self.reference_or(
            value, {"schema": self.schema, "content": self.content}
        )

    def request_body(self, value: Any) -> Any:
        return self.reference_or(value, {"content": self.content})

    def response(self, value: Any) -> Any:
        headers = lambda v: self.each_value(self.parameter, v)  # noqa: E731
        links = lambda v: self.each_value(self.link, v)  # noqa: E731
        parts = {"content": self.content, "headers": headers, "links": links}
        return self.reference_or(value, parts)

    def link(self, value: Any) -> Any:
        """A Link Object: its ``operationId`` numbered like the operation's own.

        Its ``parameters`` (runtime expressions naming fields) are data, kept as they
        are; an ``operationRef`` (a URI into the document) is not followed.
        """
        if type(value) is not dict or "operationRef" in value:
            raise Shapeless
        parts = {"operationId": lambda v: self.number("operation", v)}
        return self.reference_or(value, parts)

    def content(self, content: Any) -> Any:
        media = lambda v: self.reference_or(v, {"schema": self.schema})  # noqa: E731
        return self.each_value(media, content)

    def components(self, components: Doc) -> Doc:
        walks = {
            "schemas": self.schema,
            "responses": self.response,
            "parameters": self.parameter,
            "requestBodies": self.request_body,
            "headers": self.parameter,
        }
        shape: Doc = {}
        for kind, group in components.items():
            if kind not in walks:
                shape[kind] = _verbatim(group)
                continue
            names = self.names[kind]
            shape[kind] = {
                ("\0name", names[name]): walks[kind](value)
                for name, value in group.items()
            }
        return shape

    def schema(self, schema: Any) -> Any:
        if type(schema) is not dict:
            return _verbatim(schema)
        shape = {}
        for key, value in schema.items():
            if key in _UNFOLLOWED:
                raise Shapeless
            if key == "$ref":
                shape[key] = self.ref(value)
            elif key in ("title", "description"):
                shape[key] = _annotation(value)
            elif key in _ONE and type(value) in (dict, bool):
                shape[key] = self.schema(value)
            elif key in _ONE_OR_LIST and type(value) is list:
                shape[key] = [self.schema(v) for v in value]
            elif key in _MAP and type(value) is dict:
                shape[key] = {k: self.schema(v) for k, v in value.items()}
            else:
                shape[key] = _verbatim(value)
        return shape
