"""Regenerating with a changed delete rule, on a database with rows.

A project generated with ``on_delete: set_null`` gets rows; the manifest then says
``restrict`` (FastAPI) or ``cascade`` (Django). The change plan calls it a safe change
of the foreign key, the migration keeps every row, and the served app follows the new
rule: 409 naming the referring records, or the referring records deleted too.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from conformance.support import PASSWORD, Api, Deployment, crud
from conftest import SERVERS, run_panelforge

from generator.manifest.load import load_manifest

pytestmark = pytest.mark.e2e

MANIFEST = """\
project: {name: shelf_admin}
resources:
  Author:
    fields:
      name: {type: string, maxLength: 40}
    required: [name]
  Book:
    fields:
      title: {type: string, maxLength: 40}
      author: {type: integer, relation: Author, on_delete: set_null}
    required: [title]
"""
ADMIN = "admin@example.com"


def _generate(tmp_path: Path, text: str, framework: str) -> str:
    source = tmp_path / "shelf.yaml"
    source.write_text(text)
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    result = run_panelforge(
        "generate", str(source), "-o", str(tmp_path / "shelf"),
        "--framework", framework, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return str(result.stdout)


def _rows(database: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(database) as db:
        return db.execute(sql).fetchall()


@pytest.mark.parametrize(
    ("framework", "rule"), [("fastapi", "restrict"), ("django", "cascade")]
)
def test_a_changed_rule_keeps_the_rows_and_is_followed(
    tmp_path: Path, framework: str, rule: str
) -> None:
    project, database = tmp_path / "shelf", tmp_path / "shelf.db"
    _generate(tmp_path, MANIFEST, framework)
    server = SERVERS[framework](project, f"sqlite:///{database}")
    server.migrate()
    with sqlite3.connect(database) as db:
        db.executemany("INSERT INTO authors (name) VALUES (?)", [("Le Guin",)])
        db.executemany(
            "INSERT INTO books (title, author) VALUES (?, ?)",
            [("Earthsea", 1), ("Lathe", 1), ("Alone", None)],
        )
    before = _rows(database, "SELECT * FROM books ORDER BY id")

    changed = MANIFEST.replace("on_delete: set_null", f"on_delete: {rule}")
    printed = _generate(tmp_path, changed, framework)
    assert (
        f"[safe] change the delete rule of books.author from set_null to {rule}"
        in printed
    )
    server.migrate()
    assert _rows(database, "SELECT * FROM books ORDER BY id") == before
    if framework == "fastapi":  # the foreign key itself says the rule
        (key,) = _rows(database, "PRAGMA foreign_key_list(books)")
        assert key[6] == rule.upper()

    server.create_user(ADMIN, PASSWORD)
    server.start()
    try:
        manifest = load_manifest(tmp_path / "shelf.yaml")
        author, book = manifest.resource("Author"), manifest.resource("Book")
        api = Api(Deployment(framework, "shelf", "sqlite", manifest, server))
        api.log_in(ADMIN, PASSWORD)
        answer = api.request("DELETE", crud(author, 1))
        books = [api.get(crud(book, key)).status_code for key in (1, 2, 3)]
        api.client.close()
    finally:
        server.stop()
    if rule == "restrict":
        assert answer.status_code == 409, answer.text
        assert answer.json()["references"] == [
            {"resource": book.uri, "label": "Books", "count": 2}
        ]
        assert books == [200, 200, 200]
    else:
        assert answer.status_code == 200, answer.text
        assert books == [404, 404, 200]
        assert _rows(database, "SELECT title FROM books") == [("Alone",)]
