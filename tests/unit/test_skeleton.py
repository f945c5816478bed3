"""The skeleton rendered without copier is copier's, byte for byte."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generator.paths import is_template_noise
from generator.render import skeleton
from generator.render.output import read_tree
from generator.render.skeleton import copy_shared, render_skeleton, skeleton_files

ANSWERS: list[dict[str, Any]] = [
    {
        "project_name": "shop_admin",
        "project_title": "Shop admin",
        "framework": framework,
        "jwt": jwt,
        "token_ttl": 3600,
        "database_file": "shop_admin.db",
        "jwt_issuer": "shop_admin",
    }
    for framework in ("fastapi", "django")
    for jwt in (False, True)
] + [
    {
        "project_name": "odd_one",
        "project_title": 'Ünïcode "quoted" <admin> & it\'s {{ not }} a template',
        "framework": framework,
        "jwt": jwt,
        "token_ttl": 90,
        "database_file": "data/other name.sqlite3",
        "jwt_issuer": 'https://issuer.example/"x"',
    }
    for framework in ("fastapi", "django")
    for jwt in (False, True)
]


@pytest.mark.parametrize(
    "answers", ANSWERS, ids=lambda a: f"{a['project_name']}-{a['framework']}-{a['jwt']}"
)
def test_skeleton_without_copier_is_copiers(tmp_path: Path, answers: dict) -> None:
    render_skeleton(tmp_path / "copier", answers)
    expected = read_tree(tmp_path / "copier")
    found = skeleton_files(answers)
    assert found is not None
    assert sorted(found) == sorted(expected)
    for path, data in expected.items():
        assert found[path] == data, path
    assert list(found) == list(expected)  # and in the same order


def test_a_template_name_that_is_not_known_falls_back_to_copier() -> None:
    answers = dict(ANSWERS[0])
    del answers["jwt_issuer"]
    assert skeleton_files(answers) is None  # StrictUndefined, as copier would fail


def test_tool_caches_in_the_shared_tree_are_no_part_of_a_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = tmp_path / "shared"
    (shared / "panel_core" / ".ruff_cache" / "0.1").mkdir(parents=True)
    (shared / "panel_core" / ".ruff_cache" / "0.1" / "123").write_bytes(b"cache")
    (shared / "panel_core" / "__pycache__").mkdir()
    (shared / "panel_core" / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"x")
    (shared / "panel_core" / "kernel.py").write_text("KERNEL = 1\n")
    monkeypatch.setattr(skeleton, "shared_template", lambda: shared)
    copy_shared(tmp_path / "project")
    assert sorted(read_tree(tmp_path / "project")) == ["panel_core/kernel.py"]
    found = skeleton_files(ANSWERS[0])
    assert found is not None
    assert [path for path in found if path.startswith("panel_core/")] == [
        "panel_core/kernel.py"
    ]
    assert is_template_noise(Path("panel_core/.ruff_cache/0.1/123"))
    assert not is_template_noise(Path("panel_core/kernel.py"))
