"""Putting a panel on an existing database (issue 22): ``inspect`` writes ``adopted:``
for each table, and the generated project takes the tables as they are.

On the shop of ``adoption_schema.py`` (PostgreSQL and SQLite, rows in every table):
inspect → validate → generate → migrate succeeds and leaves the existing tables
byte-identical (their schema dump before and after), the migration tool's own drift
check finds nothing (Alembic's ``compare_metadata`` on the live database; Django's
``makemigrations --check``), and regenerating the unchanged manifest adds no
migration. Served, every table's rows are all there (the API's total equals the
row count), a new record continues the sequence, show / PUT unchanged / delete work,
and the numeric(10, 2) total is served exactly while a third decimal is refused
with 422. A regeneration that adds and drops a column of an adopted table with rows
(PostgreSQL) drops its index by the database's own name, and drift stays clean.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa
import yaml
from adoption_schema import LARGEST_KEY, POSTGRES, SQLITE, TABLES
from conformance.support import PASSWORD, Api, Deployment, crud
from conftest import postgres_database, run_panelforge
from test_change_matrix import Panel, changed, query

from generator.manifest.load import load_manifest

pytestmark = pytest.mark.e2e

# compare_metadata on the project's own models and the live database, run in the
# project (its ``app`` package); prints each difference, exits 1 when there is one.
DRIFT = """\
import sys
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
import app.core.auth_state, app.core.history  # noqa: F401
import app.core.users, app.resources  # noqa: F401
from app.core.config import get_settings
from app.core.models import Base
url = get_settings().database_url
engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
with engine.connect() as connection:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    found = compare_metadata(context, Base.metadata)
for difference in found:
    print(difference)
