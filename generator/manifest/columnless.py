"""Fields without a column (has-many, many-to-many) named where a column is meant:
a resource's required, search or list names, its default sort, a query tag's filter,
a unique group or the key. Each kind says why in its own words and codes
(:mod:`~generator.manifest.hasmanychecks`, :mod:`~generator.manifest.manytomanychecks`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import Issue
from .hints import shown
from .yamlnodes import Document


@dataclass(frozen=True)
class Columnless:
    """How one kind of column-less field is refused."""

    kind: str  # "has-many", as in "'tracks' is a has-many field, which …"
    not_in: Mapping[str, str]  # resource list → why the field cannot be in it
    code: str  # for a list, the default sort and a query tag
    key_code: str
    unique_code: str
    tag_reason: str  # after the field's name in a query tag's filter
    unique_reason: str  # after the field's name in a unique group

    def issues(
        self, document: Document, resource: str, spec: dict[str, Any], many: set[str]
    ) -> Iterator[Issue]:
        """Every place ``spec`` names one of ``many`` where a column is meant."""
        base = ("resources", resource)
        for key, why in self.not_in.items():
            names = spec.get(key)
            for index, name in enumerate(names if isinstance(names, list) else []):
                if name in many:
                    message = f"'{name}' is a {self.kind} field, which {why}"
                    where = (*base, key, index)
                    yield document.issue(where, message, self.code, "remove it")
        sort = spec.get("default_sort")
        if isinstance(sort, str) and sort.removeprefix("-") in many:
            message = f"{shown(sort)} sorts by a {self.kind} field, which has no column"
            yield document.issue((*base, "default_sort"), message, self.code)
        key = spec.get("key")
        if isinstance(key, str) and key in many:
            message = f"'{key}' is a {self.kind} field, which cannot be a key"
            yield document.issue((*base, "key"), message, self.key_code)
        yield from self._tag_and_group_issues(document, base, spec, many)

    def _tag_and_group_issues(
        self,
        document: Document,
        base: tuple[Any, ...],
        spec: dict[str, Any],
        many: set[str],
    ) -> Iterator[Issue]:
        tags = spec.get("query_tags")
        for uri, tag in (tags if isinstance(tags, dict) else {}).items():
            conditions = tag.get("filter") if isinstance(tag, dict) else None
            for name in conditions if isinstance(conditions, dict) else {}:
                if name in many:
                    where = (*base, "query_tags", uri, "filter", name)
                    message = f"'{name}' is a {self.kind} field{self.tag_reason}"
                    yield document.issue(where, message, self.code, key=True)
        groups = spec.get("unique")
        for index, group in enumerate(groups if isinstance(groups, list) else []):
            for place, name in enumerate(group if isinstance(group, list) else []):
                if name in many:
                    where = (*base, "unique", index, place)
                    message = f"'{name}' is a {self.kind} field, {self.unique_reason}"
                    yield document.issue(where, message, self.unique_code, "remove it")
