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
