"""Validating a big spec piece by piece, and remembering the pieces that passed.

openapi-spec-validator spends ~30-150 ms per resource, so a 500-resource spec takes
15-75 s. Each tag's paths form one piece, together with every component they
reference. Pieces of the same shape (:mod:`generator.spec.shapes`: resources declared
alike, names aside) get the same verdict, so one of them is checked and a shape that
passed is remembered (same shape, same validator and backend): regenerating after a
change to one resource re-checks that resource's shape only. A piece without a shape is
remembered by its bytes. When a shape fails, each of its pieces is checked on its own,
so every problem is reported where it is.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import re
from collections.abc import Callable, Mapping
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from ..paths import write_cache_file
from .shapes import shape_key

Doc = dict[str, Any]
_SHARED_KEYS = ("openapi", "info", "jsonSchemaDialect", "servers", "security", "tags")
_KNOWN_KEYS = {*_SHARED_KEYS, "paths", "components", "externalDocs"}
_FORMAT = "2"  # bump when the way pieces are cut, shaped or checked changes


# A ``"$ref"`` key with a string value in ``json.dumps`` text: the quote that opens it
# follows ``{`` or ``, ``, which no quote inside a string can (it is escaped there).
_REF = re.compile(r'(?:\{|, )"\$ref": "((?:[^"\\]|\\.)*)"')


def _refs_in(text: str) -> list[str]:
    """The ``$ref`` strings in JSON ``text``, in the order they appear."""
    return [json.loads(f'"{r}"') if "\\" in r else r for r in _REF.findall(text)]


def _refs(node: Any) -> list[str]:
    return _refs_in(json.dumps(node, ensure_ascii=False))


def _component(doc: Mapping[str, Any], ref: str) -> tuple[str, str, Any] | None:
    parts = ref.split("/")
    if len(parts) != 4 or parts[:2] != ["#", "components"]:
        return None
    kind, name = parts[2], parts[3].replace("~1", "/").replace("~0", "~")
    found = doc.get("components", {}).get(kind, {})
    return (kind, name, found[name]) if name in found else None


class _Closures:
    """The components a part of a document references, directly or not."""

    def __init__(self, doc: Mapping[str, Any]) -> None:
        self.doc = doc
        self.found: dict[int, list[str]] = {}  # by id(): parts of ``doc`` only
        self.parts: list[Any] = []  # keeps them alive, so no id is reused

    def refs(self, part: Any) -> list[str]:
        """The distinct ``$ref`` strings in ``part``, each part read once."""
        found = self.found.get(id(part))
        if found is None:
            found = self.found[id(part)] = list(dict.fromkeys(_refs(part)))
            self.parts.append(part)
        return found

    def of(self, start: Any) -> dict[str, Doc]:
        """The components ``start`` needs."""
        components: dict[str, Doc] = {}
        pending = list(self.refs(start))
        while pending:
            found = _component(self.doc, pending.pop())
            if found and found[1] not in components.get(found[0], {}):
                kind, name, value = found
                components.setdefault(kind, {})[name] = value
                pending += self.refs(value)
        return components


def _group_paths(doc: Mapping[str, Any]) -> dict[str, Doc]:
    groups: dict[str, Doc] = {}
    for path, item in doc.get("paths", {}).items():
        ops = [op for op in item.values() if isinstance(op, dict) and "tags" in op]
        tag = str(ops[0]["tags"][0]) if ops and ops[0]["tags"] else ""
        groups.setdefault(tag, {})[path] = item
    return groups


def _is_table(node: Any) -> bool:
    """A mapping of mappings (``paths``, ``components``)."""
    return isinstance(node, dict) and all(isinstance(v, dict) for v in node.values())


def _all_refs(
    doc: Mapping[str, Any], groups: dict[str, Doc], closures: _Closures
) -> set[str]:
    """Every ``$ref`` of ``doc``; each part is written out once for all uses."""
    others = {k: v for k, v in doc.items() if k not in {"paths", "components"}}
    refs = set(_refs(others))
    for group in groups.values():
        refs.update(closures.refs(group))
    for group in doc.get("components", {}).values():
        for value in group.values():
            refs.update(closures.refs(value))
    return refs


def split_spec(doc: Mapping[str, Any]) -> list[Doc] | None:
    """Self-contained pieces covering ``doc``, or ``None`` when it cannot be cut."""
    tables = (doc.get("paths", {}), doc.get("components", {}))
    if set(doc) - _KNOWN_KEYS or not all(_is_table(t) for t in tables):
        return None
    closures = _Closures(doc)
    groups = _group_paths(doc)
    if not all(_component(doc, r) for r in _all_refs(doc, groups, closures)):
        return None
    shared = {k: doc[k] for k in _SHARED_KEYS if k in doc}
    security = doc.get("components", {}).get("securitySchemes")
    named: dict[Any, list[Any]] = {}
    for entry in doc.get("tags", []):
        named.setdefault(entry.get("name"), []).append(entry)
    pieces, used = [], set()
    for tag, paths in groups.items():
        components = closures.of(paths)
        used |= {(k, n) for k, group in components.items() for n in group}
        # Only the last piece carries every tag: checking that list is quadratic.
        tags = named.get(tag, [])
        pieces.append(
            {**shared, "tags": tags, "paths": paths, "components": components}
        )
    rest = {
        kind: {n: v for n, v in group.items() if (kind, n) not in used}
        for kind, group in doc.get("components", {}).items()
    }
    for kind, group in closures.of(rest).items():
        rest.setdefault(kind, {}).update(group)
    pieces.append({**shared, "paths": {}, "components": rest})
    for piece in pieces:
        if security:
            piece["components"]["securitySchemes"] = security
    return pieces


def _cross_piece_duplicates(pieces: list[Doc]) -> list[str]:
    owners: dict[str, set[int]] = {}
    for index, piece in enumerate(pieces):
        for item in piece["paths"].values():
            for op in item.values():
                if isinstance(op, dict) and "operationId" in op:
                    owners.setdefault(op["operationId"], set()).add(index)
    return [
        f"Operation ID '{name}' is used in more than one tag"
        for name, where in owners.items()
        if len(where) > 1
    ]


_VALIDATORS = (
    "openapi-spec-validator",
    "openapi-schema-validator",
    "jsonschema",
    "jsonschema-rs",
    "jsonschema-path",
)


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "-"


@cache
def _validator_version() -> str:
    """What a verdict depends on besides the piece: the validators and the backend."""
    backend = os.environ.get("OPENAPI_SPEC_VALIDATOR_SCHEMA_VALIDATOR_BACKEND", "")
    return " ".join([*(f"{n} {_version(n)}" for n in _VALIDATORS), backend])


def _key(piece: Doc) -> str:
    shape = shape_key(piece)
    if shape is not None:
        text = f"shape {shape}"
    else:
        text = "piece " + json.dumps(piece, sort_keys=True, ensure_ascii=False)
    version = _validator_version()
    return hashlib.sha256(f"{_FORMAT}\0{version}\0{text}".encode()).hexdigest()


def _remember(marker: Path) -> None:
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        pass  # a cache that cannot be written only costs time


class _PassedPieces:
    """Pieces that passed in the last run, by digest of their exact data, in one file.

    A regeneration's pieces are mostly the same data as the last run's: these are known
    to pass without working out their shape (most of the cost of a cached check).
    """

    def __init__(self, cache_dir: Path) -> None:
        self.path = cache_dir / "pieces"
        try:
            self.known = set(marshal.loads(self.path.read_bytes()))
        except (OSError, EOFError, ValueError, TypeError):
            self.known = set()
        self.kept: set[bytes] = set()

    @staticmethod
    def digest(piece: Doc) -> bytes | None:
        """What names the piece's data: marshal's bytes (same types, same order).

        Version 0 writes every value out; later ones refer back to objects met before,
        which depends on objects' identity and reference counts, not on the data.
        """
        try:
            data = marshal.dumps(piece, 0)
        except ValueError:
            return None
        salt = f"{_FORMAT}\0{_validator_version()}\0".encode()
        return hashlib.blake2b(salt + data, digest_size=20).digest()

    def save(self) -> None:
        """Keep this run's passed pieces for the next (if they changed)."""
        if self.kept != self.known:
            write_cache_file(self.path, marshal.dumps(sorted(self.kept)))


def cached_spec_problems(
    doc: Mapping[str, Any],
    cache_dir: Path,
    problems_of: Callable[[Mapping[str, Any]], list[str]],
) -> list[str]:
    """``problems_of(doc)``, checked piece by piece, skipping pieces that passed."""
    pieces = split_spec(doc)
    if pieces is None:
        return problems_of(doc)
    problems = _cross_piece_duplicates(pieces)
    passed: set[str] = set()
    ledger = _PassedPieces(cache_dir)
    for piece in pieces:
        digest = ledger.digest(piece)
        if digest is not None and digest in ledger.known:
            ledger.kept.add(digest)
            continue
        key = _key(piece)
        if key not in passed:
            marker = cache_dir / key[:2] / key
            if marker.exists():
                passed.add(key)
            else:
                found = problems_of(piece)
                problems += [p for p in found if p not in problems]
                if found:
                    continue
                passed.add(key)
                _remember(marker)
        if digest is not None:
            ledger.kept.add(digest)
    ledger.save()
    return problems
