"""Django model fields as Django developers declare them, brought to older projects.

A foreign key's ``related_name`` is the plural of the model holding it
(``author.books``), ``<plural>_as_<field>`` where a model has several keys to one
target or the plain name is a field of the target. A field that may be empty is
``null=True, blank=True`` (the panel's one empty value is NULL, strings included), so
``full_clean()`` and Django's forms accept what the panel accepts. A project generated
with ``related_name="+"`` and no ``blank`` gets both on regeneration, through
``AlterField`` operations that change no table (``sqlmigrate`` has no SQL), with its
rows kept.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from conftest import FRAMEWORKS, REPO, run_panelforge
from test_regeneration_django import ROWS, django_checks, manage, query

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif("django" not in FRAMEWORKS, reason="Django target is off"),
]

MANIFEST = """\
project: {name: shelf, title: Shelf, framework: django}
resources:
  Author:
    fields:
      name: {type: string}
      books: {type: integer, nullable: true}
    required: [name]
  Book:
    fields:
      title: {type: string}
      author: {type: integer, relation: Author}
      editor: {type: integer, relation: Author}
    required: [title]
  Note:
    fields:
      text: {type: string}
      book: {type: integer, relation: Book}
"""
READ_BACK = """
from app.models import Author, Book, Note
ann = Author.objects.create(name="Ann")
bob = Author.objects.create(name="Bob", books=7)
book = Book.objects.create(title="Dune", author=ann, editor=bob)
Book(title="Anonymous").full_clean()  # optional keys may stay empty
Author(name="Cy").full_clean()
Note.objects.create(text="first", book=book)
print(
    list(ann.books_as_author.values_list("title", flat=True)),
    list(bob.books_as_editor.values_list("title", flat=True)),
    list(ann.books_as_editor.all()),
    bob.books,
    list(book.notes.values_list("text", flat=True)),
    list(Author.objects.filter(books_as_editor__title="Dune").values_list("name")),
)
"""


def _generate(source: Path, dest: Path) -> str:
    result = run_panelforge(
        "generate", str(source), "-o", str(dest), "--framework", "django"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout + result.stderr


def test_reverse_accessors_are_readable_and_unique(tmp_path: Path) -> None:
    source = tmp_path / "shelf.yaml"
    source.write_text(MANIFEST)
    project = tmp_path / "shelf"
    _generate(source, project)
    models = (project / "app" / "models.py").read_text()
    for name in ("books_as_author", "books_as_editor", "notes"):
        assert f'related_name="{name}"' in models
    assert 'related_name="+"' not in models
    database_url = f"sqlite:///{tmp_path / 'app.db'}"
    django_checks(project, database_url)  # makemigrations --check: nothing missing
    manage(project, database_url, "migrate")
    printed = manage(project, database_url, "shell", "-v", "0", "-c", READ_BACK)
    assert printed.strip() == "['Dune'] ['Dune'] [] 7 ['first'] [('Bob',)]"


def _as_made_before(project: Path) -> None:
    """The project as a panelforge with ``related_name="+"`` left it."""
    state_file = project / ".panelforge" / "state.json"
    state = json.loads(state_file.read_text())
    for relative in ("app/models.py", "app/migrations/0001_initial.py"):
        roots = [project]
        if relative in state["files"]:
            roots.append(project / ".panelforge" / "base")
        for root in roots:
            path = root / relative
            text = path.read_text()
            assert 'related_name="books"' in text and "blank=True" in text
            text = text.replace('related_name="books"', 'related_name="+"')
            path.write_text(re.sub(r",\s*blank=True", "", text))
        if relative in state["files"]:
            digest = hashlib.sha256((project / relative).read_bytes()).hexdigest()
            state["files"][relative]["sha256"] = digest
    del state["project"]["django_model_style"]
    state_file.write_text(json.dumps(state, indent=2))


def test_a_project_made_before_gets_the_style_without_sql(
    tmp_path: Path,
) -> None:
    source = REPO / "examples" / "library.yaml"
    project = tmp_path / "library"
    _generate(source, project)
    _as_made_before(project)
    database_url = f"sqlite:///{tmp_path / 'app.db'}"
    django_checks(project, database_url)  # the old project is consistent
    manage(project, database_url, "migrate")
    manage(project, database_url, "shell", "-c", ROWS)
    before = query(project, database_url, "SELECT * FROM books ORDER BY id")

    told = _generate(source, project)
    assert "the Django models get readable related_name" in told, told
    (migration,) = (project / "app" / "migrations").glob("0002_*.py")
    body = migration.read_text()
    assert "migrations.AlterField(" in body and 'related_name="books"' in body
    assert "blank=True" in body
    sql = manage(project, database_url, "sqlmigrate", "app", migration.stem[:4])
    statements = [
        line
        for line in sql.splitlines()
        if line.strip()
        and not line.startswith("--")
        and line not in ("BEGIN;", "COMMIT;")
    ]
    assert statements == [], sql
    django_checks(project, database_url)
    manage(project, database_url, "migrate")
    assert query(project, database_url, "SELECT * FROM books ORDER BY id") == before
    code = (
        "from app.models import Author\n"
        "print([b.title for b in Author.objects.get(name='Ann Leckie').books.all()])"
    )
    printed = manage(project, database_url, "shell", "-v", "0", "-c", code)
    assert printed.strip() == "['Ancillary Justice']"
    state = json.loads((project / ".panelforge" / "state.json").read_text())
    assert state["project"]["django_model_style"] == 2
    again = run_panelforge(
        "generate", str(source), "-o", str(project), "--framework", "django"
    )
    assert again.returncode == 0, again.stderr
    assert len(list((project / "app" / "migrations").glob("0*.py"))) == 2
