"""Hypothesis: whatever the input, the loader returns a Project or raises ManifestError.

Random YAML-ish text, random documents dumped as YAML, and mutations of the examples go
through ``parse_manifest`` in-process; a handful of random files also go through
``python -m generator validate`` to check the command never prints a traceback.
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.errors import ManifestError
from generator.manifest.load import parse_manifest
from generator.model import ir

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = {
    path.name: yaml.safe_load(path.read_text(encoding="utf-8"))
    for path in sorted((REPO / "examples").glob("*.yaml"))
}
FUZZ = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

_YAML_PIECES = [
    "\n",
    "  ",
    "- ",
    ": ",
    "? ",
    "{",
    "}",
    "[",
    "]",
    ", ",
    "&a ",
    "*a",
    "!!str ",
    "!!python/object:os.system ",
    "'",
    '"',
    "#",
    "|\n",
    ">-\n",
    "---\n",
    "...\n",
    "%YAML 1.1\n",
    "\t",
    "\x00",
    "\ufeff",
    "\u2028",
    "\x85",
    "\r\n",
    "no",
    "0755",
    "1:30",
    ".inf",
    "~",
    "project",
    "name",
    "resources",
    "fields",
    "type",
    "string",
    "integer",
    "Book",
    "relation",
    "enum",
    "default",
    "query_tags",
    "filter",
    "key",
    "search",
    "<<",
]
yaml_ish = st.lists(
    st.one_of(st.sampled_from(_YAML_PIECES), st.text(max_size=5)), max_size=60
).map("".join)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(
        ["no", "on", "0755", "1:30", "string", "integer", "Book", "id", "-id"]
    ),
)
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.one_of(st.text(max_size=8), st.sampled_from(_YAML_PIECES[27:])),
            inner,
            max_size=4,
        ),
    ),
    max_leaves=30,
)


def _outcome(text: str) -> ir.Project | ManifestError:
    """Parse ``text``; anything but a Project or a ManifestError fails the test."""
    try:
        project = parse_manifest(text, "fuzz.yaml")
    except ManifestError as exc:
        assert exc.issues, "a ManifestError without issues"
        for issue in exc.issues:
            assert issue.line >= 1 and issue.column >= 1
            assert issue.code.startswith("M") and issue.message
            assert "\n" not in issue.message
        return exc
    assert isinstance(project, ir.Project)
    return project


def _dump(data: Any, flow: bool | None = None) -> str:
    return yaml.safe_dump(
        data, sort_keys=False, default_flow_style=flow, allow_unicode=True
    )


@FUZZ
@given(yaml_ish)
def test_yaml_ish_text(text: str) -> None:
    _outcome(text)


@FUZZ
@given(st.text(max_size=200))
def test_any_text(text: str) -> None:
    _outcome(text)


@FUZZ
@given(documents, st.sampled_from([None, True, False]))
def test_random_documents(data: Any, flow: bool | None) -> None:
    _outcome(_dump(data, flow))


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += _paths(value, (*prefix, index))
    return found


@st.composite
def mutated_examples(draw: st.DrawFn) -> Any:
    """An example manifest with a few values replaced, removed or added."""
    data = copy.deepcopy(EXAMPLES[draw(st.sampled_from(sorted(EXAMPLES)))])
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        paths = _paths(data)[1:]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = data
        for part in path[:-1]:
            parent = parent[part]
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            parent[path[-1]] = draw(documents)
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=10))] = draw(documents)
        else:
            parent.append(draw(documents))
    return data


_NAMES = st.sampled_from(
    ["id", "title", "pages", "author", "Book", "Author", "x", "no"]
)
_VALUES = st.one_of(scalars, _NAMES, st.lists(st.one_of(scalars, _NAMES), max_size=3))
_OPTIONS = {
    "type": st.sampled_from(["string", "integer", "number", "boolean", "strin"]),
    "format": st.sampled_from(
        ["date", "date-time", "email", "uri", "uuid", "password", "text"]
    ),
    "enum": st.lists(st.one_of(scalars, _NAMES), max_size=3),
    "minLength": st.integers(-1, 5),
    "maxLength": st.integers(-1, 5),
    "minimum": st.one_of(st.integers(-5, 5), st.floats(-5, 5)),
    "maximum": st.one_of(st.integers(-5, 5), st.floats(-5, 5)),
    "pattern": st.sampled_from(["^a", "(", "[0-9]+", "a{2,1}", "(?P<x>a)"]),
    "default": _VALUES,
    "nullable": st.booleans(),
    "readOnly": st.booleans(),
    "relation": _NAMES,
    "sortable": st.booleans(),
    "filterable": st.booleans(),
    "renamed_from": _NAMES,
}
plausible_fields = st.fixed_dictionaries(
    {"type": _OPTIONS["type"]},
    optional={k: v for k, v in _OPTIONS.items() if k != "type"},
)
plausible_resources = st.dictionaries(
    _NAMES,
    st.fixed_dictionaries(
        {"fields": st.dictionaries(_NAMES, plausible_fields, max_size=4)},
        optional={
            "key": _NAMES,
            "uri": st.sampled_from(["book-resource", "author-resource", "Bad"]),
            "table": st.sampled_from(["books", "authors", "alembic_version"]),
            "required": st.lists(_NAMES, max_size=3),
            "search": st.lists(_NAMES, max_size=3),
            "default_sort": st.sampled_from(["-id", "title", "-pages", "nope"]),
            "methods": st.lists(_NAMES, max_size=2),
            "query_tags": st.dictionaries(
                st.sampled_from(["open", "Bad Tag", "on"]),
                st.fixed_dictionaries(
                    {"filter": st.dictionaries(_NAMES, _VALUES, max_size=2)}
                ),
                max_size=2,
            ),
        },
    ),
    max_size=3,
)


@FUZZ
@given(plausible_resources)
def test_plausible_manifests(resources: dict[str, Any]) -> None:
    """Shapes the schema accepts, so the semantic checks see every combination."""
    _outcome(_dump({"project": {"name": "fuzz_admin"}, "resources": resources}))


@FUZZ
@given(mutated_examples(), st.sampled_from([None, True, False]))
def test_mutated_examples(data: Any, flow: bool | None) -> None:
    _outcome(_dump(data, flow))


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(sorted(EXAMPLES)), st.sampled_from([None, True, False]))
def test_dump_then_load_gives_the_same_project(name: str, flow: bool | None) -> None:
    original = parse_manifest((REPO / "examples" / name).read_text("utf-8"), name)
    assert parse_manifest(_dump(EXAMPLES[name], flow), name) == original


_ANY_FILE = st.one_of(
    yaml_ish, documents.map(_dump), mutated_examples().map(_dump), st.text(max_size=80)
)


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(_ANY_FILE, min_size=3, max_size=3))
def test_validate_command_never_prints_a_traceback(
    tmp_path_factory: Any, texts: list[str]
) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    for index, text in enumerate(texts):
        name = f"case{index}.yaml"
        (folder / name).write_bytes(text.encode("utf-8", errors="surrogatepass"))
        result = subprocess.run(
            [sys.executable, "-m", "generator", "validate", name],
            cwd=folder,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert "Traceback" not in result.stderr, result.stderr
        assert result.returncode in (0, 1), result.stderr
