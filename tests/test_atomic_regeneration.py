"""A killed run never leaves a broken project, nor temporary files after the next run.

Regenerating in place stages the new files in ``.panelforge/pending/``, writes
``.panelforge/journal.json``, then switches with renames; the next run finishes a
switch a kill interrupted. Here: a crash after every rename in turn (in process, through
the writer's rename hook), a random ``kill -9`` loop through the real command line,
what interrupted runs leave and how it is reported and removed, the lock that keeps two
runs apart, and the folders' modes.
"""

from __future__ import annotations

import functools
import itertools
import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import REPO, run_panelforge, tree_files

from generator import commands, errors
from generator.render import journal, writer

LIBRARY = REPO / "examples" / "library.yaml"
DROP = ("Member",)
UNFINISHED = "is half-way through an update that was interrupted"


class Killed(BaseException):
    """A simulated ``kill -9``: nothing catches it, the run stops where it is."""


def _changed_library() -> str:
    """The library with many files to change: a resource added, one retitled, one
    dropped (files added, updated and removed)."""
    text = LIBRARY.read_text(encoding="utf-8")
    text = text.replace(
        "      author: {type: integer, relation: Author}\n",
        "      author: {type: integer, relation: Author}\n"
        "      publisher: {type: integer, relation: Publisher, nullable: true}\n",
    )
    text = text.replace("    title: Authors\n", "    title: Writers\n")
    text = text[: text.index("  Member:")]
    return text + (
        "  Publisher:\n"
        "    title: Publishers\n"
        "    fields:\n"
        "      name: {type: string, maxLength: 80}\n"
        "      city: {type: string, nullable: true}\n"
        "    required: [name]\n"
    )


@dataclass(frozen=True)
class Scenario:
    base: Path  # the library as generated
    changed: Path  # the manifest the regeneration is killed on
    reference: dict[str, bytes]  # the regeneration, not interrupted
    renames: int  # how many renames (and removals) its switch makes


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> Scenario:
    root = tmp_path_factory.mktemp("atomic")
    base = root / "base" / "library"
    commands.generate(LIBRARY, base)
    changed = root / "library.yaml"
    changed.write_text(_changed_library(), encoding="utf-8")
    done = root / "done" / "library"
    shutil.copytree(base, done)
    count = itertools.count()
    writer.RENAME_HOOKS.append(lambda: next(count))
    try:
        update = commands.generate(changed, done, allow_drop=DROP)
    finally:
        writer.RENAME_HOOKS.clear()
    assert update.removals() and len(update.writes()) > 20
    return Scenario(base, changed, tree_files(done), next(count))


def leftovers(dest: Path) -> list[str]:
    """Every temporary file or folder of panelforge in and beside ``dest``."""
    inside = [
        p.relative_to(dest).as_posix()
        for p in dest.rglob("*")
        if ".panelforge-" in p.name
        or p.relative_to(dest).as_posix()
        in (".panelforge/pending", ".panelforge/journal.json")
    ]
    beside = [p.name for p in dest.parent.iterdir() if p.name.startswith(".")]
    return sorted(inside + beside)


def _crash_after(n: int) -> Callable[[], None]:
    count = itertools.count(1)

    def hook() -> None:
        if next(count) == n:
            raise Killed(f"after rename {n}")

    return hook


def _copy(base: Path, dest: Path) -> Path:
    shutil.copytree(base, dest)
    return dest


