"""YAML text → a :class:`~generator.manifest.yamlnodes.Document`, refusing YAML's traps.

The parser's events are composed here, iteratively, instead of by ``yaml.compose``:
nothing recurses, so no nesting depth can raise ``RecursionError``, and every trap is
refused with its position — aliases and anchors (the "billion laughs"), tags other than
the standard scalar ones, duplicate keys (PyYAML keeps the last one silently), complex
keys and nesting deeper than :data:`MAX_DEPTH`. Mapping keys keep their text as written,
so a query tag called ``on`` stays ``"on"``; each scalar value keeps its original text
for the YAML 1.1 checks (``no`` read as false, ``0755`` as 493).

libyaml parses when PyYAML has it (twenty times faster); a file it rejects is parsed
again by the pure-Python parser, whose messages name the offending character, so the
message does not depend on how PyYAML was installed.
"""

from __future__ import annotations

import math
import re
from typing import Any

import yaml

from ..errors import Issue
from .hints import shown
from .yamlnodes import Document, Node, Path, dotted, line_column

MAX_DEPTH = 32
_YAML_TAG = "tag:yaml.org,2002:"
_ACCEPTED_TAGS = frozenset(
    ["!"]
    + [
        _YAML_TAG + name
        for name in ("str", "int", "float", "bool", "null", "seq", "map")
    ]
)
# Scalars built into Python values; any other resolved scalar (str, and the YAML 1.1
# timestamp, merge and value types, which YAML 1.2 does not have) stays text.
_BUILDERS = {
    _YAML_TAG + "int": "construct_yaml_int",
    _YAML_TAG + "float": "construct_yaml_float",
    _YAML_TAG + "bool": "construct_yaml_bool",
    _YAML_TAG + "null": "construct_yaml_null",
}
# The characters PyYAML's reader refuses, checked first so both parsers agree.
_NON_PRINTABLE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
_COLLECTION_STARTS = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_COLLECTION_ENDS = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
_NO_ANCHORS = "write the value out in full; manifests take no anchors or aliases"
_NO_KEY = object()  # a mapping waiting for its next key
_DROP = object()  # a mapping whose next value is dropped (after a bad key)


def compose(text: str, file: str) -> Document:
    """Compose ``text`` into a Document; problems land in ``Document.issues``."""
    bad = _NON_PRINTABLE.search(text)
    if bad:
        line, column = line_column(text, bad.start())
        message = f"the character {ascii(bad.group())} is not allowed in YAML"
        issue = Issue(line, column, "", message, "M001", "is this a text file?", file)
        return Document(file, issues=[issue], failed=True)
    fast = getattr(yaml, "CSafeLoader", None)
    if fast is None:
        return _Composer(file, yaml.SafeLoader(text)).run()
    document = _Composer(file, fast(text)).run()
    if document.failed:
        # Pure Python words its errors better; keep libyaml's if only libyaml objects.
        # (PyYAML ≥ 6.0.4's libyaml stops deep nesting itself, before our M005.)
        again = _Composer(file, yaml.SafeLoader(text)).run()
        document = again if again.failed or again.issues else document
    return document


class _Frame:
    __slots__ = ("path", "container", "key")

    def __init__(self, path: Path, container: dict[str, Any] | list[Any]) -> None:
        self.path = path
        self.container = container
        self.key: Any = _NO_KEY  # a name, _NO_KEY or _DROP


