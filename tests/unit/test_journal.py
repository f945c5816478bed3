"""The in-place writer's journal: staged, switched, finished after a kill, refused when
it cannot be trusted."""

from __future__ import annotations

import itertools
import json
import os
import stat
from pathlib import Path

import pytest

from generator import errors
from generator.render import journal, writer
from generator.render.journal import apply_changes, finish, leftovers, sweep

WORK = ".panelforge"


class Killed(BaseException):
    """A simulated kill: nothing cleans up after it."""


def _project(root: Path) -> Path:
    (root / WORK).mkdir(parents=True)
    (root / "a.py").write_text("old a")
    (root / "b.py").write_text("old b")
    (root / "gone").mkdir()
    (root / "gone" / "x.py").write_text("x")
    return root


def _files(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): p.read_text()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


CHANGES = {"a.py": b"new a", "new/deep/c.py": b"c", "b.py": b"new b"}


def test_every_kill_during_the_switch_is_finished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    done = _project(tmp_path / "done")
    apply_changes(done, CHANGES, ["gone/x.py"], work=WORK)
    expected = _files(done)
    assert expected == {"a.py": "new a", "b.py": "new b", "new/deep/c.py": "c"}
    for n in range(1, 5):  # three renames and a removal
        root = _project(tmp_path / str(n))
        count = itertools.count(1)

        def crash(n: int = n, count: itertools.count[int] = count) -> None:
            if next(count) == n:
                raise Killed

        monkeypatch.setattr(writer, "RENAME_HOOKS", [crash])
        with pytest.raises(Killed):
            apply_changes(root, CHANGES, ["gone/x.py"], work=WORK)
        monkeypatch.setattr(writer, "RENAME_HOOKS", [])
        assert journal.unfinished(root, WORK)
        assert finish(root, WORK)
        assert not finish(root, WORK)  # nothing left to finish
        assert _files(root) == expected
        assert sorted(p.name for p in (root / WORK).iterdir()) == []


def test_a_file_edited_since_is_not_removed(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / WORK / "pending").mkdir()
    gone = {"gone/x.py": "0" * 64}  # the hash of another content
    data = {"format": 1, "writes": [], "removals": gone}
    (root / WORK / "journal.json").write_text(json.dumps(data))
    assert finish(root, WORK)
    assert (root / "gone" / "x.py").read_text() == "x"
    assert not journal.unfinished(root, WORK)


@pytest.mark.parametrize(
    "data",
    [
        b"{not json",
        b'{"format": 2, "writes": [], "removals": {}}',
        b'{"format": 1, "writes": ["../outside.py"], "removals": {}}',
        b'{"format": 1, "writes": [], "removals": {"/etc/passwd": "0"}}',
    ],
)
def test_a_journal_that_cannot_be_trusted_is_refused(
    tmp_path: Path, data: bytes
) -> None:
    root = _project(tmp_path)
    (root / WORK / "journal.json").write_bytes(data)
    with pytest.raises(errors.OutputError, match="is damaged"):
        finish(root, WORK)
    assert _files(root)["a.py"] == "old a"


def test_a_folder_in_the_way_is_refused_before_anything_moves(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "a.py").unlink()
    (root / "a.py").mkdir()
    with pytest.raises(errors.OutputError, match="'a.py' in .*: it is a folder"):
        apply_changes(root, CHANGES, ["gone/x.py"], work=WORK)
    assert _files(root) == {"b.py": "old b", "gone/x.py": "x"}
    assert leftovers(root, WORK) == []


def test_modes_are_kept_and_new_files_follow_the_umask(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "a.py").chmod(0o750)
    previous = os.umask(0o027)
    try:
        apply_changes(root, CHANGES, work=WORK)
    finally:
        os.umask(previous)
    mode = lambda p: stat.S_IMODE((root / p).stat().st_mode)  # noqa: E731
    assert (mode("a.py"), mode("new"), mode("new/deep/c.py")) == (0o750, 0o750, 0o640)


def test_leftovers_are_found_and_swept(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / WORK / "pending" / "app").mkdir(parents=True)
    (root / WORK / ".journal.json.panelforge-0a1b2c3d").write_text("{")
    (root / "app").mkdir()
    (root / "app" / ".main.py.panelforge-abcd1234").write_text("x")
    (root / "app" / ".main.py.panelforge-notmine").write_text("x")
    (root / "app" / "x.panelforge-abcd1234").write_text("x")
    found = [
        ".panelforge/.journal.json.panelforge-0a1b2c3d",
        ".panelforge/pending/",
        "app/.main.py.panelforge-abcd1234",
    ]
    assert leftovers(root, WORK, ["app"]) == found
    assert sweep(root, WORK, ["app"]) == found
    assert leftovers(root, WORK, ["app"]) == []
    assert sorted(p.name for p in (root / "app").iterdir()) == [
        ".main.py.panelforge-notmine",
        "x.panelforge-abcd1234",
    ]


def test_a_backup_left_without_dest_becomes_dest_again(tmp_path: Path) -> None:
    dest = tmp_path / "proj"
    backup = tmp_path / ".proj.old-1a2b3c4d"
    backup.mkdir()
    (backup / "keep.txt").write_text("old")
    stage = tmp_path / ".proj.panelforge-5e6f7a8b"
    stage.mkdir()
    other = tmp_path / ".proj2.panelforge-5e6f7a8b"  # another DEST's
    other.mkdir()
    removed, restored = writer.sweep_beside(dest)
    assert (removed, restored) == ([stage], backup)
    assert (dest / "keep.txt").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == [other.name, "proj"]
