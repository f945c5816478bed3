"""The kernel's YAML writer: JSON-shaped data reads back exactly, in stable bytes."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.spec.openapi import load_kernel

LOADERS = [yaml.SafeLoader, getattr(yaml, "CSafeLoader", yaml.SafeLoader)]


def to_yaml(data: Any) -> str:
    """The kernel's writer."""
    return load_kernel().openapi.dump_yaml(data)


def assert_reads_back(data: Any) -> str:
    """Write ``data`` and check both PyYAML loaders return it unchanged."""
    text = to_yaml(data)
    for loader in LOADERS:
        assert yaml.load(text, Loader=loader) == data, text  # noqa: S506
    return text


TEXT = st.text(st.characters(exclude_categories=("Cs",)))
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT
)
DATA = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(TEXT, DATA, max_size=5))
def test_any_json_shaped_data_reads_back(data: dict[str, Any]) -> None:
    assert_reads_back(data)


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.text(min_size=990, max_size=1200), DATA, max_size=2))
def test_long_keys_read_back(data: dict[str, Any]) -> None:
    assert_reads_back(data)


@pytest.mark.parametrize(
    "text",
    [
        "yes", "No", "ON", "off", "y", "n", "null", "~", "true", "False", "",
        "1.10", "0755", "1:30", "1e5", ".inf", "2024-01-01", "-id", "- x", "? x",
        "a: b", "a #b", "#c", "`x`", "'q'", '"d"', "<<", "=", "@at", "%p", "!t",
        "&a", "*a", "|", ">", "[x]", "{y}", "x,y", "tab\there", "line\nbreak",
        "trail ", " lead", "\x07", "\x7f", "\x85", "nel\x85", "\u2028", "\u2029",
        "\ufeffbom", "\ufffe", "é ü 中文", "🚀", "\u00a0", "\\", "\x00", "x" * 5000,
    ],
)  # fmt: skip
def test_awkward_strings_read_back_as_values_and_keys(text: str) -> None:
    assert_reads_back({"value": text, "list": [text], text: {"nested": text}})


@pytest.mark.parametrize(
    ("value", "line"),
    [
        ("Books", "k: Books"),
        ("/admin/r/b/crud/{resourceItem}", "k: /admin/r/b/crud/{resourceItem}"),
        ("$ref", "k: $ref"),
        ("yes", 'k: "yes"'),
        ("200", 'k: "200"'),
        ("#/components/schemas/Book", 'k: "#/components/schemas/Book"'),
        ("é", 'k: "é"'),
        ("🚀\x85", 'k: "🚀\\N"'),
        (True, "k: true"),
        (None, "k: null"),
        (-(2**63), "k: -9223372036854775808"),
        (1e16, "k: 1.0e+16"),
        (0.5, "k: 0.5"),
        ([], "k: []"),
        ({}, "k: {}"),
    ],
)  # fmt: skip
def test_scalar_spelling(value: Any, line: str) -> None:
    assert assert_reads_back({"k": value}) == line + "\n"


def test_block_layout() -> None:
    data = {"a": {"b": [1, {"c": [2, 3], "d": {}}, [4, [5]]]}, "e": [{}]}
    assert assert_reads_back(data) == (
        "a:\n"
        "  b:\n"
        "  - 1\n"
        "  - c:\n"
        "    - 2\n"
        "    - 3\n"
        "    d: {}\n"
        "  - - 4\n"
        "    - - 5\n"
        "e:\n"
        "- {}\n"
    )


def test_same_data_as_json() -> None:
    data = {"x": [1.5, -0.0, 10**30, "ü"], "y": {"z": None}}
    assert yaml.safe_load(to_yaml(data)) == json.loads(json.dumps(data))


@pytest.mark.parametrize("bad", [{"k": {1, 2}}, {"k": b"x"}, {1: "x"}])
def test_unsupported_values_are_refused(bad: Any) -> None:
    with pytest.raises(TypeError):
        to_yaml(bad)
