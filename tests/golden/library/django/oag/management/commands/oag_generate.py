"""``python manage.py oag_generate``: write the OpenAPI spec from the resources."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from oag.spec import generate_files, project_dir
from panel_core.oag import DOCS_PATH
from panel_core.resource import DeclarationError


class Command(BaseCommand):
    help = (
        "Build the OpenAPI document from the resources as they are in the code "
        "(app.resources.RESOURCES) and write it as YAML to OAG_PATH "
        "(resources/oag.yaml unless configured otherwise) and as JSON beside it."
    )
    # Writing the spec needs no secret of the server.
    requires_system_checks: list[str] = []

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            written = generate_files()
        except (DeclarationError, OSError) as exc:
            raise CommandError(str(exc)) from None
        base = project_dir()
        for path in written:
            shown = path.relative_to(base) if path.is_relative_to(base) else path
            self.stdout.write(f"wrote {shown}")
        self.stdout.write(f"Documentation - {DOCS_PATH}")
