"""Regenerating with ``soft_delete`` turned on, then off, on a database with rows.

On: the ``deleted_at`` column is added (safe) and the rows stay. Off: refused while
the trash holds records, which would come back to life, with their count; once the
trash is empty the column goes and the rows stay.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_panelforge

pytestmark = pytest.mark.e2e

MANIFEST = """\
project: {name: desk_admin}
resources:
  Ticket:
    fields:
      title: {type: string, maxLength: 40}
    required: [title]
"""
SOFT = MANIFEST.replace("    fields:", "    soft_delete: true\n    fields:")


def _generate(tmp_path: Path, text: str) -> subprocess.CompletedProcess:
    source = tmp_path / "desk.yaml"
    source.write_text(text)
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return run_panelforge(
        "generate", str(source), "-o", str(tmp_path / "desk"), env=env
    )


def _migrate(project: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(PYTHONPATH=str(project), SECRET_KEY="x" * 48)
    migrated = subprocess.run(
        [sys.executable, "-m", "app", "migrate"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert migrated.returncode == 0, migrated.stderr


def _rows(database: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(database) as db:
        return db.execute(sql).fetchall()


def test_soft_delete_on_keeps_the_rows_and_off_needs_an_empty_trash(
    tmp_path: Path,
) -> None:
    project, database = tmp_path / "desk", tmp_path / "desk" / "desk_admin.db"
    assert _generate(tmp_path, MANIFEST).returncode == 0
    _migrate(project)
    with sqlite3.connect(database) as db:
        db.executemany("INSERT INTO tickets (title) VALUES (?)", [("a",), ("b",)])

    on = _generate(tmp_path, SOFT)
    assert on.returncode == 0, on.stderr
    assert "[safe] add column tickets.deleted_at" in on.stdout
    _migrate(project)
    assert _rows(database, "SELECT id, deleted_at FROM tickets") == [
        (1, None),
        (2, None),
    ]

    _rows(database, "UPDATE tickets SET deleted_at = '2026-01-02 03:04:05'")
    refused = _generate(tmp_path, MANIFEST)
    assert refused.returncode == 1
    assert (
        "tickets.deleted_at: 2 rows have been deleted into the trash, and would "
        "come back (keys 1, 2)"
    ) in refused.stderr
    assert "hint: restore those records or delete them for good first" in (
        refused.stderr
    )
    assert "Traceback" not in refused.stderr

    _rows(database, "UPDATE tickets SET deleted_at = NULL")
    off = _generate(tmp_path, MANIFEST)
    assert off.returncode == 0, off.stderr
    assert (
        "[decided by data] drop column tickets.deleted_at (the trash must be empty)"
        in off.stdout
    )
    _migrate(project)
    assert _rows(database, "SELECT * FROM tickets") == [(1, "a"), (2, "b")]
