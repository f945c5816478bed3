"""The project app's configuration."""

from __future__ import annotations

from django.apps import AppConfig


class ProjectAppConfig(AppConfig):
    """The resources' models (app/models.py) and their migrations."""

    name = "app"
    verbose_name = "Resources"
    default_auto_field = "django.db.models.BigAutoField"
