"""Every YAML example in specs/manifest.md loads: the documentation is right."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.manifest.load import parse_manifest

REPO = Path(__file__).resolve().parents[2]
SPEC = (REPO / "specs" / "manifest.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```yaml\n(.*?)```", SPEC, flags=re.S)
PROJECT = "project: {name: shop_admin}\n"
RESOURCES = "resources:\n  Author: {fields: {name: {type: string}}}\n"


def as_manifest(block: str) -> str:
    """Complete a documentation snippet into a whole manifest, by its indentation."""
    if block.startswith("project:"):
        return block if "\nresources:" in block else block + RESOURCES
    if block.startswith(("auth:", "docs:")):
        return PROJECT + block + RESOURCES
    if block.startswith("resources:"):
        return PROJECT + block
    if re.match(r"  [A-Z]", block):
        return PROJECT + RESOURCES + block
    if block.startswith("      "):  # fields
        return PROJECT + RESOURCES + "  Book:\n    fields:\n" + block
    book = "  Book:\n    fields:\n      available: {type: boolean}\n"
    book += "      genre: {type: string, enum: [fiction, science, history]}\n"
    return PROJECT + RESOURCES + book + block  # options of a resource


def test_the_spec_has_examples() -> None:
    assert len(BLOCKS) >= 8


@pytest.mark.parametrize("block", BLOCKS, ids=[b.split(":")[0].strip() for b in BLOCKS])
def test_every_documented_example_loads(block: str) -> None:
    parse_manifest(as_manifest(block), "doc.yaml")


def test_the_smallest_manifest_is_the_first_example() -> None:
    project = parse_manifest(BLOCKS[0], "doc.yaml")
    assert [r.name for r in project.resources] == ["Task"]
