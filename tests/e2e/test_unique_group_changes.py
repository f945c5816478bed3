"""Regenerating with unique groups (issue 22): added over duplicates is refused with
the count, added over rows that fit is migrated, removed is safe. A required column
the database fills in (``default_sql``) is added to the table with its rows filled.

The change matrix's project and rows (``test_change_matrix``), one framework each on
SQLite and PostgreSQL (SQLite rebuilds the table in batch mode; PostgreSQL alters it).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from conftest import sqlalchemy_url
from test_change_matrix import BASE, Panel, _seed, changed, query

pytestmark = pytest.mark.e2e

GROUP = "    required: [title]\n  Comment:"


def _with_group(manifest: str, group: str) -> str:
    grouped = f"    required: [title]\n    unique: [{group}]\n  Comment:"
    return changed(manifest, (GROUP, grouped))


def _panel(tmp_path: Path, framework: str, url: str) -> Panel:
    made = Panel(tmp_path, framework, url)
    result = made.generate(BASE, "--quiet")
    assert result.returncode == 0, result.stderr
    made.migrate()
    _seed(url)
    return made


def _duplicate_title(url: str) -> bool:
    """Whether the database takes a second ticket with ticket 1's title and customer."""
    engine = sa.create_engine(sqlalchemy_url(url))
    try:
        with engine.begin() as db:
            db.execute(
                sa.text(
                    "INSERT INTO tickets (title, status, customer) SELECT title, "
                    "status, customer FROM tickets WHERE id = 1"
                )
            )
        return True
    except sa.exc.IntegrityError:
        return False
    finally:
        engine.dispose()


@pytest.mark.parametrize(
    ("framework", "database_url"),
    [
        pytest.param("fastapi", "sqlite", id="fastapi-sqlite"),
        pytest.param(
            "django", "postgres", id="django-postgres", marks=pytest.mark.postgres
        ),
    ],
    indirect=["database_url"],
)
def test_groups_added_over_duplicates_refused_over_rows_that_fit_made(
    tmp_path: Path, framework: str, database_url: str
) -> None:
    panel = _panel(tmp_path, framework, database_url)
    shared = query(
        panel.url,
        "SELECT COUNT(*) FROM (SELECT customer, priority FROM tickets WHERE customer "
        "IS NOT NULL AND priority IS NOT NULL GROUP BY customer, priority "
        "HAVING COUNT(*) > 1) AS shared",
    )[0][0]
    assert shared > 1
    panel.refused(
        _with_group(panel.manifest, "[customer, priority]"),
        f"tickets (customer, priority): {shared} groups are shared by several rows",
        "remove the group from resources.Ticket.unique",
    )

    out = panel.applied(_with_group(panel.manifest, "[title, customer]"))
    assert "[decided by data] make tickets (title, customer) unique" in out
    assert not _duplicate_title(panel.url)

    out = panel.applied(BASE)
    assert "[safe] drop the unique group tickets (title, customer)" in out
    assert _duplicate_title(panel.url)


@pytest.mark.parametrize(
    ("framework", "database_url"),
    [
        pytest.param("fastapi", "sqlite", id="fastapi-sqlite"),
        pytest.param(
            "django", "postgres", id="django-postgres", marks=pytest.mark.postgres
        ),
    ],
    indirect=["database_url"],
)
def test_a_column_the_database_fills_is_added_with_the_rows_filled(
    tmp_path: Path, framework: str, database_url: str
) -> None:
    panel = _panel(tmp_path, framework, database_url)
    filled = changed(
        panel.manifest,
        (
            "      notes: {type: string, format: text}\n",
            "      notes: {type: string, format: text}\n"
            "      opened_on: {type: string, format: date,"
            " default_sql: current_date}\n",
        ),
        ("required: [title]", "required: [title, opened_on]"),
    )
    out = panel.applied(filled)
    assert "[safe] add column tickets.opened_on, filled in with current_date" in out
    assert query(
        panel.url, "SELECT COUNT(*) FROM tickets WHERE opened_on IS NOT NULL"
    ) == [(len(query(panel.url, "SELECT id FROM tickets")),)]
