"""Each broken manifest in tests/manifests/invalid/: exit 1, exact message, no trace.

A case is ``<case>.yaml`` plus ``<case>.stderr``, the exact stderr of
``panelforge validate <case>.yaml`` run inside that folder. A few cases are written at
test time instead of committed (see ``GENERATED``): a file over 1 MiB, bytes that are
not UTF-8, a NUL byte, a missing file, a FIFO.

To refresh every ``.stderr`` after an intended change of wording, run

    PANELFORGE_UPDATE_GOLDEN=1 python -m pytest tests/test_manifest_errors.py

and review the diff like code (an environment variable, because a pytest option would
have to live in the shared conftest.py).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from generator.errors import ManifestError
from generator.manifest.load import MAX_BYTES, load_manifest

REPO = Path(__file__).resolve().parent.parent
CASES_DIR = REPO / "tests" / "manifests" / "invalid"
UPDATE = os.environ.get("PANELFORGE_UPDATE_GOLDEN") == "1"
_VALID_START = b"project:\n  name: library_admin\nresources:\n  Book:\n    fields:\n"

# A named pipe without a writer, made at test time: reading it would block for ever.
FIFO = "fifo"
# Cases written into a temporary folder at test time; None: the file must not exist.
GENERATED: dict[str, Callable[[], bytes] | str | None] = {
    "too_large": lambda: _VALID_START + b"      # " + b"x" * MAX_BYTES + b"\n",
    "not_utf8": lambda: _VALID_START
    + b"      title: {type: string, label: T\xe9l\xe9}\n",
    "nul_byte": lambda: _VALID_START + b"      title: {type: string}\x00\n",
    "missing_file": None,
    "not_a_file": FIFO,
}
CASES = sorted(path.stem for path in CASES_DIR.glob("*.stderr"))


def _prepare(case: str, tmp_path: Path) -> Path:
    """The folder to run the case in; generated cases are written there first."""
    if case not in GENERATED:
        return CASES_DIR
    make = GENERATED[case]
    if make == FIFO:
        os.mkfifo(tmp_path / f"{case}.yaml")
    elif callable(make):
        (tmp_path / f"{case}.yaml").write_bytes(make())
    return tmp_path


def _panelforge(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _expected(case: str) -> str:
    return (CASES_DIR / f"{case}.stderr").read_text(encoding="utf-8")


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def test_every_case_has_its_expected_stderr() -> None:
    committed = {path.stem for path in CASES_DIR.glob("*.yaml")}
    assert committed | set(GENERATED) == set(CASES)
    assert len(CASES) >= 20


def test_every_issue_code_has_a_case() -> None:
    documented = set(re.findall(r"^\| (M\d{3}) \|", _spec_text(), flags=re.M))
    covered = set()
    for case in CASES:
        covered |= set(re.findall(r"\((M\d{3})\)$", _expected(case), flags=re.M))
    assert documented, "specs/manifest.md lists no codes"
    assert covered == documented


def _spec_text() -> str:
    return (REPO / "specs" / "manifest.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("parser", ["libyaml", "python"])
@pytest.mark.parametrize("case", CASES)
def test_load_manifest_gives_the_expected_message(
    case: str, parser: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if parser == "python":  # PyYAML installed without libyaml words errors the same
        monkeypatch.delattr(yaml, "CSafeLoader", raising=False)
    folder = _prepare(case, tmp_path)
    with pytest.raises(ManifestError) as caught:
        load_manifest(folder / f"{case}.yaml", display_name=f"{case}.yaml")
    assert f"error: {caught.value.message}\n" == _expected(case)


@pytest.mark.parametrize("case", CASES)
def test_validate_prints_the_expected_stderr(case: str, tmp_path: Path) -> None:
    result = _panelforge("validate", f"{case}.yaml", cwd=_prepare(case, tmp_path))
    if UPDATE:
        (CASES_DIR / f"{case}.stderr").write_text(result.stderr, encoding="utf-8")
    assert "Traceback" not in result.stderr
    assert result.returncode == 1, result.stderr
    assert result.stdout == ""
    assert result.stderr == _expected(case)


@pytest.mark.parametrize("case", CASES)
def test_generate_fails_and_leaves_dest_untouched(case: str, tmp_path: Path) -> None:
    (tmp_path / "case").mkdir()
    folder = _prepare(case, tmp_path / "case")
    dest = tmp_path / "dest"
    dest.mkdir()
    (dest / "marker.txt").write_text("kept as it was\n", encoding="utf-8")
    before = _snapshot(dest)
    args = ("generate", f"{case}.yaml", "-o", str(dest), "--force")
    result = _panelforge(*args, cwd=folder)
    assert "Traceback" not in result.stderr
    assert result.returncode == 1, result.stderr
    assert _expected(case) in result.stderr
    assert _snapshot(dest) == before
    # Nothing staged beside DEST is left behind either.
    assert sorted(path.name for path in tmp_path.iterdir()) == ["case", "dest"]
