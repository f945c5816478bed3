"""The emitted tree of every example matches its checked-in copy, file by file.

Refresh after an intended change with:  pytest tests/test_golden.py --update-golden
"""

from __future__ import annotations

import difflib
import json
import shutil
import subprocess
import sys

import pytest
import yaml
from conftest import EXAMPLE_IDS, FRAMEWORKS, REPO, tree_files

GOLDEN = REPO / "tests" / "golden"
REFRESH = "pytest tests/test_golden.py --update-golden"


def _diff(name: str, expected: bytes, actual: bytes) -> str:
    lines = difflib.unified_diff(
        expected.decode().splitlines(),
        actual.decode().splitlines(),
        f"golden/{name}",
        f"generated/{name}",
        lineterm="",
    )
    return "\n".join(list(lines)[:60])


@pytest.mark.parametrize("framework", FRAMEWORKS)
@pytest.mark.parametrize("example", EXAMPLE_IDS)
def test_output_matches_golden(
    generated, request, example: str, framework: str
) -> None:
    actual = tree_files(generated(example, framework))
    golden_dir = GOLDEN / example / framework
    if request.config.getoption("--update-golden"):
        shutil.rmtree(golden_dir, ignore_errors=True)
        for name, data in actual.items():
            (golden_dir / name).parent.mkdir(parents=True, exist_ok=True)
            (golden_dir / name).write_bytes(data)
    expected = tree_files(golden_dir)
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    assert not missing, f"files not generated: {missing}\nrefresh with: {REFRESH}"
    assert not extra, f"files not in golden: {extra}\nrefresh with: {REFRESH}"
    for name in expected:
        if expected[name] != actual[name]:
            pytest.fail(
                f"{name} differs from golden:\n"
                f"{_diff(name, expected[name], actual[name])}"
                f"\nrefresh with: {REFRESH}"
            )


@pytest.mark.parametrize("framework", FRAMEWORKS)
@pytest.mark.parametrize("example", EXAMPLE_IDS)
def test_golden_tree_is_clean_code(example: str, framework: str) -> None:
    """Every emitted .py compiles and passes black --check and the project's ruff."""
    root = GOLDEN / example / framework
    for path in root.rglob("*.py"):
        compile(path.read_text(), str(path), "exec")
    black = subprocess.run(
        [sys.executable, "-m", "black", "--check", "--quiet", "."],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert black.returncode == 0, black.stderr
    ruff = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "."],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert ruff.returncode == 0, ruff.stdout + ruff.stderr


@pytest.mark.parametrize("example", EXAMPLE_IDS)
def test_golden_specs_are_valid_and_agree(example: str) -> None:
    from openapi_spec_validator import validate

    root = GOLDEN / example / "fastapi" / "resources"
    as_yaml = yaml.safe_load((root / "oag.yaml").read_text())
    as_json = json.loads((root / "oag.json").read_text())
    assert as_yaml == as_json
    validate(as_json)
