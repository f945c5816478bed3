"""Validating a big spec piece by piece, and remembering the pieces that passed.

openapi-spec-validator spends ~30 ms per resource, so a 500-resource spec takes ~19 s.
Each tag's paths form one piece, together with every component they reference; a piece
that validated before (same bytes, same validator) is skipped, so regenerating after a
change to one resource re-checks that resource only.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

Doc = dict[str, Any]
_SHARED_KEYS = ("openapi", "info", "jsonSchemaDialect", "servers", "security", "tags")
_KNOWN_KEYS = {*_SHARED_KEYS, "paths", "components", "externalDocs"}
_FORMAT = "1"  # bump when the way pieces are cut or checked changes


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            yield ref
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def _component(doc: Mapping[str, Any], ref: str) -> tuple[str, str, Any] | None:
    parts = ref.split("/")
    if len(parts) != 4 or parts[:2] != ["#", "components"]:
        return None
    kind, name = parts[2], parts[3].replace("~1", "/").replace("~0", "~")
    found = doc.get("components", {}).get(kind, {})
    return (kind, name, found[name]) if name in found else None


def _closure(doc: Mapping[str, Any], start: Any) -> dict[str, Doc]:
    components: dict[str, Doc] = {}
    pending = list(_refs(start))
    while pending:
        found = _component(doc, pending.pop())
        if found and found[1] not in components.get(found[0], {}):
            kind, name, value = found
            components.setdefault(kind, {})[name] = value
            pending += _refs(value)
    return components


def _group_paths(doc: Mapping[str, Any]) -> dict[str, Doc]:
    groups: dict[str, Doc] = {}
    for path, item in doc.get("paths", {}).items():
        ops = [op for op in item.values() if isinstance(op, dict) and "tags" in op]
        tag = str(ops[0]["tags"][0]) if ops and ops[0]["tags"] else ""
        groups.setdefault(tag, {})[path] = item
    return groups


def split_spec(doc: Mapping[str, Any]) -> list[Doc] | None:
    """Self-contained pieces covering ``doc``, or ``None`` when it cannot be cut."""
    if set(doc) - _KNOWN_KEYS or not all(_component(doc, r) for r in _refs(doc)):
        return None
    shared = {k: doc[k] for k in _SHARED_KEYS if k in doc}
    security = doc.get("components", {}).get("securitySchemes")
    pieces, used = [], set()
    for tag, paths in _group_paths(doc).items():
        components = _closure(doc, paths)
        used |= {(k, n) for k, group in components.items() for n in group}
        # Only the last piece carries every tag: checking that list is quadratic.
        tags = [t for t in doc.get("tags", []) if t.get("name") == tag]
        pieces.append(
            {**shared, "tags": tags, "paths": paths, "components": components}
        )
    rest = {
        kind: {n: v for n, v in group.items() if (kind, n) not in used}
        for kind, group in doc.get("components", {}).items()
    }
    for kind, group in _closure(doc, rest).items():
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


def _key(piece: Doc) -> str:
    version = metadata.version("openapi-spec-validator")
    text = json.dumps(piece, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(f"{_FORMAT}\0{version}\0{text}".encode()).hexdigest()


def _remember(marker: Path) -> None:
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        pass  # a cache that cannot be written only costs time


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
    for piece in pieces:
        key = _key(piece)
        marker = cache_dir / key[:2] / key
        if marker.exists():
            continue
        found = problems_of(piece)
        problems += [p for p in found if p not in problems]
        if not found:
            _remember(marker)
    return problems
