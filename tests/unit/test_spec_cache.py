"""Piecewise spec validation: same verdict as the whole document, pieces remembered."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import openapi_projects as projects
import pytest
from test_validate import broken

from generator.errors import SpecError
from generator.spec import cache as spec_cache
from generator.spec.cache import cached_spec_problems, split_spec
from generator.spec.openapi import build_spec
from generator.spec.validate import spec_problems, validate_spec


class Counting:
    """``spec_problems`` that counts the documents it is given."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, doc: Mapping[str, Any]) -> list[str]:
        self.calls += 1
        return spec_problems(doc)


def test_pieces_cover_the_document_and_each_validates() -> None:
    doc = build_spec(projects.library(jwt=True))
    pieces = split_spec(doc)
    assert pieces is not None
    # Authentication, Dashboard, three resources, unreferenced rest
    assert len(pieces) == 6
    paths = {p: i for piece in pieces for p, i in piece["paths"].items()}
    assert paths == doc["paths"]
    for kind, group in doc["components"].items():
        for name in group:
            assert any(name in piece["components"].get(kind, {}) for piece in pieces)
    for piece in pieces:
        assert spec_problems(piece) == []
        assert piece["components"]["securitySchemes"] == {
            "bearerAuth": doc["components"]["securitySchemes"]["bearerAuth"]
        }


def test_cached_check_finds_what_the_whole_check_finds(tmp_path: Path) -> None:
    doc = broken("3.1.0")
    doc["paths"]["/admin/resource/task-resource/crud/{resourceItem}"]["get"][
        "responses"
    ]["200"] = {
        "description": "ok"
    }  # no dangling $ref: the document can be cut
    whole = spec_problems(doc)
    assert len(whole) == 4
    assert sorted(cached_spec_problems(doc, tmp_path, spec_problems)) == sorted(whole)
    again = Counting()  # the failing piece is checked again, the passing one is not
    assert sorted(cached_spec_problems(doc, tmp_path, again)) == sorted(whole)
    assert again.calls == 1


def test_valid_pieces_are_not_checked_again(tmp_path: Path) -> None:
    doc = build_spec(projects.library())
    first, second = Counting(), Counting()
    assert cached_spec_problems(doc, tmp_path, first) == []
    assert cached_spec_problems(doc, tmp_path, second) == []
    # Authentication, Dashboard, three resources, the rest
    assert (first.calls, second.calls) == (6, 0)
    changed = build_spec(projects.library(version="3.0.3"))
    third = Counting()
    assert cached_spec_problems(changed, tmp_path, third) == []
    assert third.calls == 6


def test_operation_ids_shared_across_tags_are_reported(tmp_path: Path) -> None:
    doc = build_spec(projects.library())
    doc["paths"]["/admin/resource/book-resource/crud"]["get"][
        "operationId"
    ] = "authorResourceCrudIndex"
    problems = cached_spec_problems(doc, tmp_path, spec_problems)
    assert problems == [
        "Operation ID 'authorResourceCrudIndex' is used in more than one tag"
    ]


def test_documents_that_cannot_be_cut_are_checked_whole(tmp_path: Path) -> None:
    doc = broken("3.0.3")  # has a dangling $ref
    assert split_spec(doc) is None
    counting = Counting()
    assert cached_spec_problems(doc, tmp_path, counting) == spec_problems(doc)
    assert counting.calls == 1


def test_validate_spec_with_a_cache(tmp_path: Path) -> None:
    validate_spec(build_spec(projects.todo()), source="todo", cache_dir=tmp_path)
    with pytest.raises(SpecError, match="points nowhere"):
        validate_spec(broken("3.1.0"), source="todo", cache_dir=tmp_path)


def test_pieces_that_passed_last_run_skip_their_shape(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = build_spec(projects.library())
    assert cached_spec_problems(doc, tmp_path, spec_problems) == []
    real_key = spec_cache._key
    shaped: list[Any] = []

    def counting_key(piece: Any) -> str:
        shaped.append(piece)
        return real_key(piece)

    monkeypatch.setattr(spec_cache, "_key", counting_key)
    assert cached_spec_problems(doc, tmp_path, Counting()) == []
    assert shaped == []  # every piece known by its data
    spoiled = build_spec(projects.library())
    schemas = spoiled["components"]["schemas"]
    schemas["Book"]["properties"]["title"]["type"] = "integr"
    counting = Counting()
    problems = cached_spec_problems(spoiled, tmp_path, counting)
    assert len(shaped) == 1 and counting.calls == 1  # the changed piece only
    assert any("integr" in p for p in problems)
    # A piece that failed is not remembered as passed: it fails again.
    assert cached_spec_problems(spoiled, tmp_path, spec_problems) == problems
    (tmp_path / "pieces").write_bytes(b"\x00damaged")
    assert cached_spec_problems(doc, tmp_path, spec_problems) == []
