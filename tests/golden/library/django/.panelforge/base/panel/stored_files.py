"""The model field of file and image fields: JSON text read as a ``StoredFile``.

The column is a TextField (its migrations say so: the field deconstructs as one, so
``makemigrations`` sees no change); values come back as
``panel_core.files.StoredFile``, in query sets and in the prepared queries alike
(Django's converters), and a ``StoredFile`` given to a write is stored as its text.
"""

from __future__ import annotations

from typing import Any

from django.db import models

from panel_core.files import from_column, to_column


class StoredFileField(models.TextField):  # type: ignore[type-arg]
    """A TextField holding a stored file's key and metadata."""

    def deconstruct(self) -> Any:
        """As a plain TextField: the column is one."""
        name, _path, args, kwargs = super().deconstruct()
        return name, "django.db.models.TextField", args, kwargs

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        """The column's text as a stored file."""
        return from_column(value)

    def get_prep_value(self, value: Any) -> Any:
        """A stored file as its text."""
        return super().get_prep_value(to_column(value))
