"""A Django project made when its models lived in ``app/resources/``, regenerated now.

The models move to ``app/models.py`` (where Django looks) and each resource imports
its model from there. Nothing in the database depends on a model's module, so no
migration is written: ``makemigrations --check`` finds nothing missing, ``migrate
--check`` nothing pending, and the rows stay. The old files are those the previous
panelforge generated for ``examples/library.yaml`` (``made_before/``).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from conftest import REPO, run_panelforge
from test_regeneration_django import ROWS, django_checks, manage, query

pytestmark = pytest.mark.e2e

OLD = Path(__file__).parent / "made_before" / "django_models_in_resources"
FILES = {
    "app_models.py.txt": "app/models.py",
    "app_resources_author.py.txt": "app/resources/author.py",
    "app_resources_book.py.txt": "app/resources/book.py",
    "app_resources_member.py.txt": "app/resources/member.py",
}


def _made_with_models_in_resources(project: Path) -> None:
    """The project as the previous panelforge left it: files, merge bases, hashes."""
    state_file = project / ".panelforge" / "state.json"
    state = json.loads(state_file.read_text())
    for name, relative in FILES.items():
        text = (OLD / name).read_bytes()
        for root in (project, project / ".panelforge" / "base"):
            (root / relative).write_bytes(text)
        state["files"][relative]["sha256"] = hashlib.sha256(text).hexdigest()
    state_file.write_text(json.dumps(state, indent=2))


def test_models_move_to_app_models_with_the_rows_kept(tmp_path: Path) -> None:
    source = REPO / "examples" / "library.yaml"
    project = tmp_path / "library"
    made = run_panelforge(
        "generate", str(source), "-o", str(project), "--framework", "django", "-q"
    )
    assert made.returncode == 0, made.stderr
    _made_with_models_in_resources(project)
    assert (
        "class Book(models.Model):" in (project / "app/resources/book.py").read_text()
    )
    database_url = f"sqlite:///{tmp_path / 'app.db'}"
    manage(project, database_url, "migrate")
    manage(project, database_url, "shell", "-c", ROWS)
    before = query(project, database_url, "SELECT * FROM books ORDER BY id")

    # The manifest at another path: a run of another panelforge would not be a no-op.
    moved = shutil.copyfile(source, tmp_path / "library.yaml")
    again = run_panelforge(
        "generate", str(moved), "-o", str(project), "--framework", "django"
    )
    assert again.returncode == 0, again.stdout + again.stderr
    for relative in FILES.values():
        assert f"  updated   {relative}" in again.stdout, again.stdout
    models = (project / "app/models.py").read_text()
    assert "class Book(models.Model):" in models
    book = (project / "app/resources/book.py").read_text()
    assert "from app.models import Book\n" in book and "models.Model" not in book
    migrations = sorted(p.name for p in (project / "app/migrations").glob("0*.py"))
    assert migrations == ["0001_initial.py"]

    django_checks(project, database_url)
    manage(project, database_url, "migrate", "--check")
    assert query(project, database_url, "SELECT * FROM books ORDER BY id") == before
    assert len(before) == 2
    # And the result is what generating afresh gives.
    fresh = tmp_path / "fresh"
    made = run_panelforge(
        "generate", str(moved), "-o", str(fresh), "--framework", "django", "-q"
    )
    assert made.returncode == 0, made.stderr
    for relative in FILES.values():
        assert (project / relative).read_text() == (fresh / relative).read_text()
