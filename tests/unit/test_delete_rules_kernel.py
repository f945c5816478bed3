"""The kernel's delete rules (``panel_core/delete_rules.py``) on tables in memory:
what a delete collects, what refuses it, what it clears and erases, in which order.
The served apps' behaviour is tested in tests/conformance/test_delete_rules.py."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import pytest

from generator.spec.openapi import KERNEL_PACKAGE, load_kernel


@pytest.fixture(scope="module")
def kernel() -> Any:
    loaded = load_kernel()
    return loaded, importlib.import_module(f"{KERNEL_PACKAGE}.delete_rules")


class Memory:
    """Rows by URI key: key → {field: value}; records what was done."""

    def __init__(self, rows: dict[str, dict[int, dict[str, Any]]]) -> None:
        self.rows = rows
        self.done: list[tuple[str, ...]] = []

    def referring(self, uri: str, field: str, keys: Sequence[Any]) -> list[Any]:
        return [k for k, row in self.rows[uri].items() if row.get(field) in keys]

    def clear(self, uri: str, field: str, keys: Sequence[Any]) -> None:
        self.done.append(("clear", uri, field))
        for row in self.rows[uri].values():
            if row.get(field) in keys:
                row[field] = None

    def erase(self, uri: str, keys: Sequence[Any]) -> None:
        self.done.append(("erase", uri, *map(str, keys)))
        for key in keys:
            del self.rows[uri][key]


def _rules(kernel: Any) -> Any:
    loaded, delete_rules = kernel
    fields, resource = loaded.fields, loaded.resource

    def declared(uri: str, title: str, *relations: Any) -> type:
        attributes = {
            "uri": uri,
            "title": title,
            "fields": (fields.ID(), fields.Text("name"), *relations),
        }
        return type(title.rstrip("s"), (resource.Resource,), attributes)

    def belongs(name: str, target: str, rule: str) -> Any:
        return fields.BelongsTo(name, resource=target, on_delete=rule, nullable=True)

    classes = [
        declared("authors", "Authors"),
        declared(
            "books",
            "Books",
            belongs("author", "authors", "cascade"),
            belongs("editor", "authors", "set_null"),
        ),
        declared("notes", "Notes", belongs("book", "books", "restrict")),
        declared("parts", "Parts", belongs("parent", "parts", "cascade")),
    ]
    return delete_rules.DeleteRules({cls.uri: cls for cls in classes})


def test_a_cascade_collects_then_clears_then_erases_deepest_first(
    kernel: Any,
) -> None:
    rules = _rules(kernel)
    tables = Memory(
        {
            "authors": {1: {}, 2: {}},
            "books": {
                10: {"author": 1},
                11: {"author": 2, "editor": 1},
                12: {"author": 1, "editor": 1},
            },
            "notes": {},
            "parts": {},
        }
    )
    plan = rules.enforce("authors", [1], tables, what="Author 1", many=False)
    assert plan.cascaded == {"books": [10, 12]} and not plan.blocking
    # Book 11 stays, without its editor; 12 is erased (cleared first, harmlessly).
    assert tables.rows["books"] == {11: {"author": 2, "editor": None}}
    assert tables.done == [("clear", "books", "editor"), ("erase", "books", "10", "12")]
    counts = rules.cascade_counts(plan)
    assert counts == [{"resource": "books", "label": "Books", "count": 2}]


def test_a_restricted_descendant_refuses_before_anything_changes(kernel: Any) -> None:
    rules = _rules(kernel)
    tables = Memory(
        {
            "authors": {1: {}},
            "books": {10: {"author": 1}, 11: {"author": 1}},
            "notes": {20: {"book": 10}, 21: {"book": 11}, 22: {"book": None}},
            "parts": {},
        }
    )
    with pytest.raises(kernel[1].Referenced) as refused:
        rules.enforce("authors", [1], tables, what="Author 1 cannot go", many=False)
    assert refused.value.body() == {
        "message": "Author 1 cannot go: 2 Notes refer to it.",
        "references": [{"resource": "notes", "label": "Notes", "count": 2}],
    }
    assert tables.done == [] and len(tables.rows["books"]) == 2
    plan = rules.plan("authors", [1], tables)
    message = rules.refusal(plan, "Nothing was deleted", many=True).message
    assert message == "Nothing was deleted: 2 Notes refer to some of these."


def test_a_self_reference_cascades_through_every_level_once(kernel: Any) -> None:
    rules = _rules(kernel)
    parts = {1: {}, 2: {"parent": 1}, 3: {"parent": 2}, 4: {"parent": 3}, 5: {}}
    tables = Memory({"authors": {}, "books": {}, "notes": {}, "parts": parts})
    plan = rules.enforce("parts", [1], tables, what="Part 1", many=False)
    assert plan.waves == [("parts", [2]), ("parts", [3]), ("parts", [4])]
    # The deepest first; the record itself is left to the store.
    assert [step[2] for step in tables.done] == ["4", "3", "2"]
    assert set(tables.rows["parts"]) == {1, 5}
