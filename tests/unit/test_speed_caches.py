"""The caches of the regeneration's speed paths change speed only, never bytes.

The spec's texts assembled from cached pieces (:mod:`generator.spec.text`), the
manifest schema skipping resources that passed before
(:mod:`generator.manifest.schema`), and
the migration head read from the top of each revision file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openapi_projects as projects
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.errors import ManifestError
from generator.manifest.load import load_manifest
from generator.spec.openapi import build_spec, dump_spec, load_kernel
from generator.spec.text import SpecTextCache, dump_texts, exact_json_writer
from generator.targets.fastapi.migrations import next_migration_ids

REPO = Path(__file__).resolve().parents[2]
INVALID = REPO / "tests" / "manifests" / "invalid"


def _writers() -> tuple[Any, Any]:
    kernel = load_kernel()
    return kernel.openapi.dump_yaml, kernel.openapi.dump_json


def _odd_doc() -> dict[str, Any]:
    """Entries the frame must keep as they are: long keys, empty and wide mappings."""
    wide = {f"k{i}": {"v": i, "l": [i, {"x": None}], "e": {}} for i in range(12)}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Tëst \u2028 \"q\" 'a'", "empty": {}, "list": []},
        "paths": {
            "/a": {"get": {"x": [1, 2.5, True, None, "PFPIECE"]}},
            "/" + "b" * 1100: {"get": {"y": "long key"}},
            "/c": {},
        },
        "components": {"schemas": wide, "responses": {}, "few": {"a": {"b": 1}}},
        "tags": [],
    }


@pytest.mark.parametrize(
    "doc",
    [
        pytest.param(lambda: build_spec(projects.library()), id="library"),
        pytest.param(lambda: build_spec(projects.library(jwt=True)), id="library-jwt"),
        pytest.param(_odd_doc, id="odd"),
        pytest.param(lambda: {}, id="empty"),
    ],
)
def test_spec_texts_are_the_writers_bytes(doc: Any, tmp_path: Path) -> None:
    dump_yaml, dump_json = _writers()
    document = doc()
    expected = (dump_yaml(document).encode(), dump_json(document).encode())
    cache = SpecTextCache(tmp_path, "project", "salt")
    assert dump_texts(document, dump_yaml, dump_json, cache) == expected  # cold
    assert dump_texts(document, dump_yaml, dump_json, cache) == expected  # warm
    assert dump_texts(document, dump_yaml, dump_json, SpecTextCache(None, "", "")) == (
        expected
    )


def test_changed_entries_are_written_again(tmp_path: Path) -> None:
    dump_yaml, dump_json = _writers()
    before = _odd_doc()
    after = _odd_doc()
    after["components"]["schemas"]["k3"]["v"] = 3.0  # a float now: another text
    after["paths"]["/a"]["get"]["x"].append("new")
    cache = SpecTextCache(tmp_path, "project", "salt")
    dump_texts(before, dump_yaml, dump_json, cache)
    assert dump_texts(after, dump_yaml, dump_json, cache) == (
        dump_yaml(after).encode(),
        dump_json(after).encode(),
    )


def test_a_damaged_piece_cache_is_ignored(tmp_path: Path) -> None:
    dump_yaml, dump_json = _writers()
    doc = build_spec(projects.library())
    cache = SpecTextCache(tmp_path, "project", "salt")
    dump_texts(doc, dump_yaml, dump_json, cache)
    assert cache.path is not None
    cache.path.write_bytes(b"\x00not marshal")
    assert dump_texts(doc, dump_yaml, dump_json, cache) == (
        dump_yaml(doc).encode(),
        dump_json(doc).encode(),
    )


def test_dump_spec_with_and_without_cache(tmp_path: Path) -> None:
    doc = build_spec(projects.library(jwt=True))
    assert dump_spec(doc, tmp_path, "a") == dump_spec(doc)
    assert dump_spec(doc, tmp_path, "a") == dump_spec(doc)


_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([1e16, 1e-05, 1e22, -0.0, 0.1, 123456789.125])
    | st.text()
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=5) | st.integers(0, 9), inner, max_size=4),
    max_leaves=30,
)


def _outcome(dump: Any, value: Any) -> tuple[str, str]:
    try:
        return "text", dump(value)
    except (TypeError, ValueError) as exc:
        return type(exc).__name__, str(exc)


@settings(max_examples=400, deadline=None)
@given(value=_VALUES)
def test_the_fast_json_writer_gives_the_kernels_bytes(value: Any) -> None:
    # orjson's text where it is json's, else the kernel's writer: same bytes, same
    # errors (non-finite numbers, exponents, integer keys, integers past 64 bits).
    _, dump_json = _writers()
    assert _outcome(exact_json_writer(dump_json), value) == _outcome(dump_json, value)


def test_the_fast_json_writer_on_whole_specs() -> None:
    _, dump_json = _writers()
    for project in (projects.library(), projects.library(jwt=True), projects.todo()):
        doc = build_spec(project)
        assert exact_json_writer(dump_json)(doc) == dump_json(doc)


def _problems(path: Path, cache: Path | None) -> str | None:
    try:
        load_manifest(path, cache_dir=cache)
    except ManifestError as exc:
        return str(exc)
    return None


@pytest.mark.parametrize(
    "case", sorted(p.name for p in INVALID.glob("*.yaml")), ids=lambda n: n[:-5]
)
def test_manifest_errors_do_not_depend_on_the_schema_cache(
    case: str, tmp_path: Path
) -> None:
    # Primed with the valid examples (their resources are then known to pass), and
    # run twice: whatever the cache holds, the same problems in the same order.
    for example in sorted((REPO / "examples").glob("*.yaml")):
        load_manifest(example, cache_dir=tmp_path)
    expected = _problems(INVALID / case, None)
    assert _problems(INVALID / case, tmp_path) == expected
    assert _problems(INVALID / case, tmp_path) == expected


def test_a_cached_schema_check_builds_the_same_project(tmp_path: Path) -> None:
    for example in sorted((REPO / "examples").glob("*.yaml")):
        expected = load_manifest(example)
        assert load_manifest(example, cache_dir=tmp_path) == expected
        assert load_manifest(example, cache_dir=tmp_path) == expected
        assert any(tmp_path.rglob("*"))


_HEAD = '''"""Add a column.

revision = "in-a-docstring"
"""

from alembic import op

revision: str = "0003"
down_revision = (
    "0002"
)
'''


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({}, ("0001", None)),
        (
            {
                "v/0001_initial.py": 'revision = "0001"\ndown_revision = None\n'
                + "x = 1\n" * 50,
                "v/0002_x.py": 'revision: str = "0002"\ndown_revision = "0001"\n',
            },
            ("0003", "0002"),
        ),
        (  # multi-line and docstring look-alikes: read as the whole file reads
            {
                "v/0001_a.py": 'revision = "0001"\ndown_revision = None\n',
                "v/0002_b.py": 'revision = "0002"\ndown_revision = "0001"\n',
                "v/0003_c.py": _HEAD,
            },
            ("0004", "0003"),
        ),
        (  # a file that does not parse counts for its name only
            {
                "v/0001_a.py": 'revision = "0001"\ndown_revision = None\n',
                "v/0002.py": "(",
            },
            ("0003", "0001"),
        ),
    ],
)
def test_migration_head(files: dict[str, str], expected: tuple[str, Any]) -> None:
    assert next_migration_ids(files) == expected
