"""``dumps_sorted`` writes what ``json.dumps(indent=2, sort_keys=True)`` does."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from generator.regen.jsontext import dumps_sorted

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=30,
)


def _stdlib(value: object) -> str:
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)


@given(_VALUES)
def test_same_text_as_json_dumps(value: object) -> None:
    assert dumps_sorted(value) == _stdlib(value)


def test_unusual_values_go_to_json_dumps() -> None:
    value = {"a": {1: "x", 2: [1.5, float("nan")]}, "b": ("t", True, 'é\n"')}
    assert dumps_sorted(value) == _stdlib(value)
    assert dumps_sorted({}) == "{}" and dumps_sorted([]) == "[]"


def test_empty_containers_and_nesting() -> None:
    data = {"files": {"b.py": {"owner": "generated"}, "a.py": {}}, "n": [[], {}, 0]}
    assert dumps_sorted(data) == _stdlib(data)
