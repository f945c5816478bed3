"""The no-op early exit answers "up to date" only where a full run changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO, tree_files

from generator import commands
from generator.regen import state
from generator.regen.stamps import run_options, up_to_date
from generator.regen.state import as_recorded, read_state
from generator.run import Caches

TODO = REPO / "examples" / "todo.yaml"


@pytest.fixture
def caches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Caches:
    monkeypatch.setenv("PANELFORGE_CACHE_DIR", str(tmp_path / "cache"))
    return Caches.default()


@pytest.fixture
def project(tmp_path: Path, caches: Caches) -> Path:
    dest = tmp_path / "todo"
    commands.generate(TODO, dest)
    assert caches.runs is not None and any(caches.runs.iterdir()), "no stamp"
    return dest


def _options(dest: Path, framework: str | None = None) -> str:
    return run_options(TODO, dest, framework)


def _full_run_changes(dest: Path) -> dict[str, bytes]:
    """What a regeneration without the early exit (nor caches) would write."""
    update = commands.generate(TODO, dest, use_cache=False, dry_run=True)
    return update.writes()


def test_a_finished_run_is_recognised(project: Path, caches: Caches) -> None:
    update = up_to_date(TODO, project, _options(project), caches.runs)
    assert update is not None and update.changes == () and not update.reported
    assert update.project.name == read_state(project).project.name
    assert _full_run_changes(project) == {}


def test_the_early_exit_writes_nothing(project: Path) -> None:
    before = tree_files(project)
    update = commands.generate(TODO, project)
    assert update.changes == ()
    assert tree_files(project) == before


def test_no_stamp_without_caches_or_for_other_arguments(
    project: Path, caches: Caches
) -> None:
    assert up_to_date(TODO, project, _options(project), None) is None
    other = _options(project, "fastapi")
    assert up_to_date(TODO, project, other, caches.runs) is None


def test_another_panelforge_is_not_trusted(
    project: Path, caches: Caches, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(state, "source_fingerprint", lambda: "an edited checkout")
    assert up_to_date(TODO, project, _options(project), caches.runs) is None


def test_a_user_edit_that_a_full_run_keeps_is_still_up_to_date(project: Path) -> None:
    module = project / "app" / "resources" / "task.py"
    module.write_text(module.read_text() + "# mine\n")
    (project / "README.md").write_text("# My panel\n")
    assert as_recorded(project, read_state(project), TODO.read_bytes())
    assert _full_run_changes(project) == {}


def _conflict(dest: Path) -> None:
    module = dest / "app" / "resources" / "task.py"
    module.write_text("<<<<<<< yours\n" + module.read_text())


def _hook_deleted(dest: Path) -> None:
    (dest / "app" / "hooks" / "task.py").unlink()


def _mirror_deleted(dest: Path) -> None:
    (dest / ".panelforge" / "base" / "app" / "resources" / "task.py").unlink()


def _stray_internal_file(dest: Path) -> None:
    (dest / ".panelforge" / "notes.txt").write_text("mine")


def _copy_edited(dest: Path) -> None:
    copy = dest / ".panelforge" / "manifest.yaml"
    copy.write_bytes(copy.read_bytes() + b"\n# edited\n")


def _generated_file_deleted(dest: Path) -> None:
    (dest / "app" / "resources" / "task.py").unlink()


@pytest.mark.parametrize(
    "damage",
    [
        _conflict,
        _hook_deleted,
        _mirror_deleted,
        _stray_internal_file,
        _copy_edited,
        _generated_file_deleted,
    ],
)
def test_what_a_full_run_would_change_is_not_up_to_date(
    project: Path, caches: Caches, damage
) -> None:
    damage(project)
    assert not as_recorded(project, read_state(project), TODO.read_bytes())
    assert up_to_date(TODO, project, _options(project), caches.runs) is None
