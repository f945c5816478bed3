"""The docs app's configuration."""

from __future__ import annotations

from django.apps import AppConfig


class OagConfig(AppConfig):
    """OpenAPI spec generation and the /docs page (MoonShine's OAG add-on)."""

    name = "oag"
    verbose_name = "OpenAPI docs"
