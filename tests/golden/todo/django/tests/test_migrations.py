"""The emitted migrations create the schema of the models, and nothing is missing."""

from __future__ import annotations

from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


@pytest.mark.django_db
def test_migrate_created_every_table() -> None:
    tables = set(connection.introspection.table_names())
    for model in apps.get_app_config("app").get_models():
        assert model._meta.db_table in tables
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    assert executor.migration_plan(leaves) == []


@pytest.mark.django_db
def test_the_models_need_no_new_migration() -> None:
    output = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=output)
    assert "No changes detected" in output.getvalue()