class _Composer:
    """Turns one parser's events into a Document, refusing what manifests never need."""

    def __init__(self, file: str, loader: Any) -> None:
        self.loader = loader
        self.document = Document(file)
        self.stack: list[_Frame] = []
        self.skipping = 0  # open collections inside a subtree being skipped
        self.store_after_skip = False
        self.documents = 0
        self.tags: dict[tuple[str, Any], str] = {}  # resolved implicit tags, reused
        self.handlers: dict[type, Any] = {
            yaml.ScalarEvent: self._scalar,
            yaml.MappingStartEvent: self._start,
            yaml.SequenceStartEvent: self._start,
            yaml.MappingEndEvent: self._end,
            yaml.SequenceEndEvent: self._end,
            yaml.AliasEvent: self._alias,
            yaml.DocumentStartEvent: self._document,
        }

    def run(self) -> Document:
        """Read every event; a parser error ends the Document as failed."""
        try:
            while self.loader.check_event():
                if not self._handle(self.loader.get_event()):
                    break
        except yaml.YAMLError as exc:
            self.document.failed = True
            self.document.issues.append(_syntax_issue(exc, self.document.file))
        except RecursionError:
            self.document.failed = True
            self._report(None, (), "the document is nested too deeply", "M005")
        finally:
            self.loader.dispose()
        return self.document

    def _handle(self, event: Any) -> bool:
        """Take one event; False stops reading."""
        if self.skipping:
            return self._skip(event)
        handler = self.handlers.get(type(event))
        return handler is None or handler(event) is not False

    def _report(
        self, event: Any, path: Path, message: str, code: str, hint: str | None = None
    ) -> None:
        mark = event.start_mark if event is not None else None
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        issue = Issue(
            line, column, dotted(path), message, code, hint, self.document.file
        )
        self.document.issues.append(issue)

    def _target(self, event: Any) -> tuple[str, Any, Path]:
        """Where the next node goes: ``(kind, frame or path, path for messages)``.

        ``kind`` is "key" (with the mapping's frame), "drop" (a value nobody keeps) or
        "value" (with its path).
        """
        if not self.stack:
            return "value", (), ()
        frame = self.stack[-1]
        if isinstance(frame.container, list):
            path = (*frame.path, len(frame.container))
            return "value", path, path
        if frame.key is _NO_KEY:
            name = event.value if isinstance(event, yaml.ScalarEvent) else None
            return "key", frame, frame.path if name is None else (*frame.path, name)
        if frame.key is _DROP:
            return "drop", None, frame.path
        path = (*frame.path, frame.key)
        return "value", path, path

    def _store(self, value: Any) -> None:
        if not self.stack:
            self.document.value = value
            return
        frame = self.stack[-1]
        if isinstance(frame.container, list):
            frame.container.append(value)
            return
        if isinstance(frame.key, str):
            frame.container[frame.key] = value
        frame.key = _NO_KEY

    def _skip(self, event: Any) -> bool:
        if isinstance(event, _COLLECTION_STARTS):
            self.skipping += 1
            if len(self.stack) + self.skipping > MAX_DEPTH:
                return self._too_deep(event, self.stack[-1].path if self.stack else ())
        elif isinstance(event, _COLLECTION_ENDS):
            self.skipping -= 1
            if not self.skipping and self.store_after_skip:
                self._store(None)
        return True

    def _begin_skip(self, *, store: bool) -> None:
        self.skipping, self.store_after_skip = 1, store

    def _document(self, event: Any) -> bool:
        self.documents += 1
        if self.documents == 1:
            return True
        message = "the file holds more than one YAML document"
        hint = "remove the '---' line and what follows, or merge the documents"
        self._report(event, (), message, "M008", hint)
        return False

    def _check_properties(self, event: Any, path: Path) -> None:
        if event.anchor is not None:
            message = f"the anchor '&{event.anchor}' is not allowed"
            self._report(event, path, message, "M002", _NO_ANCHORS)
        tag = event.tag
        if tag is not None and tag not in _ACCEPTED_TAGS:
            short = "!!" + tag[len(_YAML_TAG) :] if tag.startswith(_YAML_TAG) else tag
            message = f"the tag {shown(short)} is not supported"
            hint = "remove it; a manifest holds plain strings, numbers and booleans"
            self._report(event, path, message, "M004", hint)

    def _alias(self, event: Any) -> None:
        kind, where, path = self._target(event)
        message = f"the alias '*{event.anchor}' is not allowed"
        self._report(event, path, message, "M002", _NO_ANCHORS)
        if kind == "key":
            where.key = _DROP
        else:
            self._store(None)

    def _end(self, _event: Any) -> None:
        frame = self.stack.pop()
        self._store(frame.container)

    def _too_deep(self, event: Any, path: Path) -> bool:
        # Stop reading: both parsers slow down with every level of flow nesting.
        message = f"the document is nested more than {MAX_DEPTH} levels deep"
        self._report(event, _outer(path), message, "M005")
        return False

    def _start(self, event: Any) -> bool:
        kind, where, path = self._target(event)
        if event.anchor is not None or event.tag is not None:
            self._check_properties(event, path)
        if kind == "key":
            message = "a mapping key must be a plain name, not a collection"
            self._report(event, path, message, "M009")
            where.key = _DROP
            self._begin_skip(store=False)
        elif kind == "drop":
            self._begin_skip(store=True)
        elif len(self.stack) >= MAX_DEPTH:
            return self._too_deep(event, path)
        else:
            mapping = isinstance(event, yaml.MappingStartEvent)
            mark = event.start_mark
            self.document.nodes[where] = Node(mark.line + 1, mark.column + 1)
            self.stack.append(_Frame(where, {} if mapping else []))
        return True

    def _scalar(self, event: Any) -> None:
        kind, where, path = self._target(event)
        if event.anchor is not None or event.tag is not None:
            self._check_properties(event, path)
        mark = event.start_mark
        node = Node(mark.line + 1, mark.column + 1, event.value, not event.style)
        if kind == "key":
            self._key(event, where, node)
            return
        value = self._scalar_value(event, path)
        if kind == "value":
            self.document.nodes[where] = node
        self._store(value)

    def _key(self, event: Any, frame: _Frame, node: Node) -> None:
        name = event.value
        path = (*frame.path, name)
        first = self.document.keys.get(path)
        if first is None:
            self.document.keys[path] = node
            frame.key = name
            return
        message = f"the key {shown(name)} is already in this mapping"
        hint = f"the first one is on line {first.line}; YAML would keep only the last"
        self._report(event, path, message, "M003", hint)
        frame.key = _DROP

    def _scalar_value(self, event: Any, path: Path) -> Any:
        tag = event.tag
        if tag is None or tag == "!":
            known = (event.value, event.implicit)
            tag = self.tags.get(known)
            if tag is None:
                tag = self.loader.resolve(yaml.ScalarNode, event.value, event.implicit)
                self.tags[known] = tag
        builder = _BUILDERS.get(tag)
        if builder is None:
            return event.value
        node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark)
        try:
            value = getattr(self.loader, builder)(node)
        except (ValueError, KeyError, TypeError, OverflowError):
            message = f"{shown(event.value)} is not a valid {tag[len(_YAML_TAG) :]}"
            self._report(event, path, message, "M019")
            return event.value
        if isinstance(value, float) and not math.isfinite(value):
            message = f"{shown(event.value)} is not a finite number"
            hint = "JSON, and so the OpenAPI document, has no infinity or NaN"
            self._report(event, path, message, "M019", hint)
        return value


def _outer(path: Path) -> Path:
    """The start of a deep path, up to its first list index: where nesting begins."""
    for index, part in enumerate(path[:6]):
        if isinstance(part, int):
            return path[:index]
    return path[:6]


def _syntax_issue(exc: yaml.YAMLError, file: str) -> Issue:
    """Word a parser error: the problem at its mark, the context as the hint."""
    if not isinstance(exc, yaml.MarkedYAMLError):
        message = str(exc).splitlines()[0] if str(exc) else "the file is not valid YAML"
        return Issue(1, 1, "", message, "M001", None, file)
    mark = exc.problem_mark or exc.context_mark
    line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    message = exc.problem or exc.context or "the file is not valid YAML"
    hint = None
    context_mark = exc.context_mark
    if exc.problem and exc.context and context_mark is not None:
        where = f"line {context_mark.line + 1}, column {context_mark.column + 1}"
        hint = f"{exc.context} that starts at {where}"
    if "'\\t'" in message:
        hint = "replace the tab with spaces"
    return Issue(line, column, "", message, "M001", hint, file)
