"""The panel app's configuration."""

from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db.backends.signals import connection_created

from panel_core.search import FOLD_FUNCTION, fold


def add_fold(sender: Any, connection: Any, **kwargs: Any) -> None:
    """Give each SQLite connection the search's case folding (``panel_core.search``)."""
    del sender, kwargs
    if connection.vendor == "sqlite":
        connection.connection.create_function(
            FOLD_FUNCTION, 1, fold, deterministic=True
        )


class PanelConfig(AppConfig):
    """The admin panel: routes where config/urls.py mounts them, logins, throttle."""

    name = "panel"
    verbose_name = "Admin panel"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Register the system checks that keep a misconfigured panel from starting,
        and the search's case folding on SQLite connections; mount the panel."""
        from .checks import register
        from .mount import mount_from_urls

        register()
        connection_created.connect(add_fold)
        # Where config/urls.py mounts the panel, read when the first URL is built;
        # the registry is built by a check (panel.checks), once every app is ready.
        mount_from_urls()
