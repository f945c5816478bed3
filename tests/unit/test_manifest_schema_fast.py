"""jsonschema-rs passes a manifest only where the full schema check finds nothing.

:mod:`generator.manifest.schema_fast` skips the search for errors when jsonschema-rs
finds the manifest valid. These tests hold it to the full check on the examples, the
invalid manifests, the benchmark's synthetic manifests and mutations of them all.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.manifest import schema
from generator.manifest.composer import compose
from generator.manifest.schema_fast import passes_fast

REPO = Path(__file__).resolve().parents[2]


def _composed(path: Path) -> Any:
    """The value the schema check sees (the composer's: YAML traps refused)."""
    return compose(path.read_text("utf-8"), path.name).value


CORPUS = {
    path.stem: _composed(path)
    for path in sorted(
        [
            *(REPO / "examples").glob("*.yaml"),
            *(REPO / "tests" / "manifests" / "valid").glob("*.yaml"),
            *(REPO / "tests" / "manifests" / "invalid").glob("*.yaml"),
        ]
    )
    if isinstance(_composed(path), dict)
}


def _full_check_is_clean(value: Any) -> bool:
    return not any(True for _ in schema._validator().iter_errors(value))


def _fast(value: Any) -> bool:
    return passes_fast(schema._fast_validator(), value)


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_the_corpus(name: str) -> None:
    value = CORPUS[name]
    assert not _fast(value) or _full_check_is_clean(value)


def test_the_examples_take_the_fast_path() -> None:
    for path in sorted((REPO / "examples").glob("*.yaml")):
        assert _fast(_composed(path)), path


@pytest.mark.parametrize(
    "value", [1800.0, 2**63, 1800, 1800.5, True, "1800", None, []], ids=repr
)
def test_where_the_engines_disagree_the_full_check_decides(value: Any) -> None:
    # jsonschema-rs takes 1800.0 for an integer; the manifest's check does not.
    manifest = copy.deepcopy(CORPUS["todo"])
    manifest["auth"]["token_ttl"] = value
    assert _fast(manifest) == _full_check_is_clean(manifest)
    assert _fast(manifest) is (value == 1800 and type(value) is int)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += _paths(value, (*prefix, index))
    return found


_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-5, 10**20)
    | st.floats(-5, 1e6)
    | st.sampled_from(
        ["string", "integer", "strin", "a-b", "Ab", "ab\n", "é", "", "x" * 300]
    )
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=6) | st.integers(0, 3), inner, max_size=3),
    max_leaves=8,
)


@st.composite
def _mutated(draw: st.DrawFn) -> Any:
    data = copy.deepcopy(CORPUS[draw(st.sampled_from(sorted(CORPUS)))])
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(data)[1:]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = data
        for part in path[:-1]:
            parent = parent[part]
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            parent[path[-1]] = draw(_VALUES)
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = draw(_VALUES)
        else:
            parent.append(draw(_VALUES))
    return data


@settings(max_examples=300, deadline=None)
@given(_mutated())
def test_mutations(value: Any) -> None:
    assert not _fast(value) or _full_check_is_clean(value)
