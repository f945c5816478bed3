"""DEST is never half-written: refused, failed and forced runs leave it as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO, run_panelforge, tree_files

from generator import commands, errors
from generator.render.format import Formatter

LIBRARY = REPO / "examples" / "library.yaml"


def _leftovers(parent: Path) -> list[str]:
    return sorted(
        p.name
        for p in parent.iterdir()
        if ".panelforge-" in p.name or ".old-" in p.name
    )


def test_non_empty_dest_is_refused_without_force(tmp_path) -> None:
    dest = tmp_path / "dest"
    dest.mkdir()
    (dest / "keep.txt").write_text("mine")
    result = run_panelforge("generate", str(LIBRARY), "-o", str(dest))
    assert result.returncode == 1
    assert result.stderr == (
        f"error: output directory '{dest}' is not empty (use --force to replace it)\n"
    )
    assert tree_files(dest) == {"keep.txt": b"mine"}


def test_failure_on_third_file_leaves_dest_untouched(tmp_path, monkeypatch) -> None:
    dest = tmp_path / "dest"
    dest.mkdir()
    (dest / "keep.txt").write_text("mine")
    calls = {"n": 0}
    real_format = Formatter.format

    def failing_format(self, path: str, source: str) -> str:
        calls["n"] += 1
        if calls["n"] == 3:
            raise errors.TemplateError(f"{path}: simulated failure")
        return real_format(self, path, source)

    monkeypatch.setattr(Formatter, "format", failing_format)
    with pytest.raises(errors.TemplateError, match="simulated failure"):
        commands.generate(LIBRARY, dest, force=True, use_cache=False)
    assert tree_files(dest) == {"keep.txt": b"mine"}
    assert _leftovers(tmp_path) == []


def test_failure_in_skeleton_leaves_no_staging_folder(tmp_path, monkeypatch) -> None:
    dest = tmp_path / "dest"

    def broken_skeleton(root: Path, _data: object) -> None:
        (root / "partial.txt").write_text("half")
        raise errors.TemplateError("simulated copier failure")

    monkeypatch.setattr("generator.render.skeleton.render_skeleton", broken_skeleton)
    # The skeleton is rendered without copier where it can be: make it need copier.
    monkeypatch.setattr("generator.render.skeleton.skeleton_files", lambda _data: None)
    with pytest.raises(errors.TemplateError):
        commands.generate(
            LIBRARY, dest, use_cache=False
        )  # a cached skeleton skips copier
    assert not dest.exists()
    assert _leftovers(tmp_path) == []


def test_force_replaces_dest_completely(tmp_path) -> None:
    dest = tmp_path / "dest"
    dest.mkdir()
    (dest / "stale.txt").write_text("old")
    result = run_panelforge(
        "generate", str(LIBRARY), "-o", str(dest), "--force", "--quiet"
    )
    assert result.returncode == 0, result.stderr
    assert not (dest / "stale.txt").exists()
    assert (dest / "app" / "main.py").is_file()
    assert _leftovers(tmp_path) == []


def test_framework_comes_from_the_manifest_or_the_option(tmp_path: Path) -> None:
    manifest = tmp_path / "library.yaml"
    text = LIBRARY.read_text(encoding="utf-8")
    manifest.write_text(text.replace("framework: fastapi", "framework: django"))
    from_manifest = run_panelforge("generate", str(manifest), "-o", str(tmp_path / "m"))
    from_option = run_panelforge(
        "generate", str(LIBRARY), "-o", str(tmp_path / "o"), "--framework", "django"
    )
    for result, dest in ((from_manifest, "m"), (from_option, "o")):
        assert result.returncode == 0, result.stderr
        assert "django project 'library_admin'" in result.stdout
        assert (tmp_path / dest / "manage.py").is_file()
        assert not (tmp_path / dest / "app" / "main.py").exists()


def test_usage_error_exits_2() -> None:
    result = run_panelforge("generate", str(LIBRARY))
    assert result.returncode == 2
    assert "-o/--output" in result.stderr