sys.exit(1 if found else 0)
"""


@contextmanager
def shop(database: str, tmp_path: Path) -> Iterator[str]:
    """The existing database, with its rows: its URL."""
    if database == "sqlite":
        path = tmp_path / "shop.db"
        with sqlite3.connect(path) as db:
            for statement in SQLITE:
                db.execute(statement)
        yield f"sqlite:///{path}"
        return
    with postgres_database() as url:
        engine = sa.create_engine(url)
        with engine.begin() as db:
            for statement in POSTGRES:
                db.execute(sa.text(statement))
        engine.dispose()
        yield url


def schema_dump(url: str) -> str:
    """The existing tables' schema as the database describes it."""
    if url.startswith("sqlite"):
        rows = query(
            url,
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE tbl_name IN "
            f"{TABLES!r} ORDER BY type, name",
        )
        return "\n".join(repr(row) for row in rows)
    listed = f"IN {TABLES!r}"
    parts = [
        query(
            url,
            "SELECT table_name, column_name, ordinal_position, data_type, "
            "character_maximum_length, numeric_precision, numeric_scale, "
            "datetime_precision, is_nullable, column_default FROM "
            f"information_schema.columns WHERE table_name {listed} "
            "ORDER BY table_name, ordinal_position",
        ),
        query(
            url,
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename "
            f"{listed} ORDER BY indexname",
        ),
        query(
            url,
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) "
            f"FROM pg_constraint WHERE conrelid::regclass::text {listed} "
            "ORDER BY 1, 2",
        ),
    ]
    text = "\n".join(repr(row) for part in parts for row in part)
    if shutil.which("pg_dump"):
        tables = [f"--table={t}" for t in TABLES]
        dump = subprocess.run(
            ["pg_dump", "--schema-only", *tables, url.replace("+psycopg", "")],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        # pg_dump 17.6+ writes a random \restrict key: not the schema
        text += "".join(
            line for line in dump.splitlines(True) if "restrict " not in line
        )
    return text


def drift(panel: Panel) -> subprocess.CompletedProcess:
    """The migration tool's own check that the models match (exit 0: they do)."""
    if panel.framework == "django":
        return panel.manage("makemigrations", "--check", "--dry-run")
    server = panel.server()
    return subprocess.run(
        [sys.executable, "-c", DRIFT],
        cwd=panel.dest,
        env=server.env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def adopt(tmp_path: Path, framework: str, url: str) -> Panel:
    """inspect → validate → generate → migrate, the schema unchanged by migrate."""
    manifest = tmp_path / "shop.yaml"
    result = run_panelforge("inspect", url, "-o", str(manifest))
    assert result.returncode == 0, result.stderr
    resources = yaml.safe_load(manifest.read_text())["resources"]
    assert sorted(resources) == ["Customer", "Employee", "Invoice", "InvoiceReview"]
    review = resources["InvoiceReview"]
    assert review["key"] == ["invoice_id", "employee_id"]
    assert review["fields"]["invoice_id"]["relation"] == "Invoice"
    assert review["fields"]["employee_id"]["relation"] == "Employee"
    assert all(spec["adopted"] for spec in resources.values())
    adopted = resources["Customer"]["adopted"]
    assert adopted["indexes"] == {"customer_city_idx": ["city"]}
    assert adopted["unique"] == {"customer_email_key": ["email"]}
    assert adopted["int32"] == ["id"]
    result = run_panelforge("validate", str(manifest))
    assert result.returncode == 0, result.stdout + result.stderr

    panel = Panel(tmp_path, framework, url, manifest=manifest.read_text())
    result = panel.generate(panel.manifest, "--quiet")
    assert result.returncode == 0, result.stdout + result.stderr
    before = schema_dump(url)
    panel.migrate()
    assert schema_dump(url) == before
    return panel


@pytest.mark.parametrize(
    ("framework", "database", "served"),
    [
        ("fastapi", "postgres", True),
        ("django", "sqlite", True),
        ("django", "postgres", False),
        ("fastapi", "sqlite", False),
    ],
)
def test_an_existing_database_is_adopted_as_it_is(
    tmp_path: Path, framework: str, database: str, served: bool
) -> None:
    with shop(database, tmp_path) as url:
        panel = adopt(tmp_path, framework, url)
        found = drift(panel)
        assert found.returncode == 0, found.stdout + found.stderr

        files = panel.files()
        result = panel.generate(panel.manifest, "--quiet")
        assert result.returncode == 0, result.stdout + result.stderr
        assert panel.files() == files  # no migration added, nothing changed
        if served:
            _check_served(panel, tmp_path, url)
            found = drift(panel)
            assert found.returncode == 0, found.stdout + found.stderr


def _check_served(panel: Panel, tmp_path: Path, url: str) -> None:
    project = load_manifest(tmp_path / "manifest.yaml")
    server = panel.server()
    server.create_user("admin@example.com", PASSWORD)
    server.start()
    try:
        database = "sqlite" if url.startswith("sqlite") else "postgres"
        deployment = Deployment(panel.framework, "shop", database, project, server)
        with Api(deployment) as api:
            api.log_in("admin@example.com", PASSWORD)
            for table in TABLES:
                resource = next(r for r in project.resources if r.table == table)
                listed = api.get(crud(resource))
                assert listed.status_code == 200, listed.text
                (rows,) = query(url, f"SELECT count(*) FROM {table}")[0]
                assert listed.json()["total"] == rows
            _check_records(api, project)
    finally:
        server.stop()


def _check_records(api: Api, project) -> None:  # noqa: ANN001
    customer, invoice = project.resource("Customer"), project.resource("Invoice")
    shown = api.get(crud(invoice, 2))
    assert shown.status_code == 200, shown.text
    record = shown.json()
    assert record["total"] == "99999999.99"
    assert record["customer_id"] == 1

    body = {k: v for k, v in record.items() if k != "id"}
    put = api.request("PUT", crud(invoice, 2), json=body)
    assert put.status_code == 200, put.text
    assert put.json()["data"] == record

    made = api.post(
        crud(customer), json={"email": "dee@example.com", "name": "Dee", "city": None}
    )
    assert made.status_code == 201, made.text
    assert made.json()["data"]["id"] == LARGEST_KEY["customer"] + 1
    made = api.post(
        crud(invoice), json={"customer_id": 6, "total": "12.34", "note": "new"}
    )
    assert made.status_code == 201, made.text
    assert made.json()["data"]["id"] == LARGEST_KEY["invoice"] + 1
    assert made.json()["data"]["total"] == "12.34"

    refused = api.post(
        crud(invoice), json={"customer_id": 6, "total": "12.345", "note": "no"}
    )
    assert refused.status_code == 422, refused.text
    assert api.get(crud(invoice)).json()["total"] == 5

    gone = api.request("DELETE", crud(invoice, LARGEST_KEY["invoice"] + 1))
    assert gone.status_code == 200, gone.text
    assert api.get(crud(invoice, LARGEST_KEY["invoice"] + 1)).status_code == 404
    _check_link_rows(api, project.resource("InvoiceReview"))


def _check_link_rows(api: Api, review) -> None:  # noqa: ANN001
    """The link table's records by their encoded composite key."""
    shown = api.get(crud(review, "2,1"))
    assert shown.status_code == 200, shown.text
    assert shown.json() == {
        "invoice_id": 2,
        "employee_id": 1,
        "verdict": "check the total",
    }
    put = api.request("PATCH", crud(review, "2,1"), json={"verdict": "fine now"})
    assert put.status_code == 200, put.text
    made = api.post(crud(review), json={"invoice_id": 3, "employee_id": 2})
    assert made.status_code == 201, made.text
    again = api.post(crud(review), json={"invoice_id": 3, "employee_id": 2})
    assert again.status_code in (409, 422), again.text
    gone = api.request("DELETE", crud(review, "3,2"))
    assert gone.status_code == 200, gone.text
    assert api.get(crud(review)).json()["total"] == 3


@pytest.mark.parametrize("framework", ["fastapi", "django"])
def test_a_column_added_to_and_dropped_from_an_adopted_table(
    tmp_path: Path, framework: str
) -> None:
    with shop("postgres", tmp_path) as url:
        panel = adopt(tmp_path, framework, url)
        # city has the database's own index, customer_city_idx: it goes with it
        dropped = changed(
            panel.manifest,
            ("      city: {type: string, maxLength: 60, nullable: true}\n", ""),
            ("      indexes: {customer_city_idx: [city]}\n", ""),
        )
        out = panel.applied(dropped, "--allow-drop", "Customer.city")
        assert "drop column customer.city" in out, out
        names = query(url, "SELECT indexname FROM pg_indexes WHERE tablename = "
                      "'customer' ORDER BY 1")  # fmt: skip
        assert names == [("customer_email_key",), ("customer_pkey",)]
        added = changed(
            panel.manifest,
            ("      name: {type: string, maxLength: 80}\n      created_at",
             "      name: {type: string, maxLength: 80}\n"
             "      phone: {type: string, maxLength: 30, nullable: true,"
             " unique: true}\n"
             "      created_at"),
        )  # fmt: skip
        out = panel.applied(added)
        assert "add column customer.phone" in out, out
        rows = query(url, "SELECT id, email, phone FROM customer ORDER BY id")
        assert rows == [
            (1, "ada@example.com", None),
            (2, "bob@example.com", None),
            (5, "cy@example.com", None),
        ]
        found = drift(panel)
        assert found.returncode == 0, found.stdout + found.stderr
        result = panel.generate(panel.manifest, "--quiet")
        files = panel.files()
        assert result.returncode == 0 and panel.generate(panel.manifest).returncode == 0
        assert panel.files() == files


@pytest.mark.parametrize("framework", ["fastapi", "django"])
def test_migrating_onto_existing_tables_without_adopting_them_says_what_to_do(
    tmp_path: Path, framework: str
) -> None:
    with shop("sqlite", tmp_path) as url:
        manifest = tmp_path / "shop.yaml"
        assert run_panelforge("inspect", url, "-o", str(manifest)).returncode == 0
        data = yaml.safe_load(manifest.read_text())
        for resource in data["resources"].values():
            del resource["adopted"]
        panel = Panel(tmp_path, framework, url, manifest=yaml.safe_dump(data))
        result = panel.generate(panel.manifest, "--quiet")
        assert result.returncode == 0, result.stdout + result.stderr
        before = schema_dump(url)
        failed = panel.manage("migrate")
        assert failed.returncode == 1, failed.stdout + failed.stderr
        assert "Traceback" not in failed.stderr
        assert "already exists" in failed.stderr
        assert "hint: the table customer exists already" in failed.stderr
        assert "'adopted:'" in failed.stderr
        assert schema_dump(url) == before