def test_a_kill_after_any_rename_is_finished_by_the_next_run(
    scenario: Scenario, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert scenario.renames > 30
    for n in range(1, scenario.renames + 1):
        dest = _copy(scenario.base, tmp_path / str(n) / "library")
        monkeypatch.setattr(writer, "RENAME_HOOKS", [_crash_after(n)])
        with pytest.raises(Killed):
            commands.generate(scenario.changed, dest, allow_drop=DROP)
        monkeypatch.setattr(writer, "RENAME_HOOKS", [])
        assert journal.unfinished(dest, ".panelforge"), n
        # check (and a dry run) tell the unfinished run, not a conflict
        for manifest in (scenario.changed, LIBRARY):
            with pytest.raises(errors.OutputError, match=UNFINISHED):
                commands.check(manifest, dest)
        with pytest.raises(errors.OutputError, match=UNFINISHED):
            commands.generate(scenario.changed, dest, dry_run=True)
        update = commands.generate(scenario.changed, dest, allow_drop=DROP)
        assert not update.conflicts, (n, update.conflicts)
        assert any("finished the update" in w for w in update.warnings), n
        assert leftovers(dest) == [], n
        assert commands.check(scenario.changed, dest).ok, n
        assert tree_files(dest) == scenario.reference, n
        shutil.rmtree(dest.parent)


def test_check_on_the_command_line_names_the_unfinished_run(
    scenario: Scenario, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dest = _copy(scenario.base, tmp_path / "library")
    monkeypatch.setattr(writer, "RENAME_HOOKS", [_crash_after(10)])
    with pytest.raises(Killed):
        commands.generate(scenario.changed, dest, allow_drop=DROP)
    result = run_panelforge("check", str(scenario.changed), "-o", str(dest))
    assert result.returncode == 1
    assert result.stderr == (
        f"error: '{dest}' {UNFINISHED} (.panelforge/journal.json is left); run "
        f"'panelforge generate MANIFEST -o {dest}' to finish it first\n"
    )
    result = run_panelforge(
        "generate", str(scenario.changed), "-o", str(dest), "--allow-drop", "Member"
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == (
        f"warning: finished the update of '{dest}' that an interrupted run left\n"
    )
    assert leftovers(dest) == []
    assert tree_files(dest) == scenario.reference


def test_an_interruption_before_the_switch_changes_nothing(
    scenario: Scenario, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dest = _copy(scenario.base, tmp_path / "library")
    before = tree_files(dest)

    def interrupted(*_args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(journal, "_write_journal", interrupted)
    with pytest.raises(KeyboardInterrupt):
        commands.generate(scenario.changed, dest, allow_drop=DROP)
    assert tree_files(dest) == before
    assert leftovers(dest) == []


def test_leftovers_are_reported_by_check_and_removed_by_the_next_run(
    scenario: Scenario, tmp_path: Path
) -> None:
    dest = _copy(scenario.base, tmp_path / "library")
    left = {
        ".panelforge/pending/app/main.py": b"half",  # killed while staging
        "app/.main.py.panelforge-1a2b3c4d": b"x",  # earlier versions' temporary files
        ".panelforge/base/app/.main.py.panelforge-0badf00d": b"x",
    }
    for path, data in left.items():
        (dest / path).parent.mkdir(parents=True, exist_ok=True)
        (dest / path).write_bytes(data)
    stage = tmp_path / ".library.panelforge-abcd1234"  # a killed new generation
    stage.mkdir()
    (stage / "README.md").write_text("half")
    result = run_panelforge("check", str(LIBRARY), "-o", str(dest), "-q")
    assert result.returncode == 1
    note = "(left by an interrupted run: the next 'panelforge generate' removes it)"
    assert result.stderr == (
        f"error: '{dest}' has drifted from library.yaml (4 files):\n"
        f"  leftover  ../.library.panelforge-abcd1234/ {note}\n"
        f"  leftover  .panelforge/base/app/.main.py.panelforge-0badf00d {note}\n"
        f"  leftover  .panelforge/pending/ {note}\n"
        f"  leftover  app/.main.py.panelforge-1a2b3c4d {note}\n"
        f"hint: 'panelforge generate MANIFEST -o {dest}' removes what an "
        "interrupted run left\n"
    )
    update = commands.generate(LIBRARY, dest)
    assert update.reported == []
    (warning,) = update.warnings
    assert warning.startswith(f"removed what an interrupted run left in '{dest}': ")
    assert leftovers(dest) == []
    assert tree_files(dest) == tree_files(scenario.base)
    assert commands.check(LIBRARY, dest).ok


def test_what_a_live_run_writes_is_not_a_leftover(
    scenario: Scenario, tmp_path: Path
) -> None:
    dest = _copy(scenario.base, tmp_path / "library")
    with writer.locked(dest):  # another run is updating it
        for run in (
            lambda: commands.generate(LIBRARY, dest),
            lambda: commands.generate(scenario.changed, dest, allow_drop=DROP),
        ):
            with pytest.raises(errors.OutputError, match="another panelforge run"):
                run()
        with pytest.raises(errors.OutputError, match="is writing .* right now"):
            commands.check(LIBRARY, dest)
    stage = writer.new_folder(tmp_path, ".library.panelforge-")
    with writer.locked(stage):  # another run is generating a new project there
        assert commands.check(LIBRARY, dest).ok
        commands.generate(scenario.changed, dest, allow_drop=DROP)
        assert stage.is_dir()
    assert tree_files(dest) == scenario.reference


def test_a_forced_run_killed_between_its_renames_keeps_one_whole_project(
    scenario: Scenario, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in (1, 2):  # DEST moved aside; the new project moved in
        dest = _copy(scenario.base, tmp_path / str(n) / "library")
        monkeypatch.setattr(writer, "RENAME_HOOKS", [_crash_after(n)])
        with pytest.raises(Killed):
            commands.generate(scenario.changed, dest, force=True)
        monkeypatch.setattr(writer, "RENAME_HOOKS", [])
        if n == 1:
            assert not dest.exists()
            with pytest.raises(errors.OutputError, match="is missing: an interrupted"):
                commands.check(LIBRARY, dest)
        else:
            report = commands.check(scenario.changed, dest)
            assert {d.kind for d in report.problems} == {"leftover"}
        update = commands.generate(scenario.changed, dest, allow_drop=DROP)
        assert leftovers(dest) == [], n
        assert commands.check(scenario.changed, dest).ok, n
        if n == 1:  # the old project came back, then was regenerated in place
            assert any("was restored from" in w for w in update.warnings)
            assert tree_files(dest) == scenario.reference


@contextmanager
def _umask(mask: int) -> Iterator[None]:
    previous = os.umask(mask)
    try:
        yield
    finally:
        os.umask(previous)


def _modes(root: Path) -> set[tuple[str, int]]:
    paths = [root, *root.rglob("*")]
    return {("d" if p.is_dir() else "f", stat.S_IMODE(p.stat().st_mode)) for p in paths}


@pytest.mark.parametrize("mask", [0o022, 0o027])
def test_folders_and_files_have_the_umasks_mode(
    scenario: Scenario, tmp_path: Path, mask: int
) -> None:
    folder, file = 0o777 & ~mask, 0o666 & ~mask
    with _umask(mask):
        fresh = tmp_path / "fresh"
        commands.generate(LIBRARY, fresh)
        commands.generate(scenario.changed, fresh, allow_drop=DROP)
    assert _modes(fresh) == {("d", folder), ("f", file)}
    mine = tmp_path / "mine"
    mine.mkdir(0o711)
    mine.chmod(0o711)
    with _umask(mask):
        commands.generate(LIBRARY, mine)  # an empty DEST keeps its mode
    assert stat.S_IMODE(mine.stat().st_mode) == 0o711
    assert _modes(mine / "app") == {("d", folder), ("f", file)}


# --- kill -9 through the command line ----------------------------------------------

ITERATIONS = int(os.environ.get("PANELFORGE_KILL_ITERATIONS", "10"))


def _start(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "generator", *args],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _kill_when(
    process: subprocess.Popen[bytes], ready: Callable[[], bool], delay: float
) -> None:
    """``kill -9`` ``process`` ``delay`` seconds after ``ready()`` (or its end)."""
    while process.poll() is None and not ready():
        time.sleep(0.0002)
    time.sleep(delay)
    if process.poll() is None:
        os.kill(process.pid, signal.SIGKILL)
    process.wait()


def test_random_kill_9_loop(scenario: Scenario, tmp_path: Path) -> None:
    rng = random.Random(int(os.environ.get("PANELFORGE_KILL_SEED", "18")))
    started = time.monotonic()
    generate = ("generate", str(scenario.changed), "--allow-drop", "Member", "-q")
    outcomes = []
    for i in range(ITERATIONS):
        dest = _copy(scenario.base, tmp_path / str(i) / "library")
        work = dest / ".panelforge"
        process = _start(*generate, "-o", str(dest))
        if i % 3 == 0:  # while it switches
            _kill_when(process, (work / "journal.json").exists, rng.uniform(0, 0.002))
        elif i % 3 == 1:  # while it writes
            _kill_when(process, (work / "pending").exists, rng.uniform(0.0, 0.04))
        else:  # anywhere in the run
            _kill_when(process, lambda: True, rng.uniform(0.0, 1.2))
        if journal.unfinished(dest, ".panelforge"):
            outcomes.append("switching")
            with pytest.raises(errors.OutputError, match=UNFINISHED):
                commands.check(scenario.changed, dest)
        else:
            old, new = (commands.check(m, dest) for m in (LIBRARY, scenario.changed))
            whole = [{d.kind for d in r.problems} <= {"leftover"} for r in (old, new)]
            assert any(whole), (i, old.problems, new.problems)
            left = any(d.kind == "leftover" for d in old.drift + new.drift)
            outcomes.append(("new" if whole[1] else "old") + ("+left" * left))
        result = run_panelforge(*generate, "-o", str(dest))
        assert result.returncode == 0, (i, result.stderr)
        assert leftovers(dest) == [], i
        result = run_panelforge("check", str(scenario.changed), "-o", str(dest))
        assert result.returncode == 0, (i, result.stderr)
        assert tree_files(dest) == scenario.reference, i
        shutil.rmtree(dest.parent)
    print(f"kill -9 outcomes: {outcomes} in {time.monotonic() - started:.1f} s")


def _not_empty(folder: Path) -> bool:
    return any(folder.iterdir())


def test_a_killed_new_generation_is_swept_by_the_next_one(tmp_path: Path) -> None:
    rng = random.Random(18)
    for i in range(3):
        dest = tmp_path / str(i) / "library"
        dest.parent.mkdir()
        process = _start("generate", str(LIBRARY), "-o", str(dest), "-q")
        staged = functools.partial(_not_empty, dest.parent)
        _kill_when(process, staged, rng.uniform(0.0, 0.05))
        assert not dest.exists() or commands.check(LIBRARY, dest).ok
        result = run_panelforge("generate", str(LIBRARY), "-o", str(dest), "-q")
        assert result.returncode == 0, result.stderr
        assert sorted(p.name for p in dest.parent.iterdir()) == ["library"]
        assert commands.check(LIBRARY, dest).ok
