"""Deterministic synthetic manifests for the benchmarks.

``synthetic(count)`` gives ``count`` resources of 15 fields each, cycling through every
field type, format and constraint a manifest understands (string plain / limited /
enum / pattern, email, uri, uuid, date, date-time, text, password, integer with limits
and as an enum, number, boolean, a nullable field, and a relation to an earlier
resource). The same arguments always give the same text.
"""

from __future__ import annotations

from pathlib import Path

import yaml

FIELDS_PER_RESOURCE = 15

# Fifteen fields: every type, format and constraint; ``ref`` is the relation (the
# first resource has no earlier resource to point to, so it gets a plain integer).
_FIELDS: tuple[tuple[str, dict[str, object]], ...] = (
    ("title", {"type": "string", "minLength": 1, "maxLength": 200}),
    ("code", {"type": "string", "pattern": "^[A-Z]{3}[0-9]{4}$", "maxLength": 7}),
    ("status", {"type": "string", "enum": ["draft", "live", "archived"]}),
    ("email", {"type": "string", "format": "email"}),
    ("website", {"type": "string", "format": "uri", "nullable": True}),
    ("token", {"type": "string", "format": "uuid", "readOnly": True}),
    ("starts_on", {"type": "string", "format": "date"}),
    ("created_at", {"type": "string", "format": "date-time"}),
    ("notes", {"type": "string", "format": "text", "nullable": True}),
    ("secret", {"type": "string", "format": "password", "minLength": 8}),
    ("quantity", {"type": "integer", "minimum": 0, "maximum": 100000}),
    ("rating", {"type": "integer", "enum": [1, 2, 3, 4, 5]}),
    ("price", {"type": "number", "minimum": 0}),
    ("active", {"type": "boolean", "default": True}),
    ("ref", {"type": "integer"}),
)
assert len(_FIELDS) == FIELDS_PER_RESOURCE


def resource_name(index: int) -> str:
    """The PascalCase name of resource ``index`` (``Item0001``)."""
    return f"Item{index:04d}"


def _resource(index: int) -> dict[str, object]:
    fields = {name: dict(spec) for name, spec in _FIELDS}
    if index > 0:
        # Relations point back a little, so the graph is connected but shallow.
        fields["ref"]["relation"] = resource_name(max(0, index - 1 - index % 7))
    return {
        "title": f"Items {index:04d}",
        "fields": fields,
        "required": ["title", "email"],
        "search": ["title", "email"],
        "query_tags": {"live": {"label": "Live", "filter": {"status": "live"}}},
    }


def synthetic(
    count: int, *, openapi_version: str | None = None, jwt: bool = False
) -> dict[str, object]:
    """A manifest (as data) of ``count`` resources × 15 fields."""
    manifest: dict[str, object] = {
        "project": {"name": "bench_admin", "title": "Bench admin"},
        "auth": {"jwt": jwt},
    }
    if openapi_version:
        manifest["docs"] = {"openapi_version": openapi_version}
    manifest["resources"] = {resource_name(i): _resource(i) for i in range(count)}
    return manifest


def change_one_field(manifest: dict[str, object]) -> dict[str, object]:
    """A copy of ``manifest`` with one field of one resource changed (a wider limit)."""
    resources = manifest["resources"]
    assert isinstance(resources, dict)
    name = resource_name(len(resources) // 2)
    changed = dict(manifest)
    changed["resources"] = dict(resources)
    resource = dict(resources[name])
    fields = dict(resource["fields"])
    fields["title"] = {**fields["title"], "maxLength": 240}
    resource["fields"] = fields
    changed["resources"][name] = resource
    return changed


ARTICLES: dict[str, object] = {
    "project": {"name": "bench_articles", "title": "Bench articles"},
    "resources": {
        "Article": {
            "uri": "articles",
            "table": "articles",
            "fields": {
                "title": {"type": "string", "maxLength": 200},
                "body": {"type": "string", "format": "text"},
                "published": {"type": "boolean", "default": False},
                "created_at": {"type": "string", "format": "date-time"},
            },
            "required": ["title"],
        }
    },
}


def articles(*, jwt: bool = False) -> dict[str, object]:
    """The one-resource manifest of the serving benchmarks (performance.md's table)."""
    return {**ARTICLES, "auth": {"jwt": jwt}}


def dump(manifest: dict[str, object], path: Path) -> Path:
    """Write ``manifest`` as YAML to ``path`` (keys in order, no anchors)."""

    class _NoAliases(yaml.SafeDumper):
        def ignore_aliases(self, data: object) -> bool:  # noqa: ARG002
            return True

    text = yaml.dump(manifest, Dumper=_NoAliases, sort_keys=False, width=100)
    path.write_text(text, encoding="utf-8")
    return path
