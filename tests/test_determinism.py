"""Same manifest, same bytes: whatever the hash seed, folder, time zone or cache."""

from __future__ import annotations

import pytest
from conftest import REPO, run_panelforge, tree_files


@pytest.mark.parametrize("example", ["library"])
def test_identical_across_hash_seeds_cwd_and_tz(tmp_path, example: str) -> None:
    manifest = REPO / "examples" / f"{example}.yaml"
    trees = []
    for n, (seed, tz) in enumerate([("1", "UTC"), ("2", "Asia/Tokyo")]):
        cwd = tmp_path / f"cwd{n}"
        cwd.mkdir()
        dest = tmp_path / f"out{n}"
        result = run_panelforge(
            "generate",
            str(manifest),
            "-o",
            str(dest),
            "--quiet",
            "--no-cache",
            cwd=cwd,
            env={"PYTHONHASHSEED": seed, "TZ": tz},
        )
        assert result.returncode == 0, result.stderr
        trees.append(tree_files(dest))
    assert trees[0] == trees[1]


def test_cache_changes_speed_not_bytes(tmp_path) -> None:
    manifest = REPO / "examples" / "library.yaml"
    cache = {"PANELFORGE_CACHE_DIR": str(tmp_path / "cache")}
    outputs = []
    for n, extra in enumerate(([], [], ["--no-cache"])):  # cold cache, warm cache, none
        dest = tmp_path / f"out{n}"
        result = run_panelforge(
            "generate", str(manifest), "-o", str(dest), "--quiet", *extra, env=cache
        )
        assert result.returncode == 0, result.stderr
        outputs.append(tree_files(dest))
    assert outputs[0] == outputs[1] == outputs[2]
    assert any((tmp_path / "cache").rglob("*")), "the cache was never written"
    assert any((tmp_path / "cache" / "kernel").rglob("*")), "no kernel bytecode kept"
    assert not list((REPO / "templates").rglob("__pycache__"))


def test_every_path_of_a_regeneration_gives_the_same_bytes(tmp_path) -> None:
    """Warm caches, the no-op early exit, or none of them: the same project."""
    manifest = tmp_path / "library.yaml"
    original = (REPO / "examples" / "library.yaml").read_text()
    changed = original.replace("maxLength: 120", "maxLength: 150", 1)
    assert changed != original
    cache = {"PANELFORGE_CACHE_DIR": str(tmp_path / "cache")}
    trees = []
    for n, extra in enumerate(([], ["--no-cache"])):
        dest = tmp_path / f"out{n}"
        manifest.write_text(original)
        for _ in range(2):  # the second run is a no-op
            result = run_panelforge(
                "generate", str(manifest), "-o", str(dest), *extra, env=cache
            )
            assert result.returncode == 0, result.stderr
        assert result.stdout.endswith("is up to date\n")
        manifest.write_text(changed)
        for _ in range(2):
            result = run_panelforge(
                "generate", str(manifest), "-o", str(dest), *extra, env=cache
            )
            assert result.returncode == 0, result.stderr
        assert result.stdout.endswith("is up to date\n")
        trees.append(tree_files(dest))
    assert trees[0] == trees[1]
    assert any(p.startswith("migrations/versions/0002_") for p in trees[0])
