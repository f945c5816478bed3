"""panelforge counts rows in the project's own database before writing a migration.

Without ``DATABASE_URL`` the app uses the SQLite file recorded at first generation
(``project.database``); a change its rows do not fit is refused there, with counts,
before any file is written. A database panelforge cannot reach is only a note: the
migration checks again when it runs.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_panelforge, tree_files

pytestmark = pytest.mark.e2e

MANIFEST = """\
project: {name: desk_admin}
resources:
  Ticket:
    fields:
      title: {type: string, maxLength: 40}
    required: [title]
"""
NARROWER = MANIFEST.replace("maxLength: 40", "maxLength: 10")


def _files(project: Path) -> dict[str, bytes]:
    """The project's files but SQLite's WAL index (a reader may touch it)."""
    return {
        p: data for p, data in tree_files(project).items() if not p.endswith("-shm")
    }


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return {**env, **extra}


def _generate(tmp_path: Path, text: str, **env: str) -> subprocess.CompletedProcess:
    source = tmp_path / "desk.yaml"
    source.write_text(text)
    return run_panelforge(
        "generate", str(source), "-o", str(tmp_path / "desk"), env=_env(**env)
    )


def test_the_default_database_is_counted_and_an_unreachable_one_is_a_note(
    tmp_path: Path,
) -> None:
    assert _generate(tmp_path, MANIFEST).returncode == 0
    project = tmp_path / "desk"
    migrated = subprocess.run(
        [sys.executable, "-m", "app", "migrate"],
        cwd=project,
        env=_env(PYTHONPATH=str(project), SECRET_KEY="x" * 48),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert migrated.returncode == 0, migrated.stderr
    database = project / "desk_admin.db"
    with sqlite3.connect(database) as db:
        db.executemany(
            "INSERT INTO tickets (title) VALUES (?)",
            [(f"A title longer than ten, number {i}",) for i in range(3)],
        )
    before = _files(project)

    refused = _generate(tmp_path, NARROWER, DATABASE_URL="")
    assert refused.returncode == 1
    assert f"on sqlite:///{database}, would damage data" in refused.stderr
    assert "tickets.title: 3 rows have more than 10 characters (keys 1, 2, 3)" in (
        refused.stderr
    )
    assert _files(project) == before

    unreachable = "postgresql://someone:secret@127.0.0.1:9/nowhere"
    noted = _generate(tmp_path, NARROWER, DATABASE_URL=unreachable)
    assert noted.returncode == 0, noted.stderr
    assert "[decided by data] narrow tickets.title to 10 characters" in noted.stdout
    assert "note: could not reach postgresql://someone:***@127.0.0.1:9/nowhere" in (
        noted.stdout
    )
    assert "secret" not in noted.stdout + noted.stderr


def test_a_number_becomes_a_decimal_only_when_every_row_fits(tmp_path: Path) -> None:
    with_price = MANIFEST.replace(
        "    required:", "      price: {type: number, nullable: true}\n    required:"
    )
    exact = with_price.replace(
        "{type: number,", "{type: number, format: decimal, precision: 6, scale: 2,"
    )
    assert _generate(tmp_path, with_price).returncode == 0
    project = tmp_path / "desk"
    env = _env(PYTHONPATH=str(project), SECRET_KEY="x" * 48)
    migrate = [sys.executable, "-m", "app", "migrate"]
    run = {"cwd": project, "env": env, "capture_output": True, "text": True}
    assert subprocess.run(migrate, timeout=120, **run).returncode == 0
    database = project / "desk_admin.db"
    with sqlite3.connect(database) as db:
        db.executemany(
            "INSERT INTO tickets (title, price) VALUES (?, ?)",
            [("fits", 12.5), ("too precise", 12.345), ("empty", None)],
        )

    refused = _generate(tmp_path, exact, DATABASE_URL="")
    assert refused.returncode == 1
    assert (
        "tickets.price: 1 row has a value that does not fit NUMERIC(6, 2), and would "
        "be rounded (keys 2)"
    ) in refused.stderr

    with sqlite3.connect(database) as db:
        db.execute("UPDATE tickets SET price = 12.34 WHERE id = 2")
    planned = _generate(tmp_path, exact, DATABASE_URL="")
    assert planned.returncode == 0, planned.stderr
    assert (
        "[decided by data] change tickets.price from number to decimal(6, 2)"
        in planned.stdout
    )
    migrated = subprocess.run(migrate, timeout=120, **run)
    assert migrated.returncode == 0, migrated.stderr
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT price FROM tickets ORDER BY id").fetchall()
    assert rows == [(12.5,), (12.34,), (None,)]
