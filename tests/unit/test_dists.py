"""Installed distributions read off their ``.dist-info`` folders agree with
``importlib.metadata``."""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

import pytest

from generator.regen import dists


@pytest.mark.parametrize("name", ["panelforge", "black", "copier", "Jinja2", "PyYAML"])
def test_versions_are_importlib_metadatas(name: str) -> None:
    found = dists.distribution(name)
    assert found is not None
    assert found.version == metadata.version(name)
    assert found.read_text("METADATA") is not None
    assert f"\nVersion: {found.version}\n" in found.read_text("METADATA")


def test_a_missing_distribution_is_none() -> None:
    assert dists.distribution("no-such-distribution-installed") is None


def test_the_first_folder_on_sys_path_wins(tmp_path: Path, monkeypatch) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    for folder, version in ((first, "2.0"), (second, "1.0")):
        info = folder / f"demo_dist-{version}.dist-info"
        info.mkdir(parents=True)
        (info / "direct_url.json").write_text(f'{{"v": "{version}"}}')
    monkeypatch.setattr(sys, "path", [str(first), str(second)])
    dists._folders.cache_clear()
    try:
        found = dists.distribution("Demo.Dist")
        assert found is not None and found.version == "2.0"
        assert found.read_text("direct_url.json") == '{"v": "2.0"}'
        assert found.read_text("RECORD") is None
    finally:
        dists._folders.cache_clear()


def test_without_a_folder_importlib_metadata_answers(monkeypatch) -> None:
    monkeypatch.setattr(dists, "_folders", dict)  # no .dist-info folder found
    found = dists.distribution("black")
    assert found is not None and found.folder is None
    assert found.version == metadata.version("black")
    assert found.read_text("METADATA") == metadata.distribution("black").read_text(
        "METADATA"
    )
